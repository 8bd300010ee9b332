/**
 * Catalog throughput over HTTP, beside a bare baseline measured in the same run:
 *   - our server: GET /stores-reader/v1/products/:id and a filtered, sorted query page (GET with .r),
 *     each with a visitor token (auth, decoding, validation, presentation all included);
 *   - baseline: bare Hono + better-sqlite3, `SELECT doc FROM products WHERE id = ?` on the same file.
 * Our server and the baseline each run in their own child process (so the server's RSS is its own);
 * load comes from this process (fetch loops, fixed concurrency, interleaved rounds). 127.0.0.1 only;
 * bounded by SIZES, DURATION_MS and CONCURRENCY.
 *
 *   npx tsx bench/catalog.ts            # 10,000 and 100,000 products
 *   BENCH_SIZES=10000 npx tsx bench/catalog.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../packages/server/src/config.js';
import { createLogger, createServer } from '../packages/server/src/server.js';
import { ensureDemoStore } from '../packages/server/src/cli/demo-store.js';
import { buildProductWithStock } from '../packages/server/src/domains/catalog/build.js';
import { seedProducts } from '../packages/server/src/domains/catalog/service.js';
import type { RequestContext } from '../packages/server/src/http/context.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number).filter((n) => n > 0 && n <= 200_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const WARMUP_MS = 1000;
const ROUND_MS = 1000;
const CONCURRENCY = 32;
const BATCH = 1000;
const RSS_LIMIT_MB = 300;
const TARGET = { get: 0.5, query: 0.25 };

interface LoadResult { requests: number; errors: number; seconds: number; p50: number; p99: number; cpuMicrosPerRequest: number }
/** `process` answers 'cpu' with its CPU time, so each target's cost is also known per request. */
interface Target { urls: string[]; headers: Record<string, string>; process: ChildProcess }

const cpuMicros = () => { const u = process.cpuUsage(); return u.user + u.system; };
async function cpuOf(c: ChildProcess): Promise<number> {
  c.send('cpu');
  return (await message<{ cpu: number }>(c)).cpu;
}

/** `CONCURRENCY` fetch loops over a target's urls for `ms`. */
async function run(target: Target, ms: number): Promise<{ lat: number[]; errors: number; seconds: number }> {
  const lat: number[] = [];
  let errors = 0;
  let i = 0;
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < end) {
      const url = target.urls[(i++) % target.urls.length]!;
      const s = performance.now();
      try {
        const r = await fetch(url, { headers: target.headers });
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
      } catch {
        errors++;
      }
      lat.push(performance.now() - s);
    }
  }));
  return { lat, errors, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Every target measured in interleaved rounds of ROUND_MS (after a warm-up of each), so a change in
 * the machine's load during the run (other processes on a shared machine) hits all of them alike and
 * the ratios stay comparable; DURATION_MS in all per target.
 */
async function measure(targets: Target[]): Promise<LoadResult[]> {
  for (const t of targets) await run(t, WARMUP_MS);
  const acc = targets.map(() => ({ lat: [] as number[], errors: 0, seconds: 0, cpu: 0 }));
  for (let round = 0; round < Math.max(1, Math.round(DURATION_MS / ROUND_MS)); round++) {
    for (const [k, t] of targets.entries()) {
      const cpu0 = await cpuOf(t.process);
      const r = await run(t, ROUND_MS);
      acc[k]!.cpu += (await cpuOf(t.process)) - cpu0;
      acc[k]!.lat.push(...r.lat);
      acc[k]!.errors += r.errors;
      acc[k]!.seconds += r.seconds;
    }
  }
  return acc.map(({ lat, errors, seconds, cpu }) => {
    lat.sort((x, y) => x - y);
    const q = (p: number) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * p))]! : 0);
    return { requests: lat.length, errors, seconds, p50: q(0.5), p99: q(0.99), cpuMicrosPerRequest: cpu / Math.max(1, lat.length) };
  });
}

const rps = (r: LoadResult) => r.requests / r.seconds;
const fmt = (r: LoadResult) => `${rps(r).toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  server CPU ${r.cpuMicrosPerRequest.toFixed(0)} us/req${r.errors ? `  errors ${r.errors}` : ''}`;

