import type { Executor } from './database.js';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `fn` in one database transaction. When `db` is already a transaction, `fn` joins it, so a
 * service can call another service's transactional method from inside its own transaction.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return db.transaction().execute(fn);
}
