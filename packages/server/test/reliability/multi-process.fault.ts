import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../harness.js';
import { checkoutOf, ok, PG_URL, placeOrder, startFleet, stockedProduct, visitorToken, type Fleet } from './support.js';

/**
 * Two and four independent server processes (different ports, one PostgreSQL, nothing else shared):
 * 100 buyers spread over them race for the last 10 units. Exactly 10 orders, stock 0, everybody else
 * refused with a 409. On SQLite the processes would share one file on one machine,
 * which is not the deployment this proves; the file is skipped there.
 */
const BUYERS = 100;
const UNITS = 10;

let fleet: Fleet | undefined;
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});

describe.skipIf(!PG_URL)('many processes on one PostgreSQL', () => {
  it.each([2, 4])('%i processes, 100 concurrent checkouts for 10 units: exactly 10 orders, stock 0', async (processes) => {
    fleet = await startFleet(processes, `vitrine-fleet${processes}-`);
    const f = fleet;
    const urls = f.procs.map((p) => p.url);
    const ref = await stockedProduct(urls[0]!, f.owner, `Last ten of ${processes}`, UNITS);
    // Carts and checkouts first (they hold no stock), each buyer on "its" process...
    const buyers = await Promise.all(Array.from({ length: BUYERS }, async (_, i) => {
      const url = urls[i % urls.length]!;
      const auth = await visitorToken(url, f.clientId);
      return { url, auth, checkoutId: await checkoutOf(url, auth, ref.productId, `buyer${i}@fleet.test`) };
    }));
    // ...then every order at once, each on another process than the one that made its checkout.
    const placed = await Promise.all(buyers.map((b, i) => placeOrder(urls[(i + 1) % urls.length]!, b.auth, b.checkoutId)));
    const outcome = placed.map((r) => (r.status === 200 ? 'OK' : `${r.status} ${r.body?.details?.applicationError?.code}`));
    expect(outcome.filter((o) => o === 'OK')).toHaveLength(UNITS);
    // Refused at the stock check of the checkout (it sees 0 left) or at the guarded decrement (it lost the race).
    expect(outcome.filter((o) => o !== 'OK' && o !== '409 CHECKOUT_HAS_VIOLATIONS' && o !== '409 INSUFFICIENT_STOCK')).toEqual([]);

    const product = ok(await call(urls[urls.length - 1]!, `/stores-reader/v1/products/${ref.productId}`, f.owner), 'read product');
    expect(product.body.product.stock.quantity).toBe(0);
    const orders = await f.db.read((db) => db.selectFrom('orders').select(['id', 'number']).where('site_id', '=', f.owner.siteId!).execute());
    expect(orders).toHaveLength(UNITS);
    expect(new Set(orders.map((o) => o.number)).size).toBe(UNITS);
  });
});
