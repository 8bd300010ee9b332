import { SQLITE_BUSY_TIMEOUT_MS, type Executor } from './database.js';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';
import { isSqliteBusy } from './errors.js';

type CommitHook = (db: Executor) => Promise<void>;
type BeforeCommitHook = (trx: Transaction<Database>) => Promise<void>;

/** Hooks of each open top-level transaction, run once it has committed. */
const commitHooks = new WeakMap<Transaction<Database>, CommitHook[]>();
/** Hooks of each open top-level transaction, run inside it after its work, right before the commit. */
const beforeCommitHooks = new WeakMap<Transaction<Database>, BeforeCommitHook[]>();

/**
 * Runs `fn` in one database transaction. When `db` is already a transaction, `fn` joins it, so a
 * service can call another service's transactional method from inside its own transaction. On SQLite
 * the transaction begins holding the write lock, and waits for it (for up to SQLITE_BUSY_TIMEOUT_MS in
 * all) without blocking this process while another process holds it. `fn` must keep its effects
 * inside the transaction (anything else goes through afterCommit): it may be rolled back, and run
 * again after a SQLite busy error.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  let hooks: CommitHook[] = [];
  let result: T;
  const deadline = performance.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    hooks = [];
    try {
      result = await db.transaction().execute(async (trx) => {
        commitHooks.set(trx, hooks);
        const before: BeforeCommitHook[] = [];
        beforeCommitHooks.set(trx, before);
        try {
          const value = await fn(trx);
          // By index: a hook may register another one, which runs too.
          for (let i = 0; i < before.length; i++) await before[i]!(trx);
          return value;
        } finally {
          hooks = commitHooks.get(trx) ?? [];
          commitHooks.delete(trx);
          beforeCommitHooks.delete(trx);
        }
      });
      break;
    } catch (error) {
      // Rolled back (or never begun), hooks dropped. Another SQLite process holds the write lock (a
      // transaction's begin asks for it without waiting: database.ts): try again after a pause, this
      // process's other requests going on meanwhile. Past the deadline the request fails (503, retryable).
      if (!isSqliteBusy(error) || performance.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_RETRY_MAX_PAUSE_MS, 2 ** attempt) * (0.5 + Math.random() / 2)));
    }
  }
  for (const hook of hooks) await hook(db);
  return result;
}

/** Longest pause before asking again for a SQLite write lock another connection holds (pauses double from 2 ms). */
export const LOCK_RETRY_MAX_PAUSE_MS = 25;

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

/**
 * Runs `hook` inside the transaction `db` is, after the transaction's work and right before it
 * commits (in registration order; a failing hook rolls the transaction back like any statement). For
 * writes that gather over a transaction and go out as one statement: the events of a placed order are
 * one outbox write instead of one per step. False, registering nothing, when `db` is no transaction
 * opened by inTransaction: the caller then writes at once.
 */
export function beforeCommit(db: Executor, hook: BeforeCommitHook): boolean {
  if (!db.isTransaction) return false;
  const hooks = beforeCommitHooks.get(db as Transaction<Database>);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}
