import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/test/harness.js';
import type { Config } from '../packages/server/src/config.js';
import { launchBrowser } from './browser.js';

export interface BrowserFixture {
  t: TestServer;
  browser: Browser;
  page: Page;
}

/**
 * One real server and one Chromium page for a test file, started before its tests and closed after.
 * Read the fields inside tests (they are set in beforeAll). `serverConfig` runs first (start a mailbox there).
 */
export function useServerAndBrowser(serverConfig: () => Promise<Partial<Config>> = async () => ({})): BrowserFixture {
  const fixture = {} as BrowserFixture;
  beforeAll(async () => {
    fixture.t = await startTestServer(await serverConfig());
    fixture.browser = await launchBrowser();
    fixture.page = await fixture.browser.newPage();
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.t?.close();
  });
  return fixture;
}
