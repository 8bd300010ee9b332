import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';

let t: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('storefront', () => {
  it('lists the demo products with images and prices, newest first', async () => {
    await page.goto(`${t.url}/`);
    await page.getByTestId('product-card').first().waitFor();
    expect(await page.getByTestId('total').textContent()).toBe('26 products');
    const names = await page.getByTestId('product-name').allTextContents();
    expect(names).toHaveLength(12);
    expect(names.slice(0, 3)).toEqual(['Cold Brew Kit', 'Ceramic Mug', 'Gift Card']);
    const img = page.locator('[data-testid="product-card"] img').first();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(800);
  });

  it('pages, searches and sorts through the SDK', async () => {
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.getByTestId('product-card').count()).toBe(24);
    await page.getByLabel('Search products').fill('kettle');
    await expect.poll(() => page.getByTestId('product-name').allTextContents()).toEqual(['Gooseneck Kettle']);
    await page.getByLabel('Search products').fill('');
    await page.getByLabel('Sort').selectOption('price-desc');
    await expect.poll(async () => (await page.getByTestId('product-name').allTextContents()).slice(0, 2)).toEqual(['Hand Grinder', 'Gooseneck Kettle']);
  });

  it('shows a product with variant prices and stock', async () => {
    await page.goto(`${t.url}/product-page/roaster-hoodie`);
    await expect.poll(() => page.getByTestId('product-title').textContent()).toBe('Roaster Hoodie');
    await page.getByRole('button', { name: 'XL' }).click();
    expect(await page.getByTestId('availability').textContent()).toBe('Out of stock');
    await page.getByRole('button', { name: 'M', exact: true }).click();
    expect(await page.getByTestId('availability').textContent()).toBe('In stock');
    expect(await page.getByTestId('price').first().textContent()).toBe('$55.00');
  });
});
