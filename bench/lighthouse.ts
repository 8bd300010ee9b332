/**
 * Lighthouse (mobile, its default profile: a mid-range phone, 4x CPU slowdown, slow 4G) against
 * Debian's Chromium, headless. Records the four category scores of every page in a JSON file.
 *
 *   npm run lighthouse                                   # starts a test server; home and a product page
 *   npm run lighthouse -- http://127.0.0.1:3000/ http://127.0.0.1:3000/dashboard   # any started server
 *   npm run lighthouse -- --out bench/other.json <urls...>
 *
 * Results are merged into the output file by URL path (default `bench/lighthouse-results.json`), so
 * runs over different page lists share one file. Scores are 0-100; the storefront's targets are
 * performance >= 95 and 100 for the other three. Needs the built front ends (`npm run build:web`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_PATH } from '../e2e/browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_OUT = path.join(root, 'bench/lighthouse-results.json');
/** Pages measured when no URL is given (the storefront's home and a seeded product). */
const DEFAULT_PAGES = ['/', '/product-page/roaster-hoodie'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Runs per page; the median performance run is kept (performance varies run to run, the rest does not). */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

type Category = (typeof CATEGORIES)[number];
export type Scores = Record<Category, number>;
export interface PageResult { url: string; scores: Scores; failing: string[]; measuredAt: string }

/** Audits below 1 in the non-performance categories (what to fix to reach 100). */
function failingAudits(lhr: { categories: Record<string, { auditRefs: { id: string; weight: number }[] } | undefined>; audits: Record<string, { score: number | null; title: string }> }): string[] {
  const failing: string[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (audit && ref.weight > 0 && audit.score !== null && audit.score < 1) failing.push(`${category}: ${ref.id} (${audit.title}) ${audit.score}`);
    }
  }
  return failing;
}

export async function runLighthouse(urls: readonly string[]): Promise<PageResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const results: PageResult[] = [];
  try {
    for (const url of urls) {
      const runs: PageResult[] = [];
      for (let i = 0; i < RUNS; i++) {
        const answer = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
        if (!answer) throw new Error(`Lighthouse gave no result for ${url}`);
        const { lhr } = answer;
        if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        const score = (c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
        runs.push({ url, scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') }, failing: failingAudits(lhr), measuredAt: new Date().toISOString() });
      }
      runs.sort((a, b) => a.scores.performance - b.scores.performance);
      results.push(runs[Math.floor(runs.length / 2)]!);
    }
  } finally {
    chrome.kill();
  }
  return results;
}

/** Merges results into `file` keyed by URL path (the port of a test server changes every run). */
function record(file: string, results: readonly PageResult[]): void {
  const previous: Record<string, PageResult> = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { pages: Record<string, PageResult> }).pages : {};
  for (const r of results) {
    const u = new URL(r.url);
    previous[u.pathname + u.search] = r;
  }
  fs.writeFileSync(file, `${JSON.stringify({ tool: 'lighthouse', profile: 'mobile (default)', browser: CHROMIUM_PATH, pages: previous }, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? path.resolve(args[outAt + 1] ?? DEFAULT_OUT) : DEFAULT_OUT;
  const urls = args.filter((_a, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
  let close = async () => {};
  if (urls.length === 0) {
    const { startTestServer } = await import('../packages/server/test/harness.js');
    const t = await startTestServer({ logLevel: 'silent' });
    close = () => t.close();
    urls.push(...DEFAULT_PAGES.map((p) => new URL(p, t.url).href));
  }
  try {
    const results = await runLighthouse(urls);
    for (const r of results) {
      console.log(`${r.url}  performance ${r.scores.performance}  accessibility ${r.scores.accessibility}  best practices ${r.scores['best-practices']}  SEO ${r.scores.seo}`);
      for (const f of r.failing) console.log(`    ${f}`);
    }
    record(out, results);
    console.log(`recorded in ${path.relative(root, out)}`);
  } finally {
    await close();
  }
}
