/**
 * Cart lines read their V1 products through catalog/line-products.ts, which keeps each document's
 * parse and presentation per process while its stored text is unchanged. A product write must still
 * price, name and hide the next cart read at once; the same across processes is in
 * scale-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, CART, CHECKOUTS, clearDemoPricing, line, productV1, visitor } from './cart-support.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

const patchProduct = async (id: string, product: Record<string, unknown>) => {
  const res = await call(t.url, `/stores/v1/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product } });
  expect(res.status).toBe(200);
};

describe('cart lines after product writes', () => {
  it('an untracked product taken out of stock, or tracked, shows in the next cart read', async () => {
    // In stock and untracked, a line is AVAILABLE from the product document alone; any other state
    // is read from inventory, so each change below must reach the cart at once.
    const mug = await productV1(t, { name: 'Mug', price: 9 });
    const v = as(t, await visitor(t));
    const first = await v.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId, 2)] });
    expect(first.body.cart.lineItems[0].availability).toEqual({ status: 'AVAILABLE' });
    const inventory = (body: Record<string, unknown>) => call(t.url, `/stores/v2/inventoryItems/product/${mug.productId}`, { ...asOwner(t), method: 'PATCH', body: { inventoryItem: body } });
    expect((await inventory({ variants: [{ variantId: mug.variantId, inStock: false }] })).status).toBe(200);
    expect((await v.get(CART)).body.cart.lineItems[0].availability).toEqual({ status: 'NOT_AVAILABLE', quantityAvailable: 0 });
    expect((await inventory({ variants: [{ variantId: mug.variantId, inStock: true }] })).status).toBe(200);
    expect((await v.get(CART)).body.cart.lineItems[0].availability).toEqual({ status: 'AVAILABLE' });
    expect((await inventory({ trackQuantity: true, variants: [{ variantId: mug.variantId, quantity: 1 }] })).status).toBe(200);
    expect((await v.get(CART)).body.cart.lineItems[0].availability).toEqual({ status: 'PARTIALLY_AVAILABLE', quantityAvailable: 1 });
  });

  it('a price, name or visibility change shows in the next cart read and write', async () => {
    const kettle = await productV1(t, { name: 'Kettle', price: 30 });
    const v = as(t, await visitor(t));
    const first = await v.post(`${CART}/add-to-cart`, { lineItems: [line(kettle.productId)] });
    expect(first.body.cart.lineItems.map((l: { price: { amount: string } }) => l.price.amount)).toEqual(['30.00']);
    // Read twice: the second read is served from the kept parse of the same stored document.
    expect((await v.get(CART)).body.cart.lineItems[0].price.amount).toBe('30.00');

    await patchProduct(kettle.productId, { priceData: { price: 32.5 }, name: 'Steel kettle' });
    const read = (await v.get(CART)).body.cart.lineItems[0];
    expect([read.price.amount, read.productName.original, read.lineItemPrice.amount]).toEqual(['32.50', 'Steel kettle', '32.50']);
    const added = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(kettle.productId)] })).body.cart.lineItems[0];
    expect([added.quantity, added.price.amount, added.lineItemPrice.amount]).toEqual([2, '32.50', '65.00']);
    const totals = await v.post(`${CART}/estimate-totals`, {});
    expect(totals.body.priceSummary.subtotal.amount).toBe('65.00');

    await patchProduct(kettle.productId, { visible: false });
    expect((await v.get(CART)).body.cart.lineItems[0].availability).toEqual({ status: 'NOT_FOUND' });
    // Shown again, at a new price: the kept parse of the hidden document is not used either.
    await patchProduct(kettle.productId, { visible: true, priceData: { price: 31 } });
    expect((await v.get(CART)).body.cart.lineItems[0]).toMatchObject({ price: { amount: '31.00' }, availability: { status: 'AVAILABLE' } });
  });

  it('describes a line\'s choices as the buyer reads them: a colour by its name, not its code', async () => {
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: {
      name: 'Tee', priceData: { price: 15 }, productType: 'physical',
      productOptions: [
        { optionType: 'drop_down', name: 'Size', choices: [{ value: 'S', description: 'Small' }, { value: 'L', description: 'Large' }] },
        { optionType: 'color', name: 'Color', choices: [{ value: '#000000', description: 'Black' }, { value: '#ffffff', description: 'White' }] },
      ],
    } } });
    expect(created.status).toBe(200);
    const v = as(t, await visitor(t));
    const added = await v.post(`${CART}/add-to-cart`, { lineItems: [line(created.body.product.id, 1, { options: { Size: 'L', Color: '#000000' } })] });
    expect(added.body.cart.lineItems[0].descriptionLines.map((d: { name: { original: string }; plainText: { original: string } }) => [d.name.original, d.plainText.original]))
      .toEqual([['Size', 'Large'], ['Color', 'Black']]);
  });

  it('two carts of the same product each get their own lines (a kept product is shared, never changed)', async () => {
    const mug = await productV1(t, { name: 'Shared mug', price: 8, quantity: 5 });
    const a = as(t, await visitor(t));
    const b = as(t, await visitor(t));
    const ca = (await a.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId, 2)] })).body.cart.lineItems[0];
    const cb = (await b.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId, 7)] })).body.cart.lineItems[0];
    expect([ca.quantity, ca.lineItemPrice.amount, ca.availability]).toEqual([2, '16.00', { status: 'AVAILABLE', quantityAvailable: 5 }]);
    expect([cb.quantity, cb.lineItemPrice.amount, cb.availability]).toEqual([7, '56.00', { status: 'PARTIALLY_AVAILABLE', quantityAvailable: 5 }]);
    expect(ca.id).not.toBe(cb.id);
  });

  it('a kept line follows its own quantity and stock while the cart\'s other lines stay as they were', async () => {
    // Lines whose product, quantity and reference are unchanged are the kept resolution of the last
    // call (cart/kept-lines.ts); each change below must still reach exactly the line it concerns.
    const mug = await productV1(t, { name: 'Kept mug', price: 8, quantity: 5 });
    const kettle = await productV1(t, { name: 'Kept kettle', price: 30 });
    const v = as(t, await visitor(t));
    const shape = (l: { productName: { original: string }; quantity: number; lineItemPrice: { amount: string }; availability: unknown }) =>
      [l.productName.original, l.quantity, l.lineItemPrice.amount, l.availability];
    const lines = async (res: Promise<{ body: { cart: { lineItems: Parameters<typeof shape>[0][] } } }>) => (await res).body.cart.lineItems.map(shape);

    await v.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId, 2), line(kettle.productId)] });
    expect(await lines(v.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId)] }))).toEqual([
      ['Kept mug', 3, '24.00', { status: 'AVAILABLE', quantityAvailable: 5 }], ['Kept kettle', 1, '30.00', { status: 'AVAILABLE' }],
    ]);
    const stock = (quantity: number) => call(t.url, `/stores/v2/inventoryItems/product/${mug.productId}`, { ...asOwner(t), method: 'PATCH', body: { inventoryItem: { trackQuantity: true, variants: [{ variantId: mug.variantId, quantity }] } } });
    expect((await stock(2)).status).toBe(200);
    expect(await lines(v.get(CART))).toEqual([
      ['Kept mug', 3, '24.00', { status: 'PARTIALLY_AVAILABLE', quantityAvailable: 2 }], ['Kept kettle', 1, '30.00', { status: 'AVAILABLE' }],
    ]);
    expect((await stock(5)).status).toBe(200);
    // Another buyer's unpaid order holds 4 units (stock is taken when paid): the cart shows what is left at once.
    const trigger = (inventoryUpdateTrigger: string) => call(t.url, '/ecom/v1/orders-settings', { ...asOwner(t), method: 'PATCH', body: { ordersSettings: { inventoryUpdateTrigger } } });
    expect((await trigger('ON_ORDER_PAID')).status).toBe(200);
    try {
      const buyer = as(t, await visitor(t));
      const co = (await buyer.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(mug.productId, 4)] })).body.checkout.id as string;
      expect((await buyer.post(`${CHECKOUTS}/${co}/create-order`, { id: co })).status).toBe(200);
    } finally {
      expect((await trigger('ON_ORDER_PLACED')).status).toBe(200);
    }
    expect(await lines(v.get(CART))).toEqual([
      ['Kept mug', 3, '24.00', { status: 'PARTIALLY_AVAILABLE', quantityAvailable: 1 }], ['Kept kettle', 1, '30.00', { status: 'AVAILABLE' }],
    ]);
    expect((await stock(9)).status).toBe(200);
    expect(await lines(v.get(CART))).toEqual([
      ['Kept mug', 3, '24.00', { status: 'AVAILABLE', quantityAvailable: 5 }], ['Kept kettle', 1, '30.00', { status: 'AVAILABLE' }],
    ]);
    const mugLine = (await v.get(CART)).body.cart.lineItems[0].id as string;
    expect(await lines(v.post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: mugLine, quantity: 1 }] }))).toEqual([
      ['Kept mug', 1, '8.00', { status: 'AVAILABLE', quantityAvailable: 5 }], ['Kept kettle', 1, '30.00', { status: 'AVAILABLE' }],
    ]);
    // The same product in another cart at the same quantity is that cart's own line.
    const other = as(t, await visitor(t));
    const theirs = (await other.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId)] })).body.cart.lineItems[0];
    expect(theirs.id).not.toBe(mugLine);
    expect(shape(theirs)).toEqual(['Kept mug', 1, '8.00', { status: 'AVAILABLE', quantityAvailable: 5 }]);
  });
});
