import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';
import { axeViolations } from './a11y.js';
import { ownerAccount, TEST_OWNER } from './dashboard-helpers.js';

/**
 * The dashboard on a phone (390 x 844): the sidebar folds behind a Menu button, no page is wider
 * than the screen (wide tables scroll in their own box, long words in comments wrap), a skip link
 * leads to the main content, the sign-in page focuses the e-mail field and links an icon the build serves.
 */
let t: TestServer;
let browser: Browser;
let page: Page;
let orderId = '';
const WIDTH = 390;

beforeAll(async () => {
  t = await startTestServer();
  await ownerAccount(t);
  const res = await call(t.url, '/ecom/v1/orders', {
    ...asOwner(t),
    body: { order: { lineItems: [{ productName: { original: 'Gift wrap' }, quantity: 2, price: { amount: '5.00' } }], buyerInfo: { email: 'buyer@shop.test' } } },
  });
  expect(res.status).toBe(200);
  orderId = res.body.order.id;
  const comment = await call(t.url, `/ecom/v1/orders/${orderId}/activities`, { ...asOwner(t), body: { activity: { merchantComment: { message: `See ${'x'.repeat(900)}` } } } });
  expect(comment.status, JSON.stringify(comment.body)).toBe(200);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: WIDTH, height: 844 } });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** How far the page reaches sideways, in CSS pixels. */
const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

describe('dashboard at 390 px', () => {
  it('signs in with the e-mail field focused, and links an icon the build serves', async () => {
    const missing: string[] = [];
    page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
    await page.goto(`${t.url}/dashboard/`);
    await page.getByRole('heading', { name: 'Sign in to Vitrine' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/dashboard/favicon.svg');
    expect((await fetch(new URL(icon!, t.url))).status).toBe(200);
    await page.keyboard.type(TEST_OWNER.email);
    await page.getByLabel('Password').fill(TEST_OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    expect(missing).toEqual([]);
  });

  it('folds the sidebar behind Menu, and a skip link leads to the main content', async () => {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    expect(await nav.isVisible()).toBe(false);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Products', exact: true }).click();
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    expect(await nav.isVisible()).toBe(false);
    // Keyboard users start at the top of a loaded page: the skip link comes first.
    await page.reload();
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('keeps every main page within the screen', async () => {
    const pages: [string, string | RegExp][] = [
      ['/', 'Overview'], ['/orders', 'Orders'], [`/orders/${orderId}`, /^Order #/], ['/orders/abandoned', 'Abandoned checkouts'],
      ['/products', 'Products'], ['/products-v3', 'Products (V3 catalog)'], ['/collections', 'Collections'], ['/members', 'Members'],
      ['/reports', 'Member reports'], ['/data', 'Data collections'], ['/webhooks', 'Webhooks'], ['/mailbox', 'Mailbox'],
      ['/settings', 'Settings'], ['/settings/store', 'Settings'], ['/settings/discounts', 'Settings'], ['/settings/shipping-tax', 'Settings'], ['/settings/checkout', 'Settings'],
    ];
    const widths: Record<string, number> = {};
    for (const [path, heading] of pages) {
      await page.goto(`${t.url}/dashboard${path}`);
      await page.getByRole('heading', { name: heading, exact: typeof heading === 'string' }).first().waitFor();
      await page.waitForLoadState('networkidle');
      widths[path] = await pageWidth();
    }
    expect(widths).toEqual(Object.fromEntries(pages.map(([path]) => [path, WIDTH])));
    // The long comment wraps on the order page rather than widening it.
    await page.goto(`${t.url}/dashboard/orders/${orderId}`);
    await page.getByText(/^See x+$/).waitFor();
    expect(await pageWidth()).toBe(WIDTH);
    expect(await axeViolations(page)).toEqual([]);
  });
});
