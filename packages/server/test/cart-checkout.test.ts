import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { as, CART, CHECKOUTS, line, productV1, slugsOf, visitor } from './cart-support.js';
import { clearDemoPricing } from './cart-support.js';
import { serviceContext } from './member-tokens.js';
import { availability } from '../src/domains/inventory/index.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

const address = { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001', addressLine: '1 Main St' };

async function ordersOf(checkoutId: string): Promise<number> {
  const rows = await t.server.deps.storage.db.selectFrom('orders').select('id').where('checkout_id', '=', checkoutId).execute();
  return rows.length;
}

async function stock(ref: { productId: string; variantId: string }) {
  const [a] = await availability(serviceContext(t), [ref]);
  return { quantity: a!.quantity, reserved: a!.reserved };
}

describe('checkout', () => {
  it('is created from the current cart, updated, and placed once as an order', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Kettle', price: 30, quantity: 5 });
    const cart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] })).body.cart;
    const created = await v.post(`${CART}/create-checkout`, { channelType: 'WEB', email: 'buyer@example.com', billingAddress: address });
    expect(created.status).toBe(200);
    const id = created.body.checkoutId;
    expect((await v.get(CART)).body.cart.checkoutId).toBe(id);

    const got = await v.get(`${CHECKOUTS}/${id}`);
    expect(got.status).toBe(200);
    const co = got.body.checkout;
    expect(co).toMatchObject({
      id, cartId: cart.id, completed: false, channelType: 'WEB', currency: 'USD',
      buyerInfo: { email: 'buyer@example.com', visitorId: cart.buyerInfo.visitorId },
      priceSummary: { subtotal: { amount: '60.00' }, total: { amount: '60.00' } },
      billingInfo: { address },
    });
    expect(co.lineItems[0]).toMatchObject({ quantity: 2, price: { amount: '30.00' }, totalPriceAfterTax: { amount: '60.00' } });
    expect((await v.get(`${CHECKOUTS}/by-cart-id/${cart.id}`)).body.checkout.id).toBe(id);

    const billing = { address: { ...address, city: 'Albany' }, contactDetails: { firstName: 'Ada', lastName: 'Byron' } };
    const upd = await v.patch(`${CHECKOUTS}/${id}`, { checkout: { billingInfo: billing, buyerInfo: { email: 'ada@example.com' } } });
    expect(upd.status).toBe(200);
    expect(upd.body.checkout.billingInfo).toEqual(billing);
    expect(upd.body.checkout.buyerInfo.email).toBe('ada@example.com');
    const gift = await v.patch(`${CHECKOUTS}/${id}`, { checkout: {}, giftCardCode: 'GIFT-1' });
    expect([gift.status, gift.body.details.applicationError.code]).toEqual([400, 'GIFT_CARD_NOT_SUPPORTED']);

    const url = await v.get(`${CHECKOUTS}/${id}/checkout-url`);
    expect(url.body.checkoutUrl).toMatch(new RegExp(`^${t.url}/_hosted/checkout\\?checkoutId=${id}&token=`));

    const first = await v.post(`${CHECKOUTS}/${id}/create-order`, { id });
    expect(first.status).toBe(200);
    const orderId = first.body.orderId;
    expect(orderId).toEqual(expect.any(String));
    const again = await v.post(`${CHECKOUTS}/${id}/create-order`, { id });
    expect(again.body).toEqual({ orderId });
    expect(await ordersOf(id)).toBe(1);
    expect((await v.get(`${CHECKOUTS}/${id}`)).body.checkout.completed).toBe(true);
    expect(await slugsOf(t, id)).toEqual(['created', 'updated', 'completed']);
    // The cart the order came from is gone: the shopper's next visit starts with an empty cart.
    const after = await v.get(CART);
    expect([after.status, after.body.details.applicationError.code]).toEqual([404, 'CART_NOT_FOUND']);
    // Taken by the order (the default inventory trigger is the order being placed).
    expect(await stock(p)).toEqual({ quantity: 3, reserved: 0 });
    const late = await v.patch(`${CHECKOUTS}/${id}`, { checkout: { buyerNote: 'late' } });
    expect([late.status, late.body.details.applicationError.code]).toEqual([409, 'CHECKOUT_ALREADY_COMPLETED']);
  });

  it('answers a completed checkout with the prices it was bought at, whatever the catalog says later', async () => {
    const v = as(t, await visitor(t));
    const owner = as(t, 'owner');
    const p = await productV1(t, { name: 'Teapot', price: 30, quantity: 10 });
    const q = await productV1(t, { name: 'Strainer', price: 4 });
    const setPrice = async (productId: string, price: number) => expect((await owner.patch(`/stores/v1/products/${productId}`, { product: { priceData: { price } } })).status).toBe(200);
    const amounts = (co: { priceSummary: { subtotal: { amount: string }; total: { amount: string } }; lineItems: { price: { amount: string } }[] }) =>
      [co.priceSummary.subtotal.amount, co.priceSummary.total.amount, co.lineItems.map((l) => l.price.amount)];

    const cart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] })).body.cart;
    const id = (await v.post(`${CART}/create-checkout`, { channelType: 'WEB' })).body.checkoutId;
    // While open, a checkout is priced from the catalog on every read.
    await setPrice(p.productId, 25);
    expect(amounts((await v.get(`${CHECKOUTS}/${id}`)).body.checkout)).toEqual(['50.00', '50.00', ['25.00']]);
    expect((await v.post(`${CHECKOUTS}/${id}/create-order`, { id })).status).toBe(200);
    const bought = (await v.get(`${CHECKOUTS}/${id}`)).body.checkout;
    expect([bought.completed, ...amounts(bought)]).toEqual([true, '50.00', '50.00', ['25.00']]);

    // Once completed it is a record: a new price, or the product gone, changes nothing in its answer.
    await setPrice(p.productId, 99);
    expect((await v.get(`${CHECKOUTS}/${id}`)).body.checkout).toEqual(bought);
    expect((await owner.del(`/stores/v1/products/${p.productId}`)).status).toBe(200);
    expect((await v.get(`${CHECKOUTS}/${id}`)).body.checkout).toEqual(bought);
    expect((await v.get(`${CHECKOUTS}/by-cart-id/${cart.id}`)).body.checkout).toEqual(bought);
    expect((await owner.get(`${CHECKOUTS}/${id}`)).body.checkout).toEqual(bought);

    // The same for a checkout marked completed without an order (paid elsewhere).
    const other = (await v.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(q.productId, 3)] })).body.checkout;
    expect((await v.post(`${CHECKOUTS}/${other.id}/mark-as-completed`, { id: other.id })).status).toBe(200);
    const marked = (await v.get(`${CHECKOUTS}/${other.id}`)).body.checkout;
    expect([marked.completed, ...amounts(marked)]).toEqual([true, '12.00', '12.00', ['4.00']]);
    await setPrice(q.productId, 5);
    expect((await v.get(`${CHECKOUTS}/${other.id}`)).body.checkout).toEqual(marked);
  });

  it('removes the cart with the order of the checkout it last led to, not an earlier one', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Grinder', price: 12, quantity: 10 });
    expect((await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] })).status).toBe(200);
    const first = (await v.post(`${CART}/create-checkout`, { channelType: 'WEB' })).body.checkoutId;
    const second = (await v.post(`${CART}/create-checkout`, { channelType: 'WEB' })).body.checkoutId;
    expect((await v.get(CART)).body.cart.checkoutId).toBe(second);
    expect((await v.post(`${CHECKOUTS}/${first}/create-order`, { id: first })).status).toBe(200);
    // The cart had moved on to the second checkout: the first one's order leaves it as it is.
    expect((await v.get(CART)).body.cart).toMatchObject({ checkoutId: second, lineItems: [{ quantity: 1 }] });
    expect((await v.post(`${CHECKOUTS}/${second}/create-order`, { id: second })).status).toBe(200);
    const after = await v.get(CART);
    expect([after.status, after.body.details.applicationError.code]).toEqual([404, 'CART_NOT_FOUND']);
  });

  it('gives the same order to concurrent create-order calls of one checkout', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Bowl', price: 8, quantity: 50 });
    const co = (await v.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId, 1)] })).body.checkout;
    const answers = await Promise.all(Array.from({ length: 8 }, () => v.post(`${CHECKOUTS}/${co.id}/create-order`, { id: co.id })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.orderId)).size).toBe(1);
    expect(await ordersOf(co.id)).toBe(1);
  });

  it('ends 50 concurrent checkouts for the last 10 units in exactly 10 orders', async () => {
    const p = await productV1(t, { name: 'Last Ten', price: 15, quantity: 10 });
    const buyers = await Promise.all(Array.from({ length: 50 }, async () => as(t, await visitor(t))));
    const checkouts = await Promise.all(buyers.map(async (b) => (await b.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId, 1)] })).body.checkout.id as string));
    const results = await Promise.all(buyers.map((b, i) => b.post(`${CHECKOUTS}/${checkouts[i]}/create-order`, { id: checkouts[i] })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    // Refused either when pricing sees the item sold out, or by the guarded stock decrement of a racing order.
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.status)).toEqual(Array(40).fill(409));
    for (const r of refused) expect(['INSUFFICIENT_STOCK', 'CHECKOUT_HAS_VIOLATIONS']).toContain(r.body.details.applicationError.code);
    const held = await stock(p);
    expect(held.quantity! - held.reserved).toBe(0);
    let orders = 0;
    for (const id of checkouts) orders += await ordersOf(id);
    expect(orders).toBe(10);
  }, 60_000);

  it('keeps checkouts to their own buyer', async () => {
    const p = await productV1(t, { name: 'Cup', price: 3 });
    const a = as(t, await visitor(t));
    const b = as(t, await visitor(t));
    const co = (await a.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId)] })).body.checkout;
    for (const res of [
      await b.get(`${CHECKOUTS}/${co.id}`),
      await b.patch(`${CHECKOUTS}/${co.id}`, { checkout: { buyerNote: 'mine now' } }),
      await b.post(`${CHECKOUTS}/${co.id}/create-order`, { id: co.id }),
      await b.post(`${CHECKOUTS}/${co.id}/mark-as-completed`, { id: co.id }),
      await b.get(`${CHECKOUTS}/${co.id}/checkout-url`),
    ]) expect([res.status, res.body.details.applicationError.code]).toEqual([404, 'CHECKOUT_NOT_FOUND']);
    expect((await a.get(`${CHECKOUTS}/${co.id}`)).body.checkout.buyerNote ?? null).toBeNull();
    expect((await as(t, 'owner').get(`${CHECKOUTS}/${co.id}`)).status).toBe(200);
  });

  it('creates the order and charges the test card; a declined card leaves it unpaid for another try', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Clock', price: 45 });
    const card = (number: string) => JSON.stringify({ number, expMonth: 12, expYear: 2040, cvc: '123' });
    const co = (await v.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId, 2)], checkoutInfo: { buyerInfo: { email: 'clock@example.com' } } })).body.checkout;
    // A card refused before the provider (expired) places nothing: the order and its charge are one step.
    const expired = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: JSON.stringify({ number: '4242424242424242', expMonth: 1, expYear: 2020, cvc: '123' }) });
    expect([expired.status, expired.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'card.expYear']);
    const month13 = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: JSON.stringify({ number: '4242424242424242', expMonth: 13, expYear: 2040, cvc: '123' }) });
    expect([month13.status, month13.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'card.expMonth']);
    expect(await ordersOf(co.id)).toBe(0);
    expect((await v.get(`${CHECKOUTS}/${co.id}`)).body.checkout.completed).toBe(false);
    const declined = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: card('4000000000000002') });
    expect(declined.status).toBe(200);
    expect(JSON.parse(declined.body.paymentResponseToken)).toMatchObject({ status: 'DECLINED' });
    const paid = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: card('4242424242424242') });
    expect(paid.body.orderId).toBe(declined.body.orderId);
    expect(JSON.parse(paid.body.paymentResponseToken)).toMatchObject({ status: 'APPROVED' });
    const again = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: card('4242424242424242') });
    expect(again.body).toEqual({ orderId: paid.body.orderId, paymentResponseToken: null });
    expect(await ordersOf(co.id)).toBe(1);
    const bad = await v.post(`${CHECKOUTS}/${co.id}/create-order-and-charge`, { id: co.id, paymentToken: 'not a card' });
    expect([bad.status, bad.body.details.applicationError.code]).toEqual([400, 'INVALID_PAYMENT_TOKEN']);
  });

  it('only authorizes the card when the store delays capture (checkout settings), unless the call says otherwise', async () => {
    const owner = as(t, 'owner');
    const settings = await owner.patch('/ecom/v1/checkout-settings', { checkoutSettings: { checkoutFields: { delayCaptureEnabled: true } } });
    expect(settings.body.checkoutSettings.checkoutFields.delayCaptureEnabled).toBe(true);
    try {
      const v = as(t, await visitor(t));
      const p = await productV1(t, { name: 'Lamp', price: 30 });
      const card = JSON.stringify({ number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' });
      const checkout = async () => (await v.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId, 1)], checkoutInfo: { buyerInfo: { email: 'lamp@example.com' } } })).body.checkout.id as string;
      const held = await checkout();
      const authorized = await v.post(`${CHECKOUTS}/${held}/create-order-and-charge`, { id: held, paymentToken: card });
      expect(JSON.parse(authorized.body.paymentResponseToken)).toMatchObject({ status: 'AUTHORIZED' });
      const charged = await checkout();
      const now = await v.post(`${CHECKOUTS}/${charged}/create-order-and-charge`, { id: charged, paymentToken: card, delayCapture: false });
      expect(JSON.parse(now.body.paymentResponseToken)).toMatchObject({ status: 'APPROVED' });
    } finally {
      await owner.patch('/ecom/v1/checkout-settings', { checkoutSettings: { checkoutFields: { delayCaptureEnabled: false } } });
    }
  });
});
