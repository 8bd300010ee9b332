/**
 * The benchmark suite: `npm run bench` (about 35 minutes for the default set on a 2-core
 * machine: four groups of 13 scenarios, each with its warm-up and baseline; `-- --quick` for a
 * short run). For each database, worker count and data size it seeds a fresh store through the
 * services, starts the compiled server (`vitrine start`) and the bare baseline in their own
 * processes, and measures every scenario with autocannon (own process) right after the baseline, so
 * each figure is a same-run ratio. Writes bench/RESULTS.md, bench/results.json and bench/results.svg.
 * Only 127.0.0.1; every run is bounded by --seconds per measurement.
 *
 *   npm run bench                                   # SQLite + PostgreSQL, 10k, all scenarios, 5 s each
 *   npm run bench -- --quick                        # SQLite, 1k, all scenarios, 2 s each
 *   npm run bench -- --sizes 1000,10000,100000 --db sqlite --scenarios product-get-v1,query-page --seconds 10
 *   npm run bench -- --help
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Fixture, LoadJob, LoadResult, PlannedRequest } from './suite/common.js';
import { SCENARIOS, type Scenario, type World } from './suite/scenarios.js';
import { writeResults, type Row, type Run } from './suite/report.js';
import { rendererEntry } from '../packages/server/src/http/page-renderer.js';
import { serverEnvironment, serverNodeFlags } from '../packages/server/src/cli/heap.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = path.join(ROOT, 'bench/suite');
/** Visitor tokens the visitor scenarios rotate through (each one a buyer with its own cart). */
const VISITOR_TOKENS = 50;
/** Product ids the reads rotate through (visible products, fetched from the server). */
const PRODUCT_IDS = 500;
const SERVER_START_TIMEOUT_MS = 120_000;
const RSS_SAMPLE_MS = 250;
/** Above this many cores used, the load generator may be what limits the figure. */
const GENERATOR_BUSY_CORES = 0.9;
/** Targets of the issue, as same-run ratios to the baseline (checkout: paid orders per second, SQLite). */
const TARGETS: Record<string, { ratio?: number; rps?: number; database?: 'sqlite' }> = {
  'product-get-v1': { ratio: 0.5 }, 'product-get-v3': { ratio: 0.5 }, 'query-page': { ratio: 0.25 }, 'add-to-cart': { ratio: 0.2 }, 'estimate-totals': { ratio: 0.15 },
  checkout: { rps: 300, database: 'sqlite' },
};
/**
 * Warm-up before each measurement (server and baseline alike). The server's hot paths are many and
 * V8 keeps optimizing them for seconds: over the first 6 s of a scenario its compiler threads used
 * 200 us of CPU per estimate request against 30-40 us afterwards, and checkout went from 176 to
 * 224-232 paid orders/s between a first and a second 8 s window (docs/performance-log.md, "Warm-up").
 * The tiny baseline is steady after well under a second, so a short warm-up measured a server still
 * compiling against one that was not. V8 compiles after enough calls rather than enough seconds, so
 * a scenario at 1,000 requests/s needs longer than one at 4,000: after the minimum the warm-up goes on
 * in short windows until the CPU per unit settles (bench/suite/load.ts), up to the maximum.
 */
const DEFAULT_WARMUP_SECONDS = '8';
const DEFAULT_WARMUP_MAX_SECONDS = '30';
const DEFAULTS = { sizes: '10000', seconds: '5', warmup: DEFAULT_WARMUP_SECONDS, 'warmup-max': DEFAULT_WARMUP_MAX_SECONDS, db: 'sqlite,postgres', workers: '1,2', connections: '50' };
const QUICK = { sizes: '1000', seconds: '2', warmup: '1', 'warmup-max': '1', db: 'sqlite', workers: '1' };

