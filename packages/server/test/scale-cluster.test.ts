import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness.js';
import { freshDatabase, type FreshDatabase } from './child-server.js';
import { parseWorkers, WORKERS_MAX } from '../src/cli/cluster.js';
import { MALLOC_ARENAS, SEMI_SPACE_MB, serverEnvironment, serverNodeFlags } from '../src/cli/heap.js';

/**
 * `vitrine start --workers N` as a real process tree: the primary forks N workers on one port,
 * replaces one killed with SIGKILL, replaces all one at a time on SIGHUP, and stops them all on SIGTERM.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'packages/server/src/cli/main.ts');
const WORKERS = 2;
/** How long the primary and its workers may take to print the banner (tsx compiles on first start). */
const START_TIMEOUT_MS = 60_000;

interface Cluster { child: ChildProcess; output: () => string; exit: Promise<number | null> }

function startCluster(env: Record<string, string>, args: string[]): Cluster {
  // Without an operator's MALLOC_ARENA_MAX, so the primary chooses the workers' own (cli/heap.ts).
  const { MALLOC_ARENA_MAX: _operators, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start', ...args], {
    cwd: ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number, out: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${out()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let db: FreshDatabase;
let cluster: Cluster;
let url: string;
let pids: number[];

beforeAll(async () => {
  db = freshDatabase('vitrine-cluster-');
  cluster = startCluster(db.env, ['--workers', String(WORKERS)]);
  const banner = await waitFor('the banner', () => /storefront\s+(http:\/\/\S+?)\/\s[\s\S]*processes\s+([\d ]+)\n/.exec(cluster.output()) ?? undefined, START_TIMEOUT_MS, cluster.output);
  url = banner[1]!.replace('localhost', '127.0.0.1');
  pids = banner[2]!.trim().split(' ').map(Number);
}, START_TIMEOUT_MS + 5_000);

afterAll(async () => {
  if (cluster && cluster.child.exitCode === null) {
    cluster.child.kill('SIGKILL');
    for (const pid of pids ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  await db?.drop();
});

describe('vitrine start --workers', () => {
  it('gives the server its Node flags unless the operator chose them', () => {
    expect(serverNodeFlags([])).toEqual([`--max-semi-space-size=${SEMI_SPACE_MB}`]);
    expect(serverNodeFlags(['--inspect', '--max-semi-space-size=16'])).toEqual([]);
    expect(serverEnvironment({})).toEqual({ MALLOC_ARENA_MAX: String(MALLOC_ARENAS) });
    expect(serverEnvironment({ MALLOC_ARENA_MAX: '8' })).toEqual({});
  });

  it(`forks ${WORKERS} workers that serve one port; the primary is not one of them`, async () => {
    expect(pids).toHaveLength(WORKERS);
    expect(new Set(pids).size).toBe(WORKERS);
    expect(pids).not.toContain(cluster.child.pid);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => call(url, '/healthz').then((r) => r.status)));
    expect(statuses).toEqual(Array(20).fill(200));
    // Each worker started with the server's Node flags (cli/heap.ts), which the primary was not given.
    for (const pid of pids) expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    // ...and their environment (glibc's arena bound).
    for (const pid of pids) expect(fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(`MALLOC_ARENA_MAX=${MALLOC_ARENAS}`);
  });

  it('the database was prepared once, by the primary: one demo site, one signing key', async () => {
    const counts = await db.read(async (h) => ({
      sites: (await h.selectFrom('sites').select('id').execute()).length,
      keys: (await h.selectFrom('signing_keys').select('kid').execute()).length,
    }));
    expect(counts).toEqual({ sites: 1, keys: 1 });
  });

  it('replaces a worker killed with SIGKILL, and keeps serving meanwhile', async () => {
    const victim = pids[0]!;
    process.kill(victim, 'SIGKILL');
    const replaced = await waitFor('the replacement', () => new RegExp(`worker ${victim} exited \\(code none, signal SIGKILL\\); replaced by (\\d+)`).exec(cluster.output()) ?? undefined, 20_000, cluster.output);
    const successor = Number(replaced[1]);
    expect(successor).not.toBe(victim);
    expect(alive(successor)).toBe(true);
    pids = [successor, ...pids.slice(1)];
    expect((await call(url, '/healthz')).status).toBe(200);
  });

  it('SIGHUP replaces every worker one at a time while requests keep being answered', async () => {
    const before = [...pids];
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (!stop) statuses.push(await call(url, '/healthz').then((r) => r.status, () => 0));
    })();
    process.kill(cluster.child.pid!, 'SIGHUP');
    const lines = await waitFor('the reload', () => {
      const found = [...cluster.output().matchAll(/worker (\d+) replaced by (\d+) \(reload\)/g)];
      return found.length === WORKERS ? found : undefined;
    }, 60_000, cluster.output);
    stop = true;
    await traffic;
    expect(lines.map((m) => Number(m[1])).sort()).toEqual([...before].sort());
    pids = lines.map((m) => Number(m[2]));
    for (const pid of before) expect(alive(pid)).toBe(false);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 70_000);

  it('SIGTERM stops every worker and the primary exits with 0', async () => {
    cluster.child.kill('SIGTERM');
    expect(await cluster.exit).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('parses --workers: whole numbers from 1 to WORKERS_MAX; everything else is refused', () => {
    expect(parseWorkers(undefined)).toBe(1);
    expect(parseWorkers('1')).toBe(1);
    expect(parseWorkers(String(WORKERS_MAX))).toBe(WORKERS_MAX);
    for (const bad of ['0', String(WORKERS_MAX + 1), 'two', '1.5', '-2', ' 3', '']) {
      expect(() => parseWorkers(bad), bad).toThrow(`--workers must be a whole number from 1 to ${WORKERS_MAX}`);
    }
  });

  it('the CLI refuses a bad --workers with exit code 1 and the reason', async () => {
    const run = startCluster(db.env, ['--workers', '0']);
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain(`--workers must be a whole number from 1 to ${WORKERS_MAX}`);
  }, 60_000);
});
