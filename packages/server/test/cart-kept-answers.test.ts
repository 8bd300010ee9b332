import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asOwner, call, startTestServer, type ApiResponse, type TestServer } from './harness.js';
import { sql } from 'kysely';
import { readJson } from '../src/storage/dialect.js';
import { as, CART, clearDemoPricing, line, productV1, STORES_APP_ID, visitor as newVisitor } from './cart-support.js';

const OTHER_APP_ID = '0b5d2f27-8c3c-4f57-9e3e-0a1b2c3d4e5f';

/**
 * A process keeps the carts it wrote (kept-carts.ts) and the estimate answers it made (estimate.ts).
 * Two servers on one database: whatever either one changes, the other one's next write starts from
 * the cart as it is and its next estimate prices what is there now, with the same amounts a fresh
 * estimate gives. Both serve one public URL, as two processes behind one address do: their lines
 * resolve to the same kept objects (this test runs both in one process), so what tells a kept
 * answer from a stale one is the rest of what it was made from.
 */
let t: TestServer;
let other: TestServer;

beforeAll(async () => {
  t = await startTestServer({ publicUrl: 'http://shop.test' });
  other = await startTestServer({ publicUrl: 'http://shop.test', dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
  await clearDemoPricing(t);
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

interface Estimate { subtotal: string; discount: string; tax: string; total: string; lines: [number, string, number | undefined][] }

function figures(res: ApiResponse): Estimate {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const b = res.body;
  return {
    subtotal: b.priceSummary.subtotal.amount, discount: b.priceSummary.discount.amount, tax: b.priceSummary.tax.amount, total: b.priceSummary.total.amount,
    lines: b.cart.lineItems.map((l: { quantity: number; availability: { status: string; quantityAvailable?: number } }) => [l.quantity, l.availability.status, l.availability.quantityAvailable]),
  };
}

/** Estimates twice on each server (the second from what it kept): every answer the same, and its figures. */
async function estimateEverywhere(token: string, body: Record<string, unknown> = {}): Promise<Estimate> {
  const answers: Record<string, unknown>[] = [];
  for (const s of [t, other]) {
    for (let i = 0; i < 2; i++) {
      const res = await as(s, token).post(`${CART}/estimate-totals`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      answers.push(res.body as Record<string, unknown>);
    }
  }
  for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
  return figures(await as(t, token).post(`${CART}/estimate-totals`, body));
}

describe('kept carts and estimate answers', () => {
  it('a write from a kept cart that another process changed since starts again from the row', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Kept A', price: 10 });
    const b = await productV1(t, { name: 'Kept B', price: 4 });
    expect((await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] })).status).toBe(200);
    // The other process adds a line and then changes the first one's quantity: t's kept cart is two writes behind.
    expect((await as(other, token).post(`${CART}/add-to-cart`, { lineItems: [line(b.productId, 2)] })).status).toBe(200);
    expect((await as(other, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 4)] })).status).toBe(200);
    const added = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] });
    expect(added.status).toBe(200);
    const quantities = (res: ApiResponse) => res.body.cart.lineItems.map((l: { productName: { original: string }; quantity: number }) => [l.productName.original, l.quantity]);
    expect(quantities(added)).toEqual([['Kept A', 6], ['Kept B', 2]]);
    expect(quantities(await as(other, token).get(CART))).toEqual([['Kept A', 6], ['Kept B', 2]]);

    // A line only the other process has seen yet: changed and removed here all the same (the kept cart is behind, not the row).
    const c = await productV1(t, { name: 'Kept C', price: 1 });
    const withC = await as(other, token).post(`${CART}/add-to-cart`, { lineItems: [line(c.productId, 1)] });
    const lineC = withC.body.cart.lineItems[2].id as string;
    const changed = await as(t, token).post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: lineC, quantity: 5 }] });
    expect([changed.status, quantities(changed)]).toEqual([200, [['Kept A', 6], ['Kept B', 2], ['Kept C', 5]]]);
    expect((await as(other, token).post(`${CART}/add-to-cart`, { lineItems: [line(c.productId, 1)] })).status).toBe(200);
    const removed = await as(t, token).post(`${CART}/remove-line-items`, { lineItemIds: [lineC] });
    expect([removed.status, quantities(removed)]).toEqual([200, [['Kept A', 6], ['Kept B', 2]]]);

    // Removed on the other process, then changed here: a 400 for the line that is gone, not a write over it.
    const lineB = added.body.cart.lineItems[1].id as string;
    expect((await as(other, token).post(`${CART}/remove-line-items`, { lineItemIds: [lineB] })).status).toBe(200);
    const stale = await as(t, token).post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: lineB, quantity: 3 }] });
    expect([stale.status, stale.body.details?.applicationError?.code]).toEqual([400, 'LINE_ITEM_NOT_FOUND']);

    // Deleted on the other process: the next add here makes a new cart with only the new line.
    const before = added.body.cart.id as string;
    expect((await as(other, token).del(CART)).status).toBe(200);
    const fresh = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(b.productId, 1)] });
    expect(fresh.body.cart.id).not.toBe(before);
    expect(quantities(fresh)).toEqual([['Kept B', 1]]);
  });

  it('a write from a kept cart prices its lines from the catalog as it is now, whichever process changed it', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Written A', price: 3 });
    const b = await productV1(t, { name: 'Written B', price: 5 });
    const prices = (res: ApiResponse) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.cart.lineItems.map((l: { price: { amount: string }; availability: { status: string } }) => [l.price.amount, l.availability.status]);
    };
    expect(prices(await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] }))).toEqual([['3.00', 'AVAILABLE']]);
    // t keeps the cart, a's resolution (made by a read of the kept cart) and the listing version it saw;
    // the other process changes the catalog.
    expect(prices(await as(t, token).get(CART))).toEqual([['3.00', 'AVAILABLE']]);
    await call(other.url, `/stores/v1/products/${a.productId}`, { ...asOwner(other), method: 'PATCH', body: { product: { priceData: { price: 4 } } } });
    expect(prices(await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(b.productId, 1)] }))).toEqual([['4.00', 'AVAILABLE'], ['5.00', 'AVAILABLE']]);
    await call(other.url, `/stores/v1/products/${b.productId}`, { ...asOwner(other), method: 'PATCH', body: { product: { visible: false } } });
    const quantity = await as(t, token).post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: (await as(t, token).get(CART)).body.cart.lineItems[0].id, quantity: 2 }] });
    expect(prices(quantity)).toEqual([['4.00', 'AVAILABLE'], ['0', 'NOT_FOUND']]);
    // And by this process: its own write moves the version past the one it saw.
    await call(t.url, `/stores/v1/products/${a.productId}`, { ...asOwner(t), method: 'PATCH', body: { product: { priceData: { price: 6 } } } });
    expect(prices(await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] }))).toEqual([['6.00', 'AVAILABLE'], ['0', 'NOT_FOUND']]);
  });

  it('an estimate answers every change of the cart, the catalog, the stock, the pricing setup and the input', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Estimate A', price: 20, quantity: 5 });
    const b = await productV1(t, { name: 'Estimate B', price: 7.5 });
    await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 2)] });
    expect(await estimateEverywhere(token)).toEqual({ subtotal: '40.00', discount: '0.00', tax: '0.00', total: '40.00', lines: [[2, 'AVAILABLE', 5]] });

    // The cart, changed by the other process.
    await as(other, token).post(`${CART}/add-to-cart`, { lineItems: [line(b.productId, 1)] });
    expect(await estimateEverywhere(token)).toMatchObject({ subtotal: '47.50', total: '47.50', lines: [[2, 'AVAILABLE', 5], [1, 'AVAILABLE', undefined]] });

    // The catalog: a price change.
    await call(other.url, `/stores/v1/products/${b.productId}`, { ...asOwner(other), method: 'PATCH', body: { product: { priceData: { price: 9 } } } });
    expect(await estimateEverywhere(token)).toMatchObject({ subtotal: '49.00', total: '49.00' });

    // The stock: three units left of A, whose line holds two, then one.
    await call(t.url, '/stores/v2/inventoryItems/decrement', { ...asOwner(t), body: { decrementData: [{ productId: a.productId, variantId: a.variantId, decrementBy: 2 }] } });
    expect((await estimateEverywhere(token)).lines[0]).toEqual([2, 'AVAILABLE', 3]);
    await call(other.url, '/stores/v2/inventoryItems/decrement', { ...asOwner(other), body: { decrementData: [{ productId: a.productId, variantId: a.variantId, decrementBy: 2 }] } });
    expect((await estimateEverywhere(token)).lines[0]).toEqual([2, 'PARTIALLY_AVAILABLE', 1]);

    // The pricing setup: a rule, then a tax region with a rate (the estimate's address is in it).
    const rule = await call(other.url, '/ecom/v1/discount-rules', { ...asOwner(other), body: { discountRule: {
      name: 'Kept ten', active: true, trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '10' } },
      discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: '215238eb-22a5-4c36-9e7b-e7c08025e04e' } }] }, discountType: 'PERCENTAGE', percentage: 10 }] },
    } } });
    expect(rule.status).toBe(200);
    expect(await estimateEverywhere(token)).toMatchObject({ subtotal: '49.00', discount: '4.90', total: '44.10' });
    const address = { shippingAddress: { country: 'DE', city: 'Berlin', postalCode: '10115', addressLine: 'Invalidenstr. 1' } };
    expect(await estimateEverywhere(token, address)).toMatchObject({ tax: '0.00', total: '44.10' });
    const region = (await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'DE' } } })).body.taxRegion;
    await call(t.url, `/billing/v1/tax-regions/${region.id}/manual-rates`, { ...asOwner(t), method: 'PUT', body: { manualRates: [{ taxRate: '0.2', taxName: 'Kept VAT' }] } });
    // The input: the same cart without the address pays no tax, with it 20% of 44.10.
    expect(await estimateEverywhere(token)).toMatchObject({ tax: '0.00', total: '44.10' });
    expect(await estimateEverywhere(token, address)).toMatchObject({ tax: '8.82', total: '52.92' });
    expect(await estimateEverywhere(token, { ...address, calculateTax: false })).toMatchObject({ tax: '0.00', total: '44.10' });

    await call(t.url, `/ecom/v1/discount-rules/${rule.body.discountRule.id}`, { ...asOwner(t), method: 'DELETE' });
    expect(await estimateEverywhere(token, address)).toMatchObject({ discount: '0.00', tax: '9.80', total: '58.80' });

    // Cart info only (the lines and the input stay as they are): the cart's own address is priced now, its note is in the answer.
    expect(await estimateEverywhere(token)).toMatchObject({ tax: '0.00', total: '49.00' });
    const info = await as(other, token).patch(CART, { cartInfo: { buyerNote: 'Kept note', contactInfo: { address: address.shippingAddress } } });
    expect(info.status).toBe(200);
    expect(await estimateEverywhere(token)).toMatchObject({ tax: '9.80', total: '58.80' });
    expect((await as(t, token).post(`${CART}/estimate-totals`, {})).body.cart.buyerNote).toBe('Kept note');

    // A coupon on the cart, then changed by the owner in the other process (no cart write).
    const coupon = await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: { name: 'Kept off', code: 'KEPTOFF', startTime: '2024-01-01T00:00:00Z', moneyOffAmount: '5.00' } } });
    expect(coupon.status).toBe(200);
    expect((await as(t, token).patch(CART, { couponCode: 'KEPTOFF' })).status).toBe(200);
    expect(await estimateEverywhere(token)).toMatchObject({ discount: '5.00', tax: '8.80', total: '52.80' });
    await call(other.url, `/stores/v2/coupons/${coupon.body.id}`, { ...asOwner(other), method: 'PATCH', body: { specification: { moneyOffAmount: '10.00' } } });
    expect(await estimateEverywhere(token)).toMatchObject({ discount: '10.00', tax: '7.80', total: '46.80' });

    // The cart deleted by the other process: no cart, no answer.
    expect((await as(other, token).del(CART)).status).toBe(200);
    for (const s of [t, other]) expect((await as(s, token).post(`${CART}/estimate-totals`, {})).status).toBe(404);
  });

  it('a cart of untracked lines answers every catalog change, whichever process made it', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Untracked A', price: 3 });
    const b = await productV1(t, { name: 'Untracked B', price: 5 });
    await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 2), line(b.productId, 1)] });
    expect(await estimateEverywhere(token)).toMatchObject({ subtotal: '11.00', lines: [[2, 'AVAILABLE', undefined], [1, 'AVAILABLE', undefined]] });
    await call(other.url, `/stores/v1/products/${a.productId}`, { ...asOwner(other), method: 'PATCH', body: { product: { priceData: { price: 4 } } } });
    expect(await estimateEverywhere(token)).toMatchObject({ subtotal: '13.00' });
    await call(t.url, `/stores/v1/products/${b.productId}`, { ...asOwner(t), method: 'PATCH', body: { product: { visible: false } } });
    expect(await estimateEverywhere(token)).toMatchObject({ lines: [[2, 'AVAILABLE', undefined], [1, 'NOT_FOUND', undefined]] });
    const cart = await as(other, token).get(CART);
    expect(cart.body.cart.lineItems.map((l: { price: { amount: string } }) => l.price.amount)).toEqual(['4.00', '0']);
  });

  it('a quantity change answers the line as a first resolution does, and a catalog change is seen on the next one', async () => {
    const token = await newVisitor(t);
    const p = await productV1(t, { name: 'Kept quantity', price: 2.5, weight: 0.25 });
    const first = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] });
    expect(first.status).toBe(200);
    const again = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] });
    const set = await as(t, token).post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: first.body.cart.lineItems[0].id, quantity: 7 }] });
    const lineOf = (res: ApiResponse) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.cart.lineItems[0] as Record<string, unknown>;
    };
    const unit = { amount: '2.50', convertedAmount: '2.50', formattedAmount: '$2.50', formattedConvertedAmount: '$2.50' };
    const total = (amount: string) => ({ amount, convertedAmount: amount, formattedAmount: `$${amount}`, formattedConvertedAmount: `$${amount}` });
    expect(lineOf(first)).toMatchObject({ quantity: 1, price: unit, lineItemPrice: total('2.50'), physicalProperties: { weight: 0.25 } });
    expect(lineOf(again)).toEqual({ ...lineOf(first), quantity: 3, lineItemPrice: total('7.50') });
    expect(lineOf(set)).toEqual({ ...lineOf(first), quantity: 7, lineItemPrice: total('17.50') });

    // The product changes (another process): the next quantity change is priced and described anew.
    await call(other.url, `/stores/v1/products/${p.productId}`, { ...asOwner(other), method: 'PATCH', body: { product: { name: 'Kept quantity v2', priceData: { price: 3 } } } });
    const after = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] });
    expect(lineOf(after)).toMatchObject({
      quantity: 8, productName: { original: 'Kept quantity v2' }, price: total('3.00'), lineItemPrice: total('24.00'),
    });
  });

  it('an estimate kept before a discount rule starts is not sent after it started', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Timed A', price: 30 });
    await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] });
    const start = new Date(Date.now() + 1_500);
    const rule = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: {
      name: 'Starts soon', active: true, activeTimeInfo: { start: start.toISOString() }, trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '1' } },
      discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: '215238eb-22a5-4c36-9e7b-e7c08025e04e' } }] }, discountType: 'FIXED_AMOUNT', fixedAmount: '5' }] },
    } } });
    expect(rule.status).toBe(200);
    expect(await estimateEverywhere(token)).toMatchObject({ discount: '0.00', total: '30.00' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start.getTime() - Date.now()) + 50));
    expect(await estimateEverywhere(token)).toMatchObject({ discount: '5.00', total: '25.00' });
    await call(t.url, `/ecom/v1/discount-rules/${rule.body.discountRule.id}`, { ...asOwner(t), method: 'DELETE' });
  });

  it('an estimate with a delivery slot is kept for the minute its slots count from, and not after it', async () => {
    const token = await newVisitor(t);
    const a = await productV1(t, { name: 'Slotted A', price: 12 });
    await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] });
    const region = await call(t.url, '/ecom/v1/shipping-regions', { ...asOwner(t), body: { shippingRegion: {
      name: 'Slots', destinations: [{ country: 'US' }], options: [{ code: 'std', title: 'Standard', rate: { type: 'FLAT', price: '5.00' }, deliveryWindow: { fromHours: 24, toHours: 48 } }],
    } } });
    expect(region.status, JSON.stringify(region.body)).toBe(200);
    const body = { shippingAddress: { country: 'US', subdivision: 'US-NY' } };
    const slotAt = async (nowMs: number) => {
      vi.setSystemTime(nowMs);
      const answers = [await as(t, token).post(`${CART}/estimate-totals`, body), await as(other, token).post(`${CART}/estimate-totals`, body)];
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(answers[1]!.body).toEqual(answers[0]!.body);
      return answers[0]!.body.shippingInfo.selectedCarrierServiceOption.logistics.deliveryTimeSlot as { from: string; to: string };
    };
    const day = 24 * 3_600_000;
    // The next whole minute (the visitor's token is still valid then).
    const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const first = await slotAt(minute + 30_000);
      expect(first).toEqual({ from: new Date(minute + day).toISOString(), to: new Date(minute + 2 * day).toISOString() });
      expect(await slotAt(minute + 59_999)).toEqual(first);
      // The next minute: the kept answer no longer holds, and the slots move on.
      expect(await slotAt(minute + 60_000)).toEqual({ from: new Date(minute + 60_000 + day).toISOString(), to: new Date(minute + 60_000 + 2 * day).toISOString() });
    } finally {
      vi.useRealTimers();
      await call(t.url, `/ecom/v1/shipping-regions/${region.body.shippingRegion.id}`, { ...asOwner(t), method: 'DELETE' });
    }
  });
});

