import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past the bytes that survived the last full collection
 * before it collects again (V8's own choice is up to 4x when allocation is fast). Under load a server
 * promotes many short-lived objects (every request waiting on the database keeps its objects through
 * a few young collections), so its heap rose to about 150 MB with about 45 MB alive, and the process
 * past 240 MB at 10,000 products. Holding growth to 20% kept it at 186 MB through the same scenarios,
 * with garbage collection still about 7-9% of the process's CPU time (docs/performance-log.md, "Memory").
 */
export const HEAP_GROWING_PERCENT = 20;

/** The Node flags this process was started with: its command line and NODE_OPTIONS. */
function givenNodeFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
}

/** Applies HEAP_GROWING_PERCENT unless the operator set the flag (node --heap-growing-percent=N or NODE_OPTIONS). */
export function limitHeapGrowth(): void {
  const given = givenNodeFlags().some((flag) => flag.startsWith('--heap-growing-percent'));
  if (!given) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * The young generation's semi-space, in MB (V8's default grows to 16). Measured at 10,000 products
 * through the bench's scenarios, the server's RSS peaked at 173-197 MB with the default and 154-170 MB
 * with 4, while alternating checkout runs moved by -12% to +4% in paid orders per second (noise of
 * the machine, no direction): short-lived request objects die in a smaller nursery just as well.
 * V8 reads it only when the process starts, so it is a command-line flag: `npm start`, the bench
 * and the forked workers of `--workers` pass it (`serverNodeFlags`); docs/deploy.md shows it for
 * service managers.
 */
export const SEMI_SPACE_MB = 4;

/** The Node flags a server process should start with, minus those the operator already gave (execArgv or NODE_OPTIONS). */
export function serverNodeFlags(given: string[] = givenNodeFlags()): string[] {
  return given.some((flag) => flag.startsWith('--max-semi-space-size')) ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`];
}

/**
 * glibc malloc arenas per server process. glibc gives threads that allocate at the same time arenas
 * of their own, up to eight per core, and keeps what each arena once held: a server process has about
 * a dozen threads (V8's collector helpers, libuv's pool, the WAL checkpoint thread), and with the
 * default the bench's peak RSS at 10,000 products was 191-197 MB against 182-185 MB with two arenas
 * (storefront page, add-to-cart, estimate totals, bulk insert; alternating runs), at no CPU cost the
 * noise lets through (docs/performance-log.md, "Fewer malloc arenas"). glibc reads it only when the
 * process starts, from the environment: `npm start`, the bench and the forked workers of `--workers`
 * set it (`serverEnvironment`); docs/deploy.md shows it for service managers.
 */
export const MALLOC_ARENAS = 2;

/** Environment a server process should start with, minus what the operator already set. */
export function serverEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: String(MALLOC_ARENAS) } : {};
}
