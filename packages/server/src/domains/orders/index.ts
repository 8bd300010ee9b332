/**
 * What other domains may use of orders (docs/orders.md): the checkout turns into an order, and
 * payments reads an order and applies payment changes, each inside the caller's transaction.
 */
export { applyPaymentUpdate, createOrderFromCheckout, getOrder, getOrderForPayment } from './service.js';
export type { OrderDraft, OrderDraftLineItem, OrderPaymentStatus, OrderPaymentUpdate, OrderPaymentView } from './model.js';
// The order as the wire shows it (payments answers mark-as-paid with getOrder; presentOrder encodes it for a caller).
export { presentOrder } from './present.js';
export type { Order } from './model.js';
