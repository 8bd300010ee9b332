/**
 * Every order state change happens with its activity, event and stock change, or not at all: a
 * failure injected after the order row is written (test-only failpoints of the server config) leaves
 * nothing behind. Concurrent orders for the last units and concurrent cancels, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { draftOf, eventSlugs, onHand, STORES_APP_ID, v1Product, v3Product } from './orders-support.js';
import { createOrderFromCheckout } from '../src/domains/orders/index.js';
import { inTransaction } from '../src/storage/transaction.js';
import type { RequestContext } from '../src/http/context.js';

let t: TestServer;
let ctx: RequestContext;
beforeAll(async () => {
  t = await startTestServer();
  ctx = serviceContext(t);
});
afterAll(() => t?.close());

const O = '/ecom/v1/orders';
const failAt = (...names: string[]) => { t.server.deps.config.failpoints = names; };
const orderLine = (ref: { productId: string; variantId: string }, quantity: number) => ({
  productName: { original: 'Unit' }, quantity, price: { amount: '2.00' }, catalogReference: { catalogItemId: ref.productId, appId: STORES_APP_ID, options: { variantId: ref.variantId } },
});
const count = async (table: 'orders' | 'outbox_events', where: Record<string, string> = {}) => {
  let q = ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', t.site.id);
  for (const [k, v] of Object.entries(where)) q = q.where(k as 'site_id', '=', v);
  return Number((await q.executeTakeFirstOrThrow()).n);
};

describe('all or nothing', () => {
  it('a checkout order failing after its row leaves no order, no event and the stock as it was', async () => {
    const ref = await v1Product(t, 'Atomic', 5);
    const orders = await count('orders');
    const events = await count('outbox_events', { entity_fqdn: 'wix.ecom.v1.order' });
    for (const point of ['orders.afterOrderRow', 'orders.afterOrderEvents']) {
      failAt(point);
      const draft = draftOf([{ ref, quantity: 2 }]);
      await expect(inTransaction(ctx.db, (trx) => createOrderFromCheckout({ ...ctx, db: trx }, draft))).rejects.toThrow(`failpoint ${point}`);
      const owner = await call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 2)] } } });
      expect(owner.status).toBe(500);
    }
    failAt();
    expect(await count('orders')).toBe(orders);
    expect(await count('outbox_events', { entity_fqdn: 'wix.ecom.v1.order' })).toBe(events);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 5, reserved: 0 });
    // The number was not used up either: the next order takes the next number in sequence.
    const ok = await call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 2)] } } });
    const again = await call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 1)] } } });
    expect(Number(again.body.order.number) - Number(ok.body.order.number)).toBe(1);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 2, reserved: 0 });
  });

  it('a cancel failing after its stock change leaves the order, its activities, events and stock unchanged', async () => {
    const ref = await v3Product(t, 'Atomic Cancel', 5);
    const created = await call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 3)] } } });
    const id = created.body.order.id;
    failAt('orders.cancel.afterStock');
    const res = await call(t.url, `${O}/${id}/cancel`, { ...asOwner(t), body: { restockAllItems: true } });
    failAt();
    expect(res.status).toBe(500);
    const after = await call(t.url, `${O}/${id}`, asOwner(t));
    expect(after.body.order).toEqual(created.body.order);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 2, reserved: 0 });
    expect(await eventSlugs(ctx, id)).toEqual(['created', 'approved']);
  });
});

describe('concurrency', () => {
  it('20 concurrent owner orders and 20 concurrent checkout orders for the last 10 units: exactly 10 each, stock 0', async () => {
    const ref = await v1Product(t, 'Last Ten', 10);
    const res = await Promise.all(Array.from({ length: 20 }, () => call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 1)] } } })));
    expect(res.filter((r) => r.status === 200)).toHaveLength(10);
    expect(res.filter((r) => r.status === 409).map((r) => r.body.details.applicationError.code)).toEqual(Array(10).fill('INSUFFICIENT_STOCK'));
    expect(await onHand(ctx, ref)).toEqual({ quantity: 0, reserved: 0 });
    const numbers = res.filter((r) => r.status === 200).map((r) => r.body.order.number);
    expect(new Set(numbers).size).toBe(10);

    const ref2 = await v3Product(t, 'Last Ten V3', 10);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => inTransaction(ctx.db, (trx) => createOrderFromCheckout({ ...ctx, db: trx }, draftOf([{ ref: ref2, quantity: 1 }])))
      .then(() => 'OK', (e: unknown) => (e as { code?: string }).code ?? String(e))));
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'INSUFFICIENT_STOCK')).toHaveLength(10);
    expect(await onHand(ctx, ref2)).toEqual({ quantity: 0, reserved: 0 });
  });

  it('5 concurrent cancels with restock: one succeeds, stock comes back once, one canceled event', async () => {
    const ref = await v1Product(t, 'Cancel Race', 6);
    const created = await call(t.url, O, { ...asOwner(t), body: { order: { lineItems: [orderLine(ref, 4)] } } });
    const id = created.body.order.id;
    const res = await Promise.all(Array.from({ length: 5 }, () => call(t.url, `${O}/${id}/cancel`, { ...asOwner(t), body: { restockAllItems: true } })));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await onHand(ctx, ref)).toEqual({ quantity: 6, reserved: 0 });
    expect(await eventSlugs(ctx, id)).toEqual(['created', 'approved', 'canceled', 'updated']);
    const order = (await call(t.url, `${O}/${id}`, asOwner(t))).body.order;
    expect(order.activities.map((a: { type: string }) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_CANCELED']);
  });
});
