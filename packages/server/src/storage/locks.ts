import { sql } from 'kysely';
import type { Executor } from './database.js';
import { dialectOf } from './dialect.js';

/** Tables whose rows services lock before a multi-row change: text primary key `id`, and `site_id`. */
export type LockableTable = 'inventory_items';

/**
 * Locks rows for the rest of the caller's transaction, in id order, and answers them as they are
 * under the lock, in one statement. Two transactions locking overlapping sets always queue on the
 * first row they share and can never deadlock. PostgreSQL: `SELECT * ... ORDER BY id FOR UPDATE`
 * (rows are locked in the order they are returned). SQLite: the same read without a lock, since a
 * write transaction already excludes every other writer. Ids that match no row are left out.
 */
export async function lockAndReadInIdOrder<Row>(db: Executor, table: LockableTable, siteId: string, ids: readonly string[]): Promise<Row[]> {
  if (!db.isTransaction) throw new Error('lockAndReadInIdOrder: call it inside a transaction (the locks last until it ends)');
  if (ids.length === 0) return [];
  const lock = dialectOf(db) === 'sqlite' ? sql`` : sql` FOR UPDATE`;
  const { rows } = await sql<Row>`SELECT * FROM ${sql.table(table)} WHERE site_id = ${siteId} AND id IN (${sql.join([...new Set(ids)])}) ORDER BY id${lock}`.execute(db);
  return rows;
}

/**
 * Whether rows this transaction has read are as a lock would read them now. SQLite: yes, one writer
 * at a time, and a commit by another process since the transaction's first read fails its first
 * write (inTransaction runs it again). PostgreSQL: no, lock them and read them again.
 */
export function readRowsStayAsRead(db: Executor): boolean {
  return dialectOf(db) === 'sqlite';
}
