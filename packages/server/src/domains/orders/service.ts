import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { conflict, ValidationError } from '../../http/errors.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { currencyOf, price, toMinor } from './amounts.js';
import { amountsAddUp, orderFromDraft, orderFromInput } from './build.js';
import type {
  InventoryUpdateTrigger, Order, OrderDraft, OrderInput, OrderJson, OrderPaymentStatus, OrderPaymentUpdate, OrderPaymentView, OrderRecord, OrderStatus, StockState,
} from './model.js';
import {
  changeOrder, failpoint, newActivity, orderNotFound, readOrder, recordOrderEvents, totalMinor, type OrderEvent,
} from './record.js';
import { placeStock, restock } from './stock.js';
import { becomePaid } from './paid.js';
import { withDownloadLinks } from './digital.js';
import { findOrder, findSiteRow, insertOrder, takeOrderNumber } from './store.js';

/**
 * Orders: creation (from a checkout, by the owner, imported), reads, payment changes, cancel and
 * status. Every change of money, stock or state commits together with its activity and events.
 */

export const ORDER_LIMITS = {
  /** Characters of a cancel message / activity text. */
  messageLength: 1_000,
  /** Tries for a free order number when imports took numbers above the counter. */
  numberTries: 100,
} as const;

function createdByOf(ctx: RequestContext): Order['createdBy'] {
  const c = ctx.caller;
  if (c.kind === 'owner') return { userId: c.apiKeyId };
  if (c.kind === 'app') return { appId: c.appId };
  if (c.kind === 'member') return { memberId: c.memberId };
  if (c.kind === 'visitor') return { visitorId: c.visitorId };
  return {};
}

/** The next free order number and the site's inventory trigger (read by the same statement). */
async function nextNumber(ctx: RequestContext): Promise<{ number: number; inventoryUpdateTrigger: InventoryUpdateTrigger }> {
  for (let i = 0; i < ORDER_LIMITS.numberTries; i++) {
    const taken = await takeOrderNumber(ctx.db, ctx.site.id);
    if (!taken.used) return taken;
  }
  throw conflict('ORDER_NUMBER_UNAVAILABLE', 'No free order number near the counter; set a higher counter');
}

/** Writes a new order with its ORDER_PLACED activity, stock change and events, in the caller's transaction. */
async function placeOrder(ctx: RequestContext, build: (id: string, number: number, now: string) => Order, opts: { number?: number; stock: boolean; imported?: boolean }): Promise<OrderRecord> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const id = randomUUID();
    const now = new Date().toISOString();
    const order = build(id, 0, now);
    // The number first: the statement that takes it also answers the inventory trigger the stock
    // step needs (one statement less per order; on PostgreSQL the counter row is then locked during
    // the stock change too, which concurrent orders of a site would wait for at the number anyway).
    const { number, inventoryUpdateTrigger } = opts.number === undefined ? await nextNumber(tctx) : { number: opts.number, inventoryUpdateTrigger: undefined };
    const paid = order.paymentStatus === 'PAID';
    const stocked = opts.stock && order.status !== 'CANCELED';
    const trigger = stocked ? inventoryUpdateTrigger ?? (await findSiteRow(trx, ctx.site.id)).inventoryUpdateTrigger : undefined;
    const stockState: StockState = trigger ? await placeStock(tctx, order, trigger, paid) : 'NONE';
    order.number = String(number);
    order.activities.push(newActivity('ORDER_PLACED', {}, now));
    if (paid && !opts.imported) {
      order.activities.push(newActivity('ORDER_PAID', {}, now));
      // Paid at once (nothing to pay, or an owner's paid order): digital lines are the buyer's now.
      order.lineItems = await withDownloadLinks(tctx, order);
    }
    const rec: OrderRecord = { order, stockState, revision: 1 };
    try {
      await insertOrder(trx, ctx.site.id, rec, totalMinor(order));
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (order.checkoutId) throw conflict('ORDER_ALREADY_EXISTS', `An order of checkout ${order.checkoutId} exists already`, { checkoutId: order.checkoutId });
        throw conflict('ORDER_NUMBER_TAKEN', `Order number ${number} is used by another order`, { number: String(number) });
      }
      throw error;
    }
    failpoint(tctx, 'orders.afterOrderRow');
    const events: OrderEvent[] = opts.imported ? [{ slug: 'imported' }] : [{ slug: 'created' }];
    if (order.status === 'APPROVED' && !opts.imported) events.push({ slug: 'approved' });
    await recordOrderEvents(tctx, order, events);
    failpoint(tctx, 'orders.afterOrderEvents');
    return rec;
  });
}

/**
 * The order a checkout becomes, inside the caller's transaction: next number, lines, totals,
 * ORDER_PLACED activity, the created event (the buyer's confirmation e-mail is rendered from it),
 * and the stock change. InsufficientStockError propagates so the caller's transaction rolls back.
 */
export async function createOrderFromCheckout(ctx: RequestContext, draft: OrderDraft): Promise<{ orderId: string; number: string }> {
  const rec = await placeOrder(ctx, (id, number, now) => orderFromDraft(draft, { id, number, now }), { stock: true });
  return { orderId: rec.order.id, number: rec.order.number };
}

