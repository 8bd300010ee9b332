import type { Executor } from './database.js';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';

type CommitHook = (db: Executor) => Promise<void>;

/** Hooks of each open top-level transaction, run once it has committed. */
const commitHooks = new WeakMap<Transaction<Database>, CommitHook[]>();

/**
 * Runs `fn` in one database transaction. When `db` is already a transaction, `fn` joins it, so a
 * service can call another service's transactional method from inside its own transaction.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  let hooks: CommitHook[] = [];
  const result = await db.transaction().execute(async (trx) => {
    commitHooks.set(trx, hooks);
    try {
      return await fn(trx);
    } finally {
      hooks = commitHooks.get(trx) ?? [];
      commitHooks.delete(trx);
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
