import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';
import { openSection, signedInPage } from './dashboard-helpers.js';

/** Owner dashboard, orders: list with a payment filter, order drawer (items, totals, activity), cancel after confirmation. */
let t: TestServer;
let browser: Browser;
let page: Page;
let orderId = '';

beforeAll(async () => {
  t = await startTestServer();
  const res = await call(t.url, '/ecom/v1/orders', {
    ...asOwner(t),
    body: { order: { lineItems: [{ productName: { original: 'Gift wrap' }, quantity: 2, price: { amount: '5.00' } }], buyerInfo: { email: 'buyer@shop.test' } } },
  });
  expect(res.status).toBe(200);
  orderId = res.body.order.id;
  browser = await launchBrowser();
  page = await signedInPage(browser, t);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('orders', () => {
  it('lists orders, filters by payment, opens one and cancels it after confirmation', async () => {
    await openSection(page, 'Orders', 'Orders');
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    expect(await page.getByTestId('order-row').textContent()).toContain('buyer@shop.test');
    await page.getByLabel('Payment').selectOption('PAID');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No order matches.');
    await page.getByLabel('Payment').selectOption('');
    await page.getByTestId('order-row').getByRole('button').click();
    const drawer = page.getByRole('dialog', { name: /^Order #/ });
    await expect.poll(() => drawer.getByTestId('order-item').allTextContents()).toEqual([expect.stringMatching(/^Gift wrap2/)]);
    await page.screenshot({ path: 'e2e/artifacts/order.png', fullPage: true });
    await drawer.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('dialog', { name: 'Cancel order' }).getByRole('button', { name: 'Cancel order and restock' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.status).toBe('CANCELED');
    await expect.poll(() => drawer.getByTestId('order-detail').textContent()).toContain('StatusCANCELED');
  });
});
