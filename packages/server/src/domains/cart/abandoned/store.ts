import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { AbandonedCheckoutActivity } from '@vitrine/types/ecom-aftercare';
import type { Executor } from '../../../storage/database.js';
import { escapeLike, ilike, indexedState, readJson, toJson, type DialectName } from '../../../storage/dialect.js';
import { allColumns, columnsOf, preparedQuery } from '../../../storage/prepared.js';
import { allowlist, compileFilter, type FilterField, type FilterNode, type FilterTarget, type ScalarType } from '../../../storage/filter.js';
import type { CheckoutDetails, TrackedCheckout, TrackingStatus } from './model.js';

interface AbandonedCheckoutsTable {
  id: string;
  site_id: string;
  checkout_id: string;
  cart_id: string | null;
  status: TrackingStatus;
  buyer_email: string | null;
  buyer_member_id: string | null;
  buyer_visitor_id: string | null;
  buyer_contact_id: string | null;
  contact_first_name: string | null;
  contact_last_name: string | null;
  currency: string;
  total_amount: string;
  /** The same total in the currency's minor units, for exact sums. */
  total_minor: string | number | bigint;
  line_item_count: number;
  details: unknown;
  activities: unknown;
  last_activity_date: string;
  abandoned_date: string | null;
  recovered_date: string | null;
  created_date: string;
  updated_date: string;
}

declare module '../../../storage/schema.js' {
  interface Database {
    abandoned_checkouts: AbandonedCheckoutsTable;
    cart_aftercare_secrets: { name: string; value: string };
  }
}

type Row = Selectable<AbandonedCheckoutsTable>;