/** A POST with its own Host header (the origin a server without a public URL builds links from). */
function postAs(s: TestServer, host: string, path: string, auth: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { method: 'POST', headers: { host, authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { data += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('stored lines', () => {
  it("leave out the store catalog's app id, which a process reading the row puts back: a 20-line cart fits one page", async () => {
    const token = await newVisitor(t);
    const products = [];
    for (let i = 0; i < 20; i++) products.push(await productV1(t, { name: `Stored ${i}`, price: 1 + i }));
    for (const p of products) expect((await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] })).status).toBe(200);
    const elsewhere = { catalogItemId: products[0]!.productId, appId: OTHER_APP_ID };
    const added = await as(t, token).post(`${CART}/add-to-cart`, { lineItems: [{ quantity: 1, catalogReference: elsewhere }] });
    expect(added.status).toBe(200);

    const row = await t.server.deps.storage.db.selectFrom('carts').select('doc').where('id', '=', added.body.cart.id as string).executeTakeFirstOrThrow();
    const stored = readJson<{ lineItems: { catalogReference: unknown }[] }>(row.doc).lineItems.map((l) => l.catalogReference);
    expect(stored).toEqual([...products.map((p) => ({ catalogItemId: p.productId })), elsewhere]);
    // The other process has kept nothing of this cart: it reads the row.
    const read = await as(other, token).get(CART);
    expect(read.body.cart.lineItems.map((l: { catalogReference: unknown }) => l.catalogReference))
      .toEqual([...products.map((p) => ({ catalogItemId: p.productId, appId: STORES_APP_ID })), elsewhere]);
    if (t.config.databaseUrl) return;
    // SQLite: no cart row spills past its page (4 KB; a row over about 4,061 bytes would write two or three pages per change).
    const overflow = await sql<{ n: number }>`SELECT count(*) AS n FROM dbstat WHERE name = 'carts' AND pagetype = 'overflow'`.execute(t.server.deps.storage.db);
    expect(overflow.rows).toEqual([{ n: 0 }]);
  });
});

describe('kept resolutions and answers per origin', () => {
  it('a cart asked for under another host gets its links under that host', async () => {
    const s = await startTestServer();
    try {
      const token = await newVisitor(s);
      const a = await productV1(s, { name: 'Origin A', price: 2 });
      await as(s, token).post(`${CART}/add-to-cart`, { lineItems: [line(a.productId, 1)] });
      const port = new URL(s.url).port;
      const urlOf = (res: { body: Record<string, unknown> }) => (res.body.cart as { lineItems: { url: { url: string } }[] }).lineItems[0]!.url.url;
      for (const host of [`127.0.0.1:${port}`, `127.0.0.1:${port}`, `shop.example:${port}`, `shop.example:${port}`, `127.0.0.1:${port}`]) {
        const res = await postAs(s, host, `${CART}/estimate-totals`, token, {});
        expect(res.status).toBe(200);
        expect(urlOf(res)).toMatch(new RegExp(`^http://${host.replaceAll('.', '\\.')}/product-page/`));
      }
    } finally {
      await s.close();
    }
  });
});
