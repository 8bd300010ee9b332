/**
 * Data collections under load, beside a same-run baseline:
 *  - 100,000 items inserted through the bulk call (1000 per request; the time of each is recorded);
 *  - an indexed-field query (`{k: <value>}`, limit 50, ~100 matches) over HTTP against our server
 *    (owner API key, full stack: auth, JSON filter compiler, permission scope, encoding), and the same
 *    lookup on a bare Hono + better-sqlite3 server over a plain table with an index on `k`.
 * Both servers run in this process on SQLite; the load generator is in-process too (2-core machine).
 *
 *   npx tsx bench/data.ts [--items 100000] [--seconds 5] [--concurrency 32]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import SQLite from 'better-sqlite3';
import { startTestServer } from '../packages/server/test/harness.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ITEMS = arg('items', 100_000);
const SECONDS = arg('seconds', 5);
const CONCURRENCY = arg('concurrency', 32);
const BULK = 1000;
const DISTINCT_KEYS = 1000;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Target { name: string; request: (i: number) => Promise<Response> }
interface LoadResult { name: string; rps: number; p50: number; p99: number; errors: number }

/**
 * Every target measured in interleaved one-second rounds (SECONDS rounds each), so a change in the
 * machine's load during the run (other processes on a shared machine) hits them alike.
 */
async function load(targets: Target[]): Promise<LoadResult[]> {
  const acc = targets.map(() => ({ latencies: [] as number[], errors: 0, seconds: 0, n: 0 }));
  for (let round = 0; round < SECONDS; round++) {
    for (const [k, target] of targets.entries()) {
      const a = acc[k]!;
      const end = performance.now() + 1000;
      const worker = async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const res = await target.request(a.n++);
          await res.arrayBuffer();
          if (res.status !== 200) a.errors++;
          a.latencies.push(performance.now() - t0);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      a.seconds += (performance.now() - started) / 1000;
    }
  }
  return acc.map((a, k) => {
    a.latencies.sort((x, y) => x - y);
    return { name: targets[k]!.name, rps: Math.round(a.latencies.length / a.seconds), p50: +pct(a.latencies, 50).toFixed(2), p99: +pct(a.latencies, 99).toFixed(2), errors: a.errors };
  });
}

