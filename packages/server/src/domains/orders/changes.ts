import type { z } from 'zod';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound, ValidationError, violation } from '../../http/errors.js';
import { violationsFromZod } from '../../http/zod-violations.js';
import { ACTIVITIES_PER_ORDER_MAX, TAGS_MAX } from './limits.js';
import type { Order, OrderActivity, OrderActivityInput, OrderLineItemPatch, OrderPatch, OrderRecord, OrderTags } from './model.js';
import { changeOrder, newActivity, type OrderEvent } from './record.js';
import { LINE_ITEM_PATCH_FIELDS, lineItemPatch, ORDER_PATCH_FIELDS, orderPatch } from './schema.js';

/** Owner changes of an order: fields (with a field mask), line item details, tags and activities. */

function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw violationsFromZod(r.error.issues, prefix);
  return r.data;
}

function checkMask(mask: string[] | undefined, allowed: readonly string[], field: string): string[] | undefined {
  if (!mask) return undefined;
  const top = mask.map((p) => p.split('.')[0]!);
  const bad = top.find((p) => !allowed.includes(p));
  if (bad) throw violation(field, `"${bad}" cannot be updated here (allowed: ${allowed.join(', ')})`, 'FIELD_NOT_ALLOWED');
  return [...new Set(top)];
}

function pick<T extends object>(input: T, keys: readonly string[], mask: string[] | undefined): Partial<T> {
  const names = mask ?? keys.filter((k) => k in input);
  return Object.fromEntries(names.map((k) => [k, (input as Record<string, unknown>)[k]])) as Partial<T>;
}

/**
 * updateOrder: the fields named by the mask (or given, without one) among buyer, addresses, notes,
 * custom fields, archived, seen and channel. Totals, statuses, lines and payments have their own
 * calls (a mask naming them is FIELD_NOT_ALLOWED). SHIPPING_ADDRESS_EDITED / EMAIL_EDITED activities.
 */
export async function updateOrder(ctx: RequestContext, orderId: string, raw: unknown, mask: string[] | undefined, field = 'order'): Promise<Order> {
  const input: OrderPatch = parseWith(orderPatch, raw, field);
  if (input.id !== orderId) throw violation(`${field}.id`, 'must be the id of the order in the path', 'FORMAT');
  const names = checkMask(mask, ORDER_PATCH_FIELDS, 'fieldMask');
  const patch = pick(input, ORDER_PATCH_FIELDS, names);
  const rec = await changeOrder(ctx, orderId, async (_tctx, rec) => {
    const before = rec.order;
    const order: Order = { ...before, ...patch, activities: [...before.activities] } as Order;
    if ('buyerNote' in patch && patch.buyerNote === undefined) delete order.buyerNote;
    order.buyerInfo = patch.buyerInfo ?? before.buyerInfo;
    order.channelInfo = patch.channelInfo ?? before.channelInfo;
    if (patch.shippingInfo && JSON.stringify(patch.shippingInfo) !== JSON.stringify(before.shippingInfo)) order.activities.push(newActivity('SHIPPING_ADDRESS_EDITED'));
    if (patch.buyerInfo && patch.buyerInfo.email !== before.buyerInfo.email) order.activities.push(newActivity('EMAIL_EDITED'));
    return { rec: { ...rec, order }, events: [{ slug: 'updated' }] };
  });
  return rec.order;
}

export interface BulkItem<T> { ok: true; id: string; value: T }
export interface BulkFailure { ok: false; id: string | undefined; error: { code: string; description: string; data: Record<string, unknown> } }

/** Runs each item in its own transaction: one failing item does not undo the others. */
export async function eachItem<I, T>(items: I[], idOf: (i: I) => string | undefined, fn: (i: I) => Promise<T>): Promise<(BulkItem<T> | BulkFailure)[]> {
  const out: (BulkItem<T> | BulkFailure)[] = [];
  for (const item of items) {
    const id = idOf(item);
    try {
      out.push({ ok: true, id: id ?? '', value: await fn(item) });
    } catch (error) {
      if (error instanceof ApplicationError) out.push({ ok: false, id, error: { code: error.code, description: error.description, data: error.data } });
      else if (error instanceof ValidationError) out.push({ ok: false, id, error: { code: 'INVALID_ARGUMENT', description: error.violations.map((v) => `${v.field}: ${v.description}`).join('; '), data: { violations: error.violations } } });
      else throw error;
    }
  }
  return out;
}

export async function bulkUpdateOrders(ctx: RequestContext, items: { order: { id: string } & Record<string, unknown>; fieldMask?: string[] | undefined }[]): Promise<(BulkItem<Order> | BulkFailure)[]> {
  return eachItem(items, (i) => i.order.id, (i) => updateOrder(ctx, i.order.id, i.order, i.fieldMask, 'order'));
}

/** Display details of one line (name, description lines, image, physical properties, fulfiller). */
export async function updateOrderLineItem(ctx: RequestContext, orderId: string, lineItemId: string | undefined, raw: unknown, mask: string[] | undefined): Promise<Order> {
  const input: OrderLineItemPatch = parseWith(lineItemPatch, raw, 'lineItem');
  if (lineItemId !== undefined && lineItemId !== input.id) throw violation('lineItem.id', 'must be the line item id of the path', 'FORMAT');
  const names = checkMask(mask, LINE_ITEM_PATCH_FIELDS, 'fieldMask');
  const patch = pick(input, LINE_ITEM_PATCH_FIELDS, names);
  const rec = await changeOrder(ctx, orderId, async (_tctx, rec) => {
    const index = rec.order.lineItems.findIndex((li) => li.id === input.id);
    if (index < 0) throw notFound('LINE_ITEM_NOT_FOUND', `Order ${orderId} has no line item ${input.id}`, { orderId, lineItemId: input.id });
    const lineItems = [...rec.order.lineItems];
    lineItems[index] = { ...lineItems[index]!, ...patch } as Order['lineItems'][number];
    return { rec: { ...rec, order: { ...rec.order, lineItems } }, events: [{ slug: 'updated' }] };
  });
  return rec.order;
}

