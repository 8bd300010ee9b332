/**
 * Refunds: what an order's payments allow (refundability with its reasons) and triggering a refund
 * (whole, partial, per line item, with restock). The amount is reserved on the payment with one
 * guarded statement before the provider is asked, so refunds together never exceed what was captured.
 */
import { randomUUID } from 'node:crypto';
import type { BulkItemMetadata } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, notFound, ValidationError, type FieldViolation } from '../../http/errors.js';
import { providerCall } from './call.js';
import { readOrderPayments, syncOrder, withOrderPayments, type OrderPayments } from './ledger.js';
import type { Payment, Refund, Refundability, RefundDetails, RestockLine } from './model.js';
import { sumMinor, toAmount, toMinor } from './money.js';
import { failedItem } from './present.js';
import { providerFor, type ActionOutcome } from './providers/index.js';
import { finishRefundTransaction } from './refund-settle.js';
import { insertRefund, listRefunds, reserveRefund } from './store.js';

/** Payment statuses whose money was never taken: nothing to refund. */
const UNPAID_STATUSES: readonly Payment['status'][] = ['PENDING', 'PENDING_MERCHANT', 'AUTHORIZED', 'DECLINED', 'CANCELED', 'VOIDED'];

function paymentRefundability(op: OrderPayments, p: Payment, refunds: readonly Refund[]): Refundability {
  const no = (nonRefundableReason: NonNullable<Refundability['nonRefundableReason']>): Refundability => ({ paymentId: p.id, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason });
  if (op.order.status === 'PENDING') return no('ORDER_IS_PENDING');
  if (op.order.status === 'REJECTED') return no('ORDER_IS_REJECTED');
  if (p.kind === 'MEMBERSHIP') return no('FORBIDDEN');
  if (p.status === 'REFUNDED') return no('ALREADY_REFUNDED');
  if (UNPAID_STATUSES.includes(p.status)) return no('NOT_PAID');
  if (p.captured === 0n) return no('ZERO_PRICE');
  if (p.refundPending > 0n || refunds.some((r) => r.transactions.some((t) => t.paymentId === p.id && ['PENDING', 'SCHEDULED', 'STARTED'].includes(t.status)))) {
    return no('PENDING_REFUND');
  }
  if (p.refunded >= p.captured) return no('ALREADY_REFUNDED');
  if (p.refundDisabled) return no('DISABLED_BY_PROVIDER');
  if (p.offline) return { paymentId: p.id, refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'OFFLINE' };
  const provider = providerFor(p.provider);
  if (!provider) return { paymentId: p.id, refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'NOT_SUPPORTED' };
  if (!provider.available()) return no('PROVIDER_IS_DOWN');
  if (!provider.refundsOnline) return { paymentId: p.id, refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'NOT_SUPPORTED' };
  return { paymentId: p.id, refundabilityStatus: 'REFUNDABLE' };
}

export async function getRefundability(ctx: RequestContext, orderId: string): Promise<{ refundabilities: Refundability[]; refundablePerItem: boolean }> {
  return readOrderPayments(ctx, orderId, async (op) => {
    if (op.payments.length === 0) return { refundabilities: [{ refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'TRANSACTION_NOT_FOUND' }], refundablePerItem: true };
    const refunds = await listRefunds(op.ctx.db, op.ctx.site.id, [op.order.id]);
    return { refundabilities: op.payments.map((p) => paymentRefundability(op, p, refunds)), refundablePerItem: true };
  });
}

export interface TriggerRefundInput {
  payments: { paymentId: string; amount?: string; externalRefund?: boolean }[];
  details?: RefundDetails;
  sideEffects?: { restockInfo?: { type: 'NO_ITEMS' | 'ALL_ITEMS' | 'SOME_ITEMS'; items?: RestockLine[] }; sendOrderRefundedEmail?: boolean; customMessage?: string | null };
}

export interface TriggerRefundResult {
  refundId: string;
  failedPaymentIds: BulkItemMetadata[];
}

/** Quantities of each line item covered by earlier refunds that did not fail. */
function refundedQuantities(refunds: readonly Refund[]): Map<string, number> {
  const quantities = new Map<string, number>();
  for (const r of refunds) {
    if (r.transactions.every((t) => t.status === 'FAILED')) continue;
    for (const line of [...(r.details.lineItems ?? []), ...(r.details.items ?? [])]) quantities.set(line.lineItemId, (quantities.get(line.lineItemId) ?? 0) + line.quantity);
  }
  return quantities;
}