const HELP = `npm run bench -- [options]
  --quick               short run: ${Object.entries(QUICK).map(([k, v]) => `--${k} ${v}`).join(' ')}
  --scenarios a,b       some of: ${SCENARIOS.map((s) => s.name).join(', ')}
  --sizes n,m           products and data items seeded per data set (default ${DEFAULTS.sizes}; 1000,10000,100000 for all)
  --seconds s           measured seconds per scenario and per baseline (default ${DEFAULTS.seconds})
  --warmup s            warm-up seconds at least before each measurement, not counted (default ${DEFAULTS.warmup}: the server's JIT settles)
  --warmup-max s        warm-up goes on in 3 s windows until the CPU per unit settles, at most this long (default ${DEFAULTS['warmup-max']}; = --warmup for a fixed warm-up)
  --db list             sqlite, postgres (default ${DEFAULTS.db}; PostgreSQL at $BENCH_DATABASE_URL, $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
  --workers list        server processes: 1, 2 (default ${DEFAULTS.workers}; 2 only when \`vitrine start --workers\` exists)
  --connections n       autocannon connections (default ${DEFAULTS.connections})
  --out dir             where RESULTS.md, results.json and results.svg go (default bench/ for the whole
                        suite; bench/partial/, not committed, when --quick, --scenarios, --sizes, --db or
                        --workers narrows it, so a partial run never replaces the full run's record)
  --cpu-prof dir        write a V8 CPU profile of each server process into dir (open in Chrome DevTools)
  --node-flags='...'   extra Node flags for the server process, e.g. --node-flags=--max-old-space-size=128 (A/B runs)
  --no-build            use the compiled server and storefront as they are (default: npm run build:server
                        first, and npm run build:web when the storefront-page scenario runs)`;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' }, scenarios: { type: 'string' }, sizes: { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' }, 'warmup-max': { type: 'string' },
    db: { type: 'string' }, workers: { type: 'string' }, connections: { type: 'string' }, out: { type: 'string' }, 'cpu-prof': { type: 'string' }, 'node-flags': { type: 'string' }, 'no-build': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
const pick = (name: keyof typeof DEFAULTS): string => args[name] ?? (args.quick && name in QUICK ? QUICK[name as keyof typeof QUICK] : DEFAULTS[name]);
const numbers = (list: string) => list.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);

// ---------------------------------------------------------------------------------------------
// Processes

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a TypeScript file of the suite in its own Node process; resolves with its stdout. */
function runTs(file: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(SUITE, file), ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}: ${out.slice(-500)}`))));
  });
}

async function load(job: LoadJob): Promise<LoadResult> {
  const file = path.join(os.tmpdir(), `vitrine-bench-job-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  try {
    return JSON.parse((await runTs('load.ts', [file])).trim().split('\n').pop()!) as LoadResult;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const randomPort = () => 20000 + Math.floor(Math.random() * 10000);

/** The process and all its descendants (a server with workers is several processes). */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}
/** CPU of the measured processes per unit counted, over the measured window. */
const perUnitMicros = (r: LoadResult): number => (r.completed ? (r.targetCpuSeconds * 1e6) / r.completed : 0);

function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${what} did not answer ${url} within ${SERVER_START_TIMEOUT_MS} ms`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------------------------
// One data set

interface Storage {
  env: NodeJS.ProcessEnv;
  /**
   * Brings the planner's statistics up to date, as autovacuum does on a production PostgreSQL as tables
   * grow. Test clusters often run without autovacuum (this kind of machine does): a table seeded with
   * 10,000 rows then still has no statistics, and its queries take plans for an empty table (a data
   * item query walked every row of the collection: 7.6 ms against 0.08 ms after ANALYZE).
   */
  refreshStatistics: () => Promise<void>;
  dispose: () => Promise<void>;
}

async function prepareStorage(database: 'sqlite' | 'postgres', pgUrl: string): Promise<Storage> {
  const base = { ...process.env, DATABASE_URL: '', DATABASE_SCHEMA: '', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-')) };
  const rmData = () => fs.rmSync(base.DATA_DIR, { recursive: true, force: true });
  // On SQLite the server keeps its statistics itself (`PRAGMA optimize` when it opens the file and periodically).
  if (database === 'sqlite') return { env: base, refreshStatistics: () => Promise.resolve(), dispose: () => Promise.resolve(rmData()) };
  const schema = `bench_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  return {
    env: { ...base, DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema },
    refreshStatistics: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      try {
        const tables = await c.query<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = $1', [schema]);
        for (const t of tables.rows) await c.query(`ANALYZE "${schema}"."${t.name}"`);
      } finally {
        await c.end();
      }
    },
    dispose: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
      rmData();
    },
  };
}

