import { sql } from 'kysely';
import type { Executor } from './database.js';
import { dialectOf } from './dialect.js';

/** Tables whose rows services lock before a multi-row change: text primary key `id`, and `site_id`. */
export type LockableTable = 'inventory_items';

/**
 * Locks rows for the rest of the caller's transaction, in id order, so that two transactions
 * locking overlapping sets always queue on the first row they share and can never deadlock.
 * PostgreSQL: one `SELECT ... ORDER BY id FOR UPDATE` (rows are locked in the order they are
 * returned). SQLite: nothing to do, a write transaction already excludes every other writer (one
 * connection, and Kysely runs one transaction on it at a time). Ids that match no row are ignored.
 */
export async function lockRowsInIdOrder(db: Executor, table: LockableTable, siteId: string, ids: readonly string[]): Promise<void> {
  if (!db.isTransaction) throw new Error('lockRowsInIdOrder: call it inside a transaction (the locks last until it ends)');
  if (ids.length === 0 || dialectOf(db) === 'sqlite') return;
  const unique = [...new Set(ids)];
  await sql`SELECT id FROM ${sql.table(table)} WHERE site_id = ${siteId} AND id IN (${sql.join(unique)}) ORDER BY id FOR UPDATE`.execute(db);
}
