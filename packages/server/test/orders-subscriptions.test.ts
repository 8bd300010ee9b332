/**
 * Subscription lines over real HTTP: a V3 product's subscription chosen in the cart prices the line at
 * the subscription's discount and carries its details; the order made from it is a subscription order,
 * which payments report as not collectable and which cannot be edited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, CART, CHECKOUTS, clearDemoPricing, line, visitor } from './cart-support.js';

const O = '/ecom/v1/orders';
const COLLECTOR = '/ecom/v1/payments-collector/orders';
let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

async function subscriptionProduct(): Promise<{ productId: string; monthly: string; hidden: string }> {
  const res = await call(t.url, '/stores/v3/products', {
    ...asOwner(t),
    body: { product: {
      name: 'Coffee beans', productType: 'PHYSICAL', visible: true, variantsInfo: { variants: [{ choices: [], price: { actualPrice: { amount: '20.00' } } }] },
      subscriptionDetails: { allowOneTimePurchases: true, subscriptions: [
        { title: 'Monthly', description: 'Every month', frequency: 'MONTH', interval: 1, autoRenewal: true, discount: { type: 'PERCENT', percentOff: 15 } },
        { title: 'Retired', frequency: 'WEEK', interval: 2, autoRenewal: true, visible: false },
      ] },
    } },
  });
  expect(res.status).toBe(200);
  const subs = res.body.product.subscriptionDetails.subscriptions as { id: string; title: string }[];
  return { productId: res.body.product.id, monthly: subs.find((s) => s.title === 'Monthly')!.id, hidden: subs.find((s) => s.title === 'Retired')!.id };
}

describe('subscription line items', () => {
  it('price and describe the line, and make a subscription order: not collectable, not editable', async () => {
    const { productId, monthly, hidden } = await subscriptionProduct();
    const v = as(t, await visitor(t));
    const cart = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(productId, 2, { subscriptionOptionId: monthly }), line(productId, 1)] })).body.cart;
    const [sub, once] = cart.lineItems;
    // 15% off 20.00 per cycle; the one-time line keeps the plain price and has no subscription.
    expect(sub.price.amount).toBe('17.00');
    expect(sub.fullPrice.amount).toBe('20.00');
    expect(sub.subscriptionOptionInfo).toEqual({
      subscriptionOptionId: monthly, subscriptionSettings: { frequency: 'MONTH', interval: 1, autoRenewal: true, billingCycles: null },
      title: { original: 'Monthly', translated: 'Monthly' }, description: { original: 'Every month', translated: 'Every month' },
    });
    expect(once.price.amount).toBe('20.00');
    expect(once.subscriptionOptionInfo).toBeUndefined();

    // A subscription the product does not show, or does not have, is not for sale.
    const other = as(t, await visitor(t));
    const bad = (await other.post(`${CART}/add-to-cart`, { lineItems: [line(productId, 1, { subscriptionOptionId: hidden }), line(productId, 1, { subscriptionOptionId: 'nope' })] })).body.cart;
    expect(bad.lineItems.map((l: { availability: { status: string } }) => l.availability.status)).toEqual(['NOT_FOUND', 'NOT_FOUND']);

    const co = await v.post(`${CART}/create-checkout`, { channelType: 'WEB', email: 'sub@example.com' });
    expect(co.status).toBe(200);
    const checkout = (await v.get(`${CHECKOUTS}/${co.body.checkoutId}`)).body.checkout;
    expect(checkout.priceSummary.subtotal.amount).toBe('54.00');
    const placed = await v.post(`${CHECKOUTS}/${co.body.checkoutId}/create-order`, { id: co.body.checkoutId });
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.orderId;

    const order = (await call(t.url, `${O}/${orderId}`, asOwner(t))).body.order;
    expect(order.lineItems[0].subscriptionInfo).toMatchObject({ subscriptionOptionId: monthly, subscriptionSettings: { frequency: 'MONTH', interval: 1 }, cycleNumber: 1 });
    expect(order.lineItems[1].subscriptionInfo ?? null).toBeNull();
    expect(order.priceSummary.total.amount).toBe('54.00');

    const status = await call(t.url, `${COLLECTOR}/${orderId}/payment-collectability-status`, { ...asOwner(t), method: 'GET' });
    expect(status.body).toEqual({ status: 'NONCOLLECTABLE_ORDER_HAS_SUBSCRIPTIONS', amount: { amount: '54.00' } });

    const edit = await call(t.url, `${O}/${orderId}/commit-deltas`, { ...asOwner(t), body: { draftOrderId: 'sub-edit', changes: { lineItems: [{ lineItemId: order.lineItems[1].id, changedDetails: { quantity: 2 } }] } } });
    expect([edit.status, edit.body.details.applicationError.code]).toEqual([409, 'SUBSCRIPTION_LINE_ITEM_EXISTS']);
    const after = (await call(t.url, `${O}/${orderId}`, asOwner(t))).body.order;
    expect(after.lineItems.map((l: { quantity: number }) => l.quantity)).toEqual([2, 1]);
  });
});
