/**
 * The hosted checkout page (the checkout's own URL, `getCheckoutUrl`) in a real browser: it shows what
 * the checkout holds, offers the delivery options of the address in a working select, moves the
 * totals when the buyer picks one, fits a phone screen, and places and charges the order.
 */
import { describe, expect, it } from 'vitest';
import { asOwner, call } from '../packages/server/test/harness.js';
import { as, CHECKOUTS, line, productV1, visitor } from '../packages/server/test/cart-support.js';
import { axeViolations } from './a11y.js';
import { useServerAndBrowser } from './fixture.js';
import { watchErrors } from './storefront-helpers.js';

const f = useServerAndBrowser();

describe('hosted checkout page', () => {
  it('prefills the checkout, offers its delivery options, moves the totals with the choice and places the order', async () => {
    const lamp = await productV1(f.t, { name: 'Desk Lamp', price: 20 });
    const v = as(f.t, await visitor(f.t));
    const address = { country: 'US', subdivision: 'US-NY', city: 'Albany', postalCode: '12207', addressLine: '1 Main St' };
    const created = await v.post(CHECKOUTS, {
      channelType: 'WEB', lineItems: [line(lamp.productId, 1)],
      checkoutInfo: { buyerInfo: { email: 'hosted@example.com' }, shippingInfo: { shippingDestination: { address, contactDetails: { firstName: 'Hal', lastName: 'Host' } } } },
    });
    expect(created.status).toBe(200);
    const id = created.body.checkout.id as string;
    const url = (await v.get(`${CHECKOUTS}/${id}/checkout-url`)).body.checkoutUrl as string;

    // The page's CSP allows its own script only; axe is injected for the audit.
    const page = await f.browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const errors = watchErrors(page);
    await page.goto(url);
    await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe('hosted@example.com');
    expect(await page.getByLabel('City').inputValue()).toBe('Albany');
    expect(await page.getByLabel('First name').inputValue()).toBe('Hal');
    // The demo store's US options; the cheapest delivery is chosen for the buyer, never the free pickup.
    const delivery = page.getByLabel('Delivery');
    expect(await delivery.locator('option').allTextContents()).toEqual(['Standard $5.00', 'Express $15.00', 'Store pickup $0.00']);
    expect(await delivery.inputValue()).toBe('standard');
    expect(await page.locator('#sum-shipping').textContent()).toBe('$5.00');
    // It fits a phone: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    await delivery.selectOption('express');
    await expect.poll(() => page.locator('#sum-shipping').textContent()).toBe('$15.00');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Month').fill('12');
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();
    // No thank-you page was given: on to the storefront's confirmation, which reads the order through
    // the checkout (this browser is not the API visitor who made it, so the page itself is not checked).
    await page.waitForURL(new RegExp(`/order-confirmation/[^?]+\\?checkout=${id}$`));
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const order = (await call(f.t.url, `/ecom/v1/orders/${orderId}`, asOwner(f.t))).body.order;
    expect([order.paymentStatus, order.shippingInfo.title, order.priceSummary.shipping.amount]).toEqual(['PAID', 'Express', '15.00']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