// ---------------------------------------------------------------------------------------------
// Tags

function merged(current: string[] | undefined, assign: string[] | undefined, unassign: string[] | undefined, field: string): string[] {
  const out = [...new Set([...(current ?? []), ...(assign ?? [])])].filter((t) => !(unassign ?? []).includes(t));
  if (out.length > TAGS_MAX) throw violation(field, `an order holds at most ${TAGS_MAX} tags of a kind`, 'MAX_SIZE', { max: TAGS_MAX });
  return out;
}

export async function bulkUpdateOrderTags(ctx: RequestContext, orderIds: string[], assign: OrderTags | undefined, unassign: OrderTags | undefined): Promise<(BulkItem<Order> | BulkFailure)[]> {
  return eachItem(orderIds, (id) => id, async (orderId) => (await changeOrder(ctx, orderId, async (_tctx, rec) => {
    const tags: OrderTags = {
      privateTags: { tagIds: merged(rec.order.tags.privateTags?.tagIds, assign?.privateTags?.tagIds, unassign?.privateTags?.tagIds, 'assignTags.privateTags.tagIds') },
      tags: { tagIds: merged(rec.order.tags.tags?.tagIds, assign?.tags?.tagIds, unassign?.tags?.tagIds, 'assignTags.tags.tagIds') },
    };
    if (JSON.stringify(tags) === JSON.stringify(rec.order.tags)) return undefined;
    return { rec: { ...rec, order: { ...rec.order, tags } }, events: [{ slug: 'updated' }] };
  })).order);
}

// ---------------------------------------------------------------------------------------------
// Activities

function activityOf(input: OrderActivityInput, index: number | undefined): OrderActivity {
  const at = index === undefined ? 'activity' : `orderActivities[${index}]`;
  if (!!input.merchantComment === !!input.customActivity) throw violation(at, 'takes exactly one of merchantComment or customActivity', 'REQUIRED_ONE_OF_FIELD');
  const author = input.authorEmail ? { authorEmail: input.authorEmail } : {};
  return input.merchantComment
    ? newActivity('MERCHANT_COMMENT', { merchantComment: input.merchantComment, ...author })
    : newActivity('CUSTOM_ACTIVITY', { customActivity: input.customActivity!, ...author });
}

export async function addActivities(ctx: RequestContext, orderId: string, inputs: OrderActivityInput[], single: boolean): Promise<{ order: Order; activityIds: string[] }> {
  const added = inputs.map((a, i) => activityOf(a, single ? undefined : i));
  const rec = await changeOrder(ctx, orderId, async (_tctx, rec) => {
    if (rec.order.activities.length + added.length > ACTIVITIES_PER_ORDER_MAX) {
      throw conflict('ACTIVITIES_LIMIT_REACHED', `An order keeps at most ${ACTIVITIES_PER_ORDER_MAX} activities`, { max: ACTIVITIES_PER_ORDER_MAX });
    }
    return { rec: { ...rec, order: { ...rec.order, activities: [...rec.order.activities, ...added] } }, events: [{ slug: 'updated' }] };
  });
  return { order: rec.order, activityIds: added.map((a) => a.id) };
}

/** Only merchant comments and custom activities (the caller's own kinds) may be edited or deleted. */
function editable(rec: OrderRecord, activityId: string): number {
  const index = rec.order.activities.findIndex((a) => a.id === activityId);
  if (index < 0) throw notFound('ACTIVITY_NOT_FOUND', `Order ${rec.order.id} has no activity ${activityId}`, { orderId: rec.order.id, activityId });
  const type = rec.order.activities[index]!.type;
  if (type !== 'MERCHANT_COMMENT' && type !== 'CUSTOM_ACTIVITY') {
    throw conflict('ACTIVITY_NOT_EDITABLE', `A ${type} activity is written by the system and cannot be changed`, { activityId, type });
  }
  return index;
}

export async function updateActivity(ctx: RequestContext, orderId: string, activityId: string, input: OrderActivityInput): Promise<Order> {
  const next = activityOf(input, undefined);
  const rec = await changeOrder(ctx, orderId, async (_tctx, rec) => {
    const index = editable(rec, activityId);
    const activities = [...rec.order.activities];
    const old = activities[index]!;
    if (old.type !== next.type) throw conflict('ACTIVITY_TYPE_MISMATCH', `Activity ${activityId} is a ${old.type}`, { activityId, type: old.type });
    activities[index] = { ...next, id: old.id, createdDate: old.createdDate };
    return { rec: { ...rec, order: { ...rec.order, activities } }, events: [{ slug: 'updated' }] };
  });
  return rec.order;
}

export async function deleteActivity(ctx: RequestContext, orderId: string, activityId: string): Promise<Order> {
  const rec = await changeOrder(ctx, orderId, async (_tctx, rec) => {
    const index = editable(rec, activityId);
    const events: OrderEvent[] = [{ slug: 'updated' }];
    return { rec: { ...rec, order: { ...rec.order, activities: rec.order.activities.filter((_, i) => i !== index) } }, events };
  });
  return rec.order;
}
