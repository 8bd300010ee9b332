import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';

export interface BrowserFixture {
  t: TestServer;
  browser: Browser;
  page: Page;
}

/**
 * One real server and one Chromium page for a test file, started before its tests and closed after.
 * Read the fields inside tests (they are set in beforeAll).
 */
export function useServerAndBrowser(): BrowserFixture {
  const fixture = {} as BrowserFixture;
  beforeAll(async () => {
    fixture.t = await startTestServer();
    fixture.browser = await launchBrowser();
    fixture.page = await fixture.browser.newPage();
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.t?.close();
  });
  return fixture;
}
