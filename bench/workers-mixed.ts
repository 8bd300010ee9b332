/**
 * Reads beside writes on SQLite with `vitrine start --workers 2`: how a light stream of product reads
 * fares while the same workers place paid orders as fast as 16 buyers can. The baseline is the same
 * read stream on the same server with no writes, measured in the same run; rounds alternate the two.
 *
 *   npm run build:server && npx tsx bench/workers-mixed.ts [--products 1000] [--seconds 8] [--rounds 2]
 *
 * Both loads come from bench/suite/load.ts in processes of their own (autocannon for the reads, the
 * checkout loop for the orders). What it shows: a worker waiting for the database's write lock must
 * not stop answering its reads (docs/deploy.md, "SQLite with --workers"). 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serverEnvironment, serverNodeFlags } from '../packages/server/src/cli/heap.js';
import type { Fixture, LoadJob, LoadResult, PlannedRequest } from './suite/common.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = path.join(ROOT, 'bench/suite');
const { values: args } = parseArgs({ options: { products: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '2' } } });
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
/** Connections of the read stream: light, so it measures waiting rather than competing for the CPU. */
const READ_CONNECTIONS = 4;
const BUYERS = 16;
const PORT = 20_000 + Math.floor(Math.random() * 20_000);
const ORIGIN = `http://127.0.0.1:${PORT}`;

function runTs(file: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(SUITE, file), ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}`))));
  });
}

async function load(job: LoadJob): Promise<LoadResult> {
  const file = path.join(os.tmpdir(), `vitrine-mixed-${process.pid}-${job.mode}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  return JSON.parse((await runTs('load.ts', [file])).trim().split('\n').pop()!) as LoadResult;
}

async function call(method: string, p: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${ORIGIN}${p}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return await res.json() as Record<string, unknown>;
}

async function waitForServer(server: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${ORIGIN}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-mixed-'));
const env = { ...process.env, DATABASE_URL: '', DATABASE_SCHEMA: '', DATA_DIR: dataDir };
let server: ChildProcess | undefined;
try {
  const fixture = JSON.parse((await runTs('seed.ts', [args.products], env)).trim().split('\n').pop()!) as Fixture;
  server = spawn(process.execPath, [...serverNodeFlags([]), path.join(ROOT, 'packages/server/bin/vitrine.js'), 'start', '--workers', '2'], {
    cwd: ROOT, env: { ...env, ...serverEnvironment(env), PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production' }, stdio: 'ignore',
  });
  await waitForServer(server);
  const token = (await call('POST', '/oauth2/token', {}, { clientId: fixture.clientId, grantType: 'anonymous' })).access_token as string;
  const page = await call('POST', '/stores-reader/v1/products/query-platformized', { authorization: token }, { query: { paging: { limit: 100 } } });
  const products = page.products as { id: string; slug: string; productOptions?: unknown[] }[];
  const reads: PlannedRequest[] = products.slice(0, 50).map((p) => ({ method: 'GET', path: `/stores-reader/v1/products/${p.id}`, headers: { authorization: token } }));
  const cartProducts = products.filter((p) => p.slug.startsWith('bench-') && !p.productOptions?.length).map((p) => p.id);
  const readJob: LoadJob = { mode: 'requests', origin: ORIGIN, connections: READ_CONNECTIONS, seconds: SECONDS, warmupSeconds: 2, warmupMaxSeconds: 2, requests: reads };
  const writeJob: LoadJob = { mode: 'checkout', origin: ORIGIN, connections: BUYERS, seconds: SECONDS + 4, warmupSeconds: 0, warmupMaxSeconds: 0, clientId: fixture.clientId, productIds: cartProducts };

  console.log(`SQLite, vitrine start --workers 2, ${Number(args.products).toLocaleString('en-US')} products; product reads from ${READ_CONNECTIONS} connections, ${SECONDS} s per measurement`);
  console.log('| round | reads | reads/s | p50 ms | p99 ms | paid orders/s beside |');
  console.log('|---|---|---|---|---|---|');
  const alone: LoadResult[] = [];
  const beside: LoadResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const quiet = await load(readJob);
    alone.push(quiet);
    console.log(`| ${round} | alone | ${quiet.rps.toFixed(0)} | ${quiet.p50} | ${quiet.p99} | |`);
    // The orders start first; the reads (after their own 2 s warm-up) are measured inside the orders' window.
    const orders = load(writeJob);
    const busy = await load(readJob);
    const placed = await orders;
    beside.push(busy);
    console.log(`| ${round} | beside checkout | ${busy.rps.toFixed(0)} | ${busy.p50} | ${busy.p99} | ${placed.rps.toFixed(0)}${placed.errors ? ` (${placed.errors} failed)` : ''} |`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(beside.map((r) => r.rps)) / median(alone.map((r) => r.rps));
  console.log(`\nreads beside checkout: ${(ratio * 100).toFixed(0)}% of the reads alone (median of ${ROUNDS}); median p50 ${median(beside.map((r) => r.p50))} ms against ${median(alone.map((r) => r.p50))} ms`);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
