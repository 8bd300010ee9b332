/**
 * What payments use of the orders domain, in one place: the order as payments see it, and the one
 * call that stores an order's payment status (with its activity, e-mail, stock effects and events) in
 * the caller's transaction.
 */
import { applyPaymentUpdate, getOrder, getOrderForPayment } from '../orders/index.js';
import type { Order } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';

export type OrderForPayment = Awaited<ReturnType<typeof getOrderForPayment>>;
export type PaymentUpdate = Parameters<typeof applyPaymentUpdate>[2];

/** The order (404 ORDER_NOT_FOUND when the site has none with this id). */
export function loadOrder(ctx: RequestContext, orderId: string): Promise<OrderForPayment> {
  return getOrderForPayment(ctx, orderId);
}

/** Stores the order's new payment status and what comes with it; ctx.db is the payment change's transaction. */
export function updateOrderPayment(ctx: RequestContext, orderId: string, update: PaymentUpdate): Promise<void> {
  return applyPaymentUpdate(ctx, orderId, update);
}

/** The answer of mark-as-paid: the order as the owner reads it. */
export async function orderAnswer(ctx: RequestContext, orderId: string): Promise<{ order: Order }> {
  return { order: await getOrder(ctx, orderId) };
}