async function seed(ctx: RequestContext, n: number): Promise<void> {
  const words = ['Ethiopia', 'Kenya', 'Colombia', 'Brazil', 'Sumatra', 'Kettle', 'Grinder', 'Dripper', 'Mug', 'Filter', 'Tea', 'Matcha'];
  const brands = ['Vitrine', 'Brewline', 'Leaf & Co', 'Acme'];
  for (let start = 0; start < n; start += BATCH) {
    const items = [];
    for (let i = start; i < Math.min(n, start + BATCH); i++) {
      items.push(buildProductWithStock({
        name: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`, slug: `bench-${i}`, price: (i % 500) + 0.99, cost: 1, sku: `B-${i}`,
        brand: brands[i % brands.length], description: `Bench product number ${i}`, weight: 0.5, visible: i % 20 !== 0,
        productOptions: i % 3 === 0 ? [{ optionType: 'drop_down', name: 'Size', choices: ['S', 'M', 'L'].map((v) => ({ value: v, description: v, inStock: true, visible: true })) }] : [],
        trackInventory: i % 2 === 0, quantity: i % 10,
      }, 'USD', new Date(Date.UTC(2026, 0, 1) + i * 1000)));
    }
    await seedProducts(ctx, items);
  }
}

const SELF = fileURLToPath(import.meta.url);

function child(role: 'server' | 'baseline', dataDir: string, size: number): ChildProcess {
  return fork(SELF, [], { env: { ...process.env, BENCH_ROLE: role, BENCH_DATA_DIR: dataDir, BENCH_SIZE: String(size) }, execArgv: [...process.execArgv, '--expose-gc'] });
}
function message<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    c.once('error', reject);
    c.once('message', (m) => { c.off('error', reject); resolve(m as T); });
  });
}
function once(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => (c.exitCode !== null ? resolve() : c.once('exit', () => resolve())));
}

/** Child: our server over a freshly seeded SQLite file; answers `rss` messages. */
async function serverRole(dataDir: string, size: number): Promise<void> {
  const defaults = loadConfig({});
  // The outbox worker is off: the seed records no events and polling would only add noise.
  const config = { ...defaults, port: 0, host: '127.0.0.1', dataDir, databaseUrl: undefined, databaseSchema: undefined, logLevel: 'silent', events: { ...defaults.events, workerEnabled: false } };
  const server = await createServer(config, createLogger('silent'));
  const { site } = await ensureDemoStore(server.deps, server.deps.log);
  const ctx: RequestContext = { requestId: 'bench', deps: server.deps, db: server.deps.storage.db, dialect: 'sqlite', caller: { kind: 'owner', apiKeyId: 'bench' }, origin: '', ip: '127.0.0.1', log: server.deps.log, site };
  const t0 = performance.now();
  await seed(ctx, size);
  const seedSeconds = (performance.now() - t0) / 1000;
  (globalThis as { gc?: () => void }).gc?.();
  const port = await server.listen();
  const file = new SQLite(path.join(dataDir, 'vitrine.sqlite'), { readonly: true });
  const ids = (file.prepare('SELECT id FROM products WHERE visible = 1 ORDER BY random() LIMIT 500').all() as { id: string }[]).map((r) => r.id);
  file.close();
  const rssAfterSeed = process.memoryUsage().rss;
  process.on('message', (request) => {
    if (request === 'cpu') return void process.send!({ cpu: cpuMicros() });
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    process.send!({ rss: m.rss, heapUsed: m.heapUsed, rssAfterSeed });
  });
  process.send!({ port, ids, seedSeconds });
}

/** Child: bare Hono + better-sqlite3 point lookup on the same file. */
async function baselineRole(dataDir: string): Promise<void> {
  const db = new SQLite(path.join(dataDir, 'vitrine.sqlite'), { readonly: true });
  const stmt = db.prepare('SELECT id, doc FROM products WHERE id = ?');
  const app = new Hono();
  app.get('/p/:id', (c) => {
    const row = stmt.get(c.req.param('id')) as { id: string; doc: string } | undefined;
    return row ? c.body(`{"product":${row.doc}}`, 200, { 'content-type': 'application/json' }) : c.json({}, 404);
  });
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => s.once('listening', r));
  process.on('message', () => void process.send!({ cpu: cpuMicros() }));
  process.send!({ port: (s.address() as { port: number }).port });
}

async function main(): Promise<void> {
  console.log(`catalog bench: concurrency ${CONCURRENCY}, ${DURATION_MS} ms per measurement (+${WARMUP_MS} ms warm-up), node ${process.version}, ${os.cpus().length} CPUs`);
  const rows: string[] = [];
  let ok = true;
  for (const size of SIZES) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
    console.log(`\n${size.toLocaleString()} products`);
    const server = child('server', dataDir, size);
    const { port, ids, seedSeconds } = await message<{ port: number; ids: string[]; seedSeconds: number }>(server);
    console.log(`  seed time ${seedSeconds.toFixed(1)} s`);
    const baselineChild = child('baseline', dataDir, size);
    const { port: barePort } = await message<{ port: number }>(baselineChild);
    const base = `http://127.0.0.1:${port}`;
    const token = (await (await fetch(`${base}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'demo', grantType: 'anonymous' }) })).json() as { access_token: string }).access_token;

    const queryUrls = [5, 50, 120, 250, 400].map((min, i) => {
      const payload = { query: { filter: { 'priceData.price': { $gt: min }, brand: ['Vitrine', 'Brewline', 'Leaf & Co', 'Acme'][i % 4] }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 20 } } };
      return `${base}/stores-reader/v1/products/query-platformized?.r=${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    });
    const [baseline, get, query] = await measure([
      { urls: ids.map((id) => `http://127.0.0.1:${barePort}/p/${id}`), headers: {}, process: baselineChild },
      { urls: ids.map((id) => `${base}/stores-reader/v1/products/${id}`), headers: { authorization: token }, process: server },
      { urls: queryUrls, headers: { authorization: token }, process: server },
    ]) as [LoadResult, LoadResult, LoadResult];
    server.send('rss');
    const mem = await message<{ rss: number; heapUsed: number; rssAfterSeed: number }>(server);
    const mb = (n: number) => n / 1024 / 1024;
    const rss = mb(mem.rss);

    const gRatio = rps(get) / rps(baseline);
    const qRatio = rps(query) / rps(baseline);
    // Requests per CPU-second of the serving process against the baseline's: what each would serve
    // with a core to itself. Steadier than req/s on a machine other processes also load.
    const cpuRatio = (r: LoadResult) => baseline.cpuMicrosPerRequest / r.cpuMicrosPerRequest;
    console.log(`  baseline (Hono + better-sqlite3 by id)  ${fmt(baseline)}`);
    console.log(`  product get (visitor token)             ${fmt(get)}   ${(gRatio * 100).toFixed(0)}% of baseline (target >= ${TARGET.get * 100}%), per CPU-second ${(cpuRatio(get) * 100).toFixed(0)}%`);
    console.log(`  query page (filter + sort, limit 20)    ${fmt(query)}   ${(qRatio * 100).toFixed(0)}% of baseline (target >= ${TARGET.query * 100}%), per CPU-second ${(cpuRatio(query) * 100).toFixed(0)}%`);
    console.log(`  server process RSS ${rss.toFixed(0)} MB after the runs (after seeding ${mb(mem.rssAfterSeed).toFixed(0)} MB; JS heap ${mb(mem.heapUsed).toFixed(0)} MB; limit ${RSS_LIMIT_MB} MB at 100k)`);
    rows.push(`| ${size.toLocaleString()} | ${rps(baseline).toFixed(0)} | ${rps(get).toFixed(0)} (${(gRatio * 100).toFixed(0)}%; per CPU-s ${(cpuRatio(get) * 100).toFixed(0)}%; p99 ${get.p99.toFixed(1)} ms) | ${rps(query).toFixed(0)} (${(qRatio * 100).toFixed(0)}%; per CPU-s ${(cpuRatio(query) * 100).toFixed(0)}%; p99 ${query.p99.toFixed(1)} ms) | ${rss.toFixed(0)} MB |`);
    if (gRatio < TARGET.get || qRatio < TARGET.query || get.errors || query.errors || (size >= 100_000 && rss > RSS_LIMIT_MB)) ok = false;

    server.kill();
    baselineChild.kill();
    await Promise.all([once(server), once(baselineChild)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\n| products | baseline req/s | get req/s | query req/s | RSS |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log(ok ? '\nall targets met' : '\nSOME TARGETS MISSED');
}

const role = process.env.BENCH_ROLE;
if (role === 'server') await serverRole(process.env.BENCH_DATA_DIR!, Number(process.env.BENCH_SIZE));
else if (role === 'baseline') await baselineRole(process.env.BENCH_DATA_DIR!);
else await main();
