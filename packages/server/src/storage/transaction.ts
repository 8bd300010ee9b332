import type { Executor } from './database.js';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';

type CommitHook = (db: Executor) => Promise<void>;
type BeforeCommitHook = (trx: Transaction<Database>) => Promise<void>;

/** Hooks of each open top-level transaction, run once it has committed. */
const commitHooks = new WeakMap<Transaction<Database>, CommitHook[]>();
/** Hooks of each open top-level transaction, run inside it after its work, right before the commit. */
const beforeCommitHooks = new WeakMap<Transaction<Database>, BeforeCommitHook[]>();

/**
 * Runs `fn` in one database transaction. When `db` is already a transaction, `fn` joins it, so a
 * service can call another service's transactional method from inside its own transaction. On SQLite
 * the transaction begins holding the write lock, and waits for it without blocking this process while
 * another process holds it (sqlite-lock-wait.ts). `fn` must keep its effects inside the transaction
 * (anything else goes through afterCommit): it may be rolled back.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  const hooks: CommitHook[] = [];
  const result = await db.transaction().execute(async (trx) => {
    commitHooks.set(trx, hooks);
    const before: BeforeCommitHook[] = [];
    beforeCommitHooks.set(trx, before);
    try {
      const value = await fn(trx);
      // By index: a hook may register another one, which runs too.
      for (let i = 0; i < before.length; i++) await before[i]!(trx);
      return value;
    } finally {
      commitHooks.delete(trx);
      beforeCommitHooks.delete(trx);
    }
  });
  for (const hook of hooks) await hook(db);
  return result;
}

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
