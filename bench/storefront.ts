/**
 * Storefront first load, beside the platform's public client in the same run.
 *
 * 1. JavaScript a browser downloads before a page is interactive (the module script and its
 *    preloads, read from the server-rendered HTML), for the home and a product page, measured gzip
 *    (level 9) and as the server sends it (brotli, precompressed at build time).
 * 2. Baselines bundled the same way (esbuild, ESM, minified, production React): the public client
 *    (`@wix/sdk` + `@wix/stores` products query) alone, and React DOM alone (the floor of any React
 *    page).
 * 3. Page metrics in Debian's Chromium with a phone profile (390x844, 4x CPU slowdown, 1.6 Mbit/s,
 *    150 ms latency): first contentful paint, largest contentful paint, layout shift, and long-task
 *    time after 50 ms per task (total blocking time as Lighthouse counts it). Median of RUNS loads.
 *
 * Needs the built storefront (`npm run build:web`).
 *   npx tsx bench/storefront.ts
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startTestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from '../e2e/browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGES = { home: '/', product: '/product-page/roaster-hoodie' } as const;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Script URLs a page loads up front: module scripts and modulepreload links (HTML or `link` header). */
function scriptsOf(html: string, linkHeader: string): string[] {
  const urls = new Set<string>();
  for (const m of linkHeader.matchAll(/<([^>]+)>;\s*rel=modulepreload/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(m[1]!);
  return [...urls];
}

async function firstLoad(base: string, page: string): Promise<{ gzip: number; sent: number; files: number; html: number }> {
  const res = await fetch(base + page, { headers: { accept: 'text/html' } });
  const html = await res.text();
  let gzip = 0;
  let sent = 0;
  const scripts = scriptsOf(html, res.headers.get('link') ?? '');
  for (const src of scripts) {
    const raw = Buffer.from(await (await fetch(new URL(src, base), { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    gzip += gzipSync(raw, { level: 9 }).byteLength;
    const br = await fetch(new URL(src, base), { headers: { 'accept-encoding': 'br' } });
    sent += Number(br.headers.get('content-length') ?? (await br.arrayBuffer()).byteLength);
  }
  return { gzip, sent, files: scripts.length, html: gzipSync(Buffer.from(html), { level: 9 }).byteLength };
}

async function bundled(contents: string): Promise<number> {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: 'tsx', sourcefile: 'app.tsx' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).byteLength;
}

interface Metrics { fcp: number; lcp: number; cls: number; tbt: number }

async function pageMetrics(base: string, page: string): Promise<Metrics> {
  const browser = await launchBrowser();
  const runs: Metrics[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await tab.addInitScript(() => {
        const w = window as unknown as { __m: { lcp: number; cls: number; tbt: number } };
        w.__m = { lcp: 0, cls: 0, tbt: 0 };
        new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__m.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
        new PerformanceObserver((l) => { for (const e of l.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__m.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
        new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__m.tbt += Math.max(0, e.duration - 50); }).observe({ type: 'longtask', buffered: true });
      });
      await tab.goto(base + page, { waitUntil: 'load' });
      await tab.waitForTimeout(1500);
      const m = await tab.evaluate(() => {
        const w = window as unknown as { __m: { lcp: number; cls: number; tbt: number } };
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
        return { ...w.__m, fcp };
      });
      runs.push(m);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (k: keyof Metrics) => runs.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  return { fcp: median('fcp'), lcp: median('lcp'), cls: median('cls'), tbt: median('tbt') };
}

const t = await startTestServer({ logLevel: 'silent' });
try {
  console.log('First-load JavaScript (module script + preloads of the server-rendered page)');
  for (const [name, page] of Object.entries(PAGES)) {
    const r = await firstLoad(t.url, page);
    console.log(`  ${name.padEnd(8)} ${r.files} file(s)  gzip ${kb(r.gzip).padStart(10)}  sent (br) ${kb(r.sent).padStart(10)}  HTML gzip ${kb(r.html).padStart(9)}`);
  }
  console.log('Baselines, bundled with esbuild the same way in this run (gzip)');
  const publicClient = await bundled(`
    import { createClient, OAuthStrategy } from '@wix/sdk';
    import { products } from '@wix/stores';
    const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });
    client.products.queryProducts().limit(5).find().then((r) => console.log(r.items));`);
  const reactDom = await bundled(`import { hydrateRoot } from 'react-dom/client'; import { jsx } from 'react/jsx-runtime'; hydrateRoot(document, jsx('p', {}));`);
  console.log(`  public client (@wix/sdk + @wix/stores products)  ${kb(publicClient).padStart(10)}`);
  console.log(`  React DOM alone (hydrateRoot)                     ${kb(reactDom).padStart(10)}`);
  console.log(`Page metrics, phone profile, median of ${RUNS} loads (ms; layout shift score)`);
  for (const [name, page] of Object.entries(PAGES)) {
    const m = await pageMetrics(t.url, page);
    console.log(`  ${name.padEnd(8)} FCP ${m.fcp.toFixed(0).padStart(5)}  LCP ${m.lcp.toFixed(0).padStart(5)}  CLS ${m.cls.toFixed(3)}  TBT ${m.tbt.toFixed(0).padStart(4)}`);
  }
} finally {
  await t.close();
}
