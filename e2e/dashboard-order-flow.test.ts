import { beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call } from '../packages/server/test/harness.js';
import { axeViolations } from './a11y.js';
import { signedInPage } from './dashboard-helpers.js';
import { useServerAndBrowser } from './fixture.js';
import { addPortugalShipping, fillAddress, open, screenshots } from './storefront-helpers.js';

/**
 * An order's life as an owner runs it: a shopper buys in the storefront with a card that is only
 * authorized; in the dashboard the owner captures it, refunds part of it and ships it, and each step
 * shows on the order's timeline (and in the server's answer).
 */
const f = useServerAndBrowser();
const AUTHORIZE_ONLY_CARD = '4000 0000 0000 0036';

beforeAll(() => addPortugalShipping(f.t));

async function orderOf(orderId: string) {
  const res = await call(f.t.url, `/ecom/v1/orders/${orderId}`, asOwner(f.t));
  return res.body.order as { paymentStatus: string; fulfillmentStatus: string; number: string; activities: { type: string }[] };
}

describe('an owner runs an order from the storefront', () => {
  it('captures, partially refunds and fulfills it, each step on the timeline', async () => {
    const shop = f.page;
    await open(shop, `${f.t.url}/product-page/roaster-hoodie?Size=M`);
    await shop.getByTestId('add-to-cart').click();
    await shop.getByTestId('cart-drawer').getByRole('link', { name: 'View cart and check out' }).click();
    await shop.waitForURL(`${f.t.url}/cart`);
    await shop.getByRole('button', { name: 'Check out' }).click();
    await shop.waitForURL(/\/checkout\//);
    await fillAddress(shop, 'buyer@example.com');
    await shop.getByTestId('shipping-options').getByRole('radio').first().click();
    await shop.getByLabel('Card number').fill(AUTHORIZE_ONLY_CARD);
    await shop.getByLabel('Expiry (MM/YY)').fill('12/30');
    await shop.getByLabel('CVC').fill('123');
    await shop.getByRole('button', { name: 'Place order and pay' }).click();
    await shop.waitForURL(/\/order-confirmation\//);
    const orderId = decodeURIComponent(new URL(shop.url()).pathname.split('/').pop() ?? '');

    const page = await signedInPage(f.browser, f.t);
    await page.goto(`${f.t.url}/dashboard/orders`);
    const { number } = await orderOf(orderId);
    await page.getByRole('link', { name: `#${number}` }).click();
    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();
    const payments = page.getByRole('region', { name: 'Payments' });
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const steps = () => timeline.getByTestId('order-activity').allTextContents();
    await expect.poll(() => payments.getByTestId('payment').textContent()).toContain('AUTHORIZED');
    await screenshots(page, 'dashboard-order-authorized');

    await payments.getByRole('button', { name: 'Capture' }).click();
    await expect.poll(() => payments.getByTestId('payment').textContent()).toContain('APPROVED');
    await expect.poll(async () => (await orderOf(orderId)).paymentStatus).toBe('PAID');
    await expect.poll(async () => (await steps()).some((s) => s.endsWith('Payment captured'))).toBe(true);

    await payments.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund payment' });
    await refund.getByLabel('Refund amount').fill('20.00');
    await refund.getByLabel(/^Roaster Hoodie/).fill('1');
    await refund.getByRole('button', { name: /^Refund \D?20\.00$/ }).click();
    await expect.poll(() => payments.getByTestId('refund').count()).toBe(1);
    expect(await payments.getByTestId('refund').textContent()).toMatch(/^Refund \D?20\.00 · /);
    await expect.poll(async () => (await orderOf(orderId)).paymentStatus).toBe('PARTIALLY_REFUNDED');
    await expect.poll(async () => (await steps()).some((s) => s.endsWith('Order refunded'))).toBe(true);

    const shipping = page.getByRole('region', { name: 'Fulfillment' });
    await shipping.getByRole('button', { name: 'Fulfill items' }).click();
    const fulfill = page.getByRole('dialog', { name: 'Fulfill items' });
    await fulfill.getByLabel('Carrier').fill('CTT');
    await fulfill.getByLabel('Tracking number').fill('CT123456789PT');
    await fulfill.getByRole('button', { name: 'Mark as fulfilled' }).click();
    await expect.poll(() => shipping.getByTestId('fulfillment').textContent()).toContain('CTT · CT123456789PT');
    await expect.poll(async () => (await orderOf(orderId)).fulfillmentStatus).toBe('FULFILLED');
    await expect.poll(async () => (await steps()).filter((s) => /(Order fulfilled|Tracking number added)$/.test(s)).length).toBe(2);

    await timeline.getByLabel('Comment').fill('Gift wrapped by Ana');
    await timeline.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(async () => (await steps()).some((s) => s.includes('CommentGift wrapped by Ana'))).toBe(true);
    const server = await orderOf(orderId);
    expect(server.activities.map((a) => a.type)).toEqual(expect.arrayContaining(['AUTHORIZED_PAYMENT_CAPTURED', 'ORDER_REFUNDED', 'ORDER_FULFILLED', 'TRACKING_NUMBER_ADDED', 'MERCHANT_COMMENT']));
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'dashboard-order');
    await page.close();
  });
});
