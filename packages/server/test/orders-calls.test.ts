/**
 * Every orders, fulfillments and orders-settings call over real HTTP (SQLite, or PostgreSQL with
 * DATABASE_URL): answers, rows, stock, activities and events, and bad input refused with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { waitFor } from './events-support.js';
import { eventSlugs, onHand, STORES_APP_ID, v1Product, v3Product } from './orders-support.js';
import { applyPaymentUpdate } from '../src/domains/orders/index.js';
import type { RequestContext } from '../src/http/context.js';

let t: TestServer;
let ctx: RequestContext;
beforeAll(async () => {
  t = await startTestServer();
  ctx = serviceContext(t);
});
afterAll(() => t?.close());

const O = '/ecom/v1/orders';
const owner = (body?: unknown, method?: string) => ({ ...asOwner(t), ...(body !== undefined ? { body } : {}), ...(method ? { method } : {}) });
const line = (ref: { productId: string; variantId: string }, quantity: number, price = '5.00', id?: string) => ({
  ...(id ? { id } : {}), productName: { original: 'Thing' }, quantity, price: { amount: price },
  catalogReference: { catalogItemId: ref.productId, appId: STORES_APP_ID, options: { variantId: ref.variantId } },
});
async function createOrder(lines: ReturnType<typeof line>[], extra: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const res = await call(t.url, O, owner({ order: { lineItems: lines, buyerInfo: { email: 'buyer@example.com' }, ...extra } }));
  if (res.status !== 200) throw new Error(`createOrder ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.order;
}
const orderRows = async () => Number((await ctx.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', t.site.id).executeTakeFirstOrThrow()).n);
const types = (order: Record<string, any>): string[] => order.activities.map((a: { type: string }) => a.type); // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON

describe('create, get, search', () => {
  it('creates an order (stock taken, placed activity, created and approved events) and reads it back', async () => {
    const ref = await v1Product(t, 'Mug', 10);
    const order = await createOrder([line(ref, 3, '4.50', 'l1')]);
    expect(order).toMatchObject({
      number: '10001', status: 'APPROVED', paymentStatus: 'NOT_PAID', fulfillmentStatus: 'NOT_FULFILLED', currency: 'USD', archived: false,
      priceSummary: { subtotal: { amount: '13.50' }, total: { amount: '13.50' }, tax: { amount: '0.00' } },
      balanceSummary: { balance: { amount: '13.50' }, paid: { amount: '0.00' } },
      lineItems: [{ id: 'l1', quantity: 3, price: { amount: '4.50', formattedAmount: '$4.50' }, restockQuantity: 0 }],
      channelInfo: { type: 'BACKOFFICE_MERCHANT' }, createdBy: { userId: expect.any(String) },
    });
    expect(types(order)).toEqual(['ORDER_PLACED']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 7, reserved: 0 });
    expect(await eventSlugs(ctx, order.id)).toEqual(['created', 'approved']);
    const got = await call(t.url, `${O}/${order.id}`, owner());
    expect(got.status).toBe(200);
    expect(got.body.order).toEqual(order);
    const missing = await call(t.url, `${O}/nope`, owner());
    expect([missing.status, missing.body.details.applicationError.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });

  it('answers a repeated create with the same Idempotency-Key with the first order, once', async () => {
    const ref = await v1Product(t, 'Idempotent', 5);
    const before = await orderRows();
    const send = () => call(t.url, O, { ...owner({ order: { lineItems: [line(ref, 2)] } }), headers: { 'idempotency-key': 'create-order-once' } });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.body.order.id).toBe(first.body.order.id);
    expect(await orderRows()).toBe(before + 1);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 3, reserved: 0 });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const ref = await v1Product(t, 'Plate', 5);
    const before = await orderRows();
    const zero = await call(t.url, O, owner({ order: { lineItems: [line(ref, 0)] } }));
    expect(zero.status).toBe(400);
    expect(zero.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['order.lineItems[0].quantity']);
    const sums = await call(t.url, O, owner({ order: { lineItems: [line(ref, 1)], priceSummary: { subtotal: { amount: '5' }, shipping: { amount: '1' }, tax: { amount: '0' }, discount: { amount: '0' }, total: { amount: '5' } } } }));
    expect(sums.status).toBe(400);
    expect(sums.body.details.validationError.fieldViolations[0].field).toBe('order.priceSummary.total');
    const short = await call(t.url, O, owner({ order: { lineItems: [line(ref, 6)] } }));
    expect([short.status, short.body.details.applicationError.code]).toEqual([409, 'INSUFFICIENT_STOCK']);
    const decimals = await call(t.url, O, owner({ order: { lineItems: [line(ref, 1, '1.001')] } }));
    expect(decimals.status).toBe(400);
    expect(await orderRows()).toBe(before);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 5, reserved: 0 });
  });

  it('searches with filter, sort and cursor paging; refuses unknown fields and forged cursors', async () => {
    const ref = await v3Product(t, 'Search Cap', 100);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createOrder([line(ref, 1)], { buyerInfo: { email: `s${i}@example.com` } }));
    const filter = { number: { $in: made.map((o) => o.number) } };
    const first = await call(t.url, `${O}/search`, owner({ search: { filter, sort: [{ fieldName: 'number', order: 'ASC' }], cursorPaging: { limit: 2 } } }));
    expect(first.status).toBe(200);
    expect(first.body.orders.map((o: { number: string }) => o.number)).toEqual(made.slice(0, 2).map((o) => o.number));
    expect(first.body.metadata).toMatchObject({ count: 2, hasNext: true, cursors: { prev: null } });
    // An owner's page is spliced from the stored documents: each order exactly as a get answers it, keys in the same order.
    for (const listed of first.body.orders as { id: string }[]) {
      const got = await call(t.url, `${O}/${listed.id}`, owner());
      expect(JSON.stringify(listed)).toBe(JSON.stringify(got.body.order));
    }
    const second = await call(t.url, `${O}/search`, owner({ search: { cursorPaging: { cursor: first.body.metadata.cursors.next } } }));
    expect(second.body.orders.map((o: { number: string }) => o.number)).toEqual(made.slice(2, 4).map((o) => o.number));
    const third = await call(t.url, `${O}/search`, owner({ search: { cursorPaging: { cursor: second.body.metadata.cursors.next } } }));
    expect(third.body.orders.map((o: { number: string }) => o.number)).toEqual([made[4]!.number]);
    expect(third.body.metadata.hasNext).toBe(false);
    const byEmail = await call(t.url, `${O}/search`, owner({ search: { filter: { 'buyerInfo.email': 's3@example.com' } } }));
    expect(byEmail.body.orders.map((o: { id: string }) => o.id)).toEqual([made[3]!.id]);
    const bad = await call(t.url, `${O}/search`, owner({ search: { filter: { secret: 1 } } }));
    expect([bad.status, bad.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'search.filter.secret']);
    const forged = await call(t.url, `${O}/search`, owner({ search: { cursorPaging: { cursor: `${first.body.metadata.cursors.next}x` } } }));
    expect(forged.status).toBe(400);
    const big = await call(t.url, `${O}/search`, owner({ search: { cursorPaging: { limit: 101 } } }));
    expect(big.status).toBe(400);
  });
});

describe('updates, line items, activities, tags', () => {
  it('updates fields by mask (others refused), records edit activities, and updates many', async () => {
    const ref = await v1Product(t, 'Vase', 10);
    const order = await createOrder([line(ref, 1)]);
    const res = await call(t.url, `${O}/${order.id}`, owner({ order: { id: order.id, buyerNote: 'leave at door', archived: true }, fieldMask: 'buyerNote' }, 'PATCH'));
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ buyerNote: 'leave at door', archived: false });
    const masked = await call(t.url, `${O}/${order.id}`, owner({ order: { id: order.id }, fieldMask: 'status' }, 'PATCH'));
    expect([masked.status, masked.body.details.validationError.fieldViolations[0].violatedRule]).toEqual([400, 'FIELD_NOT_ALLOWED']);
    const totals = await call(t.url, `${O}/${order.id}`, owner({ order: { id: order.id, priceSummary: {} } }, 'PATCH'));
    expect(totals.status).toBe(400);
    const ship = await call(t.url, `${O}/${order.id}`, owner({ order: { id: order.id, shippingInfo: { title: 'Courier' }, buyerInfo: { email: 'new@example.com' } } }, 'PATCH'));
    expect(types(ship.body.order)).toEqual(['ORDER_PLACED', 'SHIPPING_ADDRESS_EDITED', 'EMAIL_EDITED']);

    const other = await createOrder([line(ref, 1)]);
    const bulk = await call(t.url, '/ecom/v1/bulk/orders/update', owner({ orders: [{ order: { id: other.id, archived: true } }, { order: { id: 'missing', archived: true } }], returnEntity: true }));
    expect(bulk.status).toBe(200);
    expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(bulk.body.results[0]).toMatchObject({ itemMetadata: { id: other.id, originalIndex: 0, success: true }, item: { id: other.id, archived: true } });
    expect(bulk.body.results[1].itemMetadata).toMatchObject({ id: 'missing', success: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('updates a line item, adds / updates / deletes activities, assigns and unassigns tags', async () => {
    const ref = await v1Product(t, 'Bowl', 10);
    const order = await createOrder([line(ref, 1, '5.00', 'bowl')]);
    const li = await call(t.url, `${O}/${order.id}/line-item/bowl`, owner({ lineItem: { id: 'bowl', productName: { original: 'Big bowl' } } }, 'PATCH'));
    expect(li.body.order.lineItems[0].productName).toEqual({ original: 'Big bowl' });
    const liMissing = await call(t.url, `${O}/${order.id}/line-item/zzz`, owner({ lineItem: { id: 'zzz', image: null } }, 'PATCH'));
    expect(liMissing.body.details.applicationError.code).toBe('LINE_ITEM_NOT_FOUND');

    const one = await call(t.url, `${O}/${order.id}/activities`, owner({ activity: { merchantComment: { message: 'called the buyer' } } }));
    expect(one.status).toBe(200);
    const many = await call(t.url, `${O}/${order.id}/activities/add`, owner({ orderActivities: [{ merchantComment: { message: 'second' } }, { customActivity: { appId: 'app-1', type: 'SYNCED' } }] }));
    expect(many.body.activityIds).toHaveLength(2);
    expect(types(many.body.order)).toEqual(['ORDER_PLACED', 'MERCHANT_COMMENT', 'MERCHANT_COMMENT', 'CUSTOM_ACTIVITY']);
    const both = await call(t.url, `${O}/${order.id}/activities`, owner({ activity: { merchantComment: { message: 'x' }, customActivity: { appId: 'a', type: 'T' } } }));
    expect(both.status).toBe(400);
    const edited = await call(t.url, `${O}/${order.id}/activities/${one.body.activityId}`, owner({ activity: { merchantComment: { message: 'called twice' } } }, 'PATCH'));
    expect(edited.body.order.activities.find((a: { id: string }) => a.id === one.body.activityId).merchantComment).toEqual({ message: 'called twice' });
    const placedId = order.activities[0].id;
    const system = await call(t.url, `${O}/${order.id}/activities/${placedId}`, owner(undefined, 'DELETE'));
    expect([system.status, system.body.details.applicationError.code]).toEqual([409, 'ACTIVITY_NOT_EDITABLE']);
    const deleted = await call(t.url, `${O}/${order.id}/activities/${one.body.activityId}`, owner(undefined, 'DELETE'));
    expect(types(deleted.body.order)).toEqual(['ORDER_PLACED', 'MERCHANT_COMMENT', 'CUSTOM_ACTIVITY']);

    const tagged = await call(t.url, '/ecom/v1/bulk/orders/update-tags', owner({ orderIds: [order.id, 'missing'], assignTags: { privateTags: { tagIds: ['vip', 'gift'] } } }));
    expect(tagged.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    await call(t.url, '/ecom/v1/bulk/orders/update-tags', owner({ orderIds: [order.id], unassignTags: { privateTags: { tagIds: ['gift'] } } }));
    const got = await call(t.url, `${O}/${order.id}`, owner());
    expect(got.body.order.tags).toEqual({ privateTags: { tagIds: ['vip'] }, tags: { tagIds: [] } });
    const byTag = await call(t.url, `${O}/search`, owner({ search: { filter: { 'tags.privateTags.tagIds': { $hasSome: ['vip'] } } } }));
    expect(byTag.body.orders.map((o: { id: string }) => o.id)).toEqual([order.id]);
    const slugs = await eventSlugs(ctx, order.id);
    expect(slugs.filter((s) => s === 'updated')).toHaveLength(7);
  });
});

describe('cancel, status, aggregate, numbers, import', () => {
  it('cancels once with restock (a second cancel changes nothing) and moves statuses only along allowed paths', async () => {
    const ref = await v1Product(t, 'Lamp', 10);
    const order = await createOrder([line(ref, 4)]);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 6, reserved: 0 });
    const res = await call(t.url, `${O}/${order.id}/cancel`, owner({ sendOrderCanceledEmail: true, customMessage: 'Sorry', restockAllItems: true }));
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'CANCELED', lineItems: [{ restockQuantity: 4 }] });
    expect(types(res.body.order)).toEqual(['ORDER_PLACED', 'ORDER_CANCELED']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 10, reserved: 0 });
    const again = await call(t.url, `${O}/${order.id}/cancel`, owner({ restockAllItems: true }));
    expect([again.status, again.body.details.applicationError.code]).toEqual([409, 'ORDER_ALREADY_CANCELED']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 10, reserved: 0 });
    expect(await eventSlugs(ctx, order.id)).toEqual(['created', 'approved', 'canceled', 'updated']);

    const keep = await createOrder([line(ref, 1)]);
    const noRestock = await call(t.url, `${O}/${keep.id}/cancel`, owner({}));
    expect(noRestock.body.order.status).toBe('CANCELED');
    expect(await onHand(ctx, ref)).toEqual({ quantity: 9, reserved: 0 });

    const fresh = await createOrder([line(ref, 1)], { status: 'INITIALIZED' });
    const pending = await call(t.url, `${O}/${fresh.id}/update-status`, owner({ status: 'PENDING' }));
    expect(pending.body.order.status).toBe('PENDING');
    expect(types(pending.body.order)).toEqual(['ORDER_PLACED', 'ORDER_PENDING']);
    const approved = await call(t.url, `${O}/${fresh.id}/update-status`, owner({ status: 'APPROVED' }));
    expect(approved.body.order.status).toBe('APPROVED');
    const back = await call(t.url, `${O}/${fresh.id}/update-status`, owner({ status: 'PENDING' }));
    expect([back.status, back.body.details.applicationError.code]).toEqual([409, 'ORDER_STATUS_TRANSITION_NOT_ALLOWED']);
    const bad = await call(t.url, `${O}/${fresh.id}/update-status`, owner({ status: 'SHIPPED' }));
    expect(bad.status).toBe(400);
  });

  it('aggregates counts and exact totals by status and currency', async () => {
    const ref = await v1Product(t, 'Agg', 100);
    const a = await createOrder([line(ref, 1, '0.10')], { buyerInfo: { email: 'agg@example.com' } });
    await createOrder([line(ref, 2, '0.10')], { buyerInfo: { email: 'agg@example.com' } });
    await call(t.url, `${O}/${a.id}/cancel`, owner({}));
    const res = await call(t.url, `${O}/aggregate`, owner({ filter: { 'buyerInfo.email': 'agg@example.com' }, aggregation: { groupBy: ['status'], sum: ['total'] } }));
    expect(res.status).toBe(200);
    expect(res.body.aggregates.groups).toEqual([
      { key: { status: 'APPROVED', currency: 'USD' }, count: 1, sums: { total: '0.20' } },
      { key: { status: 'CANCELED', currency: 'USD' }, count: 1, sums: { total: '0.10' } },
    ]);
    const day = await call(t.url, `${O}/aggregate`, owner({ filter: { 'buyerInfo.email': 'agg@example.com' }, aggregation: { groupBy: ['day'] } }));
    expect(day.body.aggregates.groups).toEqual([{ key: { day: new Date().toISOString().slice(0, 10) }, count: 2, sums: {} }]);
    const bad = await call(t.url, `${O}/aggregate`, owner({ aggregation: { groupBy: ['buyerInfo.email'] } }));
    expect(bad.status).toBe(400);
  });

  it('sets the order number counter, imports orders and deletes imported ones in a job', async () => {
    const set = await call(t.url, `${O}/import/set-order-number-counter`, owner({ counter: '50000' }));
    expect(set.status).toBe(200);
    expect(set.body.newCounter).toBe('50000');
    const ref = await v1Product(t, 'Numbered', 10);
    const next = await createOrder([line(ref, 1)]);
    expect(next.number).toBe('50001');
    const lower = await call(t.url, `${O}/import/set-order-number-counter`, owner({ counter: '100' }));
    expect([lower.status, lower.body.details.applicationError.code]).toEqual([409, 'COUNTER_LOWER_THAN_CURRENT']);
    // An import took the number the counter gives next: the next order skips it.
    const aside = await v1Product(t, 'Numbered aside', 10);
    const ahead = await call(t.url, `${O}/import`, owner({ order: { number: '50002', lineItems: [line(aside, 1)], paymentStatus: 'PAID', channelInfo: { type: 'OTHER_PLATFORM' } } }));
    expect(ahead.status).toBe(200);
    expect((await createOrder([line(aside, 1)])).number).toBe('50003');

    const imported = await call(t.url, `${O}/import`, owner({ order: { number: '70000', lineItems: [line(ref, 2)], paymentStatus: 'PAID', channelInfo: { type: 'OTHER_PLATFORM' } } }));
    expect(imported.status).toBe(200);
    expect(imported.body.order).toMatchObject({ number: '70000', imported: true, paymentStatus: 'PAID', balanceSummary: { paid: { amount: '10.00' } } });
    expect(await onHand(ctx, ref)).toEqual({ quantity: 9, reserved: 0 });
    const taken = await call(t.url, `${O}/import`, owner({ order: { number: '70000', lineItems: [line(ref, 1)] } }));
    expect([taken.status, taken.body.details.applicationError.code]).toEqual([409, 'ORDER_NUMBER_TAKEN']);
    expect(await eventSlugs(ctx, imported.body.order.id)).toEqual(['imported']);

    const del = await call(t.url, `${O}/import/bulk-delete-imported-orders`, owner({ orderIds: [imported.body.order.id, next.id] }));
    expect(del.status).toBe(200);
    expect(typeof del.body.jobId).toBe('string');
    await waitFor(async () => (await call(t.url, `${O}/${imported.body.order.id}`, owner())).status === 404, 10_000, 'the imported order deleted');
    expect((await call(t.url, `${O}/${next.id}`, owner())).status).toBe(200);
  });
});

describe('order edits (commit-deltas)', () => {
  it('applies line changes with stock and totals once, and refuses orders that cannot be edited', async () => {
    const ref = await v1Product(t, 'Editable', 20);
    const other = await v3Product(t, 'Added', 20);
    const order = await createOrder([line(ref, 2, '5.00', 'e1')]);
    const res = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({
      draftOrderId: 'draft-1', reason: 'buyer called',
      changes: { lineItems: [{ lineItemId: 'e1', changedDetails: { quantity: 5 } }, { lineItemAdded: true, lineItem: line(other, 1, '3.00', 'e2') }] },
    }));
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ lineItems: [{ id: 'e1', quantity: 5 }, { id: 'e2', quantity: 1 }], priceSummary: { subtotal: { amount: '28.00' }, total: { amount: '28.00' } } });
    expect(types(res.body.order)).toEqual(['ORDER_PLACED', 'DRAFT_ORDER_CHANGES_APPLIED']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 15, reserved: 0 });
    expect(await onHand(ctx, other)).toEqual({ quantity: 19, reserved: 0 });
    expect(await eventSlugs(ctx, order.id)).toEqual(['created', 'approved', 'committed', 'updated']);
    const again = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({ draftOrderId: 'draft-1', changes: { lineItems: [{ lineItemId: 'e1', changedDetails: { quantity: 1 } }] } }));
    expect([again.status, again.body.details.applicationError.code]).toEqual([409, 'DRAFT_ORDER_ALREADY_COMMITTED']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 15, reserved: 0 });

    const foreign = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({ draftOrderId: 'draft-2', changes: { lineItems: [{ lineItemAdded: true, lineItem: { ...line(other, 1), catalogReference: { catalogItemId: 'x', appId: 'other-app' } } }] } }));
    expect(foreign.body.details.applicationError.code).toBe('UNSUPPORTED_CATALOG_ITEM');
    const sums = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({ draftOrderId: 'draft-3', changes: { lineItems: [{ lineItemId: 'e1', lineItemRemoved: true }], priceSummary: { subtotal: { amount: '28.00' }, shipping: { amount: '0' }, tax: { amount: '0' }, discount: { amount: '0' }, total: { amount: '28.00' } } } }));
    expect(sums.body.details.applicationError.code).toBe('AMOUNTS_DO_NOT_ADD_UP');
    expect((await call(t.url, `${O}/${order.id}`, owner())).body.order.lineItems).toHaveLength(2);

    const reasons: [Record<string, unknown>, string][] = [
      [{ status: 'CANCELED' }, 'ORDER_STATUS_NOT_SUPPORTED'],
      [{ channelInfo: { type: 'EBAY' } }, 'UNSUPPORTED_CHANNEL_TYPE'],
      [{ currency: 'EUR' }, 'INCONSISTENT_ORDER_AND_SITE_CURRENCIES'],
      [{ weightUnit: 'LB' }, 'INCONSISTENT_WEIGHT_UNITS'],
      [{ additionalFees: [{ name: 'Handling', price: { amount: '1.00' }, taxDetails: { taxRate: '0.2' } }], priceSummary: { subtotal: { amount: '5.00' }, shipping: { amount: '0' }, tax: { amount: '0' }, discount: { amount: '0' }, totalAdditionalFees: { amount: '1.00' }, total: { amount: '6.00' } } }, 'TAXABLE_EXISTING_ADDITIONAL_FEE'],
      [{ paymentStatus: 'PARTIALLY_REFUNDED' }, 'ORDER_PARTIALLY_OR_FULLY_REFUNDED'],
    ];
    for (const [extra, code] of reasons) {
      const o = await call(t.url, `${O}/import`, owner({ order: { lineItems: [line(ref, 1)], channelInfo: { type: 'WEB' }, ...extra } }));
      expect(o.status).toBe(200);
      const r = await call(t.url, `${O}/${o.body.order.id}/commit-deltas`, owner({ draftOrderId: `d-${code}`, changes: {} }));
      expect([r.status, r.body.details.applicationError.code]).toEqual([409, code]);
    }
    const sub = await call(t.url, `${O}/import`, owner({ order: { lineItems: [{ ...line(ref, 1), subscriptionInfo: { cycleNumber: 1 } }], channelInfo: { type: 'WEB' } } }));
    const subRes = await call(t.url, `${O}/${sub.body.order.id}/commit-deltas`, owner({ draftOrderId: 'd-sub', changes: {} }));
    expect(subRes.body.details.applicationError.code).toBe('SUBSCRIPTION_LINE_ITEM_EXISTS');
    const none = await call(t.url, `${O}/missing/commit-deltas`, owner({ draftOrderId: 'd-none', changes: {} }));
    expect([none.status, none.body.details.applicationError.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });
});

describe('order edits keep the order\'s tax and balance true', () => {
  it('a quantity raised on a paid, taxed order: the line keeps its rate, the tax grows with it, the rest is left to pay', async () => {
    const ref = await v1Product(t, 'Taxed box', 20);
    const taxed = { ...line(ref, 2, '48.00', 't1'), taxDetails: { taxRate: '0.08', totalTax: { amount: '7.68' } }, totalPriceBeforeTax: { amount: '96.00' }, totalPriceAfterTax: { amount: '103.68' } };
    const imported = await call(t.url, `${O}/import`, owner({ order: {
      lineItems: [taxed], channelInfo: { type: 'WEB' }, paymentStatus: 'PAID',
      priceSummary: { subtotal: { amount: '96.00' }, shipping: { amount: '0' }, tax: { amount: '7.68' }, discount: { amount: '0' }, total: { amount: '103.68' } },
    } }));
    expect(imported.status).toBe(200);
    const id = imported.body.order.id as string;
    const res = await call(t.url, `${O}/${id}/commit-deltas`, owner({ draftOrderId: 'taxed-3', changes: { lineItems: [{ lineItemId: 't1', changedDetails: { quantity: 3 } }] } }));
    expect(res.status).toBe(200);
    const o = res.body.order;
    expect([o.lineItems[0].totalPriceBeforeTax.amount, o.lineItems[0].taxDetails.totalTax.amount, o.lineItems[0].totalPriceAfterTax.amount]).toEqual(['144.00', '11.52', '155.52']);
    expect([o.priceSummary.subtotal.amount, o.priceSummary.tax.amount, o.priceSummary.total.amount]).toEqual(['144.00', '11.52', '155.52']);
    expect([o.paymentStatus, o.balanceSummary.paid.amount, o.balanceSummary.balance.amount]).toEqual(['PARTIALLY_PAID', '103.68', '51.84']);
  });

  it('a quantity lowered on a part-paid order to what was paid: PAID, with the paid activity and events, and nothing more to collect', async () => {
    const ref = await v1Product(t, 'Part-paid box', 20);
    const order = await createOrder([line(ref, 3, '10.00', 'pp1')]);
    const part = await call(t.url, `/ecom/v1/payments-collector/orders/${order.id}/manual-payment`, owner({ amount: { amount: '20.00' } }));
    expect([part.status, part.body]).toEqual([200, {}]);
    const res = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({ draftOrderId: 'part-paid-2', changes: { lineItems: [{ lineItemId: 'pp1', changedDetails: { quantity: 2 } }] } }));
    expect(res.status).toBe(200);
    const o = res.body.order;
    expect([o.paymentStatus, o.status, o.priceSummary.total.amount, o.balanceSummary.paid.amount, o.balanceSummary.balance.amount]).toEqual(['PAID', 'APPROVED', '20.00', '20.00', '0.00']);
    expect(types(o).slice(-2)).toEqual(['DRAFT_ORDER_CHANGES_APPLIED', 'ORDER_PAID']);
    expect((await eventSlugs(ctx, order.id)).slice(-3)).toEqual(['committed', 'payment_status_updated', 'updated']);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 18, reserved: 0 });
    const more = await call(t.url, `/ecom/v1/payments-collector/orders/${order.id}/manual-payment`, owner({ amount: { amount: '1.00' } }));
    expect([more.status, more.body.details.applicationError.code]).toEqual([409, 'ORDER_ALREADY_PAID']);
    const got = await call(t.url, `${O}/${order.id}`, owner());
    expect(got.body.order).toEqual(o);
  });
});

describe('order edit preview (preview-deltas)', () => {
  it('answers the order and totals the changes would give, stores nothing, and refuses what commit refuses', async () => {
    const ref = await v1Product(t, 'Previewed', 20);
    const other = await v3Product(t, 'Maybe added', 20);
    const order = await createOrder([line(ref, 2, '5.00', 'p1'), line(ref, 1, '2.50', 'p2')]);
    const before = (await call(t.url, `${O}/${order.id}`, owner())).body.order;
    const changes = { lineItems: [{ lineItemId: 'p1', changedDetails: { quantity: 4 } }, { lineItemId: 'p2', lineItemRemoved: true }, { lineItemAdded: true, lineItem: line(other, 2, '3.00', 'p3') }] };
    const res = await call(t.url, `${O}/${order.id}/preview-deltas`, owner({ changes }));
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({
      id: order.id, lineItems: [{ id: 'p1', quantity: 4 }, { id: 'p3', quantity: 2 }],
      priceSummary: { subtotal: { amount: '26.00' }, total: { amount: '26.00' } }, balanceSummary: { balance: { amount: '26.00' } },
    });
    expect(res.body.order.lineItems).toHaveLength(2);
    expect(types(res.body.order)).toEqual(['ORDER_PLACED']);
    expect(res.body.lineItemChanges).toEqual([
      { lineItemId: 'p1', quantityBefore: 2, quantityAfter: 4 }, { lineItemId: 'p2', quantityBefore: 1, quantityAfter: 0 }, { lineItemId: 'p3', quantityBefore: 0, quantityAfter: 2 },
    ]);
    // Nothing changed: the order, its stock, its events; the same changes still commit afterwards.
    expect((await call(t.url, `${O}/${order.id}`, owner())).body.order).toEqual(before);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 17, reserved: 0 });
    expect(await onHand(ctx, other)).toEqual({ quantity: 20, reserved: 0 });
    expect(await eventSlugs(ctx, order.id)).toEqual(['created', 'approved']);
    const bad = await call(t.url, `${O}/${order.id}/preview-deltas`, owner({ changes: { lineItems: [{ lineItemId: 'missing', lineItemRemoved: true }] } }));
    expect([bad.status, bad.body.details.applicationError.code]).toEqual([404, 'LINE_ITEM_NOT_FOUND']);
    const sums = await call(t.url, `${O}/${order.id}/preview-deltas`, owner({ changes: { ...changes, priceSummary: { subtotal: { amount: '30.00' }, shipping: { amount: '0' }, tax: { amount: '0' }, discount: { amount: '0' }, total: { amount: '30.00' } } } }));
    expect([sums.status, sums.body.details.applicationError.code]).toEqual([409, 'AMOUNTS_DO_NOT_ADD_UP']);
    const committed = await call(t.url, `${O}/${order.id}/commit-deltas`, owner({ draftOrderId: 'previewed', changes }));
    expect(committed.body.order.priceSummary).toEqual(res.body.order.priceSummary);
    expect(committed.body.order.lineItems).toEqual(res.body.order.lineItems);

    const canceled = await createOrder([line(ref, 1)]);
    await call(t.url, `${O}/${canceled.id}/cancel`, owner({}));
    const refused = await call(t.url, `${O}/${canceled.id}/preview-deltas`, owner({ changes: {} }));
    expect([refused.status, refused.body.details.applicationError.code]).toEqual([409, 'ORDER_STATUS_NOT_SUPPORTED']);
    const none = await call(t.url, `${O}/missing/preview-deltas`, owner({ changes: {} }));
    expect([none.status, none.body.details.applicationError.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });
});

describe('orders settings and the paid trigger', () => {
  it('holds stock until paid under ON_ORDER_PAID, with a settings-updated event', async () => {
    const got = await call(t.url, '/ecom/v1/orders-settings', owner());
    expect(got.body.ordersSettings).toMatchObject({ inventoryUpdateTrigger: 'ON_ORDER_PLACED', createInvoice: false });
    const bad = await call(t.url, '/ecom/v1/orders-settings', owner({ ordersSettings: { inventoryUpdateTrigger: 'SOMETIMES' } }, 'PATCH'));
    expect(bad.status).toBe(400);
    const set = await call(t.url, '/ecom/v1/orders-settings', owner({ ordersSettings: { inventoryUpdateTrigger: 'ON_ORDER_PAID' } }, 'PATCH'));
    expect(set.body.ordersSettings.inventoryUpdateTrigger).toBe('ON_ORDER_PAID');
    expect(await eventSlugs(ctx, t.site.id, 'wix.ecom.v1.orders_settings')).toEqual(['updated']);
    try {
      const ref = await v1Product(t, 'Paid Later', 10);
      const order = await createOrder([line(ref, 3)], { status: 'INITIALIZED' });
      expect(await onHand(ctx, ref)).toEqual({ quantity: 10, reserved: 3 });
      await applyPaymentUpdate(ctx, order.id, { paymentStatus: 'PAID', becamePaid: true });
      expect(await onHand(ctx, ref)).toEqual({ quantity: 7, reserved: 0 });
      const paid = await call(t.url, `${O}/${order.id}`, owner());
      expect(paid.body.order).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID', balanceSummary: { paid: { amount: '15.00' }, balance: { amount: '0.00' } } });
      expect(types(paid.body.order)).toEqual(['ORDER_PLACED', 'ORDER_PAID']);

      // Unpaid and canceled: the held units go back without restockAllItems.
      const unpaid = await createOrder([line(ref, 2)], { status: 'INITIALIZED' });
      expect(await onHand(ctx, ref)).toEqual({ quantity: 7, reserved: 2 });
      await call(t.url, `${O}/${unpaid.id}/cancel`, owner({}));
      expect(await onHand(ctx, ref)).toEqual({ quantity: 7, reserved: 0 });
    } finally {
      await call(t.url, '/ecom/v1/orders-settings', owner({ ordersSettings: { inventoryUpdateTrigger: 'ON_ORDER_PLACED' } }, 'PATCH'));
    }
  });
});

describe('fulfillments', () => {
  it('fulfills in parts within the ordered quantities; status, activities and events follow', async () => {
    const ref = await v1Product(t, 'Shipped', 20);
    const order = await createOrder([line(ref, 3, '5.00', 'f1'), line(ref, 1, '5.00', 'f2')]);
    const F = '/ecom/v1/fulfillments';
    const first = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: { lineItems: [{ id: 'f1', quantity: 2 }], trackingInfo: { trackingNumber: 'TN1', shippingProvider: 'ups' } } }));
    expect(first.status).toBe(200);
    expect(first.body.orderWithFulfillments).toMatchObject({ orderId: order.id, fulfillments: [{ id: first.body.fulfillmentId, lineItems: [{ id: 'f1', quantity: 2 }], trackingInfo: { trackingNumber: 'TN1', shippingProvider: 'ups' } }] });
    let o = (await call(t.url, `${O}/${order.id}`, owner())).body.order;
    expect(o.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(types(o)).toEqual(['ORDER_PLACED', 'ORDER_FULFILLED', 'TRACKING_NUMBER_ADDED']);
    const over = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: { lineItems: [{ id: 'f1', quantity: 2 }] } }));
    expect([over.status, over.body.details.applicationError.code]).toEqual([409, 'FULFILLMENT_QUANTITY_EXCEEDED']);
    const unknownLine = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: { lineItems: [{ id: 'nope', quantity: 1 }] } }));
    expect(unknownLine.status).toBe(400);
    // An empty list is refused; no list at all ships every unit left.
    const empty = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: { lineItems: [] } }));
    expect([empty.status, empty.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'fulfillment.lineItems']);
    const rest = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: {} }));
    expect(rest.body.orderWithFulfillments.fulfillments[1].lineItems).toEqual([{ id: 'f1', quantity: 1 }, { id: 'f2', quantity: 1 }]);
    o = (await call(t.url, `${O}/${order.id}`, owner())).body.order;
    expect(o.fulfillmentStatus).toBe('FULFILLED');
    const nothingLeft = await call(t.url, `${F}/orders/${order.id}/create-fulfillment`, owner({ fulfillment: {} }));
    expect(nothingLeft.body.details.applicationError.code).toBe('ORDER_ALREADY_FULFILLED');

    const upd = await call(t.url, `${F}/${first.body.fulfillmentId}/orders/${order.id}`, owner({ fulfillment: { trackingInfo: { trackingNumber: 'TN2' } } }, 'PATCH'));
    expect(upd.body.orderWithFulfillments.fulfillments[0].trackingInfo).toEqual({ trackingNumber: 'TN2', shippingProvider: 'ups' });
    const single = await call(t.url, `${F}/orders/${order.id}`, owner());
    expect(single.body.orderWithFulfillments.fulfillments).toHaveLength(2);
    const del = await call(t.url, `${F}/${rest.body.fulfillmentId}/orders/${order.id}`, owner(undefined, 'DELETE'));
    expect(del.body.orderWithFulfillments.fulfillments).toHaveLength(1);
    o = (await call(t.url, `${O}/${order.id}`, owner())).body.order;
    expect(o.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(types(o)).toEqual(['ORDER_PLACED', 'ORDER_FULFILLED', 'TRACKING_NUMBER_ADDED', 'ORDER_FULFILLED', 'TRACKING_NUMBER_EDITED', 'ORDER_NOT_FULFILLED']);
    expect(await eventSlugs(ctx, order.id)).toEqual(['created', 'approved', 'updated', 'updated', 'fulfilled', 'updated', 'updated']);
    const fulfillmentEvents = await ctx.db.selectFrom('outbox_events').select(['payload']).where('entity_id', '=', order.id).where('entity_fqdn', '=', 'wix.ecom.v1.fulfillments').orderBy('sequence').execute();
    expect(fulfillmentEvents.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).data.action)).toEqual(['CREATED', 'CREATED', 'UPDATED', 'DELETED']);

    const second = await createOrder([line(ref, 2, '5.00', 'g1')]);
    const bulk = await call(t.url, `${F}/orders/bulk/create-fulfillments`, owner({ ordersWithFulfillments: [
      { orderId: second.id, fulfillments: [{ lineItems: [{ id: 'g1', quantity: 1 }] }, { lineItems: [{ id: 'g1', quantity: 1 }] }] },
      { orderId: second.id, fulfillments: [{ lineItems: [{ id: 'g1', quantity: 1 }] }] },
      { orderId: 'missing', fulfillments: [{}] },
    ] }));
    expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 });
    expect(bulk.body.results[1].itemMetadata.error.code).toBe('FULFILLMENT_QUANTITY_EXCEEDED');
    const list = await call(t.url, `${F}/list-by-ids`, owner({ orderIds: [order.id, second.id, 'missing'] }));
    expect(list.body.ordersWithFulfillments.map((x: { orderId: string; fulfillments: unknown[] }) => [x.orderId, x.fulfillments.length])).toEqual([[order.id, 1], [second.id, 2]]);
  });
});
