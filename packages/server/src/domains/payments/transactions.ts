/**
 * The order transactions calls: listing an order's payments and refunds, recording payments made
 * elsewhere, and moving a payment's status by hand (an offline payment received, a pending one
 * declined). Every change goes through the order's payments frame, so the order's status follows.
 */
import { randomUUID } from 'node:crypto';
import type { AddPaymentInput, BulkItemMetadata, OrderPayment } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound } from '../../http/errors.js';
import { recordPayment } from './charge.js';
import { loadLedger, syncOrder, withOrderPayments } from './ledger.js';
import type { OrderLedger, Payment, TransactionPaymentStatus } from './model.js';
import { toAmount, toMinor } from './money.js';
import { presentPayment } from './present.js';
import { updatePaymentGuarded } from './store.js';
import { CAPTURED_STATUSES, orderMoney } from './status.js';

/** Statuses a recorded payment may start in (refunds and voids have their own calls). */
const ADDABLE_STATUSES: readonly TransactionPaymentStatus[] = ['APPROVED', 'PENDING', 'PENDING_MERCHANT', 'AUTHORIZED', 'DECLINED', 'CANCELED'];

/**
 * Status moves allowed by hand, from -> to. Money already taken or held moves only through capture,
 * void and refund; a final status never moves.
 */
const MANUAL_TRANSITIONS: Readonly<Partial<Record<TransactionPaymentStatus, readonly TransactionPaymentStatus[]>>> = {
  PENDING: ['APPROVED', 'DECLINED', 'CANCELED', 'PENDING_MERCHANT'],
  PENDING_MERCHANT: ['APPROVED', 'DECLINED', 'CANCELED', 'PENDING'],
};

export async function listTransactions(ctx: RequestContext, orderId: string): Promise<OrderLedger> {
  return loadLedger(ctx, orderId);
}

/** Records payments taken outside Vitrine (another gateway, cash at the counter). Their money is never moved by us. */
export async function addPayments(ctx: RequestContext, orderId: string, inputs: readonly AddPaymentInput[]): Promise<string[]> {
  return withOrderPayments(ctx, orderId, async (op) => {
    if (op.order.status === 'CANCELED') throw conflict('ORDER_CANCELED', 'The order is canceled');
    const ids: string[] = [];
    let captured = orderMoney(op.total, op.payments).captured;
    for (const [index, input] of inputs.entries()) {
      const status = input.status ?? input.regularPaymentDetails?.status ?? 'APPROVED';
      if (!ADDABLE_STATUSES.includes(status)) {
        throw new ApplicationError(400, 'INVALID_PAYMENT_STATUS', `A payment cannot be added as ${status}`, { index, allowed: ADDABLE_STATUSES });
      }
      // A payment of 0 is recorded (refundability answers ZERO_PRICE for it) but pays nothing (status.ts).
      const amount = toMinor(input.amount.amount, op.order.currency, `payments[${index}].amount.amount`, { allowZero: true });
      if (CAPTURED_STATUSES.includes(status)) captured += amount;
      if (captured > op.total) {
        throw new ApplicationError(400, 'INVALID_AMOUNT', 'The approved payments would be more than the order total', { index, total: toAmount(op.total, op.order.currency) });
      }
      const details = input.regularPaymentDetails;
      const id = randomUUID();
      await recordPayment(op, id, {
        provider: 'external', amount, status, offline: details?.offlinePayment ?? false,
        paymentMethod: details?.paymentMethod ?? null, cardBrand: details?.creditCardDetails?.brand ?? null,
        cardLast4: details?.creditCardDetails?.lastFourDigits ?? null,
        providerTransactionId: details?.providerTransactionId ?? details?.gatewayTransactionId ?? null,
        gatewayOrderId: details?.paymentOrderId ?? null, chargeCorrelationId: input.chargeCorrelationId ?? null,
        refundDisabled: input.refundDisabled ?? false, delayedCapture: status === 'AUTHORIZED',
        extras: details?.paymentMethodName ? { paymentMethodName: details.paymentMethodName } : {},
        ...(input.createdDate ? { createdDate: input.createdDate } : {}),
      });
      ids.push(id);
    }
    await syncOrder(op);
    return ids;
  });
}

/**
 * Sets a payment's status by hand (MANUAL_TRANSITIONS). The same status again changes nothing and
 * answers as the first call did; any other move is 409 PAYMENT_STATUS_TRANSITION_NOT_ALLOWED.
 */
export async function updatePaymentStatus(ctx: RequestContext, orderId: string, paymentId: string, status: TransactionPaymentStatus): Promise<Payment> {
  return withOrderPayments(ctx, orderId, async (op) => {
    const p = op.payments.find((x) => x.id === paymentId);
    if (!p) throw notFound('PAYMENT_NOT_FOUND', 'The order has no payment with this id', { paymentId });
    if (p.status === status) return p;
    if (!(MANUAL_TRANSITIONS[p.status] ?? []).includes(status)) {
      throw conflict('PAYMENT_STATUS_TRANSITION_NOT_ALLOWED', `A ${p.status} payment cannot become ${status}`, { from: p.status, to: status });
    }
    const patch = status === 'APPROVED' ? { status, captured: p.amount } : { status };
    if (!(await updatePaymentGuarded(op.ctx.db, op.ctx.site.id, p.id, { fromStatuses: [p.status] }, patch, op.now))) {
      throw conflict('PAYMENT_STATUS_TRANSITION_NOT_ALLOWED', 'The payment changed meanwhile', { from: p.status, to: status });
    }
    Object.assign(p, patch, { updatedDate: op.now });
    await syncOrder(op, status === 'DECLINED' ? { activity: { type: 'PAYMENT_DECLINED' } }
      : status === 'CANCELED' ? { activity: { type: 'PAYMENT_CANCELED' } } : {});
    return p;
  });
}

/** Each item in its own transaction: one refused item leaves the others done. */
export async function bulkUpdatePaymentStatuses(
  ctx: RequestContext, items: readonly { orderId: string; paymentId: string }[], status: TransactionPaymentStatus, returnFullEntity: boolean,
): Promise<{ itemMetadata: BulkItemMetadata; item?: OrderPayment }[]> {
  const results: { itemMetadata: BulkItemMetadata; item?: OrderPayment }[] = [];
  for (const [originalIndex, { orderId, paymentId }] of items.entries()) {
    try {
      const p = await updatePaymentStatus(ctx, orderId, paymentId, status);
      results.push({ itemMetadata: { id: paymentId, originalIndex, success: true }, ...(returnFullEntity ? { item: presentPayment(p) } : {}) });
    } catch (error) {
      if (!(error instanceof ApplicationError)) throw error;
      results.push({ itemMetadata: { id: paymentId, originalIndex, success: false, error: { code: error.code, description: error.description, data: error.data } } });
    }
  }
  return results;
}

