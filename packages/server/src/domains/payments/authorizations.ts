/**
 * Authorized payments: capture (take the held money, all or part) and void (release it). Each call
 * checks every payment first, so a bad one changes nothing; the state change is guarded on the
 * payment still being AUTHORIZED, so a repeated or concurrent capture or void has one effect.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound } from '../../http/errors.js';
import { providerCall } from './call.js';
import { syncOrder, withOrderPayments, type OrderPayments } from './ledger.js';
import type { Payment } from './model.js';
import { toAmount, toMinor } from './money.js';
import { providerFor } from './providers/index.js';
import { updatePaymentGuarded } from './store.js';

function paymentOf(op: OrderPayments, paymentId: string): Payment {
  const p = op.payments.find((x) => x.id === paymentId);
  if (!p) throw notFound('PAYMENT_NOT_FOUND', 'The order has no payment with this id', { paymentId });
  return p;
}

/** Why an authorization cannot be captured or voided now, as the contract's error; undefined when it can. */
function authorizationProblem(p: Payment): ApplicationError | undefined {
  const data = { paymentId: p.id };
  if (p.kind !== 'REGULAR' || p.offline) return new ApplicationError(400, 'NOT_REGULAR_ONLINE_PAYMENT', 'Only online card payments hold authorizations', data);
  if (p.status === 'VOIDED') return new ApplicationError(409, 'PAYMENT_ALREADY_VOIDED', 'The payment was voided', data);
  if (p.status === 'APPROVED' || p.status === 'PARTIALLY_REFUNDED' || p.status === 'REFUNDED') {
    return new ApplicationError(409, 'PAYMENT_ALREADY_CAPTURED', 'The payment was captured', data);
  }
  if (p.capture?.status === 'PENDING') return new ApplicationError(409, 'PAYMENT_HAS_PENDING_CAPTURE', 'A capture of this payment is in progress', data);
  if (p.void?.status === 'PENDING') return new ApplicationError(409, 'PAYMENT_ALREADY_VOIDED', 'A void of this payment is in progress', data);
  if (p.status !== 'AUTHORIZED') return new ApplicationError(409, 'PAYMENT_NOT_AUTHORIZED', 'The payment is not an authorization', { ...data, status: p.status });
  if (!providerFor(p.provider)) return notFound('PAYMENT_GATEWAY_ID_NOT_FOUND', 'The payment\'s provider is not available', data);
  return undefined;
}

export interface CaptureRequest { paymentId: string; amount?: string }

export async function captureAuthorizedPayments(ctx: RequestContext, orderId: string, requests: readonly CaptureRequest[]): Promise<void> {
  await withOrderPayments(ctx, orderId, async (op) => {
    const plan = requests.map((r, index) => {
      const p = paymentOf(op, r.paymentId);
      const problem = authorizationProblem(p);
      if (problem) throw problem;
      const amount = r.amount === undefined ? p.amount : toMinor(r.amount, p.currency, `payments[${index}].amount`);
      if (amount > p.amount) throw new ApplicationError(400, 'INVALID_AMOUNT', 'A capture cannot exceed the authorized amount', { paymentId: p.id, authorized: toAmount(p.amount, p.currency) });
      return { p, amount };
    });
    if (new Set(plan.map((x) => x.p.id)).size !== plan.length) throw new ApplicationError(400, 'INVALID_AMOUNT', 'A payment is listed twice');
    for (const { p, amount } of plan) await capturePayment(op, p, amount);
    await syncOrder(op, { activity: { type: 'AUTHORIZED_PAYMENT_CAPTURED' } });
  });
}

/** Captures one authorization (also the scheduled CAPTURE action); the order is synced by the caller. */
export async function capturePayment(op: OrderPayments, p: Payment, amount: bigint): Promise<void> {
  const provider = providerFor(p.provider)!;
  const captureId = randomUUID();
  const outcome = await provider.capture(providerCall(op.ctx), {
    reference: captureId, paymentId: p.id, captureId, providerTransactionId: p.providerTransactionId, amount, currency: p.currency,
  });
  // A refused capture changes nothing: the authorization stays as it was, and the caller hears why.
  if (outcome.status === 'FAILED') throw new ApplicationError(409, 'CAPTURE_FAILED', outcome.description, { paymentId: p.id, failureCode: outcome.failureCode });
  const capture = { id: captureId, amount, date: op.now, status: outcome.status, failureCode: null };
  const changed = await updatePaymentGuarded(op.ctx.db, op.ctx.site.id, p.id, { fromStatuses: ['AUTHORIZED'], captureNotPending: true },
    outcome.status === 'SUCCEEDED' ? { status: 'APPROVED', captured: amount, capture } : { capture }, op.now);
  if (!changed) throw conflict('PAYMENT_ALREADY_CAPTURED', 'The payment changed meanwhile', { paymentId: p.id });
}

export async function voidAuthorizedPayments(ctx: RequestContext, orderId: string, paymentIds: readonly string[]): Promise<void> {
  await withOrderPayments(ctx, orderId, async (op) => {
    const payments = paymentIds.map((id) => {
      const p = paymentOf(op, id);
      const problem = authorizationProblem(p);
      if (problem) throw problem;
      return p;
    });
    for (const p of new Set(payments)) await voidPayment(op, p, 'MANUAL');
    await syncOrder(op, { activity: { type: 'AUTHORIZED_PAYMENT_VOIDED' } });
  });
}

/** Voids one authorization (also the scheduled VOID action); the order is synced by the caller. */
export async function voidPayment(op: OrderPayments, p: Payment, reason: 'MANUAL' | 'SCHEDULED'): Promise<void> {
  const provider = providerFor(p.provider)!;
  const outcome = await provider.void(providerCall(op.ctx), { reference: p.id, paymentId: p.id, providerTransactionId: p.providerTransactionId, amount: p.amount, currency: p.currency });
  if (outcome.status === 'FAILED') throw new ApplicationError(409, 'VOID_FAILED', outcome.description, { paymentId: p.id, failureCode: outcome.failureCode });
  const changed = await updatePaymentGuarded(op.ctx.db, op.ctx.site.id, p.id, { fromStatuses: ['AUTHORIZED'], captureNotPending: true }, {
    ...(outcome.status === 'SUCCEEDED' ? { status: 'VOIDED' as const } : {}),
    void: { status: outcome.status, date: op.now, reason, failureCode: null },
  }, op.now);
  if (!changed) throw conflict('PAYMENT_ALREADY_VOIDED', 'The payment changed meanwhile', { paymentId: p.id });
}

/** The delayed-capture settings' scheduled action, run by a job when its time comes; a settled payment is left alone. */
export async function runScheduledAction(ctx: RequestContext, orderId: string, paymentId: string, action: 'VOID' | 'CAPTURE'): Promise<'done' | 'skipped'> {
  return withOrderPayments(ctx, orderId, async (op) => {
    const p = op.payments.find((x) => x.id === paymentId);
    if (!p || authorizationProblem(p)) return 'skipped';
    if (action === 'CAPTURE') {
      await capturePayment(op, p, p.amount);
      await syncOrder(op, { activity: { type: 'AUTHORIZED_PAYMENT_CAPTURED' } });
    } else {
      await voidPayment(op, p, 'SCHEDULED');
      await syncOrder(op, { activity: { type: 'AUTHORIZED_PAYMENT_VOIDED' } });
    }
    return 'done';
  });
}
