// What other domains may use of payments (docs/payments.md).
/**
 * `chargeOrder(ctx, orderId, payment, opts?)`: pays what is left of an order, by card through the
 * online provider (captured, or only authorized with `delayedCapture`) or MANUAL (offline, confirmed
 * later by mark as paid). Joins the caller's transaction when ctx.db is one. A declined card is a
 * result (`status: 'DECLINED'`, `declineCode`), not an error; a malformed or expired card is a 400.
 */
export { chargeOrder, type ChargePayment, type ChargeResult } from './charge.js';
export { TEST_CARDS } from './providers/index.js';
export type { OrderPaymentStatus, TransactionPaymentStatus } from './model.js';
