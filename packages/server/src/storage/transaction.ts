import type { Executor } from './database.js';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';
import { isStaleSnapshot } from './errors.js';

type CommitHook = (db: Executor) => Promise<void>;

/** Hooks of each open top-level transaction, run once it has committed. */
const commitHooks = new WeakMap<Transaction<Database>, CommitHook[]>();

/**
 * Runs `fn` in one database transaction. When `db` is already a transaction, `fn` joins it, so a
 * service can call another service's transactional method from inside its own transaction. On SQLite
 * `fn` may run again (at most STALE_SNAPSHOT_ATTEMPTS times) when another process committed under it,
 * so it must keep its effects inside the transaction (anything else goes through afterCommit).
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  let hooks: CommitHook[] = [];
  let result: T;
  for (let attempt = 1; ; attempt++) {
    hooks = [];
    try {
      result = await db.transaction().execute(async (trx) => {
        commitHooks.set(trx, hooks);
        try {
          return await fn(trx);
        } finally {
          hooks = commitHooks.get(trx) ?? [];
          commitHooks.delete(trx);
        }
      });
      break;
    } catch (error) {
      // Rolled back, hooks dropped: another process committed under this SQLite transaction; run it again.
      if (!isStaleSnapshot(error) || attempt >= STALE_SNAPSHOT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * STALE_SNAPSHOT_BACKOFF_MS * attempt));
    }
  }
  for (const hook of hooks) await hook(db);
  return result;
}

/** Runs of a top-level transaction whose SQLite snapshot another process made stale (isStaleSnapshot). */
export const STALE_SNAPSHOT_ATTEMPTS = 5;
/** Longest random pause before the second run, growing with each further one (spreads the processes). */
const STALE_SNAPSHOT_BACKOFF_MS = 5;

/**
 * Runs `hook` on the root executor once what `db` wrote is committed: after the enclosing
 * transaction commits (never when it rolls back), or now when `db` is not a transaction (its
 * statements committed as they ran). Hooks must not throw; they run in registration order.
 */
export async function afterCommit(db: Executor, hook: CommitHook): Promise<void> {
  if (!db.isTransaction) return hook(db);
  const hooks = commitHooks.get(db as Transaction<Database>);
  if (!hooks) throw new Error('afterCommit: the transaction was not opened by inTransaction');
  hooks.push(hook);
}
