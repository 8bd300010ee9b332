import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';

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

/**
 * One server and one Chromium page signed in to its dashboard for a test file: started before its
 * tests (handed to `ready`) and closed after them.
 */
export function useSignedInDashboard(ready: (fixture: { t: TestServer; browser: Browser; page: Page }) => void): void {
  let t: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    t = await startTestServer();
    browser = await launchBrowser();
    ready({ t, browser, page: await signedInPage(browser, t) });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
}
