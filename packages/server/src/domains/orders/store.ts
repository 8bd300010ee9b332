import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { dialectOf, jsonAsText, lockForUpdate, readJson, selectPage, toJson, type DialectName } from '../../storage/dialect.js';
import type { Bool01 } from '../../storage/schema.js';
import { allColumns, columnsOf, preparedQuery } from '../../storage/prepared.js';
import type { Fulfillment, InventoryUpdateTrigger, Order, OrderRecord, StockState } from './model.js';

interface OrdersTable {
  site_id: string; id: string; number: number; status: string; payment_status: string; fulfillment_status: string;
  archived: Bool01; imported: Bool01; seen: Bool01;
  buyer_member_id: string | null; buyer_visitor_id: string | null; buyer_contact_id: string | null; buyer_email: string | null;
  channel_type: string; currency: string;
  /** The total in the currency's minor unit (aggregates add these up). */
  total_minor: number | string;
  checkout_id: string | null; stock_state: string; revision: number;
  purchased_date: string | null; created_date: string; updated_date: string; doc: unknown;
}
interface OrderTagsTable { site_id: string; order_id: string; kind: string; tag_id: string }
interface OrderFulfillmentsTable { site_id: string; id: string; order_id: string; created_date: string; doc: unknown }
interface OrderSitesTable {
  site_id: string; last_number: number; inventory_update_trigger: string; create_invoice: Bool01; cursor_key: string;
  created_date: string; updated_date: string;
}
interface OrderEditsTable { site_id: string; draft_order_id: string; order_id: string; status: string; reason: string | null; created_date: string }

declare module '../../storage/schema.js' {
  interface Database {
    orders: OrdersTable;
    order_tags: OrderTagsTable;
    order_fulfillments: OrderFulfillmentsTable;
    order_sites: OrderSitesTable;
    order_edits: OrderEditsTable;
  }
}

/** The first order of a site is number FIRST_ORDER_NUMBER (the counter starts one below). */
export const FIRST_ORDER_NUMBER = 10001;

type Doc = Omit<Order, 'id' | 'number' | 'createdDate' | 'updatedDate'>;

function rowOf(siteId: string, r: OrderRecord, totalMinor: bigint): OrdersTable {
  const { id, number, createdDate, updatedDate, ...doc } = r.order;
  const o = r.order;
  return {
    site_id: siteId, id, number: Number(number), status: o.status, payment_status: o.paymentStatus, fulfillment_status: o.fulfillmentStatus,
    archived: o.archived ? 1 : 0, imported: o.imported ? 1 : 0, seen: o.seenByAHuman ? 1 : 0,
    buyer_member_id: o.buyerInfo.memberId ?? null, buyer_visitor_id: o.buyerInfo.visitorId ?? null, buyer_contact_id: o.buyerInfo.contactId ?? null,
    buyer_email: o.buyerInfo.email ?? null, channel_type: o.channelInfo.type, currency: o.currency, total_minor: totalMinor.toString(),
    checkout_id: o.checkoutId ?? null, stock_state: r.stockState, revision: r.revision,
    purchased_date: o.purchasedDate ?? null, created_date: createdDate, updated_date: updatedDate, doc: toJson(doc satisfies Doc),
  };
}

function recordOf(r: OrdersTable): OrderRecord {
  const order: Order = { id: r.id, number: String(r.number), createdDate: r.created_date, updatedDate: r.updated_date, ...readJson<Doc>(r.doc) };
  return { order, stockState: r.stock_state as StockState, revision: r.revision };
}

const ORDER_COLUMNS = allColumns<OrdersTable>({
  site_id: true, id: true, number: true, status: true, payment_status: true, fulfillment_status: true, archived: true, imported: true, seen: true,
  buyer_member_id: true, buyer_visitor_id: true, buyer_contact_id: true, buyer_email: true, channel_type: true, currency: true, total_minor: true,
  checkout_id: true, stock_state: true, revision: true, purchased_date: true, created_date: true, updated_date: true, doc: true,
});
/** What an update of the whole row writes: all but its key and creation date. */
const ORDER_CHANGING_COLUMNS = ORDER_COLUMNS.filter((c) => c !== 'site_id' && c !== 'id' && c !== 'created_date');

const orderInsert = preparedQuery((db, p: OrdersTable) => db.insertInto('orders').values(columnsOf(p, ORDER_COLUMNS)));
const orderTagsDelete = preparedQuery((db, p: { siteId: string; orderId: string }) => db.deleteFrom('order_tags').where('site_id', '=', p.siteId).where('order_id', '=', p.orderId));
const orderUpdate = preparedQuery((db, p: OrdersTable) => db.updateTable('orders').set(columnsOf(p, ORDER_CHANGING_COLUMNS))
  .where('site_id', '=', p.site_id).where('id', '=', p.id));