async function call(origin: string, method: string, p: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${origin}${p}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Tokens and ids the scenarios use, read from the running server like a client would. */
async function discover(origin: string, fixture: Fixture): Promise<World> {
  const visitorTokens: string[] = [];
  for (let i = 0; i < VISITOR_TOKENS; i++) visitorTokens.push((await call(origin, 'POST', '/oauth2/token', {}, { clientId: fixture.clientId, grantType: 'anonymous' })).access_token as string);
  const auth = { authorization: visitorTokens[0]! };
  const productIds: string[] = [];
  const productSlugs: string[] = [];
  const cartProductIds: string[] = [];
  for (let offset = 0; productIds.length < PRODUCT_IDS; offset += 100) {
    const page = await call(origin, 'POST', '/stores-reader/v1/products/query-platformized', auth, { query: { paging: { limit: 100, offset } } });
    const products = page.products as { id: string; slug: string; productOptions?: unknown[] }[];
    productIds.push(...products.map((p) => p.id));
    productSlugs.push(...products.map((p) => p.slug));
    // The cart scenarios buy seeded products (untracked stock: the demo store's own run out under
    // load) without options (a line of a product with options needs a choice).
    cartProductIds.push(...products.filter((p) => p.slug.startsWith('bench-') && !p.productOptions?.length).map((p) => p.id));
    if (products.length < 100) break;
  }
  const productV3Ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(origin, 'POST', '/stores/v3/products/query', auth, { query: { cursorPaging: { limit: 100, ...(cursor ? { cursor } : {}) } } }) as { products: { id: string }[]; pagingMetadata: { cursors: { next: string | null } } };
    productV3Ids.push(...page.products.map((p) => p.id));
    cursor = page.pagingMetadata.cursors.next;
  } while (cursor && productV3Ids.length < PRODUCT_IDS);
  const collections = await call(origin, 'POST', '/stores-reader/v1/collections/query', auth, { query: { paging: { limit: 50 } } });
  const collectionIds = (collections.collections as { id: string }[]).map((c) => c.id);
  return { clientId: fixture.clientId, apiKey: fixture.apiKey, visitorTokens, productIds, productSlugs, cartProductIds, productV3Ids, collectionIds };
}

/** A real product document of this data set, with its id left as a placeholder for the baseline. */
async function productTemplate(origin: string, world: World): Promise<string> {
  const { product } = await call(origin, 'GET', `/stores-reader/v1/products/${world.productIds[0]}`, { authorization: world.visitorTokens[0]! }) as { product: Record<string, unknown> };
  return JSON.stringify({ ...product, id: '__ID__' });
}

interface Group { database: 'sqlite' | 'postgres'; workers: number; size: number }

