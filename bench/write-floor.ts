/**
 * The floor of an add-to-cart on this machine: what a bare Hono + better-sqlite3 server costs for a
 * write of the same shape (a JSON body parsed, a version read, a guarded update of a 20-line cart's
 * stored document in its own transaction, a 23 KB answer), beside the suite's own baseline server
 * (`suite/baseline.ts`: a product-sized document by primary key out of 10,000; one id here, where the
 * suite spreads its reads) in the same run. Nothing of ours runs in it: no caller, no validation, no
 * cart logic, no presentation. It says how much of the add-to-cart target (20% of the baseline) the
 * shape of the call leaves to everything else (docs/performance.md).
 *
 *   npx tsx bench/write-floor.ts [--seconds 8]
 *
 * Each server is its own process; autocannon (50 connections) runs in another one, after a warm-up.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './suite/common.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 50;
const CARTS = 50;
const LINES = 20;

/** The write server: `serve <port> <dir>`; prints `ready` once listening. */
async function serve(port: number, dir: string): Promise<void> {
  const { Hono } = await import('hono');
  const { serve: listen } = await import('@hono/node-server');
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dir, 'write.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE versions (site_id TEXT PRIMARY KEY, version INTEGER NOT NULL); INSERT INTO versions VALUES (\'s\', 1)');
  db.exec('CREATE TABLE carts (id TEXT PRIMARY KEY, doc TEXT NOT NULL, revision INTEGER NOT NULL)');
  // A stored 20-line cart is about 6 KB of JSON; its answer about 23 KB (1.1 KB a presented line).
  const storedLine = (i: number, quantity: number) => ({ id: `line-${i}`.padEnd(36, '0'), catalogReference: { catalogItemId: `p-${i}`.padEnd(36, '0'), appId: 'app'.padEnd(36, '0') }, quantity, options: {}, note: 'x'.repeat(200) });
  const docOf = (quantity: number) => JSON.stringify({ lineItems: Array.from({ length: LINES }, (_, i) => storedLine(i, quantity)) });
  const insert = db.prepare('INSERT INTO carts VALUES (?, ?, 0)');
  for (let i = 0; i < CARTS; i++) insert.run(`c${i}`, docOf(1));
  const answer = Buffer.from(JSON.stringify({ cart: { id: 'c', lineItems: Array.from({ length: LINES }, (_, i) => ({ id: i, text: 'a'.repeat(1100) })) } }));
  const version = db.prepare('SELECT version FROM versions WHERE site_id = ?');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const update = db.prepare('UPDATE carts SET doc = ?, revision = revision + 1 WHERE id = ?');
  const app = new Hono();
  let next = 0;
  app.post('/cart', async (c) => {
    const body = await c.req.json<{ quantity: number }>();
    version.get('s');
    begin.run();
    update.run(docOf(body.quantity), `c${next++ % CARTS}`);
    commit.run();
    return c.body(answer, 200, { 'content-type': 'application/json; charset=utf-8' });
  });
  listen({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => process.stdout.write('ready\n'));
}

interface Figure { perSecond: number; cpuUs: number }

/** Products the baseline holds, as the suite's default data set. */
const BASELINE_PRODUCTS = 10_000;

/** The read: the suite's baseline server itself, on a product document of about the size of ours (2.5 KB). */
function baselineArgs(port: number, dir: string): string[] {
  const template = path.join(dir, 'template.json');
  fs.writeFileSync(template, JSON.stringify({ id: '__ID__', name: 'Product', description: 'a'.repeat(2500) }));
  return [path.join(ROOT, 'bench/suite/baseline.ts'), template, String(BASELINE_PRODUCTS), String(port)];
}

function start(mode: 'read' | 'write', port: number, dir: string): Promise<ChildProcess> {
  const script = mode === 'read' ? baselineArgs(port, dir) : [fileURLToPath(import.meta.url), 'serve', String(port), dir];
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
  });
}

/** autocannon in its own process: a warm-up, then the measured window with the server's CPU read from /proc. */
function load(pid: number, url: string, method: 'GET' | 'POST', seconds: number): Figure {
  const bin = path.join(ROOT, 'node_modules/.bin/autocannon');
  const args = ['-c', String(CONNECTIONS), '-j', ...(method === 'POST' ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', '{"quantity":3}'] : []), url];
  spawnSync(bin, ['-d', '4', ...args], { stdio: 'ignore' });
  const before = cpuSeconds([pid]);
  const run = spawnSync(bin, ['-d', String(seconds), ...args], { encoding: 'utf8' });
  const cpu = cpuSeconds([pid]) - before;
  const result = JSON.parse(run.stdout) as { '2xx': number; non2xx: number; duration: number };
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return { perSecond: result['2xx'] / result.duration, cpuUs: (cpu * 1e6) / result['2xx'] };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
  const seconds = Number(values.seconds);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-write-floor-'));
  const children: ChildProcess[] = [];
  try {
    const figures: Record<string, Figure> = {};
    for (const [mode, method, route] of [['read', 'GET', '/p/p1'], ['write', 'POST', '/cart']] as const) {
      const port = 7300 + children.length;
      const child = await start(mode, port, dir);
      children.push(child);
      figures[mode] = load(child.pid!, `http://127.0.0.1:${port}${route}`, method, seconds);
      child.kill();
    }
    const read = figures.read!;
    const write = figures.write!;
    console.log(`baseline (product-sized read): ${read.perSecond.toFixed(0)}/s, ${read.cpuUs.toFixed(0)} us of CPU each`);
    console.log(`add-to-cart floor (bare write): ${write.perSecond.toFixed(0)}/s, ${write.cpuUs.toFixed(0)} us of CPU each, ${((100 * write.perSecond) / read.perSecond).toFixed(0)}% of the baseline`);
  } finally {
    for (const child of children) child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') await serve(Number(process.argv[3]), process.argv[4]!);
else await main();
