import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import { as, CART, CHECKOUTS, line, productV1, visitor } from './cart-support.js';
import { clearDemoPricing } from './cart-support.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

describe('hosted checkout page', () => {
  it('opens from an ecomCheckout redirect session, takes the details and a test card, places the order and goes to the thank-you URL', async () => {
    const token = await visitor(t);
    const v = as(t, token);
    const p = await productV1(t, { name: 'Hosted Vase', price: 22 });
    await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 2)] });
    const { checkoutId } = (await v.post(`${CART}/create-checkout`, { channelType: 'WEB' })).body;
    const session = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: token, body: { ecomCheckout: { checkoutId }, callbacks: { thankYouPageUrl: 'http://localhost:5173/thanks' } } });
    expect(session.status).toBe(200);
    const { fullUrl, id: rs } = session.body.redirectSession;
    expect(fullUrl).toBe(`${t.url}/_hosted/checkout?rs=${rs}`);

    const page = await fetch(fullUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'nonce-");
    const htmlText = await page.text();
    expect(htmlText).toContain('Hosted Vase');
    expect(htmlText).toContain('"total":{"amount":"44.00"');

    const api = (body: unknown) => call(t.url, '/_hosted/checkout/api', { body });
    const address = { firstName: 'Ada', lastName: 'Lovelace', addressLine: '1 Analytical St', city: 'London', postalCode: 'N1', country: 'GB' };
    const region = await as(t, 'owner').post('/ecom/v1/shipping-regions', { shippingRegion: { name: 'UK', destinations: [{ country: 'GB' }], options: [
      { code: 'ROYAL', title: 'Royal Mail', rate: { type: 'FLAT', price: '4.50' } }, { code: 'COURIER', title: 'Courier', rate: { type: 'FLAT', price: '9.00' } }] } });
    expect(region.status).toBe(200);
    const updated = await api({ rs, action: 'update', email: 'ada@example.com', address });
    expect(updated.status).toBe(200);
    expect(updated.body.checkout).toMatchObject({ buyerInfo: { email: 'ada@example.com' }, billingInfo: { address: { country: 'GB', city: 'London' }, contactDetails: { firstName: 'Ada' } } });
    expect(updated.body.checkout.shippingInfo.selectedCarrierServiceOption.code).toBe('ROYAL');
    const courier = await api({ rs, action: 'update', email: 'ada@example.com', address, shippingOption: 'COURIER' });
    expect(courier.body.checkout.priceSummary).toMatchObject({ shipping: { amount: '9.00' }, total: { amount: '53.00' } });

    const declined = await api({ rs, action: 'place', email: 'ada@example.com', address, shippingOption: 'COURIER', card: { number: '4000000000000002', expMonth: 12, expYear: 2040, cvc: '123' } });
    expect([declined.status, declined.body.details.applicationError.code]).toEqual([400, 'CARD_DECLINED']);
    const placed = await api({ rs, action: 'place', email: 'ada@example.com', address, shippingOption: 'COURIER', card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' } });
    expect(placed.status).toBe(200);
    expect(placed.body.orderId).toBe(declined.body.details.applicationError.data.orderId);
    expect(placed.body.redirectUrl).toBe(`http://localhost:5173/thanks?orderId=${placed.body.orderId}`);
    expect((await v.get(`${CHECKOUTS}/${checkoutId}`)).body.checkout.completed).toBe(true);
    expect(await (await fetch(fullUrl)).text()).toContain('Thank you');
  });

  it('refuses unknown sessions and wrong page tokens', async () => {
    expect((await fetch(`${t.url}/_hosted/checkout?rs=nope`)).status).toBe(404);
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Token Jug', price: 5 });
    const co = (await v.post(CHECKOUTS, { channelType: 'WEB', lineItems: [line(p.productId)] })).body.checkout;
    const url = (await v.get(`${CHECKOUTS}/${co.id}/checkout-url`)).body.checkoutUrl as string;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url.replace(/token=[^&]+/, 'token=wrong'))).status).toBe(404);
    const bad = await call(t.url, '/_hosted/checkout/api', { body: { checkoutId: co.id, token: 'wrong', action: 'update' } });
    expect([bad.status, bad.body.details.applicationError.code]).toEqual([404, 'CHECKOUT_NOT_FOUND']);

    // The completion redirect takes <checkoutId>.<page token>.
    const pageToken = new URL(url).searchParams.get('token')!;
    const wrong = await fetch(`${t.url}${CHECKOUTS}/mark-checkout-as-completed-and-redirect-to-url?token=${co.id}.nope`, { redirect: 'manual' });
    expect(wrong.status).toBe(404);
    const done = await fetch(`${t.url}${CHECKOUTS}/mark-checkout-as-completed-and-redirect-to-url?token=${co.id}.${pageToken}`, { redirect: 'manual' });
    expect([done.status, done.headers.get('location')]).toEqual([302, `${t.url}/`]);
    expect((await v.get(`${CHECKOUTS}/${co.id}`)).body.checkout.completed).toBe(true);
  });
});
