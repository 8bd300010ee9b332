import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { serverEnvironment, serverNodeFlags } from './heap.js';

/**
 * `vitrine start --workers N`: one primary process that forks N server workers sharing one port
 * (node:cluster hands accepted connections to the workers). The primary serves nothing itself; it
 * prepares the database once (migrations, signing keys, demo store) before forking, so workers never
 * race on first-run work, replaces a worker that dies, and on SIGTERM/SIGINT stops every worker the
 * way a single process stops (finish requests in flight and held jobs) before it exits. SIGHUP
 * replaces the workers one at a time (a new one listens before an old one stops), so a new build on
 * disk goes live without a moment with no worker accepting connections.
 */

/** Largest accepted `--workers`: beyond a few per core only connections and memory grow. */
export const WORKERS_MAX = 64;
/** Wait before replacing a dead worker, so a worker that crashes at once cannot spin the machine. */
export const WORKER_RESTART_DELAY_MS = 500;
/** The wait doubles for each replacement in a row that died before it listened (database down), up to this. */
export const WORKER_RESTART_MAX_DELAY_MS = 30_000;
/**
 * How long a stopping worker answers with `Connection: close` before it closes: a little more than
 * node's HTTP keep-alive timeout (5 s), so no client still holds an idle connection to it.
 */
export const WORKER_DRAIN_MS = 5_500;
/** How long a stopping worker may take to finish its requests and jobs before it is killed. */
export const WORKER_STOP_TIMEOUT_MS = 30_000;

/** Parses `--workers`: a whole number from 1 to WORKERS_MAX; anything else is a usage error. */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > WORKERS_MAX) throw new Error(`--workers must be a whole number from 1 to ${WORKERS_MAX}`);
  return n;
}

export const isClusterWorker = (): boolean => cluster.isWorker;

export interface ClusterHandle {
  /** The port every worker listens on (resolves once all N listen). */
  port: number;
  /** Process ids of the live workers. */
  pids(): number[];
}

/**
 * Forks `count` workers and resolves once every one of them listens. A worker that exits before it
 * ever listened fails the start (a configuration error would only repeat); one that dies later is
 * replaced after WORKER_RESTART_DELAY_MS, doubled for each replacement in a row that died before it
 * listened (the database unreachable, say), so the primary keeps trying without spinning. Installs the primary's SIGTERM/SIGINT (stop) and SIGHUP (reload) handlers.
 */
export function runPrimary(count: number, log: Logger): Promise<ClusterHandle> {
  const live = new Set<Worker>();
  const listened = new WeakSet<Worker>();
  /** Workers being replaced on purpose (SIGHUP): their exit is not a crash. */
  const retiring = new WeakSet<Worker>();
  /** Workers a reload started: if one dies before listening, the reload stops and nothing replaces it. */
  const candidates = new WeakSet<Worker>();
  let started = false;
  let failedStarts = 0;
  let stopping = false;
  let reloading = false;
  let port = 0;

  /** SIGTERM, then SIGKILL after WORKER_STOP_TIMEOUT_MS; resolves once the worker exited. */
  const stopWorker = (w: Worker) => new Promise<void>((resolve) => {
    if (w.isDead()) return resolve();
    const timer = setTimeout(() => w.process.kill('SIGKILL'), WORKER_STOP_TIMEOUT_MS);
    w.once('exit', () => { clearTimeout(timer); resolve(); });
    w.process.kill('SIGTERM');
  });

  // Workers start with the server's Node flags and environment (cli/heap.ts), as `npm start` starts a single process.
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...serverNodeFlags()] });
  const workerEnv = serverEnvironment();
  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    live.add(worker);
    return worker;
  };

  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: live.size }, 'stopping workers');
    await Promise.all([...live].map(stopWorker));
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const reload = async () => {
    if (reloading || stopping) return;
    reloading = true;
    try {
      for (const old of [...live]) {
        if (stopping) return;
        if (old.isDead()) continue; // crashed meanwhile: the crash path replaces it
        const next = fork();
        candidates.add(next);
        await new Promise<void>((resolve, reject) => {
          next.once('listening', () => resolve());
          next.once('exit', () => reject(new Error(`worker ${next.process.pid ?? '?'} exited before it listened`)));
        });
        retiring.add(old);
        await stopWorker(old);
        console.log(`  worker ${old.process.pid ?? '?'} replaced by ${next.process.pid ?? '?'} (reload)`);
      }
    } catch (err) {
      // The old worker keeps serving: a build that cannot start never takes over.
      log.error({ err }, 'reload stopped: a new worker did not start');
    } finally {
      reloading = false;
    }
  };
  process.on('SIGHUP', () => void reload());

  return new Promise((resolve, reject) => {
    let ready = 0;
    cluster.on('listening', (worker, address) => {
      if (listened.has(worker)) return;
      listened.add(worker);
      failedStarts = 0;
      port = address.port;
      if (++ready === count && !started) {
        started = true;
        resolve({ port, pids: () => [...live].flatMap((w) => (w.process.pid ? [w.process.pid] : [])) });
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      live.delete(worker);
      if (stopping || retiring.has(worker)) return;
      if (!listened.has(worker)) {
        if (!started) {
          reject(new Error(`worker ${worker.process.pid ?? '?'} exited before it listened (code ${code ?? 'none'}, signal ${signal ?? 'none'})`));
          return;
        }
        if (candidates.has(worker)) return;
        failedStarts += 1;
      }
      const delay = Math.min(WORKER_RESTART_DELAY_MS * 2 ** failedStarts, WORKER_RESTART_MAX_DELAY_MS);
      setTimeout(() => {
        if (stopping) return;
        const next = fork();
        // One line on stdout per replacement: operators (and tests) see which process took over.
        next.once('listening', () => console.log(`  worker ${worker.process.pid ?? '?'} exited (code ${code ?? 'none'}, signal ${signal ?? 'none'}); replaced by ${next.process.pid ?? '?'}`));
      }, delay);
    });
    for (let i = 0; i < count; i++) fork();
  });
}