/** The line items this refund covers, checked against the order (what is left to refund of each). */
function refundLines(op: OrderPayments, details: RefundDetails | undefined, earlier: Map<string, number>): { lines: RestockLine[]; value: bigint } {
  const field = details?.lineItems ? 'details.lineItems' : 'details.items';
  const lines = details?.lineItems ?? details?.items ?? [];
  const violations: FieldViolation[] = [];
  const seen = new Map<string, number>();
  let value = 0n;
  lines.forEach((l, i) => {
    const line = op.order.lineItems.find((x) => x.id === l.lineItemId);
    if (!line) {
      violations.push({ field: `${field}[${i}].lineItemId`, description: 'is not a line item of the order', violatedRule: 'FORMAT', data: {} });
      return;
    }
    const total = (seen.get(l.lineItemId) ?? 0) + l.quantity;
    seen.set(l.lineItemId, total);
    const left = line.quantity - (earlier.get(l.lineItemId) ?? 0);
    if (total > left) violations.push({ field: `${field}[${i}].quantity`, description: `must be at most ${left} (what is left to refund of the line)`, violatedRule: 'MAX', data: { max: left } });
    value += toMinor(line.price, op.order.currency, `${field}[${i}]`, { allowZero: true }) * BigInt(l.quantity);
  });
  if (violations.length > 0) throw new ValidationError(violations);
  return { lines: lines.map((l) => ({ lineItemId: l.lineItemId, quantity: l.quantity })), value };
}

/**
 * The shipping and additional fees this refund names, checked against what the order charged for
 * them less what earlier refunds (not failed) gave back of each; their sum.
 */
function refundExtras(op: OrderPayments, details: RefundDetails | undefined, refunds: readonly Refund[]): bigint {
  const currency = op.order.currency;
  const earlier = refunds.filter((r) => !r.transactions.every((t) => t.status === 'FAILED')).map((r) => r.details);
  const violations: FieldViolation[] = [];
  let sum = 0n;
  const claim = (field: string, amount: string, charged: bigint, before: bigint) => {
    const minor = toMinor(amount, currency, field, { allowZero: true });
    const left = charged - before;
    if (minor > left) violations.push({ field, description: `must be at most ${toAmount(left, currency)} (what is left to refund of it)`, violatedRule: 'DECIMAL_LTE', data: { max: toAmount(left, currency) } });
    sum += minor;
  };
  if (details?.shipping) {
    const before = sumMinor(earlier.flatMap((d) => (d.shipping ? [toMinor(d.shipping.amount.amount, currency, 'shipping', { allowZero: true })] : [])));
    claim('details.shipping.amount.amount', details.shipping.amount.amount, toMinor(op.order.shipping, currency, 'shipping', { allowZero: true }), before);
  }
  const claimed = new Map<string, bigint>();
  (details?.additionalFees ?? []).forEach((f, i) => {
    const field = `details.additionalFees[${i}]`;
    const fee = op.order.additionalFees.find((x) => x.id === f.additionalFeeId);
    if (!fee) {
      violations.push({ field: `${field}.additionalFeeId`, description: 'is not an additional fee of the order', violatedRule: 'FORMAT', data: {} });
      return;
    }
    const before = (claimed.get(fee.id) ?? 0n) + sumMinor(earlier.flatMap((d) => (d.additionalFees ?? [])
      .filter((x) => x.additionalFeeId === fee.id).map((x) => toMinor(x.amount.amount, currency, 'fee', { allowZero: true }))));
    claim(`${field}.amount.amount`, f.amount.amount, toMinor(fee.price, currency, 'fee', { allowZero: true }), before);
    claimed.set(fee.id, (claimed.get(fee.id) ?? 0n) + toMinor(f.amount.amount, currency, 'fee', { allowZero: true }));
  });
  if (violations.length > 0) throw new ValidationError(violations);
  return sum;
}

