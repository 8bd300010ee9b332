/** What the seeder hands to the suite, and the bounds both share. */
import fs from 'node:fs';

/** Rows per seeding transaction (products) and per bulk call (data items). */
export const SEED_BATCH = 1000;
/** Members seeded per data set (member query reads a page; more members only lengthen the seed). */
export const MEMBERS_MAX = 1000;
/** V3 products seeded per data set (at most), and per bulk call (the route's own bound). */
export const V3_PRODUCTS_MAX = 10_000;
export const V3_BULK = 100;
/** The data collection every data scenario reads and writes. */
export const BENCH_COLLECTION = 'bench_items';
/** Distinct values of the indexed item field `k`, so an equality query matches about size / ITEM_KEYS items. */
export const ITEM_KEYS = 1000;
/** Brands of the seeded products (the query scenario filters on them). */
export const BRANDS = ['Vitrine', 'Brewline', 'Leaf & Co', 'Acme'];

export interface Fixture {
  siteId: string;
  clientId: string;
  /** An owner API key of the demo site (owner scenarios: order search, member query, data). */
  apiKey: string;
  seedSeconds: number;
}

/** One request of a scenario; a scenario rotates through several (ids, tokens, bodies). */
export interface PlannedRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the suite asks of the load generator process (bench/suite/load.ts). */
export interface LoadJob {
  mode: 'requests' | 'checkout';
  origin: string;
  connections: number;
  seconds: number;
  /** Warm-up before the measured window, not counted: at least this long... */
  warmupSeconds: number;
  /** ...and then on in short windows until the measured processes' CPU per unit settles, at most this long in all (bench/suite/load.ts). */
  warmupMaxSeconds?: number;
  requests?: PlannedRequest[];
  /** Processes under test: their CPU is read over the measured window only (not the warm-up). */
  measuredPids?: number[];
  /** checkout mode: the OAuth client for visitor tokens and the products bought in turn. */
  clientId?: string;
  productIds?: string[];
}

export interface LoadResult {
  /** Successful requests (checkout: completed paid orders) per second. */
  rps: number;
  completed: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  /** Cores the generator itself used over the window (1.0 = one full core: it may be the limit). */
  generatorCpu: number;
  /** CPU seconds the processes of `measuredPids` used over the measured window. */
  targetCpuSeconds: number;
  /** Seconds of warm-up before the measured window, and whether the CPU per unit had settled by then (absent: a fixed warm-up, not checked). */
  warmup?: { seconds: number; settled?: boolean };
  firstError?: string;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU fields (Linux's USER_HZ). */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system, all threads) the processes have used so far; a process gone counts 0. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / CLOCK_TICKS;
}