export async function insertOrder(db: Executor, siteId: string, r: OrderRecord, totalMinor: bigint): Promise<void> {
  await orderInsert.run(db, rowOf(siteId, r, totalMinor));
  await writeTags(db, siteId, r.order);
}

/** Writes the order's columns and document, and its tag rows. */
export async function updateOrderRow(db: Executor, siteId: string, r: OrderRecord, totalMinor: bigint): Promise<void> {
  await orderUpdate.run(db, rowOf(siteId, r, totalMinor));
  await orderTagsDelete.run(db, { siteId, orderId: r.order.id });
  await writeTags(db, siteId, r.order);
}

async function writeTags(db: Executor, siteId: string, o: Order): Promise<void> {
  const rows = (['privateTags', 'tags'] as const).flatMap((kind) => [...new Set(o.tags[kind]?.tagIds ?? [])].map((tagId) => ({ site_id: siteId, order_id: o.id, kind, tag_id: tagId })));
  if (rows.length) await db.insertInto('order_tags').values(rows).execute();
}

/** One order; `lock` holds its row until the transaction ends (PostgreSQL; SQLite has one writer). */
export async function findOrder(db: Executor, siteId: string, id: string, lock?: DialectName): Promise<OrderRecord | undefined> {
  if (lock) await lockForUpdate(db, lock, sql`SELECT id FROM orders WHERE site_id = ${siteId} AND id = ${id}`);
  const r = (await orderById.run(db, { siteId, id })).rows[0];
  return r && recordOf(r);
}

const orderById = preparedQuery((db, p: { siteId: string; id: string }) => db.selectFrom('orders').selectAll().where('site_id', '=', p.siteId).where('id', '=', p.id));

export async function findOrders(db: Executor, siteId: string, ids: string[]): Promise<OrderRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('orders').selectAll().where('site_id', '=', siteId).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(recordOf);
}

/** Locks orders in id order (PostgreSQL) so bulk calls over overlapping sets cannot deadlock. */
export async function lockOrders(db: Executor, dialect: DialectName, siteId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)].sort();
  if (unique.length) await lockForUpdate(db, dialect, sql`SELECT id FROM orders WHERE site_id = ${siteId} AND id IN (${sql.join(unique)}) ORDER BY id`);
}

export async function deleteOrderRows(db: Executor, siteId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('order_tags').where('site_id', '=', siteId).where('order_id', 'in', ids).execute();
  await db.deleteFrom('order_fulfillments').where('site_id', '=', siteId).where('order_id', 'in', ids).execute();
  await db.deleteFrom('orders').where('site_id', '=', siteId).where('id', 'in', ids).execute();
}

export interface OrderSearchSql { where: RawBuilder<boolean>; orderBy: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number }

/**
 * An order of a search page as stored: its own columns and its document as JSON text, not parsed.
 * A page of 20 whole orders is about 70 KB of documents; an owner's answer is spliced from the
 * text (`orderJson`), which spares parsing and encoding them again (docs/performance-log.md).
 */
export interface OrderPageRow { id: string; number: string; createdDate: string; updatedDate: string; docJson: string }

/**
 * A page of orders (one more than `limit` tells whether there is a next page). The tie-breaker runs
 * the way the last sort key does, so the default sort (newest first) walks `orders_created` backwards.
 * Only the page's documents are turned into text (`selectPage`): PostgreSQL otherwise converted the
 * jsonb of every matching order before its top-N sort (16 ms instead of 0.4 for 1,500 orders).
 */
