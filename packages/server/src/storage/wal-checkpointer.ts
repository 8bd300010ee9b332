import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite WAL checkpoints on a thread of their own.
 *
 * In WAL mode every commit appends pages to the -wal file, and a checkpoint copies them back into the
 * database file and syncs it. Left to SQLite, the checkpoint runs inside whichever commit crosses
 * `wal_autocheckpoint` pages, on the request thread: that commit took 242 ms in an add-to-cart run
 * (every other request of the process waited), and in the checkout run commits averaged 701 us with
 * it against 262 us once this thread took it over (docs/performance-log.md, "Checkpoints off the request
 * thread"). Here a worker thread with its own connection runs a PASSIVE checkpoint every
 * WAL_CHECKPOINT_INTERVAL_MS, which never blocks readers or writers; the request thread only appends.
 *
 * The process's own connection keeps an automatic checkpoint at WAL_BACKSTOP_PAGES, far above what
 * the worker lets the log reach: if the worker ever stops (or cannot keep up), the log stays bounded
 * the way it was before, only later.
 */

/** How often the checkpoint thread copies committed pages back into the database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 200;
/** Pages after which a commit checkpoints on its own thread anyway (the worker's backstop; SQLite's default is 1,000). */
export const WAL_BACKSTOP_PAGES = 20_000;

// Evaluated code (CommonJS), so the same thread runs from the compiled server and from the sources under test.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Another connection is checkpointing (a second server process): the next round goes on.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** Starts the checkpoint thread for the SQLite file `file`; the answer stops it (resolves once the thread has closed its connection). */
export function startWalCheckpointer(file: string, intervalMs = WAL_CHECKPOINT_INTERVAL_MS): () => Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  worker.unref();
  // A failed thread only costs the background checkpoints: the backstop above keeps the log bounded.
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return async () => {
    // Referenced again while it stops: an unreferenced thread's exit would not keep this process's
    // event loop alive, and a process with nothing else left to do would end before `close` returns.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
