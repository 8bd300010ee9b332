import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { as, CART, line, productV1, productV3, slugsOf, STORES_APP_ID, visitor } from './cart-support.js';
import { clearDemoPricing } from './cart-support.js';
import { memberToken, memberWithToken } from './member-tokens.js';
import { call } from './harness.js';
import { freshIp, STRONG_PASSWORD, uniqueEmail } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

describe('current cart', () => {
  it('answers 404 before anything was added, then holds catalog lines priced from the catalog', async () => {
    const v = as(t, await visitor(t));
    const none = await v.get(CART);
    expect(none.status).toBe(404);
    expect(none.body.details.applicationError.code).toBe('CART_NOT_FOUND');

    const mug = await productV1(t, { name: 'Mug', price: 12.5, quantity: 10, weight: 0.4 });
    // A price, a full price and a discount sent by the buyer are not part of a line: ignored.
    const added = await v.post(`${CART}/add-to-cart`, { lineItems: [{ ...line(mug.productId, 2), price: '0.01', fullPrice: { amount: '0.01' }, merchantDiscount: '12.49' }] });
    expect(added.status).toBe(200);
    const cart = added.body.cart;
    expect(cart.lineItems).toHaveLength(1);
    const li = cart.lineItems[0];
    expect(li).toMatchObject({
      quantity: 2,
      catalogReference: { catalogItemId: mug.productId, appId: STORES_APP_ID },
      productName: { original: 'Mug' },
      price: { amount: '12.50', formattedAmount: '$12.50' },
      fullPrice: { amount: '12.50' },
      priceBeforeDiscounts: { amount: '12.50' },
      lineItemPrice: { amount: '25.00' },
      availability: { status: 'AVAILABLE', quantityAvailable: 10 },
      physicalProperties: { weight: 0.4, shippable: true },
      itemType: { preset: 'PHYSICAL' },
      paymentOption: 'FULL_PAYMENT_ONLINE',
      rootCatalogItemId: mug.productId,
      customLineItem: false,
    });
    expect(li.url.relativePath).toBe('/product-page/mug');
    expect(cart.currency).toBe('USD');
    expect(cart.buyerInfo.visitorId).toEqual(expect.any(String));

    // The same item again adds to the line; an update sets the quantity; over the stock it is partial.
    const again = await v.post(`${CART}/add-to-cart`, { lineItems: [line(mug.productId, 3)] });
    expect(again.body.cart.lineItems.map((l: { quantity: number }) => l.quantity)).toEqual([5]);
    const more = await v.post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: li.id, quantity: 12 }] });
    expect(more.body.cart.lineItems[0].availability).toEqual({ status: 'PARTIALLY_AVAILABLE', quantityAvailable: 10 });

    const read = await v.get(CART);
    expect(read.status).toBe(200);
    expect(read.body.cart.id).toBe(cart.id);
    expect(await slugsOf(t, cart.id)).toEqual(['created', 'updated', 'updated']);

    const removed = await v.post(`${CART}/remove-line-items`, { lineItemIds: [li.id] });
    expect(removed.body.cart.lineItems).toEqual([]);
    const deleted = await v.del(CART);
    expect([deleted.status, deleted.body]).toEqual([200, {}]);
    expect((await v.get(CART)).status).toBe(404);
    expect(await slugsOf(t, cart.id)).toEqual(['created', 'updated', 'updated', 'updated', 'deleted']);
  });

  it('prices V3 products and reports missing, hidden and sold-out items', async () => {
    const v = as(t, await visitor(t));
    const tea = await productV3(t, { name: 'Tea', amount: '4.20', compareAt: '5.00', quantity: 3 });
    const gone = await productV1(t, { name: 'Sold Out', price: 3, quantity: 0 });
    const hidden = await productV1(t, { name: 'Hidden', price: 3, visible: false });
    const res = await v.post(`${CART}/add-to-cart`, { lineItems: [line(tea.productId, 1), line(gone.productId), line(hidden.productId), line('no-such-product')] });
    expect(res.status).toBe(200);
    const [a, b, c, d] = res.body.cart.lineItems;
    expect(a).toMatchObject({ productName: { original: 'Tea' }, price: { amount: '4.20' }, fullPrice: { amount: '5.00' }, availability: { status: 'AVAILABLE', quantityAvailable: 3 } });
    expect(b.availability).toEqual({ status: 'NOT_AVAILABLE', quantityAvailable: 0 });
    expect(c.availability).toEqual({ status: 'NOT_FOUND' });
    expect(d.availability).toEqual({ status: 'NOT_FOUND' });

    const totals = await v.post(`${CART}/estimate-totals`, {});
    expect(totals.status).toBe(200);
    expect(totals.body.priceSummary.subtotal.amount).toBe('4.20');
    expect(totals.body.priceSummary.total.amount).toBe('4.20');
    expect(totals.body.violations.map((x: { severity: string; target: { lineItem: { id: string; suggestedFix?: string } } }) => [x.severity, x.target.lineItem.id, x.target.lineItem.suggestedFix]))
      .toEqual([['ERROR', b.id, 'REMOVE_LINE_ITEM'], ['ERROR', c.id, 'REMOVE_LINE_ITEM'], ['ERROR', d.id, 'REMOVE_LINE_ITEM']]);
  });

  it('refuses custom lines and merchant discounts from a visitor, changing nothing; an owner may set both', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Lamp', price: 40 });
    await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId)] });
    const before = (await v.get(CART)).body;
    const custom = await v.post(`${CART}/add-to-cart`, { customLineItems: [{ quantity: 1, price: '0.01', productName: { original: 'Free lamp' } }] });
    expect([custom.status, custom.body.details.applicationError.code]).toEqual([403, 'PERMISSION_DENIED']);
    const discount = await v.patch(CART, { merchantDiscounts: [{ amount: '39.99' }] });
    expect([discount.status, discount.body.details.applicationError.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await v.get(CART)).body).toEqual(before);
    expect((await v.post(`${CART}/estimate-totals`, {})).body.priceSummary.total.amount).toBe('40.00');

    const owner = as(t, 'owner');
    await owner.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId)], customLineItems: [{ quantity: 2, price: '5.00', productName: { original: 'Gift wrap' }, itemType: { preset: 'SERVICE' } }] });
    const patched = await owner.patch(CART, { merchantDiscounts: [{ amount: '10.00' }] });
    expect(patched.status).toBe(200);
    const est = await owner.post(`${CART}/estimate-totals`, {});
    expect(est.body.priceSummary).toMatchObject({ subtotal: { amount: '50.00' }, discount: { amount: '10.00' }, total: { amount: '40.00' } });
    expect(est.body.appliedDiscounts[0]).toMatchObject({ discountType: 'GLOBAL', merchantDiscount: { amount: { amount: '10.00' } } });
  });

  it('checks what only an owner may set before storing it: a refused value changes nothing, and the cart stays usable', async () => {
    const owner = as(t, 'owner');
    const p = await productV1(t, { name: 'Stool', price: 30 });
    await owner.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId)] });
    const before = (await owner.get(CART)).body;
    const field = (res: { status: number; body: { details: { validationError: { fieldViolations: { field: string }[] } } } }) =>
      [res.status, res.body.details.validationError.fieldViolations[0]!.field];
    for (const [price, bad] of [['-10.00', 'price'], ['10.001', 'price'], ['1.00', 'fullPrice']] as const) {
      const custom = { quantity: 1, price, ...(bad === 'fullPrice' ? { fullPrice: '-1' } : {}), productName: { original: 'Odd' } };
      expect(field(await owner.post(`${CART}/add-to-cart`, { customLineItems: [custom] }))).toEqual([400, `customLineItems[0].${bad}`]);
    }
    const stool = before.cart.lineItems.find((l: { catalogReference?: { catalogItemId: string } }) => l.catalogReference?.catalogItemId === p.productId);
    for (const [discount, bad] of [
      [{ percentage: 0.30000000000000004 }, 'merchantDiscounts[0].percentage'],
      [{ amount: '-1.00' }, 'merchantDiscounts[0].amount'],
      [{ amount: '1.00', lineItemIds: ['nope'] }, 'merchantDiscounts[0].lineItemIds[0]'],
      [{}, 'merchantDiscounts[0]'],
    ] as const) {
      expect(field(await owner.patch(CART, { merchantDiscounts: [discount] }))).toEqual([400, bad]);
    }
    // A buyer is never sent anywhere but a web page, and only an owner may send them elsewhere.
    expect(field(await owner.patch(CART, { cartInfo: { overrideCheckoutUrl: 'javascript:alert(1)' } }))).toEqual([400, 'cartInfo.overrideCheckoutUrl']);
    const v = as(t, await visitor(t));
    await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId)] });
    const redirect = await v.patch(CART, { cartInfo: { overrideCheckoutUrl: 'https://elsewhere.example/pay' } });
    expect([redirect.status, redirect.body.details.applicationError.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await v.get(CART)).body.cart.overrideCheckoutUrl).toBeNull();
    expect((await owner.get(CART)).body).toEqual(before);

    // A discount on one line follows it: once the line is removed, the discount goes and the cart still prices.
    expect((await owner.patch(CART, { merchantDiscounts: [{ amount: '5.00', lineItemIds: [stool.id] }] })).status).toBe(200);
    expect((await owner.post(`${CART}/estimate-totals`, {})).body.appliedDiscounts.map((a: { lineItemIds: string[] }) => a.lineItemIds)).toEqual([[stool.id]]);
    expect((await owner.post(`${CART}/remove-line-items`, { lineItemIds: [stool.id] })).status).toBe(200);
    const after = await owner.post(`${CART}/estimate-totals`, {});
    expect([after.status, after.body.appliedDiscounts]).toEqual([200, []]);
  });

  it('keeps each caller to its own cart', async () => {
    const p = await productV1(t, { name: 'Pen', price: 2 });
    const a = as(t, await visitor(t));
    const b = as(t, await visitor(t));
    const m = await memberWithToken(t, { loginEmail: 'cart-iso@example.com' });
    const member = as(t, m.token);
    const ca = (await a.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 3)] })).body.cart;
    expect((await b.get(CART)).status).toBe(404);
    expect((await member.get(CART)).status).toBe(404);
    // Another caller's line ids do nothing to its cart.
    await b.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] });
    const rm = await b.post(`${CART}/remove-line-items`, { lineItemIds: [ca.lineItems[0].id] });
    expect(rm.body.cart.lineItems).toHaveLength(1);
    const q = await b.post(`${CART}/update-line-items-quantity`, { lineItems: [{ id: ca.lineItems[0].id, quantity: 0 }] });
    expect([q.status, q.body.details.applicationError.code]).toEqual([400, 'LINE_ITEM_NOT_FOUND']);
    expect((await a.get(CART)).body.cart.lineItems[0].quantity).toBe(3);
  });

  it('queues concurrent changes of one cart instead of failing them: every add lands, once', async () => {
    const products: Awaited<ReturnType<typeof productV1>>[] = [];
    for (let i = 0; i < 12; i++) products.push(await productV1(t, { name: `Rush ${i}`, price: 1 + i }));
    const v = as(t, await visitor(t));
    // The first add creates the cart; then twelve different items and eight more of the first, all at once.
    expect((await v.post(`${CART}/add-to-cart`, { lineItems: [line(products[0]!.productId, 1)] })).status).toBe(200);
    const adds = await Promise.all([
      ...products.map((p) => v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] })),
      ...Array.from({ length: 8 }, () => v.post(`${CART}/add-to-cart`, { lineItems: [line(products[0]!.productId, 1)] })),
    ]);
    expect(adds.map((r) => r.status)).toEqual(adds.map(() => 200));
    const cart = (await v.get(CART)).body.cart;
    const quantities = new Map<string, number>(cart.lineItems.map((l: { catalogReference: { catalogItemId: string }; quantity: number }) => [l.catalogReference.catalogItemId, l.quantity]));
    expect(Object.fromEntries(quantities)).toEqual(Object.fromEntries(products.map((p, i) => [p.productId, i === 0 ? 10 : 1])));
    // One event per write: the creation and the twenty adds.
    expect(await slugsOf(t, cart.id)).toEqual(['created', ...adds.map(() => 'updated')]);
  });

  it('answers bad input with field violations and changes nothing', async () => {
    const v = as(t, await visitor(t));
    const bad = await v.post(`${CART}/add-to-cart`, { lineItems: [{ quantity: 0, catalogReference: { catalogItemId: 'x', appId: STORES_APP_ID } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('lineItems[0].quantity');
    const tooMany = await v.post(`${CART}/add-to-cart`, { lineItems: Array.from({ length: 101 }, (_, i) => line(`p${i}`)) });
    expect(tooMany.status).toBe(400);
    expect((await v.get(CART)).status).toBe(404);
  });

  it("moves a visitor's cart to the member at login, merging with the member's own cart", async () => {
    const p = await productV1(t, { name: 'Scarf', price: 20 });
    const q = await productV1(t, { name: 'Hat', price: 15 });
    const email = uniqueEmail('cart-merge');
    const ip = freshIp();
    // The member registers (with a first visitor token) and fills a cart of its own.
    const first = await visitor(t);
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', { auth: first, headers: { 'x-forwarded-for': ip }, body: { loginId: { email }, password: STRONG_PASSWORD } });
    expect(reg.body.state).toBe('SUCCESS');
    const memberId: string = reg.body.identity.id;
    const member = as(t, await memberToken(t, memberId));
    await member.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] });

    // Later, as a new visitor, the buyer adds items and then logs in with that visitor token.
    const token = await visitor(t);
    const v = as(t, token);
    const visitorCart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2), line(q.productId, 1)] })).body.cart;
    const login = await call(t.url, '/_api/iam/authentication/v2/login', { auth: token, headers: { 'x-forwarded-for': ip }, body: { loginId: { email }, password: STRONG_PASSWORD } });
    expect(login.body.state).toBe('SUCCESS');

    const merged = (await member.get(CART)).body.cart;
    expect(merged.lineItems.map((l: { productName: { original: string }; quantity: number }) => [l.productName.original, l.quantity])).toEqual([['Scarf', 3], ['Hat', 1]]);
    expect(merged.buyerInfo).toEqual({ memberId });
    expect((await v.get(CART)).status).toBe(404);
    expect(await slugsOf(t, visitorCart.id)).toEqual(['created', 'deleted']);
  });
  it("moves a visitor's cart as it is to a member who has none", async () => {
    const p = await productV1(t, { name: 'Beanie', price: 12 });
    const email = uniqueEmail('cart-move');
    const ip = freshIp();
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', { auth: await visitor(t), headers: { 'x-forwarded-for': ip }, body: { loginId: { email }, password: STRONG_PASSWORD } });
    expect(reg.body.state).toBe('SUCCESS');
    const member = as(t, await memberToken(t, reg.body.identity.id as string));
    expect((await member.get(CART)).status).toBe(404);

    const token = await visitor(t);
    const v = as(t, token);
    const visitorCart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] })).body.cart;
    const login = await call(t.url, '/_api/iam/authentication/v2/login', { auth: token, headers: { 'x-forwarded-for': ip }, body: { loginId: { email }, password: STRONG_PASSWORD } });
    expect(login.body.state).toBe('SUCCESS');

    // The same cart (id and lines), now found by the member and no longer by the visitor.
    const moved = (await member.get(CART)).body.cart;
    expect([moved.id, moved.lineItems.map((l: { quantity: number }) => l.quantity), moved.buyerInfo]).toEqual([visitorCart.id, [2], { memberId: reg.body.identity.id }]);
    expect((await v.get(CART)).status).toBe(404);
  });
  it("merges the visitor's cart into the member's when the visitor logs in on the hosted login page", async () => {
    const p = await productV1(t, { name: 'Gloves', price: 9 });
    const email = uniqueEmail('cart-hosted');
    const ip = freshIp();
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', { auth: await visitor(t), headers: { 'x-forwarded-for': ip }, body: { loginId: { email }, password: STRONG_PASSWORD } });
    const memberId: string = reg.body.identity.id;
    const member = as(t, await memberToken(t, memberId));
    await member.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] });

    const token = await visitor(t);
    const v = as(t, token);
    const visitorCart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 4)] })).body.cart;
    const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: token, body: { login: {}, callbacks: {} } });
    expect(rs.status).toBe(200);
    const rsId = new URL(rs.body.redirectSession.fullUrl).searchParams.get('rs');
    // A wrong password changes nothing: the visitor keeps the cart.
    const wrong = await call(t.url, '/_hosted/api/login', { body: { rs: rsId, email, password: 'not the password at all' }, headers: { 'x-forwarded-for': ip } });
    expect(wrong.status).toBe(400);
    expect((await v.get(CART)).body.cart.lineItems[0].quantity).toBe(4);

    const res = await call(t.url, '/_hosted/api/login', { body: { rs: rsId, email, password: STRONG_PASSWORD }, headers: { 'x-forwarded-for': ip } });
    expect(res.status).toBe(200);
    const merged = (await member.get(CART)).body.cart;
    expect(merged.lineItems.map((l: { productName: { original: string }; quantity: number }) => [l.productName.original, l.quantity])).toEqual([['Gloves', 5]]);
    expect((await v.get(CART)).status).toBe(404);
    expect(await slugsOf(t, visitorCart.id)).toEqual(['created', 'deleted']);
  });
});
