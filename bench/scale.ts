/**
 * Scale-out bench: product reads per second from one process (`vitrine start`) against a cluster
 * (`vitrine start --workers N`) over the same database, in interleaved rounds so a change in the
 * machine's load hits both alike. Prints the cluster's rate as a ratio of the single process's.
 *
 *   npx tsx bench/scale.ts                       # SQLite in a temporary folder
 *   DATABASE_URL=postgres://... npx tsx bench/scale.ts
 *   BENCH_WORKERS=4 BENCH_CONNECTIONS=64 npx tsx bench/scale.ts
 *
 * The load comes from this process (fetch loops), so on a small machine it competes with the servers
 * for CPU: the ratio then understates what more cores give. 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropSchema } from '../packages/server/src/storage/database.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = path.join(ROOT, 'packages/server/src/cli/main.ts');
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = 1_000;
const WARMUP_MS = 1_000;
const START_TIMEOUT_MS = 90_000;

interface Started { child: ChildProcess; url: string }

function start(env: Record<string, string>, args: string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /storefront\s+(http:\/\/\S+?)\/\s[\s\S]*processes/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!.replace('localhost', '127.0.0.1') });
      }
    });
    child.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function firstProduct(url: string): Promise<{ token: string; path: string }> {
  const tokenRes = await fetch(`${url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'demo', grantType: 'anonymous' }) });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const q = await fetch(`${url}/stores-reader/v1/products/query-platformized`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ query: { paging: { limit: 1 } } }) });
  const id = ((await q.json()) as { products: { id: string }[] }).products[0]!.id;
  return { token, path: `/stores-reader/v1/products/${id}` };
}

/** Requests completed in `ms` by CONNECTIONS loops; a non-200 answer aborts the bench. */
async function load(url: string, target: { token: string; path: string }, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let done = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < end) {
      const res = await fetch(url + target.path, { headers: { authorization: target.token } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${target.path}: ${res.status}`);
      done++;
    }
  }));
  return done;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-scale-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? '' };
  if (process.env.DATABASE_URL) env.DATABASE_SCHEMA = `bench_${randomBytes(4).toString('hex')}`;
  const single = await start(env, []);
  const cluster = await start(env, ['--workers', String(WORKERS)]);
  try {
    const targets = { single: await firstProduct(single.url), cluster: await firstProduct(cluster.url) };
    await load(single.url, targets.single, WARMUP_MS);
    await load(cluster.url, targets.cluster, WARMUP_MS);
    let singleDone = 0;
    let clusterDone = 0;
    for (let i = 0; i < ROUNDS; i++) {
      singleDone += await load(single.url, targets.single, ROUND_MS);
      clusterDone += await load(cluster.url, targets.cluster, ROUND_MS);
    }
    const seconds = (ROUNDS * ROUND_MS) / 1000;
    const rate = (n: number) => Math.round(n / seconds);
    console.log(JSON.stringify({
      database: process.env.DATABASE_URL ? 'postgres' : 'sqlite', cpus: os.cpus().length, loadavg: os.loadavg()[0]!.toFixed(1),
      connections: CONNECTIONS, workers: WORKERS, singleReqPerS: rate(singleDone), clusterReqPerS: rate(clusterDone), ratio: Number((clusterDone / singleDone).toFixed(2)),
    }));
  } finally {
    for (const s of [single, cluster]) s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_000));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL && env.DATABASE_SCHEMA) await dropSchema(process.env.DATABASE_URL, env.DATABASE_SCHEMA);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