function restockLines(op: OrderPayments, input: TriggerRefundInput, refunded: RestockLine[]): RestockLine[] {
  const info = input.sideEffects?.restockInfo;
  if (!info || info.type === 'NO_ITEMS') return [];
  if (info.type === 'ALL_ITEMS') return refunded;
  const violations: FieldViolation[] = [];
  (info.items ?? []).forEach((item, i) => {
    const line = op.order.lineItems.find((x) => x.id === item.lineItemId);
    if (!line) violations.push({ field: `sideEffects.restockInfo.items[${i}].lineItemId`, description: 'is not a line item of the order', violatedRule: 'FORMAT', data: {} });
    else if (item.quantity > line.quantity) violations.push({ field: `sideEffects.restockInfo.items[${i}].quantity`, description: `must be at most ${line.quantity}`, violatedRule: 'MAX', data: { max: line.quantity } });
  });
  if (violations.length > 0) throw new ValidationError(violations);
  return (info.items ?? []).map((i) => ({ lineItemId: i.lineItemId, quantity: i.quantity }));
}

/**
 * Refunds one payment of the order: the amount given, else the value of the listed items (and shipping
 * and fees given), else everything left on the payment. A refund the provider refuses is recorded as
 * FAILED and named in `failedPaymentIds`, and changes no money; one it answers later stays PENDING.
 */
export async function triggerRefund(ctx: RequestContext, orderId: string, input: TriggerRefundInput): Promise<TriggerRefundResult> {
  return withOrderPayments(ctx, orderId, async (op) => {
    if (op.order.status === 'PENDING' || op.order.status === 'REJECTED') {
      throw new ApplicationError(409, 'REFUND_NOT_AVAILABLE', `The order is ${op.order.status.toLowerCase()}`);
    }
    const [request] = input.payments;
    const p = op.payments.find((x) => x.id === request!.paymentId);
    if (!request || !p) throw notFound('PAYMENTS_NOT_FOUND', 'The order has no payment with this id', { paymentId: request?.paymentId });
    const external = request.externalRefund ?? false;
    const refunds = await listRefunds(op.ctx.db, op.ctx.site.id, [op.order.id]);
    const refundability = paymentRefundability(op, p, refunds);
    const manualOk = refundability.refundabilityStatus === 'MANUAL';
    if (refundability.refundabilityStatus === 'NOT_REFUNDABLE' && !(external && refundability.nonRefundableReason === 'DISABLED_BY_PROVIDER')) {
      throw new ApplicationError(409, 'REFUND_NOT_AVAILABLE', 'This payment cannot be refunded', { reason: refundability.nonRefundableReason });
    }
    const { lines, value } = refundLines(op, input.details, refundedQuantities(refunds));
    const extras = refundExtras(op, input.details, refunds);
    const left = p.captured - p.refunded - p.refundPending;
    const amount = request.amount !== undefined ? toMinor(request.amount, p.currency, 'payments[0].amount.amount')
      : lines.length > 0 || extras > 0n ? value + extras : left;
    if (amount <= 0n || amount > left) {
      throw new ApplicationError(400, 'INVALID_AMOUNT', 'The amount is more than is left to refund on the payment', { refundable: toAmount(left, p.currency) });
    }
    if (!(await reserveRefund(op.ctx.db, op.ctx.site.id, p.id, amount, op.now))) {
      throw new ApplicationError(400, 'INVALID_AMOUNT', 'The amount is more than is left to refund on the payment');
    }
    const refund: Refund = {
      id: randomUUID(), orderId: op.order.id, currency: p.currency, createdDate: op.now,
      details: { ...(input.details ?? {}), ...(lines.length > 0 ? { lineItems: lines } : {}) },
      restock: restockLines(op, input, lines),
      transactions: [{ paymentId: p.id, amount, status: 'PENDING', external: external || manualOk, providerRefundId: null, reasonCode: null, description: null }],
    };
    await insertRefund(op.ctx.db, op.ctx.site.id, refund, refunds.length, op.now);
    const outcome: ActionOutcome = external || manualOk
      ? { status: 'SUCCEEDED', providerReference: null }
      : await providerFor(p.provider)!.refund(providerCall(op.ctx), {
        reference: refund.id, paymentId: p.id, refundId: refund.id, providerTransactionId: p.providerTransactionId, amount, currency: p.currency,
      });
    if (outcome.status === 'PENDING') {
      await syncOrder(op, { activity: { type: 'REFUND_INITIATED' } });
    } else {
      await finishRefundTransaction(op, refund, p.id, amount, outcome);
    }
    return {
      refundId: refund.id,
      failedPaymentIds: outcome.status === 'FAILED' ? [failedItem(p.id, 0, 'REFUND_FAILED', outcome.description, { failureCode: outcome.failureCode })] : [],
    };
  });
}
