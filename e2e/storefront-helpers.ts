import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';

/** Screenshots of storefront runs (git-ignored): open them after a run to see the pages. */
export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** A full-page screenshot at a phone (390) and a desktop (1280) width, named `<name>-<width>.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const before = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** Collects console errors and page errors (hydration mismatches show up here). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('404 (Not Found)')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Layout shift so far (the sum of shift scores the browser reported, without recent input). */
export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => new Promise<number>((resolve) => {
    let total = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) total += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => resolve(total), 300);
  }));
}

/** Opens a storefront page and waits until React has hydrated it (clicks before that are lost). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated="true"]');
}

/** The merchant's setup: delivery to Portugal (courier or pickup). WELCOME10 comes with the demo store. */
export async function addPortugalShipping(t: TestServer): Promise<void> {
  const region = await call(t.url, '/ecom/v1/shipping-regions', {
    ...asOwner(t),
    body: {
      shippingRegion: {
        name: 'Portugal', destinations: [{ country: 'PT' }],
        options: [
          { code: 'courier', title: 'Courier', rate: { type: 'FLAT', price: '5.00' }, deliveryTime: '2-3 business days' },
          { code: 'pickup', title: 'Pick up at the roastery', rate: { type: 'FREE' }, pickup: { address: { country: 'PT', city: 'Lisbon', addressLine1: '9 Cafe Street' }, pickupMethod: 'STORE_PICKUP' } },
        ],
      },
    },
  });
  expect(region.status, JSON.stringify(region.body)).toBe(200);
}

/** Fills the checkout's contact and Portuguese shipping address and waits for the delivery options. */
export async function fillAddress(page: Page, email = 'shopper@example.com'): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Shopper');
  await page.getByLabel('Street and number').fill('1 Roastery Lane');
  await page.getByLabel('City').fill('Lisbon');
  await page.getByLabel('Postal code').fill('1100-001');
  await page.getByLabel('Country (2 letters)').fill('PT');
  await page.getByRole('button', { name: 'Save and see shipping options' }).click();
  await page.getByTestId('shipping-options').getByRole('radio').first().waitFor();
}