function checkOwnerAmounts(order: Order, field: string): void {
  if (!amountsAddUp(order)) {
    throw new ValidationError([{ field: `${field}.priceSummary.total`, description: 'must equal subtotal + shipping + tax + additional fees - discount', violatedRule: 'FORMAT', data: {} }]);
  }
}

/** An order the owner creates (POST /ecom/v1/orders): stock changes as for a checkout's order. */
export async function createOrder(ctx: RequestContext, input: OrderInput): Promise<Order> {
  const rec = await placeOrder(ctx, (id, number, now) => {
    const order = orderFromInput(input, { id, number, now, currency: ctx.site.currency, createdBy: createdByOf(ctx), imported: false });
    checkOwnerAmounts(order, 'order');
    return order;
  }, { stock: true });
  return rec.order;
}

/** An order from another platform: kept as given (number included, when free), no stock change, an `imported` event. */
export async function importOrder(ctx: RequestContext, input: OrderInput): Promise<Order> {
  const given = input.number === undefined ? undefined : Number(input.number);
  const rec = await placeOrder(ctx, (id, number, now) => {
    const order = orderFromInput(input, { id, number, now, currency: ctx.site.currency, createdBy: createdByOf(ctx), imported: true });
    checkOwnerAmounts(order, 'order');
    return order;
  }, { stock: false, imported: true, ...(given !== undefined ? { number: given } : {}) });
  return rec.order;
}

export async function getOrder(ctx: RequestContext, orderId: string): Promise<Order> {
  return (await readOrder(ctx, orderId)).order;
}

// ---------------------------------------------------------------------------------------------
// For payments (domains/payments through index.ts)

/** An order's additional fee as refunds name it: its id (a checkout's fee has its code instead) and price with tax. */
function feeOfOrder(fee: OrderJson): { id: string; price: string }[] {
  const id = typeof fee.id === 'string' ? fee.id : typeof fee.code === 'string' ? fee.code : undefined;
  const price = (fee.priceAfterTax ?? fee.price) as { amount?: unknown } | undefined;
  return id !== undefined && typeof price?.amount === 'string' ? [{ id, price: price.amount }] : [];
}

export async function getOrderForPayment(ctx: RequestContext, orderId: string): Promise<OrderPaymentView> {
  const rec = await findOrder(ctx.db, ctx.site.id, orderId);
  if (!rec) throw orderNotFound(orderId);
  const o = rec.order;
  return {
    id: o.id, number: o.number, currency: o.currency, total: o.priceSummary.total.amount, status: o.status, paymentStatus: o.paymentStatus, paid: o.balanceSummary.paid.amount,
    shipping: o.priceSummary.shipping.amount, additionalFees: (o.additionalFees ?? []).flatMap(feeOfOrder),
    buyer: { memberId: o.buyerInfo.memberId ?? null, email: o.buyerInfo.email ?? null },
    lineItems: o.lineItems.map((li) => ({ id: li.id, quantity: li.quantity, price: li.price.amount, refundedQuantity: li.refundQuantity ?? 0, subscription: !!li.subscriptionInfo })),
  };
}

const REFUNDED: OrderPaymentStatus[] = ['PARTIALLY_REFUNDED', 'FULLY_REFUNDED'];

/**
 * A payment change, inside the payments transaction: the payment status (APPROVED when it becomes
 * paid), the activity, the balance, stock committed when paid (ON_ORDER_PAID) and given back on a
 * refund with restock, and the events (`payment_status_updated` carries what the paid / refunded
 * e-mails need; `approved`; `updated`).
 */