function toTracked(r: Row): TrackedCheckout {
  return {
    id: r.id, siteId: r.site_id, checkoutId: r.checkout_id, cartId: r.cart_id, status: r.status,
    buyer: { email: r.buyer_email, memberId: r.buyer_member_id, visitorId: r.buyer_visitor_id, contactId: r.buyer_contact_id },
    currency: r.currency, totalAmount: r.total_amount, lineItemCount: r.line_item_count,
    details: r.details == null ? null : readJson<CheckoutDetails>(r.details),
    activities: readJson<AbandonedCheckoutActivity[]>(r.activities),
    lastActivityDate: r.last_activity_date, abandonedDate: r.abandoned_date, recoveredDate: r.recovered_date,
    createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

/** A server secret of the after-checkout listings (the cursor key), made by a migration. */
export async function aftercareSecret(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom('cart_aftercare_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

// ---------------------------------------------------------------------------------------------
// Tracking

export interface TrackedSnapshotRow {
  id: string;
  siteId: string;
  checkoutId: string;
  cartId: string | null;
  buyer: TrackedCheckout['buyer'];
  contactName: { first: string | null; last: string | null };
  currency: string;
  totalAmount: string;
  totalMinor: bigint;
  lineItemCount: number;
  details: CheckoutDetails | null;
  now: string;
}

/** The columns a snapshot writes, also when it updates the checkout's row. */
type SnapshotColumns = Pick<AbandonedCheckoutsTable,
  'cart_id' | 'buyer_email' | 'buyer_member_id' | 'buyer_visitor_id' | 'buyer_contact_id' | 'contact_first_name' | 'contact_last_name' |
  'currency' | 'total_amount' | 'total_minor' | 'line_item_count' | 'details' | 'last_activity_date' | 'updated_date'>;
const SNAPSHOT_COLUMNS = allColumns<SnapshotColumns>({
  cart_id: true, buyer_email: true, buyer_member_id: true, buyer_visitor_id: true, buyer_contact_id: true, contact_first_name: true,
  contact_last_name: true, currency: true, total_amount: true, total_minor: true, line_item_count: true, details: true,
  last_activity_date: true, updated_date: true,
});
const snapshotUpsert = preparedQuery((db, p: SnapshotColumns & { id: string; site_id: string; checkout_id: string; created_date: string }) => {
  const values = columnsOf(p, SNAPSHOT_COLUMNS);
  return db.insertInto('abandoned_checkouts')
    .values({ id: p.id, site_id: p.site_id, checkout_id: p.checkout_id, status: 'ACTIVE', activities: '[]', abandoned_date: null, recovered_date: null, created_date: p.created_date, ...values })
    .onConflict((oc) => oc.columns(['site_id', 'checkout_id']).doUpdateSet(values).where('abandoned_checkouts.status', 'in', ['ACTIVE', 'ABANDONED']))
    .returningAll();
});

/**
 * Records the latest state of a checkout in one statement (safe against a concurrent first report of
 * the same checkout on both databases). A COMPLETED or RECOVERED checkout is left as it is: its story is
 * over. An ABANDONED one keeps its status (only completing it recovers it). Answers the row as stored,
 * or undefined when nothing was written.
 */
export async function upsertSnapshot(db: Executor, s: TrackedSnapshotRow): Promise<TrackedCheckout | undefined> {
  const { rows } = await snapshotUpsert.run(db, {
    id: s.id, site_id: s.siteId, checkout_id: s.checkoutId, cart_id: s.cartId,
    buyer_email: s.buyer.email, buyer_member_id: s.buyer.memberId, buyer_visitor_id: s.buyer.visitorId, buyer_contact_id: s.buyer.contactId,
    contact_first_name: s.contactName.first, contact_last_name: s.contactName.last,
    currency: s.currency, total_amount: s.totalAmount, total_minor: s.totalMinor.toString(), line_item_count: s.lineItemCount,
    details: s.details == null ? null : toJson(s.details),
    last_activity_date: s.now, updated_date: s.now, created_date: s.now,
  });
  const row = rows[0];
  return row ? toTracked(row) : undefined;
}

export async function findByCheckout(db: Executor, siteId: string, checkoutId: string): Promise<TrackedCheckout | undefined> {
  const row = await db.selectFrom('abandoned_checkouts').selectAll().where('site_id', '=', siteId).where('checkout_id', '=', checkoutId).executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

const activeCompletion = preparedQuery((db, p: { siteId: string; checkoutId: string; now: string }) => db.updateTable('abandoned_checkouts')
  .set({ status: 'COMPLETED', updated_date: p.now })
  .where('site_id', '=', p.siteId).where('checkout_id', '=', p.checkoutId).where('status', '=', 'ACTIVE'));

/** ACTIVE -> COMPLETED for a checkout's row in one guarded statement; false when it has no ACTIVE row. */
export async function completeActive(db: Executor, siteId: string, checkoutId: string, now: string): Promise<boolean> {
  const res = await activeCompletion.run(db, { siteId, checkoutId, now });
  return Number(res.numAffectedRows) > 0;
}

/** Sets a new status on a row that still has `from` (guarded, so two completions cannot both win). */
export async function transition(db: Executor, siteId: string, id: string, from: TrackingStatus, to: TrackingStatus, patch: { recoveredDate?: string }, now: string): Promise<TrackedCheckout | undefined> {
  const row = await db.updateTable('abandoned_checkouts')
    .set({ status: to, updated_date: now, ...(patch.recoveredDate ? { recovered_date: patch.recoveredDate } : {}) })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The idle scan (periodic job)

/** ACTIVE checkouts with items, untouched since `cutoff`, oldest first, across sites. */
export async function findIdle(db: Executor, cutoff: string, limit: number): Promise<{ id: string; siteId: string }[]> {
  const rows = await db.selectFrom('abandoned_checkouts').select(['id', 'site_id'])
    .where('status', '=', indexedState('ACTIVE')).where('last_activity_date', '<', cutoff).where('line_item_count', '>', 0)
    .orderBy('last_activity_date').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, siteId: r.site_id }));
}

/** ACTIVE -> ABANDONED for rows still idle since `cutoff` (a report that came in meanwhile wins). */
export async function markAbandoned(db: Executor, siteId: string, ids: string[], cutoff: string, now: string): Promise<TrackedCheckout[]> {
  if (ids.length === 0) return [];
  const rows = await db.updateTable('abandoned_checkouts')
    .set({ status: 'ABANDONED', abandoned_date: now, updated_date: now })
    .where('site_id', '=', siteId).where('id', 'in', ids).where('status', '=', 'ACTIVE').where('last_activity_date', '<', cutoff)
    .returningAll()
    .execute();
  return rows.map(toTracked).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Deletes tracking rows that will never be abandoned checkouts: completed in time, or empty and stale. */
export async function pruneFinished(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('abandoned_checkouts')
    .where('updated_date', '<', before)
    .where((eb) => eb.or([eb('status', '=', 'COMPLETED'), eb.and([eb('status', '=', 'ACTIVE'), eb('line_item_count', '=', 0)])]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// The owner API: only ABANDONED and RECOVERED rows exist for it.

const VISIBLE: TrackingStatus[] = ['ABANDONED', 'RECOVERED'];

export async function findVisible(db: Executor, siteId: string, id: string): Promise<TrackedCheckout | undefined> {
  const row = await db.selectFrom('abandoned_checkouts').selectAll()
    .where('site_id', '=', siteId).where('id', '=', id).where('status', 'in', VISIBLE).executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

/** Deletes visible rows; answers the ids that were deleted. */
export async function deleteVisible(db: Executor, siteId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.deleteFrom('abandoned_checkouts')
    .where('site_id', '=', siteId).where('id', 'in', ids).where('status', 'in', VISIBLE)
    .returning('id').execute();
  return rows.map((r) => r.id);
}

export async function saveActivities(db: Executor, siteId: string, id: string, activities: AbandonedCheckoutActivity[], now: string): Promise<TrackedCheckout | undefined> {
  const row = await db.updateTable('abandoned_checkouts').set({ activities: toJson(activities), updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', 'in', VISIBLE)
    .returningAll().executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

/** Filterable and sortable fields: wire name -> column and type (both REST and `_`-prefixed names). */
const FIELDS = allowlist<{ column: string; type: ScalarType }>({
  id: { column: 'id', type: 'string' },
  _id: { column: 'id', type: 'string' },
  checkoutId: { column: 'checkout_id', type: 'string' },
  cartId: { column: 'cart_id', type: 'string' },
  status: { column: 'status', type: 'string' },
  createdDate: { column: 'abandoned_date', type: 'date' },
  _createdDate: { column: 'abandoned_date', type: 'date' },
  updatedDate: { column: 'updated_date', type: 'date' },
  _updatedDate: { column: 'updated_date', type: 'date' },
  checkoutRecoveredDate: { column: 'recovered_date', type: 'date' },
  currency: { column: 'currency', type: 'string' },
  'buyerInfo.email': { column: 'buyer_email', type: 'string' },
  'buyerInfo.memberId': { column: 'buyer_member_id', type: 'string' },
  'buyerInfo.visitorId': { column: 'buyer_visitor_id', type: 'string' },
  'buyerInfo.contactId': { column: 'buyer_contact_id', type: 'string' },
  'contactDetails.firstName': { column: 'contact_first_name', type: 'string' },
  'contactDetails.lastName': { column: 'contact_last_name', type: 'string' },
});

const filterTarget: FilterTarget = {
  field(path: string): FilterField | undefined {
    // The platform's user id (a site collaborator as buyer) does not exist here: filterable, never set.
    if (path === 'buyerInfo.userId') return { expr: sql`NULL`, type: 'string' };
    const f = FIELDS[path];
    return f ? { expr: sql.ref(`a.${f.column}`), type: f.type } : undefined;
  },
};

export function abandonedSortColumn(field: string): RawBuilder<unknown> | undefined {
  const f = FIELDS[field];
  return f ? sql.ref(`a.${f.column}`) : undefined;
}

/** Columns the free-text search looks in, by the wire names a search may list. */
export const SEARCH_COLUMNS = allowlist<string>({
  'buyerInfo.email': 'buyer_email',
  'contactDetails.firstName': 'contact_first_name',
  'contactDetails.lastName': 'contact_last_name',
});

export interface AbandonedQuery extends PageWindow {
  siteId: string;
  filter: FilterNode | undefined;
  search: { expression: string; fields: string[]; mode: 'OR' | 'AND' } | undefined;
  dialect: DialectName;
}

function whereOf(q: AbandonedQuery): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`a.site_id = ${q.siteId}`, sql<boolean>`a.status IN ('ABANDONED', 'RECOVERED')`];
  if (q.filter) parts.push(compileFilter(q.filter, filterTarget, q.dialect));
  if (q.search) {
    // Every word must match (AND) or any word (OR), each in any of the fields.
    const words = q.search.expression.split(/\s+/).filter(Boolean);
    const perWord = words.map((w) => {
      const pattern = `%${escapeLike(w)}%`;
      return sql<boolean>`(${sql.join(q.search!.fields.map((f) => ilike(q.dialect, sql.ref(`a.${SEARCH_COLUMNS[f]!}`), pattern)), sql` OR `)})`;
    });
    if (perWord.length) parts.push(sql<boolean>`(${sql.join(perWord, q.search.mode === 'AND' ? sql` AND ` : sql` OR `)})`);
  }
  return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
}

export async function queryVisible(db: Executor, q: AbandonedQuery): Promise<{ rows: TrackedCheckout[]; total: number }> {
  const { rows, total } = await selectPage<Row>(db, { table: 'abandoned_checkouts', alias: 'a', where: whereOf(q), defaultOrder: sql`a.abandoned_date DESC, a.id ASC` }, q);
  return { rows: rows.map(toTracked), total };
}

/** Which slice of a listing to read: caller's sort, window, and whether to count (up to `countCap`). */
export interface PageWindow {
  sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[];
  limit: number;
  offset: number;
  withTotal: boolean;
  countCap: number;
}

/**
 * One page of an after-checkout listing (both parts use it): rows of `table` (as `alias`) under
 * `where`, in the caller's order (NULLS LAST both ways, so both databases page alike; then by id) or
 * the default one, and the total when asked, counted up to `countCap + 1` rows.
 */
export async function selectPage<R>(
  db: Executor, from: { table: 'abandoned_checkouts' | 'back_in_stock_requests'; alias: 'a' | 'r'; where: RawBuilder<boolean>; defaultOrder: RawBuilder<unknown> }, w: PageWindow,
): Promise<{ rows: R[]; total: number }> {
  const t = sql`${sql.table(from.table)} ${sql.raw(from.alias)}`;
  const order = w.sort.length > 0
    ? sql.join([...w.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)} NULLS LAST`), sql`${sql.ref(`${from.alias}.id`)} ASC`])
    : from.defaultOrder;
  const rows = await sql<R>`SELECT ${sql.raw(from.alias)}.* FROM ${t} WHERE ${from.where} ORDER BY ${order} LIMIT ${w.limit} OFFSET ${w.offset}`.execute(db);
  if (!w.withTotal) return { rows: rows.rows, total: 0 };
  const counted = await sql<{ total: number | string }>`SELECT COUNT(*) AS total FROM (SELECT 1 FROM ${t} WHERE ${from.where} LIMIT ${w.countCap + 1}) capped`.execute(db);
  return { rows: rows.rows, total: Number(counted.rows[0]?.total ?? 0) };
}

/** Count and exact sum (minor units) of the site's rows per status, abandoned within [from, to], in one currency. */
export async function sumsByStatus(db: Executor, siteId: string, currency: string, from: string, to: string): Promise<Map<TrackingStatus, { count: number; minor: bigint }>> {
  const rows = await db.selectFrom('abandoned_checkouts')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('total_minor').as('minor')])
    .where('site_id', '=', siteId).where('currency', '=', currency).where('status', 'in', VISIBLE)
    .where('abandoned_date', '>=', from).where('abandoned_date', '<=', to)
    .groupBy('status').execute();
  return new Map(rows.map((r) => [r.status, { count: Number(r.n), minor: BigInt(String(r.minor ?? 0)) }]));
}
