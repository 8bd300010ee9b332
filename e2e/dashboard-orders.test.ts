import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { digitalProduct, paidDigitalOrder } from '../packages/server/test/orders-support.js';
import { launchBrowser } from './browser.js';
import { axeViolations } from './a11y.js';
import { openSection, signedInPage } from './dashboard-helpers.js';

/** Owner dashboard, orders: list with a payment filter and search, the order page (items, totals, activity), an edit previewed then saved, cancel after confirmation. */
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
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Payment').selectOption('PAID');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No order matches.');
    await page.getByLabel('Payment').selectOption('');
    await page.getByLabel('Search', { exact: true }).fill('nobody@');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No order matches.');
    await page.getByLabel('Search', { exact: true }).fill('buyer@');
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    await page.getByTestId('order-row').getByRole('link').click();
    const drawer = page.getByRole('main');
    await page.getByRole('heading', { name: /^Order #/ }).waitFor();
    await expect.poll(() => drawer.getByTestId('order-item').allTextContents()).toEqual([expect.stringMatching(/^Gift wrap2/)]);
    await page.screenshot({ path: 'e2e/artifacts/order.png', fullPage: true });
    // Edit: the draft previews the new total before the change is committed.
    await drawer.getByRole('button', { name: 'Edit order' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit order' });
    await edit.getByLabel('Gift wrap quantity').fill('3');
    await expect.poll(() => edit.getByTestId('edit-preview').textContent()).toMatch(/^New total \$?15\.00;/);
    expect((await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.lineItems[0].quantity).toBe(2);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.lineItems[0].quantity).toBe(3);
    await expect.poll(() => drawer.getByTestId('order-item').allTextContents()).toEqual([expect.stringMatching(/^Gift wrap3/)]);
    await drawer.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('dialog', { name: 'Cancel order' }).getByRole('button', { name: 'Cancel order and restock' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.status).toBe('CANCELED');
    await expect.poll(() => drawer.getByTestId('order-detail').textContent()).toContain('StatusCANCELED');
  });

  it('links the file of a paid digital line', async () => {
    const pattern = await digitalProduct(t, 'Knitting pattern', '%PDF-1.7 pattern', '6');
    const order = await call(t.url, '/ecom/v1/orders', { ...asOwner(t), body: { order: paidDigitalOrder(pattern, 'Knitting pattern (PDF)', '6.00', { email: 'knitter@shop.test' }) } });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    await page.goto(`${t.url}/dashboard/orders/${order.body.order.id}`);
    const link = page.getByTestId('order-item-download');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(order.body.order.lineItems[0].digitalFile.link);
    expect(await axeViolations(page)).toEqual([]);
  });
});
