/**
 * The end of a refund transaction, wherever its outcome comes from (the provider's answer in the
 * refund call, or later through a provider report): the payment's reservation becomes refunded money
 * or is released, and the order's status, activity and restock follow in the same transaction.
 */
import { syncOrder, type OrderPayments } from './ledger.js';
import type { Refund } from './model.js';
import { toAmount } from './money.js';
import type { ActionOutcome } from './providers/index.js';
import { settleRefund, settleRefundTransaction } from './store.js';

export async function finishRefundTransaction(op: OrderPayments, refund: Refund, paymentId: string, amount: bigint, outcome: ActionOutcome): Promise<boolean> {
  if (outcome.status === 'PENDING') return false;
  const succeeded = outcome.status === 'SUCCEEDED';
  const settled = await settleRefundTransaction(op.ctx.db, op.ctx.site.id, refund.id, paymentId, succeeded
    ? { status: 'SUCCEEDED', providerRefundId: outcome.providerReference }
    : { status: 'FAILED', reasonCode: outcome.failureCode.slice(0, 10), description: outcome.description }, op.now);
  if (!settled) return false;
  await settleRefund(op.ctx.db, op.ctx.site.id, paymentId, amount, succeeded, op.now);
  const amountText = toAmount(amount, refund.currency);
  if (succeeded) {
    await syncOrder(op, {
      refund: { amount: amountText, ...(refund.restock.length > 0 ? { restock: refund.restock } : {}) },
    });
  } else {
    await syncOrder(op, { activity: { type: 'PAYMENT_REFUND_FAILED' } });
  }
  return true;
}
