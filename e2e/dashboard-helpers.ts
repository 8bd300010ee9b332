import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '../packages/server/test/harness.js';

/** A fresh page signed in to the dashboard with the test server's owner API key. */
export async function signedInPage(browser: Browser, t: TestServer): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${t.url}/dashboard/`);
  await page.getByLabel('API key').fill(t.apiKey);
  await page.getByLabel('Site id').fill(t.site.id);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Products' }).waitFor();
  return page;
}

/** Opens a section from the sidebar and waits for its heading. */
export async function openSection(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** Text of every row with this test id, once the list settles on `expected`. */
export async function expectRows(page: Page, testId: string, expected: unknown): Promise<void> {
  await expect.poll(() => page.getByTestId(testId).allTextContents(), { timeout: 10_000 }).toEqual(expected);
}
