import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { conflict, notFound, violation } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { FULFILLMENTS_PER_ORDER_MAX } from './limits.js';
import type { Fulfillment, FulfillmentInput, Order, OrderActivity, OrderFulfillmentStatus, OrderRecord, OrderWithFulfillments } from './model.js';
import { changeOrder, FULFILLMENTS_FQDN, newActivity, orderNotFound, type OrderEvent } from './record.js';
import { deleteFulfillmentRow, findFulfillments, findOrders, insertFulfillment, updateFulfillmentRow } from './store.js';
import { eachItem, type BulkFailure, type BulkItem } from './changes.js';

/**
 * Fulfillments of an order: which units left with which tracking number. The order's fulfillment
 * status follows them (NOT_FULFILLED, PARTIALLY_FULFILLED, FULFILLED); a line never ships more units
 * than were ordered. Each change adds activities and writes a fulfillments event plus the order's
 * `updated` (and `fulfilled`) events in the same transaction; a new fulfillment e-mails the buyer.
 */

function shippedPerLine(list: Fulfillment[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of list) for (const li of f.lineItems) m.set(li.id, (m.get(li.id) ?? 0) + li.quantity);
  return m;
}

export function statusOf(order: Order, list: Fulfillment[]): OrderFulfillmentStatus {
  const shipped = shippedPerLine(list);
  const total = order.lineItems.reduce((s, li) => s + li.quantity, 0);
  const done = order.lineItems.reduce((s, li) => s + Math.min(li.quantity, shipped.get(li.id) ?? 0), 0);
  return done === 0 ? 'NOT_FULFILLED' : done >= total ? 'FULFILLED' : 'PARTIALLY_FULFILLED';
}

/** The lines of a new fulfillment: as given (checked against what is left), or every unit still unshipped. */
function linesFor(order: Order, list: Fulfillment[], input: FulfillmentInput, field: string, ignore?: string): Fulfillment['lineItems'] {
  const shipped = shippedPerLine(list.filter((f) => f.id !== ignore));
  // No list means every unit left; an empty one is more likely a mistake than a wish to ship it all.
  if (input.lineItems?.length === 0) throw violation(`${field}.lineItems`, 'must name a line item at least (leave it out to fulfil every unit left)', 'MIN_SIZE');
  if (!input.lineItems) {
    const rest = order.lineItems.map((li) => ({ id: li.id, quantity: li.quantity - (shipped.get(li.id) ?? 0) })).filter((l) => l.quantity > 0);
    if (rest.length === 0) throw conflict('ORDER_ALREADY_FULFILLED', `Every unit of order ${order.id} is fulfilled already`, { orderId: order.id });
    return rest;
  }
  const asked = new Map<string, number>();
  input.lineItems.forEach((l, i) => {
    if (!order.lineItems.some((li) => li.id === l.id)) throw violation(`${field}.lineItems[${i}].id`, 'is not a line item of the order', 'FORMAT');
    asked.set(l.id, (asked.get(l.id) ?? 0) + l.quantity);
  });
  for (const [id, quantity] of asked) {
    const li = order.lineItems.find((x) => x.id === id)!;
    const left = li.quantity - (shipped.get(id) ?? 0);
    if (quantity > left) {
      throw conflict('FULFILLMENT_QUANTITY_EXCEEDED', `Line item ${id} has ${left} unit(s) left to fulfill, not ${quantity}`, { lineItemId: id, requested: quantity, remaining: left });
    }
  }
  return [...asked].map(([id, quantity]) => ({ id, quantity }));
}

function trackingActivities(before: Fulfillment | undefined, after: Fulfillment): OrderActivity[] {
  const out: OrderActivity[] = [];
  const was = before?.trackingInfo?.trackingNumber ?? null;
  const now = after.trackingInfo?.trackingNumber ?? null;
  if (now && !was) out.push(newActivity('TRACKING_NUMBER_ADDED'));
  else if (now && was && now !== was) out.push(newActivity('TRACKING_NUMBER_EDITED'));
  if (after.trackingInfo?.trackingLink && after.trackingInfo.trackingLink !== before?.trackingInfo?.trackingLink) out.push(newActivity('TRACKING_LINK_ADDED'));
  return out;
}

/** Saves the order with its new fulfillment status and activities; the events of the change. */
function next(rec: OrderRecord, list: Fulfillment[], activities: OrderActivity[], event: { action: string; fulfillmentId: string; mail?: boolean }): { rec: OrderRecord; events: OrderEvent[] } {
  const status = statusOf(rec.order, list);
  const order: Order = { ...rec.order, fulfillmentStatus: status, activities: [...rec.order.activities, ...activities] };
  const summary = { id: order.id, number: order.number, buyerInfo: order.buyerInfo, lineItems: order.lineItems };
  const f = list.find((x) => x.id === event.fulfillmentId);
  const events: OrderEvent[] = [
    {
      fqdn: FULFILLMENTS_FQDN, slug: 'updated', entity: { orderId: order.id, fulfillments: list } satisfies OrderWithFulfillments,
      data: { action: event.action, fulfillmentId: event.fulfillmentId, fulfillmentStatus: status, ...(event.mail ? { mail: 'SHIPPED', order: summary, trackingInfo: f?.trackingInfo ?? null } : {}) },
    },
    { slug: 'updated' },
  ];
  if (status === 'FULFILLED' && rec.order.fulfillmentStatus !== 'FULFILLED') events.push({ slug: 'fulfilled' });
  return { rec: { ...rec, order }, events };
}