async function measureGroup(group: Group, scenarios: Scenario[], options: { seconds: number; warmup: number; warmupMax: number; connections: number; pgUrl: string }): Promise<Row[]> {
  const label = `${group.database}, ${group.workers} process(es), ${group.size.toLocaleString('en-US')} products/items`;
  log(`\n== ${label}`);
  const storage = await prepareStorage(group.database, options.pgUrl);
  const children: ChildProcess[] = [];
  try {
    const fixture = JSON.parse((await runTs('seed.ts', [String(group.size)], storage.env)).trim().split('\n').pop()!) as Fixture;
    log(`   seeded in ${fixture.seedSeconds.toFixed(1)} s`);
    const port = randomPort();
    const logFile = fs.openSync(path.join(storage.env.DATA_DIR!, 'server.log'), 'a');
    // The compiled server exactly as an operator starts it, request log at info into a file.
    const extraFlags = args['node-flags'] ? args['node-flags'].split(/\s+/).filter(Boolean) : [];
    const profile = [
      ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : []),
      // The flags and environment `npm start` gives the server (cli/heap.ts), unless --node-flags or
      // the environment set them otherwise.
      ...serverNodeFlags(extraFlags),
      ...extraFlags,
    ];
    const server = spawn(process.execPath, [...profile, path.join(ROOT, 'packages/server/bin/vitrine.js'), 'start', ...(group.workers > 1 ? ['--workers', String(group.workers)] : [])], {
      cwd: ROOT, env: { ...storage.env, ...serverEnvironment(storage.env), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production' }, stdio: ['ignore', logFile, logFile],
    });
    children.push(server);
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(`${origin}/healthz`, server, 'vitrine start');
    const world = await discover(origin, fixture);
    const templateFile = path.join(storage.env.DATA_DIR!, 'template.json');
    fs.writeFileSync(templateFile, await productTemplate(origin, world));
    const basePort = randomPort();
    const baseline = spawn(process.execPath, ['--import', 'tsx', path.join(SUITE, 'baseline.ts'), templateFile, String(group.size), String(basePort)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(baseline);
    await waitFor(`http://127.0.0.1:${basePort}/p/p0`, baseline, 'baseline');
    const baselineRequests: PlannedRequest[] = Array.from({ length: PRODUCT_IDS }, () => ({ method: 'GET', path: `/p/p${Math.floor(Math.random() * group.size)}`, headers: {} }));
    const common = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmup, warmupMaxSeconds: options.warmupMax };

    const rows: Row[] = [];
    for (const scenario of scenarios) {
      await scenario.prepare?.(world, origin);
      // Before each scenario: the ones before it grew tables (orders, carts) an autovacuum would re-analyze.
      await storage.refreshStatistics();
      // The baseline is steady within a second (see DEFAULT_WARMUP_SECONDS): its warm-up stays the minimum.
      const base = await load({ ...common, warmupMaxSeconds: options.warmup, mode: 'requests', origin: `http://127.0.0.1:${basePort}`, requests: baselineRequests, measuredPids: [baseline.pid!] });
      const pids = processTree(server.pid!);
      let peak = rssMb(pids);
      const sampler = setInterval(() => { peak = Math.max(peak, rssMb(processTree(server.pid!))); }, RSS_SAMPLE_MS);
      // CPU per unit over the measured window only: the warm-up's JIT compiling is not the server's steady cost.
      const result = await load({ ...common, ...(scenario.connections ? { connections: scenario.connections } : {}), ...scenario.job(world), origin, measuredPids: pids });
      clearInterval(sampler);
      const target = TARGETS[scenario.name];
      const row: Row = {
        ...group, scenario: scenario.name, title: scenario.title, unit: scenario.unit ?? 'requests', result, baseline: base,
        ratio: result.rps / base.rps, serverCpuMicros: perUnitMicros(result), rssMb: peak, baselineCpuMicros: perUnitMicros(base),
        ...(target && (!target.database || target.database === group.database) ? { target: { ...(target.ratio !== undefined ? { ratio: target.ratio } : {}), ...(target.rps !== undefined ? { rps: target.rps } : {}) } } : {}),
      };
      rows.push(row);
      const errors = result.errors + result.non2xx;
      log(`   ${scenario.title.padEnd(52)} ${result.rps.toFixed(0).padStart(6)}/s  baseline ${base.rps.toFixed(0).padStart(6)}/s  ${(row.ratio * 100).toFixed(0).padStart(3)}%  p99 ${result.p99.toFixed(1)} ms  CPU ${row.serverCpuMicros.toFixed(0)} us (baseline ${row.baselineCpuMicros.toFixed(0)} us)  RSS ${peak.toFixed(0)} MB  gen ${result.generatorCpu.toFixed(2)}/${base.generatorCpu.toFixed(2)} cores  warm-up ${result.warmup?.seconds ?? 0} s${result.warmup?.settled === false ? ' (not settled)' : ''}${errors ? `  ERRORS ${errors}${result.firstError ? `: ${result.firstError.slice(0, 120)}` : ''}` : ''}`);
      // Not a slow figure but a stuck server (the twentieth session's pool deadlock read as "0/s"):
      // the run stops here rather than measure the next scenarios against it.
      if (result.completed === 0) throw new Error(`${scenario.title}: the server answered nothing in ${options.seconds} s, it is stuck (${label})`);
    }
    return rows;
  } finally {
    for (const c of children.reverse()) await stop(c);
    await storage.dispose();
  }
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (args.help) {
    log(HELP);
    return;
  }
  const names = args.scenarios?.split(',') ?? SCENARIOS.map((s) => s.name);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const scenarios = SCENARIOS.filter((s) => names.includes(s.name));
  const sizes = numbers(pick('sizes'));
  const seconds = Number(pick('seconds'));
  const warmup = Number(pick('warmup'));
  const warmupMax = Math.max(warmup, Number(pick('warmup-max')));
  const connections = Number(pick('connections'));
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const partial = Boolean(args.quick || args.scenarios || args.sizes || args.db || args.workers);
  const out = path.resolve(args.out ?? path.join(ROOT, 'bench', partial ? 'partial' : ''));

  // The storefront page is rendered from the built storefront; without it every request would fail.
  const needsWeb = scenarios.some((s) => s.name === 'storefront-page');
  if (!args['no-build']) {
    for (const script of needsWeb ? ['build:server', 'build:web'] : ['build:server']) {
      log(`building (npm run ${script})...`);
      if (spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error(`npm run ${script} failed`);
    }
  } else if (needsWeb && !fs.existsSync(rendererEntry(path.join(ROOT, 'apps/storefront')))) {
    throw new Error('the storefront-page scenario needs the built storefront: run npm run build:web, or leave out --no-build');
  }
  const help = spawnSync(process.execPath, [path.join(ROOT, 'packages/server/bin/vitrine.js'), '--help'], { encoding: 'utf8' }).stdout;
  const workersSupported = help.includes('--workers');
  const workers = numbers(pick('workers')).filter((w) => w === 1 || workersSupported);
  const workersNote = workersSupported ? `measured with ${workers.join(' and ')} server process(es)` : '`vitrine start --workers` is not supported yet: one server process only';

  let databases = pick('db').split(',').filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');
  if (databases.includes('postgres') && !(await postgresReachable(pgUrl))) {
    log(`PostgreSQL at ${pgUrl} is not reachable: skipping it`);
    databases = databases.filter((d) => d !== 'postgres');
  }

  log(`bench: ${scenarios.length} scenario(s), sizes ${sizes.join(', ')}, ${databases.join(' + ')}, workers ${workers.join(', ')}, ${seconds} s each (+${warmup}-${warmupMax} s warm-up), ${connections} connections; ${workersNote}`);
  const run: Run = {
    startedAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(),
    connections, seconds, warmup: { min: warmup, max: warmupMax }, workersNote, generatorNote: '', rows: [],
  };
  for (const database of databases) {
    for (const w of workers) {
      for (const size of sizes) run.rows.push(...await measureGroup({ database, workers: w, size }, scenarios, { seconds, warmup, warmupMax, connections, pgUrl }));
    }
  }
  const busiest = Math.max(0, ...run.rows.map((r) => r.baseline.generatorCpu));
  run.generatorNote = busiest < GENERATOR_BUSY_CORES
    ? `autocannon used at most ${busiest.toFixed(2)} cores while driving the baseline (the fastest target), below ${GENERATOR_BUSY_CORES}: it was not the bottleneck`
    : `autocannon used up to ${busiest.toFixed(2)} cores driving the baseline: it may have limited the baseline, so ratios may be overstated`;
  log(`\n${run.generatorNote}`);
  writeResults(out, run);
  log(`wrote ${path.join(out, 'RESULTS.md')}, results.json and results.svg`);
  const missed = run.rows.filter((r) => r.target && (r.target.ratio !== undefined ? r.ratio < r.target.ratio : r.result.rps < (r.target.rps ?? 0)));
  log(missed.length ? `targets missed: ${missed.map((r) => `${r.scenario} (${r.database}, ${r.workers}w, ${r.size})`).join(', ')}` : 'all targets met');
}

await main();