export async function applyPaymentUpdate(ctx: RequestContext, orderId: string, update: OrderPaymentUpdate): Promise<void> {
  await changeOrder(ctx, orderId, async (tctx, rec) => {
    const before = rec.order;
    const cur = currencyOf(before.currency);
    const now = new Date().toISOString();
    let next: OrderRecord = { ...rec, order: { ...before, paymentStatus: update.paymentStatus, activities: [...before.activities] } };
    const events: OrderEvent[] = [];
    const becamePaid = update.becamePaid ?? (update.paymentStatus === 'PAID' && before.paymentStatus !== 'PAID');
    const total = totalMinor(before);
    let paid = toMinor(before.balanceSummary.paid.amount, cur, 'paid');
    let refunded = toMinor(before.balanceSummary.refunded.amount, cur, 'refunded');
    if (update.paidAmount !== undefined) paid = toMinor(update.paidAmount, cur, 'paidAmount');
    else if (becamePaid) paid = total;
    if (becamePaid) next = await becomePaid(tctx, next, events);
    if (update.refund) {
      const amount = toMinor(update.refund.amount, cur, 'refund.amount');
      refunded += amount;
      if (update.refund.restock?.length) next = await restock(tctx, next, update.refund.restock);
      const counts = new Map((update.refund.restock ?? []).map((r) => [r.lineItemId, r.quantity]));
      next.order.lineItems = next.order.lineItems.map((li) => (counts.has(li.id) ? { ...li, refundQuantity: Math.min(li.quantity, (li.refundQuantity ?? 0) + counts.get(li.id)!) } : li));
    }
    next.order.balanceSummary = { paid: price(paid, cur), refunded: price(refunded, cur), balance: price(total > paid ? total - paid : 0n, cur) };
    const a = update.activity;
    if (a) {
      next.order.activities.push(newActivity(a.type as Parameters<typeof newActivity>[0], a.type === 'ORDER_REFUNDED' || a.amount ? {
        orderRefunded: { manual: a.manual ?? false, ...(a.amount ? { amount: price(toMinor(a.amount, cur, 'activity.amount'), cur) } : {}), ...(a.reason ? { reason: a.reason } : {}) },
      } : {}, now));
    }
    // A capture that completes the payment shows as both steps: the capture, then the order paid.
    if (becamePaid) {
      next.order.activities.push(newActivity('ORDER_PAID', {}, now));
    } else if (!a && update.refund) {
      next.order.activities.push(newActivity('ORDER_REFUNDED', { orderRefunded: { manual: false, amount: price(toMinor(update.refund.amount, cur, 'refund.amount'), cur) } }, now));
    }
    const mail = becamePaid ? 'PAID' : update.refund && REFUNDED.includes(update.paymentStatus) ? 'REFUNDED' : undefined;
    events.push({
      slug: 'payment_status_updated',
      data: { previousPaymentStatus: before.paymentStatus, paymentStatus: update.paymentStatus, ...(mail ? { mail } : {}), ...(update.refund ? { refundAmount: price(toMinor(update.refund.amount, cur, 'refund.amount'), cur) } : {}) },
    });
    events.push({ slug: 'updated' });
    return { rec: next, events };
  });
}

// ---------------------------------------------------------------------------------------------
// Cancel and status

export interface CancelOptions { sendOrderCanceledEmail?: boolean; customMessage?: string; restockAllItems?: boolean }

/**
 * Cancels the order once: held units are released; with restockAllItems taken units go back. A
 * second cancel (also a concurrent one) is 409 ORDER_ALREADY_CANCELED and changes nothing.
 */
export async function cancelOrder(ctx: RequestContext, orderId: string, opts: CancelOptions): Promise<Order> {
  const rec = await changeOrder(ctx, orderId, async (tctx, rec) => {
    if (rec.order.status === 'CANCELED') throw conflict('ORDER_ALREADY_CANCELED', `Order ${orderId} is canceled already`, { orderId });
    let next: OrderRecord = { ...rec, order: { ...rec.order, status: 'CANCELED', activities: [...rec.order.activities, newActivity('ORDER_CANCELED')] } };
    if (rec.stockState === 'RESERVED' || opts.restockAllItems) next = await restock(tctx, next, 'ALL');
    failpoint(tctx, 'orders.cancel.afterStock');
    return {
      rec: next,
      events: [
        { slug: 'canceled', data: { sendOrderCanceledEmail: opts.sendOrderCanceledEmail ?? true, ...(opts.customMessage ? { customMessage: opts.customMessage } : {}), restockAllItems: opts.restockAllItems ?? false } },
        { slug: 'updated' },
      ],
    };
  });
  return rec.order;
}

const STATUS_MOVES: Record<OrderStatus, OrderStatus[]> = {
  INITIALIZED: ['APPROVED', 'PENDING', 'REJECTED'],
  PENDING: ['APPROVED', 'REJECTED'],
  APPROVED: [],
  REJECTED: [],
  CANCELED: [],
};
const STATUS_ACTIVITY: Partial<Record<OrderStatus, 'ORDER_PENDING' | 'ORDER_REJECTED'>> = { PENDING: 'ORDER_PENDING', REJECTED: 'ORDER_REJECTED' };

/**
 * Moves an order along INITIALIZED → PENDING → APPROVED | REJECTED (cancel has its own call). A
 * rejected order gives back what it holds. Other moves are 409 ORDER_STATUS_TRANSITION_NOT_ALLOWED.
 */
export async function updateOrderStatus(ctx: RequestContext, orderId: string, status: OrderStatus): Promise<Order> {
  const rec = await changeOrder(ctx, orderId, async (tctx, rec) => {
    const from = rec.order.status;
    if (from === status) return undefined;
    if (!STATUS_MOVES[from].includes(status)) {
      throw conflict('ORDER_STATUS_TRANSITION_NOT_ALLOWED', `An order in status ${from} cannot become ${status}`, { from, to: status });
    }
    const activity = STATUS_ACTIVITY[status];
    let next: OrderRecord = { ...rec, order: { ...rec.order, status, activities: activity ? [...rec.order.activities, newActivity(activity)] : rec.order.activities } };
    if (status === 'REJECTED' && rec.stockState === 'RESERVED') next = await restock(tctx, next, 'ALL');
    const events: OrderEvent[] = [{ slug: 'updated' }];
    if (status === 'APPROVED') events.unshift({ slug: 'approved' });
    return { rec: next, events };
  });
  return rec.order;
}