async function main(): Promise<void> {
  const t = await startTestServer({ logLevel: 'silent' });
  const auth = { authorization: t.apiKey, 'wix-site-id': t.site.id, 'content-type': 'application/json' };
  const post = (p: string, body: unknown) => fetch(`${t.url}/wix-data/v2${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

  await post('/collections', { collection: { id: 'bench', fields: [{ key: 'k', type: 'NUMBER' }, { key: 'title', type: 'TEXT' }], permissions: { read: 'ANYONE' } } });
  const idx = await (await post('/indexes', { dataCollectionId: 'bench', index: { name: 'by_k', fields: [{ path: 'k' }] } })).json() as { index: { status: string } };

  const bulkTimes: number[] = [];
  for (let start = 0; start < ITEMS; start += BULK) {
    const dataItems = Array.from({ length: Math.min(BULK, ITEMS - start) }, (_, j) => {
      const i = start + j;
      return { data: { k: i % DISTINCT_KEYS, title: `Item ${i}`, price: (i % 997) / 10, tags: ['a', `t${i % 7}`] } };
    });
    const t0 = performance.now();
    const res = await post('/bulk/items/insert', { dataCollectionId: 'bench', dataItems });
    const body = await res.json() as { bulkActionMetadata: { totalSuccesses: number } };
    bulkTimes.push(performance.now() - t0);
    if (body.bulkActionMetadata.totalSuccesses !== dataItems.length) throw new Error('bulk insert failed');
  }
  const sortedBulk = [...bulkTimes].sort((a, b) => a - b);
  // The same bulk without item events (owner suppressHooks), to show what recordEvent costs per item.
  const quietTimes: number[] = [];
  for (let r = 0; r < 5; r++) {
    const dataItems = Array.from({ length: BULK }, (_, j) => ({ data: { k: j % DISTINCT_KEYS, title: `Quiet ${r}-${j}` } }));
    const t0 = performance.now();
    await (await post('/bulk/items/insert', { dataCollectionId: 'bench', suppressHooks: true, dataItems })).arrayBuffer();
    quietTimes.push(performance.now() - t0);
  }
  quietTimes.sort((a, b) => a - b);

  // The planner must use the expression index for the indexed query.
  const plan = t.server.deps.storage.dialect === 'sqlite'
    ? (await import('kysely')).sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT id FROM data_items WHERE site_id = ${t.site.id} AND collection_id = 'bench' AND draft = 0 AND (json_type(data, '$.k') IN ('integer','real') AND json_extract(data, '$.k') = ${123})`
    : undefined;
  const planRows = plan ? (await plan.execute(t.server.deps.storage.db)).rows.map((r) => r.detail) : [];

  // Bare baseline: Hono + better-sqlite3, the same rows as plain columns with an index on k.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const db = new SQLite(path.join(dir, 'bare.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, k INTEGER, data TEXT); CREATE INDEX items_k ON items (k)');
  const ins = db.prepare('INSERT INTO items VALUES (?, ?, ?)');
  db.transaction(() => { for (let i = 0; i < ITEMS; i++) ins.run(`id${i}`, i % DISTINCT_KEYS, JSON.stringify({ k: i % DISTINCT_KEYS, title: `Item ${i}`, price: (i % 997) / 10, tags: ['a', `t${i % 7}`] })); })();
  const select = db.prepare('SELECT id, data FROM items WHERE k = ? ORDER BY id LIMIT 50');
  const bare = new Hono();
  bare.post('/q', async (c) => {
    const { k } = await c.req.json<{ k: number }>();
    const rows = select.all(k) as { id: string; data: string }[];
    return c.json({ items: rows.map((r) => ({ id: r.id, data: JSON.parse(r.data) })) });
  });
  const bareServer = await new Promise<{ port: number; close: () => void }>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ port: info.port, close: () => s.close() }));
  });

  const [ours, baseline] = await load([
    { name: 'vitrine POST /wix-data/v2/items/query {k}', request: (i) => post('/items/query', { dataCollectionId: 'bench', query: { filter: { k: i % DISTINCT_KEYS }, paging: { limit: 50 } } }) },
    { name: 'bare Hono + better-sqlite3 {k}', request: (i) => fetch(`http://127.0.0.1:${bareServer.port}/q`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ k: i % DISTINCT_KEYS }) }) },
  ]) as [LoadResult, LoadResult];

  console.log(`\nData bench (SQLite, ${ITEMS} items, ${CONCURRENCY} concurrent, ${SECONDS} interleaved 1 s rounds each, ${os.cpus().length} cores)`);
  console.log(`index by_k: ${idx.index.status}; plan: ${planRows.join(' | ')}`);
  console.log(`bulk insert of ${BULK} items over HTTP: first ${bulkTimes[0]!.toFixed(1)} ms, median ${pct(sortedBulk, 50).toFixed(1)} ms, p90 ${pct(sortedBulk, 90).toFixed(1)} ms, last ${bulkTimes[bulkTimes.length - 1]!.toFixed(1)} ms (target < 150 ms)`);
  console.log(`bulk insert of ${BULK} items without item events (suppressHooks): median ${pct(quietTimes, 50).toFixed(1)} ms`);
  console.log(`load average while measuring: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.table([ours, baseline]);
  const ratio = ours.rps / baseline.rps;
  console.log(`indexed query: ${(ratio * 100).toFixed(0)}% of baseline req/s (target >= 30%) -> ${ratio >= 0.3 ? 'OK' : 'BELOW TARGET'}`);
  console.log(`bulk insert median -> ${pct(sortedBulk, 50) < 150 ? 'OK' : 'ABOVE TARGET'}`);

  bareServer.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await t.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
