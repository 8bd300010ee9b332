/**
 * What other domains may use of orders (docs/orders.md): the checkout turns into an order, and
 * payments reads an order and applies payment changes, each inside the caller's transaction.
 */
export { applyPaymentUpdate, createOrderFromCheckout, getOrder, getOrderForPayment } from './service.js';
export type { OrderDraft, OrderDraftLineItem, OrderPaymentStatus, OrderPaymentUpdate, OrderPaymentView } from './model.js';
