import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { BackInStockRequestStatus } from '@vitrine/types/ecom-aftercare';
import type { Executor } from '../../../storage/database.js';
import { indexedState, readJson, toJson, type DialectName } from '../../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode, type FilterTarget, type ScalarType } from '../../../storage/filter.js';
import type { Bool01 } from '../../../storage/schema.js';
import type { StockRequest } from './model.js';
import { selectPage, type PageWindow } from '../abandoned/store.js';

interface BackInStockRequestsTable {
  id: string;
  site_id: string;
  app_id: string;
  catalog_item_id: string;
  variant_id: string | null;
  options: unknown;
  email: string;
  contact_id: string | null;
  status: BackInStockRequestStatus;
  auto_notified: Bool01;
  item_name: string | null;
  item_price: string | null;
  item_url: string | null;
  link_origin: string;
  /** E-mail + item while the request is open (RECEIVED, PROCESSING); null once settled. */
  open_key: string | null;
  /** Hash of the site and the creating client's address, for the creation rate bound. */
  requester: string | null;
  mail_id: string | null;
  created_date: string;
  updated_date: string;
}

declare module '../../../storage/schema.js' {
  interface Database {
    back_in_stock_requests: BackInStockRequestsTable;
  }
}

type Row = Selectable<BackInStockRequestsTable>;

