import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { createAccount } from '../packages/server/src/domains/owners/index.js';
import { launchBrowser } from './browser.js';

/** The owner account the dashboard tests sign in with (made by `ownerAccount`). */
export const TEST_OWNER = { email: 'owner@shop.example.test', password: 'tangerine-harbor-93-quartz', name: 'Test Owner' };

const made = new WeakSet<TestServer>();

/** Creates the test owner account on the server's demo site (once per server). */
export async function ownerAccount(t: TestServer): Promise<void> {
  if (made.has(t)) return;
  await createAccount(t.server.deps.storage.db, t.site.id, { ...TEST_OWNER, role: 'owner' });
  made.add(t);
}

/**
 * Fills the sign-in form with e-mail and password, waits for the landing page (Overview) and opens
 * Products, where most dashboard tests start.
 */
export async function signInWithPassword(page: Page, t: TestServer, credentials: { email: string; password: string } = TEST_OWNER): Promise<void> {
  await page.goto(`${t.url}/dashboard/`);
  await page.getByLabel('E-mail').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  await openSection(page, 'Products', 'Products');
}

/** A fresh page signed in to the dashboard with the test owner's password. */
export async function signedInPage(browser: Browser, t: TestServer): Promise<Page> {
  await ownerAccount(t);
  const page = await browser.newPage();
  await signInWithPassword(page, t);
  return page;
}

/** Opens a section from the sidebar and waits for its heading. */
export async function openSection(page: Page, link: string, heading: string): Promise<void> {
  const anchor = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: link, exact: true });
  const href = await anchor.getAttribute('href');
  await anchor.click();
  // The heading may already be on screen from a sub-page of the same section (Settings' parts share
  // theirs): wait for the address too, or the test acts on a page that is about to be replaced.
  if (href) await page.waitForURL((url) => url.pathname === href);
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
