import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../storage/database.js';
import type { Database } from '../../../storage/schema.js';
import { bumpPricingVersion } from './store-version.js';

/**
 * The statements every entity table of the pricing rules shares (all have `id` and `site_id`): find,
 * delete, count, and a page of a filtered, sorted listing. Table names come from this union only,
 * never from a request; filter and sort SQL come from the storage filter compiler.
 */
/** A page of a listing: `where` from the filter compiler, `order` from the sort parser (always ends in id). */
export interface PageQuery { where: RawBuilder<boolean> | undefined; order: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number }

export type EntityTable = 'discount_rules' | 'coupons' | 'shipping_regions' | 'tax_groups' | 'tax_regions';
/** Tables whose rows the cached pricing setup holds (coupons are read per pricing, by code). */
const PRICED_TABLES = new Set<EntityTable>(['discount_rules', 'shipping_regions', 'tax_regions']);

export async function findRow<T extends EntityTable>(db: Executor, table: T, siteId: string, id: string): Promise<Database[T] | undefined> {
  const { rows } = await sql<Database[T]>`SELECT * FROM ${sql.table(table)} WHERE site_id = ${siteId} AND id = ${id}`.execute(db);
  return rows[0];
}

/** True when the row existed. */
export async function deleteRow(db: Executor, table: EntityTable, siteId: string, id: string): Promise<boolean> {
  const result = await sql`DELETE FROM ${sql.table(table)} WHERE site_id = ${siteId} AND id = ${id}`.execute(db);
  const deleted = Number(result.numAffectedRows ?? 0n) === 1;
  if (deleted && PRICED_TABLES.has(table)) await bumpPricingVersion(db, siteId);
  return deleted;
}

export async function countRows(db: Executor, table: EntityTable, siteId: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE site_id = ${siteId}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function pageRows<T extends EntityTable>(db: Executor, table: T, siteId: string, q: PageQuery): Promise<Database[T][]> {
  const where = q.where ? sql`AND ${q.where}` : sql``;
  const order = q.order.length ? sql`ORDER BY ${sql.join(q.order.map((o) => sql`${o.expr} ${sql.raw(o.order === 'DESC' ? 'DESC' : 'ASC')}`))}` : sql``;
  const { rows } = await sql<Database[T]>`SELECT * FROM ${sql.table(table)} WHERE site_id = ${siteId} ${where} ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return rows;
}