function toRequest(r: Row): StockRequest {
  return {
    id: r.id, siteId: r.site_id, appId: r.app_id, catalogItemId: r.catalog_item_id, variantId: r.variant_id,
    options: r.options == null ? null : readJson<Record<string, unknown>>(r.options),
    email: r.email, contactId: r.contact_id, status: r.status, autoNotified: r.auto_notified === 1,
    item: { name: r.item_name, price: r.item_price, url: r.item_url }, linkOrigin: r.link_origin,
    mailId: r.mail_id, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

/** What makes two requests the same: one open request per e-mail and item (variant included). */
export function openKeyOf(email: string, appId: string, catalogItemId: string, variantId: string | null): string {
  // JSON keeps the parts apart unambiguously (and has no NUL, which PostgreSQL text cannot hold).
  return JSON.stringify([email, appId, catalogItemId, variantId ?? '']);
}

/** A request to insert: the stored shape without what the store sets (status, mail, dates), plus who asked and when. */
export interface NewRequestRow extends Pick<StockRequest, 'id' | 'siteId' | 'appId' | 'catalogItemId' | 'variantId' | 'options' | 'email' | 'contactId' | 'item' | 'linkOrigin'> {
  requester: string | null;
  now: string;
}

/** Inserts an open request, or nothing when the same e-mail already has one open for the item. */
export async function insertOpenRequest(db: Executor, r: NewRequestRow): Promise<StockRequest | undefined> {
  const row = await db.insertInto('back_in_stock_requests').values({
    id: r.id, site_id: r.siteId, app_id: r.appId, catalog_item_id: r.catalogItemId, variant_id: r.variantId,
    options: r.options == null ? null : toJson(r.options), email: r.email, contact_id: r.contactId, status: 'RECEIVED', auto_notified: 1,
    item_name: r.item.name, item_price: r.item.price, item_url: r.item.url, link_origin: r.linkOrigin,
    open_key: openKeyOf(r.email, r.appId, r.catalogItemId, r.variantId), requester: r.requester, mail_id: null,
    created_date: r.now, updated_date: r.now,
  }).onConflict((oc) => oc.columns(['site_id', 'open_key']).doNothing()).returningAll().executeTakeFirst();
  return row ? toRequest(row) : undefined;
}

/** Requests one requester created since `since` (bounded: counting stops past `cap`). */
export async function countCreatedBy(db: Executor, siteId: string, requester: string, since: string, cap: number): Promise<number> {
  const rows = await db.selectFrom('back_in_stock_requests').select('id')
    .where('site_id', '=', siteId).where('requester', '=', requester).where('created_date', '>=', since)
    .limit(cap + 1).execute();
  return rows.length;
}

export async function findRequest(db: Executor, siteId: string, id: string): Promise<StockRequest | undefined> {
  const row = await db.selectFrom('back_in_stock_requests').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? toRequest(row) : undefined;
}

export async function deleteRequest(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('back_in_stock_requests').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function attachMail(db: Executor, siteId: string, id: string, mailId: string): Promise<void> {
  await db.updateTable('back_in_stock_requests').set({ mail_id: mailId }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Moves a request from one of `from` to `to` (guarded); settled statuses close it. */
export async function moveRequest(
  db: Executor, siteId: string, id: string, from: BackInStockRequestStatus[], to: BackInStockRequestStatus, now: string,
): Promise<StockRequest | undefined> {
  const open = to === 'RECEIVED' || to === 'PROCESSING';
  const row = await db.updateTable('back_in_stock_requests')
    .set({ status: to, updated_date: now, ...(open ? {} : { open_key: null }) })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', 'in', from)
    .returningAll().executeTakeFirst();
  return row ? toRequest(row) : undefined;
}

/** Which of these items have RECEIVED requests (a cheap check before queuing work for a stock change). */
export async function itemsWithWaitingRequests(db: Executor, siteId: string, catalogItemIds: string[]): Promise<string[]> {
  if (catalogItemIds.length === 0) return [];
  const rows = await db.selectFrom('back_in_stock_requests').select('catalog_item_id').distinct()
    .where('site_id', '=', siteId).where('catalog_item_id', 'in', catalogItemIds).where('status', '=', 'RECEIVED').execute();
  return rows.map((r) => r.catalog_item_id);
}

/** Which RECEIVED requests to notify: of one item (some variants, or all), or by id. */
export type WaitingSelection =
  | { kind: 'item'; appId?: string | undefined; catalogItemId: string; variantIds: string[]; anyVariant: boolean }
  | { kind: 'ids'; ids: string[] };

/** RECEIVED requests of the selection, oldest first. */
export async function findWaiting(db: Executor, siteId: string, selection: WaitingSelection, limit: number): Promise<StockRequest[]> {
  let q = db.selectFrom('back_in_stock_requests').selectAll().where('site_id', '=', siteId).where('status', '=', 'RECEIVED');
  if (selection.kind === 'ids') {
    if (selection.ids.length === 0) return [];
    q = q.where('id', 'in', selection.ids);
  } else {
    q = q.where('catalog_item_id', '=', selection.catalogItemId);
    if (selection.appId) q = q.where('app_id', '=', selection.appId);
    if (!selection.anyVariant) {
      const { variantIds } = selection;
      if (variantIds.length === 0) return [];
      // A request about any variant (variant_id null) is served when any variant is back.
      q = q.where((eb) => eb.or([eb('variant_id', 'in', variantIds), eb('variant_id', 'is', null)]));
    }
  }
  const rows = await q.orderBy('created_date').orderBy('id').limit(limit).execute();
  return rows.map(toRequest);
}

/** PROCESSING requests (mail queued) across sites, least recently changed first. */
export async function findProcessing(db: Executor, limit: number): Promise<StockRequest[]> {
  const rows = await db.selectFrom('back_in_stock_requests').selectAll().where('status', '=', indexedState('PROCESSING'))
    .orderBy('updated_date').orderBy('id').limit(limit).execute();
  return rows.map(toRequest);
}

/** Whether any request waits for its mail's outcome (one probe of the partial index back_in_stock_processing). */
export async function hasProcessing(db: Executor): Promise<boolean> {
  return (await db.selectFrom('back_in_stock_requests').select('id').where('status', '=', indexedState('PROCESSING')).limit(1).execute()).length > 0;
}

/** RECEIVED requests per catalog reference (an absent variant counts all of the item's). */
export async function countWaiting(db: Executor, siteId: string, ref: { appId: string; catalogItemId: string; variantId: string | null }): Promise<number> {
  let q = db.selectFrom('back_in_stock_requests').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('site_id', '=', siteId).where('status', '=', 'RECEIVED').where('app_id', '=', ref.appId).where('catalog_item_id', '=', ref.catalogItemId);
  if (ref.variantId !== null) q = q.where('variant_id', '=', ref.variantId);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

const FIELDS = allowlist<{ column: string; type: ScalarType; storedAs01?: boolean }>({
  id: { column: 'id', type: 'string' },
  _id: { column: 'id', type: 'string' },
  email: { column: 'email', type: 'string' },
  status: { column: 'status', type: 'string' },
  contactId: { column: 'contact_id', type: 'string' },
  autoNotified: { column: 'auto_notified', type: 'boolean', storedAs01: true },
  itemUrl: { column: 'item_url', type: 'string' },
  createdDate: { column: 'created_date', type: 'date' },
  _createdDate: { column: 'created_date', type: 'date' },
  'catalogReference.appId': { column: 'app_id', type: 'string' },
  'catalogReference.catalogItemId': { column: 'catalog_item_id', type: 'string' },
  'catalogReference.options.variantId': { column: 'variant_id', type: 'string' },
});

const filterTarget: FilterTarget = {
  field(path: string): FilterField | undefined {
    const f = FIELDS[path];
    return f ? { expr: sql.ref(`r.${f.column}`), type: f.type, ...(f.storedAs01 ? { storedAs01: true } : {}) } : undefined;
  },
};

export function requestSortColumn(field: string): RawBuilder<unknown> | undefined {
  const f = FIELDS[field];
  return f ? sql.ref(`r.${f.column}`) : undefined;
}

export interface RequestQuery extends PageWindow {
  siteId: string;
  filter: FilterNode | undefined;
  dialect: DialectName;
}

export async function queryRequests(db: Executor, q: RequestQuery): Promise<{ rows: StockRequest[]; total: number }> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`r.site_id = ${q.siteId}`];
  if (q.filter) parts.push(compileFilter(q.filter, filterTarget, q.dialect));
  const where = sql.join(parts, sql` AND `) as RawBuilder<boolean>;
  const { rows, total } = await selectPage<Row>(db, { table: 'back_in_stock_requests', alias: 'r', where, defaultOrder: sql`r.created_date DESC, r.id ASC` }, q);
  return { rows: rows.map(toRequest), total };
}