export async function searchOrderRows(db: Executor, siteId: string, q: OrderSearchSql): Promise<OrderPageRow[]> {
  const dialect = dialectOf(db);
  const tieBreak = q.orderBy[q.orderBy.length - 1]?.order ?? 'ASC';
  const order = sql.join([...q.orderBy.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`o.id ${sql.raw(tieBreak)}`]);
  const { rows } = await sql<Pick<OrdersTable, 'id' | 'number' | 'created_date' | 'updated_date'> & { doc_json: string }>`${selectPage(dialect, {
    table: 'orders', alias: 'o', order,
    columns: sql`o.id, o.number, o.created_date, o.updated_date, ${jsonAsText(dialect, sql`o.doc`)} AS doc_json`,
    pageClause: sql`WHERE o.site_id = ${siteId} AND ${q.where} ORDER BY ${order} LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
  })}`.execute(db);
  return rows.map((r) => ({ id: r.id, number: String(r.number), createdDate: r.created_date, updatedDate: r.updated_date, docJson: r.doc_json }));
}

/** The order of a page row, as `findOrder` reads it. */
export function orderOf(r: OrderPageRow): Order {
  return { id: r.id, number: r.number, createdDate: r.createdDate, updatedDate: r.updatedDate, ...JSON.parse(r.docJson) as Doc };
}

/**
 * The wire JSON of `orderOf(r)` without parsing: the same members in the same order as
 * `JSON.stringify(orderOf(r))`, because the stored document never holds the four keys in front
 * (`rowOf` takes them out). On SQLite it is that very text (the document was written by
 * `JSON.stringify`); PostgreSQL's jsonb text adds a space after each `:` and `,`.
 */
export function orderJson(r: OrderPageRow): string {
  const inner = r.docJson.slice(r.docJson.indexOf('{') + 1, r.docJson.lastIndexOf('}')).trim();
  const head = `{"id":${JSON.stringify(r.id)},"number":${JSON.stringify(r.number)},"createdDate":${JSON.stringify(r.createdDate)},"updatedDate":${JSON.stringify(r.updatedDate)}`;
  return inner ? `${head},${inner}}` : `${head}}`;
}

/** SQL true when the order `o` has one of `tagIds` of the kind. */
export function hasTag(siteId: string, kind: string, tagIds: unknown[]): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM order_tags t WHERE t.site_id = ${siteId} AND t.order_id = o.id AND t.kind = ${kind} AND t.tag_id IN (${sql.join(tagIds)}))`;
}
export function hasAnyTag(siteId: string, kind: string): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM order_tags t WHERE t.site_id = ${siteId} AND t.order_id = o.id AND t.kind = ${kind})`;
}

export interface AggregateRow { keys: Record<string, string>; count: number; sums: Record<string, bigint> }

/** Counts (and sums of minor-unit columns) of the matching orders per group. */
export async function aggregateOrderRows(db: Executor, siteId: string, where: RawBuilder<boolean>, groups: { name: string; expr: RawBuilder<unknown> }[], sums: { name: string; expr: RawBuilder<unknown> }[], maxGroups: number): Promise<AggregateRow[]> {
  const select = [
    ...groups.map((g, i) => sql`${g.expr} AS ${sql.ref(`g${i}`)}`),
    sql`COUNT(*) AS n`,
    ...sums.map((s, i) => sql`SUM(${s.expr}) AS ${sql.ref(`s${i}`)}`),
  ];
  const groupBy = groups.length ? sql`GROUP BY ${sql.join(groups.map((_, i) => sql.ref(`g${i}`)))} ORDER BY ${sql.join(groups.map((_, i) => sql.ref(`g${i}`)))}` : sql``;
  const { rows } = await sql<Record<string, unknown>>`SELECT ${sql.join(select)} FROM orders o WHERE o.site_id = ${siteId} AND ${where} ${groupBy} LIMIT ${maxGroups + 1}`.execute(db);
  return rows.map((r) => ({
    keys: Object.fromEntries(groups.map((g, i) => [g.name, r[`g${i}`] === null || r[`g${i}`] === undefined ? '' : String(r[`g${i}`])])),
    count: Number(r.n),
    sums: Object.fromEntries(sums.map((s, i) => [s.name, BigInt(String(r[`s${i}`] ?? '0'))])),
  }));
}

// ---------------------------------------------------------------------------------------------
// Per-site row: order numbers, settings, cursor key.

export interface OrderSiteRow { lastNumber: number; inventoryUpdateTrigger: InventoryUpdateTrigger; createInvoice: boolean; cursorKey: string; createdDate: string; updatedDate: string }

async function ensureSiteRow(db: Executor, siteId: string): Promise<void> {
  const now = new Date().toISOString();
  await db.insertInto('order_sites').values({
    site_id: siteId, last_number: FIRST_ORDER_NUMBER - 1, inventory_update_trigger: 'ON_ORDER_PLACED', create_invoice: 0,
    cursor_key: randomBytes(32).toString('base64url'), created_date: now, updated_date: now,
  }).onConflict((oc) => oc.column('site_id').doNothing()).execute();
}

const orderSite = preparedQuery((db, p: { siteId: string }) => db.selectFrom('order_sites').selectAll().where('site_id', '=', p.siteId));

export async function findSiteRow(db: Executor, siteId: string): Promise<OrderSiteRow> {
  let r = (await orderSite.run(db, { siteId })).rows[0];
  if (!r) {
    await ensureSiteRow(db, siteId);
    r = (await orderSite.run(db, { siteId })).rows[0];
    if (!r) throw new Error(`order_sites row of site ${siteId} is missing after it was ensured`);
  }
  return {
    lastNumber: Number(r.last_number), inventoryUpdateTrigger: r.inventory_update_trigger as InventoryUpdateTrigger, createInvoice: r.create_invoice === 1,
    cursorKey: r.cursor_key, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

const numberBump = preparedQuery((db, p: { siteId: string }) => db.updateTable('order_sites').set((eb) => ({ last_number: eb('last_number', '+', 1) }))
  .where('site_id', '=', p.siteId)
  .returning((eb) => [
    'last_number',
    'inventory_update_trigger',
    eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.site_id', '=', 'order_sites.site_id').whereRef('orders.number', '=', 'order_sites.last_number')).as('used'),
  ]));

/**
 * Moves the site's counter on by one and answers the number, whether an order already has it
 * (imports may take numbers above the counter) and the site's inventory trigger (the new order's
 * stock step needs it), in one statement. The counter row stays locked until the transaction ends.
 */
export async function takeOrderNumber(db: Executor, siteId: string): Promise<{ number: number; used: boolean; inventoryUpdateTrigger: InventoryUpdateTrigger }> {
  const bump = async () => (await numberBump.run(db, { siteId })).rows[0];
  // The row exists after a site's first order: one statement then; the first order creates it.
  let r = await bump();
  if (!r) {
    await ensureSiteRow(db, siteId);
    r = await bump();
  }
  if (!r) throw new Error(`order_sites row of site ${siteId} is missing after it was created`);
  // SQLite answers EXISTS as 0/1, PostgreSQL as a boolean.
  return { number: Number(r.last_number), used: Boolean(r.used), inventoryUpdateTrigger: r.inventory_update_trigger as InventoryUpdateTrigger };
}

/** Sets the counter (the next order gets counter + 1); returns the old value. */
export async function setOrderCounter(db: Executor, dialect: DialectName, siteId: string, counter: number): Promise<number> {
  await ensureSiteRow(db, siteId);
  await lockForUpdate(db, dialect, sql`SELECT site_id FROM order_sites WHERE site_id = ${siteId}`);
  const old = await findSiteRow(db, siteId);
  await db.updateTable('order_sites').set({ last_number: counter }).where('site_id', '=', siteId).execute();
  return old.lastNumber;
}

/** The highest order number the site has used (imports may use numbers above the counter). */
export async function maxOrderNumber(db: Executor, siteId: string): Promise<number> {
  const r = await db.selectFrom('orders').select((eb) => eb.fn.max('number').as('m')).where('site_id', '=', siteId).executeTakeFirst();
  return r?.m === null || r?.m === undefined ? 0 : Number(r.m);
}

export async function updateSettingsRow(db: Executor, siteId: string, patch: { inventoryUpdateTrigger?: InventoryUpdateTrigger; createInvoice?: boolean }, now: string): Promise<void> {
  await ensureSiteRow(db, siteId);
  await db.updateTable('order_sites').set({
    ...(patch.inventoryUpdateTrigger ? { inventory_update_trigger: patch.inventoryUpdateTrigger } : {}),
    ...(patch.createInvoice !== undefined ? { create_invoice: patch.createInvoice ? 1 : 0 } : {}),
    updated_date: now,
  }).where('site_id', '=', siteId).execute();
}

// ---------------------------------------------------------------------------------------------
// Fulfillments

type FulfillmentDoc = Omit<Fulfillment, 'id' | 'createdDate'>;

export async function insertFulfillment(db: Executor, siteId: string, orderId: string, f: Fulfillment): Promise<void> {
  const { id, createdDate, ...doc } = f;
  await db.insertInto('order_fulfillments').values({ site_id: siteId, id, order_id: orderId, created_date: createdDate, doc: toJson(doc satisfies FulfillmentDoc) }).execute();
}

export async function updateFulfillmentRow(db: Executor, siteId: string, f: Fulfillment): Promise<void> {
  const { id, createdDate: _c, ...doc } = f;
  await db.updateTable('order_fulfillments').set({ doc: toJson(doc satisfies FulfillmentDoc) }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

export async function deleteFulfillmentRow(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('order_fulfillments').where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Fulfillments of each order, oldest first. */
export async function findFulfillments(db: Executor, siteId: string, orderIds: string[]): Promise<Map<string, Fulfillment[]>> {
  const out = new Map<string, Fulfillment[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const rows = await db.selectFrom('order_fulfillments').selectAll().where('site_id', '=', siteId).where('order_id', 'in', [...new Set(orderIds)])
    .orderBy('created_date').orderBy('id').execute();
  for (const r of rows) out.get(r.order_id)?.push({ id: r.id, createdDate: r.created_date, ...readJson<FulfillmentDoc>(r.doc) });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Order edits

/** Records a committed draft; false when that draft id was committed before. */
export async function insertEdit(db: Executor, siteId: string, e: { draftOrderId: string; orderId: string; reason: string | null }, now: string): Promise<boolean> {
  const r = await db.insertInto('order_edits').values({ site_id: siteId, draft_order_id: e.draftOrderId, order_id: e.orderId, status: 'COMMITTED', reason: e.reason, created_date: now })
    .onConflict((oc) => oc.columns(['site_id', 'draft_order_id']).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}
