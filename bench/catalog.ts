/**
 * Catalog throughput over HTTP, beside a bare baseline measured in the same run:
 *   - our server: GET /stores-reader/v1/products/:id and a filtered, sorted query page (GET with .r),
 *     each with a visitor token (auth, decoding, validation, presentation all included);
 *   - baseline: bare Hono + better-sqlite3, `SELECT doc FROM products WHERE id = ?` on the same file.
 * Load comes from a worker thread (fetch loops, fixed concurrency, fixed duration), so the client does
 * not share the server's event loop. 127.0.0.1 only; bounded by SIZES, DURATION_MS and CONCURRENCY.
 *
 *   npx tsx bench/catalog.ts            # 10,000 and 100,000 products
 *   BENCH_SIZES=10000 npx tsx bench/catalog.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../packages/server/src/config.js';
import { createLogger, createServer } from '../packages/server/src/server.js';
import { ensureDemoStore } from '../packages/server/src/cli/demo-store.js';
import { buildProductWithStock } from '../packages/server/src/domains/catalog/build.js';
import { createProductRecord } from '../packages/server/src/domains/catalog/service.js';
import { inTransaction } from '../packages/server/src/storage/transaction.js';
import type { RequestContext } from '../packages/server/src/http/context.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number).filter((n) => n > 0 && n <= 200_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const WARMUP_MS = 1000;
const CONCURRENCY = 32;
const BATCH = 1000;
const RSS_LIMIT_MB = 300;
const TARGET = { get: 0.5, query: 0.25 };

interface LoadResult { requests: number; errors: number; seconds: number; p50: number; p99: number }

/** The load generator, run in a worker: `CONCURRENCY` loops of fetch over `urls` for `duration` ms. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, headers, duration, concurrency, warmup } = workerData;
(async () => {
  const run = async (ms, record) => {
    const lat = []; let errors = 0; let i = 0;
    const end = performance.now() + ms;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const url = urls[(i++) % urls.length];
        const t0 = performance.now();
        try { const r = await fetch(url, { headers }); await r.arrayBuffer(); if (r.status !== 200) errors++; } catch { errors++; }
        if (record) lat.push(performance.now() - t0);
      }
    }));
    return { lat, errors };
  };
  await run(warmup, false);
  const t0 = performance.now();
  const { lat, errors } = await run(duration, true);
  const seconds = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p) => lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] : 0;
  parentPort.postMessage({ requests: lat.length, errors, seconds, p50: q(0.5), p99: q(0.99) });
})();
`;

function load(urls: string[], headers: Record<string, string>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { urls, headers, duration: DURATION_MS, concurrency: CONCURRENCY, warmup: WARMUP_MS } });
    w.once('message', (m: LoadResult) => { void w.terminate(); resolve(m); });
    w.once('error', reject);
  });
}

const rps = (r: LoadResult) => r.requests / r.seconds;
const fmt = (r: LoadResult) => `${rps(r).toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms${r.errors ? `  errors ${r.errors}` : ''}`;

async function seed(ctx: RequestContext, n: number): Promise<void> {
  const words = ['Ethiopia', 'Kenya', 'Colombia', 'Brazil', 'Sumatra', 'Kettle', 'Grinder', 'Dripper', 'Mug', 'Filter', 'Tea', 'Matcha'];
  const brands = ['Vitrine', 'Brewline', 'Leaf & Co', 'Acme'];
  for (let start = 0; start < n; start += BATCH) {
    await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      for (let i = start; i < Math.min(n, start + BATCH); i++) {
        const { product, stock } = buildProductWithStock({
          name: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`, slug: `bench-${i}`, price: (i % 500) + 0.99, cost: 1, sku: `B-${i}`,
          brand: brands[i % brands.length], description: `Bench product number ${i}`, weight: 0.5,
          productOptions: i % 3 === 0 ? [{ optionType: 'drop_down', name: 'Size', choices: ['S', 'M', 'L'].map((v) => ({ value: v, description: v, inStock: true, visible: true })) }] : [],
          trackInventory: i % 2 === 0, quantity: i % 10,
        }, 'USD', new Date(Date.UTC(2026, 0, 1) + i * 1000));
        await createProductRecord(tctx, product, stock);
      }
    });
    process.stdout.write(`\r  seeded ${Math.min(n, start + BATCH)} / ${n}`);
  }
  process.stdout.write('\n');
}

async function main(): Promise<void> {
  console.log(`catalog bench: concurrency ${CONCURRENCY}, ${DURATION_MS} ms per measurement (+${WARMUP_MS} ms warm-up), node ${process.version}, ${os.cpus().length} CPUs`);
  const rows: string[] = [];
  let ok = true;
  for (const size of SIZES) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
    const config = { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir, databaseUrl: undefined, databaseSchema: undefined, logLevel: 'silent' };
    const server = await createServer(config, createLogger('silent'));
    const { site } = await ensureDemoStore(server.deps, server.deps.log);
    const ctx: RequestContext = { requestId: 'bench', deps: server.deps, db: server.deps.storage.db, dialect: 'sqlite', caller: { kind: 'owner', apiKeyId: 'bench' }, origin: '', ip: '127.0.0.1', log: server.deps.log, site };
    console.log(`\n${size.toLocaleString()} products`);
    const t0 = performance.now();
    await seed(ctx, size);
    console.log(`  seed time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const port = await server.listen();
    const base = `http://127.0.0.1:${port}`;
    const token = (await (await fetch(`${base}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'demo', grantType: 'anonymous' }) })).json() as { access_token: string }).access_token;

    // Ids to fetch: a spread over the whole catalog.
    const file = new SQLite(path.join(dataDir, 'vitrine.sqlite'), { readonly: true });
    const ids = (file.prepare('SELECT id FROM products ORDER BY random() LIMIT 500').all() as { id: string }[]).map((r) => r.id);
    file.close();

    // Baseline: bare Hono + better-sqlite3 point lookup on the same file, same process.
    const bare = new SQLite(path.join(dataDir, 'vitrine.sqlite'), { readonly: true });
    bare.pragma('journal_mode = WAL');
    const stmt = bare.prepare('SELECT id, doc FROM products WHERE id = ?');
    const app = new Hono();
    app.get('/p/:id', (c) => {
      const row = stmt.get(c.req.param('id')) as { id: string; doc: string } | undefined;
      return row ? c.body(`{"product":${row.doc}}`, 200, { 'content-type': 'application/json' }) : c.json({}, 404);
    });
    const bareServer = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => bareServer.once('listening', r));
    const barePort = (bareServer.address() as { port: number }).port;

    const baseline = await load(ids.map((id) => `http://127.0.0.1:${barePort}/p/${id}`), {});
    const get = await load(ids.map((id) => `${base}/stores-reader/v1/products/${id}`), { authorization: token });
    const queryUrls = [5, 50, 120, 250, 400].map((min, i) => {
      const payload = { query: { filter: { 'priceData.price': { $gt: min }, brand: ['Vitrine', 'Brewline', 'Leaf & Co', 'Acme'][i % 4] }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 20 } } };
      return `${base}/stores-reader/v1/products/query-platformized?.r=${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    });
    const query = await load(queryUrls, { authorization: token });
    const rss = process.memoryUsage().rss / 1024 / 1024;

    const gRatio = rps(get) / rps(baseline);
    const qRatio = rps(query) / rps(baseline);
    console.log(`  baseline (Hono + better-sqlite3 by id)  ${fmt(baseline)}`);
    console.log(`  product get (visitor token)             ${fmt(get)}   ${(gRatio * 100).toFixed(0)}% of baseline (target >= ${TARGET.get * 100}%)`);
    console.log(`  query page (filter + sort, limit 20)    ${fmt(query)}   ${(qRatio * 100).toFixed(0)}% of baseline (target >= ${TARGET.query * 100}%)`);
    console.log(`  process RSS ${rss.toFixed(0)} MB (server, baseline and seed in one process; limit ${RSS_LIMIT_MB} MB at 100k)`);
    rows.push(`| ${size.toLocaleString()} | ${rps(baseline).toFixed(0)} | ${rps(get).toFixed(0)} (${(gRatio * 100).toFixed(0)}%, p99 ${get.p99.toFixed(1)} ms) | ${rps(query).toFixed(0)} (${(qRatio * 100).toFixed(0)}%, p99 ${query.p99.toFixed(1)} ms) | ${rss.toFixed(0)} MB |`);
    if (gRatio < TARGET.get || qRatio < TARGET.query || get.errors || query.errors || (size >= 100_000 && rss > RSS_LIMIT_MB)) ok = false;

    await new Promise<void>((r) => bareServer.close(() => r()));
    bare.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\n| products | baseline req/s | get req/s | query req/s | RSS |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log(ok ? '\nall targets met' : '\nSOME TARGETS MISSED');
}

await main();
