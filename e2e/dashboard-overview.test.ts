import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';
import { CART, CHECKOUTS, as, clearDemoPricing, line, productV1, visitor } from '../packages/server/test/cart-support.js';
import { openSection, useSignedInDashboard } from './dashboard-helpers.js';
import { axeViolations } from './a11y.js';

/**
 * The overview, the landing page: today's figures come from real orders placed through the cart and
 * checkout API (a canceled one is not counted), the low-stock list follows the stock those orders
 * took, and the page passes axe's WCAG A/AA rules. Screenshot in e2e/artifacts/.
 */
let t: TestServer;
let page: Page;
const address = { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001', addressLine: '1 Main St' };

/** One order through a fresh visitor's cart and checkout; answers its id. */
async function placeOrder(lines: ReturnType<typeof line>[], email: string): Promise<string> {
  const v = as(t, await visitor(t));
  expect((await v.post(`${CART}/add-to-cart`, { lineItems: lines })).status).toBe(200);
  const co = await v.post(`${CART}/create-checkout`, { channelType: 'WEB', email, billingAddress: address });
  expect(co.status).toBe(200);
  const placed = await v.post(`${CHECKOUTS}/${co.body.checkoutId}/create-order`, { id: co.body.checkoutId });
  expect(placed.status).toBe(200);
  return placed.body.orderId as string;
}

useSignedInDashboard((fixture) => ({ t, page } = fixture));
beforeAll(async () => {
  // Only what this file sets up prices the orders (no demo tax, shipping or automatic discount).
  await clearDemoPricing(t);
  const kettle = await productV1(t, { name: 'Overview Kettle', price: 30, quantity: 5 });
  const papers = await productV1(t, { name: 'Overview Papers', price: 15 });
  await placeOrder([line(kettle.productId, 2)], 'ann@shop.test');
  await placeOrder([line(papers.productId, 1)], 'bob@shop.test');
  const canceled = await placeOrder([line(papers.productId, 3)], 'cy@shop.test');
  expect((await call(t.url, `/ecom/v1/orders/${canceled}/cancel`, { ...asOwner(t), body: {} })).status).toBe(200);
  await page.setViewportSize({ width: 1400, height: 1000 });
  // The sign-in already showed the overview (without these orders): start from a fresh page cache.
  await page.reload();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
});

describe('overview', () => {
  it("shows today's orders and sales from real orders, new members, low stock and recent orders", async () => {
    await openSection(page, 'Overview', 'Overview');
    // Two placed orders count: 2 x 30.00 + 1 x 15.00; the canceled one (3 x 15.00) does not.
    await expect.poll(() => page.getByTestId('today-orders').textContent()).toBe('2');
    await expect.poll(() => page.getByTestId('today-sales').textContent()).toBe('75.00 USD');
    // New members today: whatever the server says joined since local midnight (the demo seeds some at start).
    const midnight = new Date(); midnight.setHours(0, 0, 0, 0);
    const joined = await call(t.url, '/members/v1/members/query', { ...asOwner(t), body: { query: { filter: { createdDate: { $gte: midnight.toISOString() } }, paging: { limit: 100 } } } });
    expect(joined.status).toBe(200);
    await expect.poll(() => page.getByTestId('today-members').textContent()).toBe(String(joined.body.members.length));
    // The kettle had 5 and two were ordered: 3 left, at or under the threshold.
    await expect.poll(() => page.getByTestId('low-stock-row').filter({ hasText: 'Overview Kettle' }).textContent()).toBe('Overview Kettle—3');
    // Newest first, the canceled one included (it is an order, just not a sale).
    await expect.poll(async () => (await page.getByTestId('recent-order-row').allTextContents()).slice(0, 3).map((r) => r.match(/[a-z]+@shop\.test/)?.[0]))
      .toEqual(['cy@shop.test', 'bob@shop.test', 'ann@shop.test']);
    // The charts' figures, as their data tables give them: today's UTC bar holds the two orders.
    const orders = page.getByRole('figure', { name: 'Orders' });
    await orders.getByText('Orders as a table').click();
    const lastRow = orders.getByRole('table', { name: 'Orders per day' }).getByRole('row').last();
    expect(await lastRow.textContent()).toBe(`${new Date().toISOString().slice(0, 10)}2`);
    expect(await page.getByRole('figure', { name: 'Sales' }).getByRole('img').getAttribute('aria-label')).toMatch(/^Sales: 75\.00 USD over 30 days, highest on \d{4}-\d{2}-\d{2} with 75\.00 USD\.$/);
    await page.screenshot({ path: 'e2e/artifacts/overview.png', fullPage: true });
  });

  it('passes the axe WCAG A/AA and best-practice rules', async () => {
    await openSection(page, 'Overview', 'Overview');
    await expect.poll(() => page.getByTestId('today-orders').textContent()).toBe('2');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('saves screenshots of the other pages of this area (reports, webhooks, mailbox), each passing axe', async () => {
    for (const [link, heading, file] of [['Reports', 'Member reports', 'reports'], ['Webhooks', 'Webhooks', 'webhooks'], ['Mailbox', 'Mailbox', 'mailbox']] as const) {
      await openSection(page, link, heading);
      // Every loading notice gone (a page may show more than one while its parts load).
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(0);
      await page.screenshot({ path: `e2e/artifacts/${file}.png`, fullPage: true });
      expect(await axeViolations(page), link).toEqual([]);
    }
  });
});
