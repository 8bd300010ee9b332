/**
 * Lighthouse accessibility of signed-in dashboard pages (overview, product editor, order page).
 *
 *   npm run lighthouse:dashboard          # needs the built front ends (npm run build:web)
 *
 * The dashboard keeps its session in the tab's sessionStorage, which a Lighthouse navigation (a fresh
 * page each time) would lose; so this signs in once in one tab and audits each page there in
 * Lighthouse's snapshot mode (the page as it stands: every accessibility audit, no load metrics).
 * Results go to `bench/lighthouse-dashboard-results.json`; the target is 100 on every page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import { startFlow } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { createAccount } from '../packages/server/src/domains/owners/index.js';
import { asOwner, call, startTestServer } from '../packages/server/test/harness.js';
import { CHROMIUM_PATH } from '../e2e/browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'bench/lighthouse-dashboard-results.json');
const OWNER = { email: 'lighthouse@shop.example.test', password: 'lantern-orchard-41-basalt', name: 'Audit Owner' };
/** How long a page may take to show its heading after navigation. */
const PAGE_READY_MS = 15_000;

const t = await startTestServer({ logLevel: 'silent' });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  await createAccount(t.server.deps.storage.db, t.site.id, { ...OWNER, role: 'owner' });
  const order = await call(t.url, '/ecom/v1/orders', {
    ...asOwner(t),
    body: { order: { lineItems: [{ productName: { original: 'Gift wrap' }, quantity: 2, price: { amount: '5.00' } }], buyerInfo: { email: 'buyer@shop.test' } } },
  });
  const products = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { paging: { limit: 1 } } } });
  const productId = (products.body as { products: { id: string }[] }).products[0]!.id;
  const signIn = await call(t.url, '/_api/vitrine/owners/v1/sign-in', { body: { email: OWNER.email, password: OWNER.password } });
  const session = { sessionToken: (signIn.body as { sessionToken: string }).sessionToken, siteId: t.site.id };

  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: { width: 1350, height: 940 } });
  const page = await browser.newPage();
  await page.goto(`${t.url}/dashboard/`);
  await page.evaluate((s) => sessionStorage.setItem('vitrine.dashboard.session', s), JSON.stringify(session));
  const pages: [name: string, route: string, heading: RegExp][] = [
    ['overview', '/dashboard/', /^Overview$/],
    ['product editor', `/dashboard/products/${productId}`, /./],
    ['order page', `/dashboard/orders/${(order.body as { order: { id: string } }).order.id}`, /^Order #/],
  ];
  const flow = await startFlow(page, { config: { extends: 'lighthouse:default', settings: { onlyCategories: ['accessibility'] } } });
  for (const [name, route, heading] of pages) {
    await page.goto(new URL(route, t.url).href);
    await page.waitForFunction((source) => [...document.querySelectorAll('h1')].some((h) => new RegExp(source).test(h.textContent ?? '')), { timeout: PAGE_READY_MS }, heading.source);
    await flow.snapshot({ name });
  }
  const result = await flow.createFlowResult();
  const scores = Object.fromEntries(result.steps.map((step) => {
    const failing = Object.values(step.lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary').map((a) => a.id);
    return [step.name, { accessibility: Math.round((step.lhr.categories.accessibility?.score ?? 0) * 100), failing }];
  }));
  for (const [name, s] of Object.entries(scores)) console.log(`${name}: accessibility ${s.accessibility}${s.failing.length ? `  failing: ${s.failing.join(', ')}` : ''}`);
  fs.writeFileSync(OUT, `${JSON.stringify({ tool: 'lighthouse snapshot', browser: CHROMIUM_PATH, measuredAt: new Date().toISOString(), pages: scores }, null, 2)}\n`);
  console.log(`recorded in ${path.relative(root, OUT)}`);
  await browser.disconnect();
} finally {
  chrome.kill();
  await t.close();
}