function live(rec: OrderRecord): void {
  if (rec.order.status === 'CANCELED') throw conflict('ORDER_CANCELED', `Order ${rec.order.id} is canceled`, { orderId: rec.order.id });
}

export async function createFulfillment(ctx: RequestContext, orderId: string, input: FulfillmentInput, field = 'fulfillment'): Promise<{ orderWithFulfillments: OrderWithFulfillments; fulfillmentId: string }> {
  const id = randomUUID();
  await changeOrder(ctx, orderId, async (tctx, rec) => {
    live(rec);
    const list = (await findFulfillments(tctx.db, ctx.site.id, [orderId])).get(orderId)!;
    if (list.length >= FULFILLMENTS_PER_ORDER_MAX) throw conflict('FULFILLMENTS_LIMIT_REACHED', `An order has at most ${FULFILLMENTS_PER_ORDER_MAX} fulfillments`, { max: FULFILLMENTS_PER_ORDER_MAX });
    const f: Fulfillment = {
      id, createdDate: new Date().toISOString(), lineItems: linesFor(rec.order, list, input, field),
      ...(input.trackingInfo ? { trackingInfo: input.trackingInfo } : {}), ...(input.customInfo ? { customInfo: input.customInfo } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}), ...(input.completed !== undefined ? { completed: input.completed } : {}),
    };
    await insertFulfillment(tctx.db, ctx.site.id, orderId, f);
    return next(rec, [...list, f], [newActivity('ORDER_FULFILLED'), ...trackingActivities(undefined, f)], { action: 'CREATED', fulfillmentId: id, mail: true });
  });
  return { orderWithFulfillments: await listForOrder(ctx, orderId), fulfillmentId: id };
}

export async function updateFulfillment(ctx: RequestContext, orderId: string, fulfillmentId: string, input: FulfillmentInput): Promise<OrderWithFulfillments> {
  await changeOrder(ctx, orderId, async (tctx, rec) => {
    const list = (await findFulfillments(tctx.db, ctx.site.id, [orderId])).get(orderId)!;
    const old = list.find((f) => f.id === fulfillmentId);
    if (!old) throw notFound('FULFILLMENT_NOT_FOUND', `Order ${orderId} has no fulfillment ${fulfillmentId}`, { orderId, fulfillmentId });
    const f: Fulfillment = {
      ...old,
      ...(input.lineItems && input.lineItems.length ? { lineItems: linesFor(rec.order, list, input, 'fulfillment', fulfillmentId) } : {}),
      ...(input.trackingInfo ? { trackingInfo: { ...old.trackingInfo, ...input.trackingInfo } } : {}),
      ...(input.customInfo ? { customInfo: input.customInfo } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}), ...(input.completed !== undefined ? { completed: input.completed } : {}),
    };
    await updateFulfillmentRow(tctx.db, ctx.site.id, f);
    const activities = trackingActivities(old, f);
    if (activities.length === 0) activities.push(newActivity(statusOf(rec.order, list.map((x) => (x.id === f.id ? f : x))) === 'FULFILLED' ? 'ORDER_FULFILLED' : 'ORDER_NOT_FULFILLED'));
    return next(rec, list.map((x) => (x.id === f.id ? f : x)), activities, { action: 'UPDATED', fulfillmentId });
  });
  return listForOrder(ctx, orderId);
}

export async function deleteFulfillment(ctx: RequestContext, orderId: string, fulfillmentId: string): Promise<OrderWithFulfillments> {
  await changeOrder(ctx, orderId, async (tctx, rec) => {
    const list = (await findFulfillments(tctx.db, ctx.site.id, [orderId])).get(orderId)!;
    if (!list.some((f) => f.id === fulfillmentId)) throw notFound('FULFILLMENT_NOT_FOUND', `Order ${orderId} has no fulfillment ${fulfillmentId}`, { orderId, fulfillmentId });
    await deleteFulfillmentRow(tctx.db, ctx.site.id, fulfillmentId);
    return next(rec, list.filter((f) => f.id !== fulfillmentId), [newActivity('ORDER_NOT_FULFILLED')], { action: 'DELETED', fulfillmentId });
  });
  return listForOrder(ctx, orderId);
}

export async function bulkCreateFulfillments(ctx: RequestContext, items: { orderId: string; fulfillments: FulfillmentInput[] }[]): Promise<(BulkItem<OrderWithFulfillments> | BulkFailure)[]> {
  return eachItem(items, (i) => i.orderId, async (item) => {
    // One order's fulfillments together: all of them or none.
    return inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      for (const [i, f] of item.fulfillments.entries()) await createFulfillment(tctx, item.orderId, f, `fulfillments[${i}]`);
      return listForOrder(tctx, item.orderId);
    });
  });
}

export async function listForOrder(ctx: RequestContext, orderId: string): Promise<OrderWithFulfillments> {
  const [one] = await listForOrders(ctx, [orderId], true);
  return one!;
}

/** Fulfillments per order, in the order asked; unknown ids are 404 when `strict`, else skipped. */
export async function listForOrders(ctx: RequestContext, orderIds: string[], strict = false): Promise<OrderWithFulfillments[]> {
  const found = new Set((await findOrders(ctx.db, ctx.site.id, orderIds)).map((r) => r.order.id));
  const missing = orderIds.find((id) => !found.has(id));
  if (strict && missing) throw orderNotFound(missing);
  const map = await findFulfillments(ctx.db, ctx.site.id, orderIds.filter((id) => found.has(id)));
  return [...new Set(orderIds)].filter((id) => found.has(id)).map((id) => ({ orderId: id, fulfillments: map.get(id) ?? [] }));
}
