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

describe('owner dashboard', () => {
  it('refuses a wrong key with the server message', async () => {
    await page.goto(`${t.url}/dashboard/`);
    await page.getByLabel('API key').fill('vtr_wrong');
    await page.getByLabel('Site id').fill(t.site.id);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The API key is invalid or revoked');
  });

  it('signs in with an API key, lists every product and adds one', async () => {
    await page.getByLabel('API key').fill(t.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('26 products');
    expect(await page.getByTestId('product-row').count()).toBe(25);
    await page.getByLabel('Name').fill('Espresso Cups (2)');
    await page.getByLabel('Price').fill('22.5');
    await page.getByRole('button', { name: 'Add product' }).click();
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('27 products');
    await page.getByLabel('Search').fill('espresso cups');
    await expect.poll(() => page.getByTestId('product-row').allTextContents()).toEqual([expect.stringContaining('Espresso Cups (2)')]);
    expect(await page.getByTestId('product-row').first().textContent()).toContain('$22.50');
  });
});
