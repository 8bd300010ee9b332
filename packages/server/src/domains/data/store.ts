import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import { byteOrder, ilike, jsonAsText, notIndexed, readJson, toJson } from '../../storage/dialect.js';
import { JsonPath, readTypedValue } from '../../storage/json-filter.js';
import { dateValue } from './values.js';

/** All SQL of the data domain (storage/json-filter.ts builds the filter and sort fragments it is given). */

interface DataCollectionsTable {
  site_id: string;
  id: string;
  doc: unknown;
  revision: number;
  deleted: number;
  created_date: string;
  updated_date: string;
}

interface DataItemsTable {
  site_id: string;
  collection_id: string;
  id: string;
  owner_id: string | null;
  draft: number;
  data: unknown;
  created_date: string;
  updated_date: string;
}

interface DataReferencesTable {
  site_id: string;
  collection_id: string;
  field: string;
  referring_id: string;
  referenced_id: string;
  position: number;
}

interface DataIndexesTable {
  site_id: string;
  collection_id: string;
  name: string;
  sql_name: string;
  doc: unknown;
  status: string;
  created_date: string;
}

interface DataJobsTable {
  id: string;
  site_id: string;
  collection_id: string;
  kind: string;
  status: string;
  request: unknown;
  success_count: number;
  failure_count: number;
  created_date: string;
  updated_date: string;
}

declare module '../../storage/schema.js' {
  interface Database {
    data_collections: DataCollectionsTable;
    data_items: DataItemsTable;
    data_references: DataReferencesTable;
    data_indexes: DataIndexesTable;
    data_jobs: DataJobsTable;
    data_job_items: { job_id: string; item_id: string; done: number };
    data_cursor_keys: { site_id: string; secret: string };
  }
}

// ---------------------------------------------------------------------------------------------
// Collections

export interface CollectionRow { id: string; doc: unknown; revision: number; deleted: boolean; createdDate: string; updatedDate: string }

const toCollection = (r: DataCollectionsTable): CollectionRow => ({
  id: r.id, doc: readJson(r.doc), revision: Number(r.revision), deleted: Number(r.deleted) === 1, createdDate: r.created_date, updatedDate: r.updated_date,
});

export async function findCollection(db: Executor, siteId: string, id: string): Promise<CollectionRow | undefined> {
  const row = await db.selectFrom('data_collections').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row && toCollection(row);
}

export async function listCollections(db: Executor, siteId: string, limit: number, offset: number): Promise<{ rows: CollectionRow[]; total: number }> {
  const rows = await db.selectFrom('data_collections').selectAll().where('site_id', '=', siteId).where('deleted', '=', 0)
    .orderBy('id').limit(limit).offset(offset).execute();
  const total = await db.selectFrom('data_collections').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).where('deleted', '=', 0).executeTakeFirstOrThrow();
  return { rows: rows.map(toCollection), total: Number(total.n) };
}

export async function insertCollection(db: Executor, siteId: string, id: string, doc: unknown, now: string): Promise<void> {
  await db.insertInto('data_collections').values({ site_id: siteId, id, doc: toJson(doc), revision: 1, deleted: 0, created_date: now, updated_date: now }).execute();
}

/** Optimistic update: succeeds only at the expected revision. */
export async function updateCollection(db: Executor, siteId: string, id: string, doc: unknown, expectedRevision: number, now: string): Promise<boolean> {
  const res = await db.updateTable('data_collections').set({ doc: toJson(doc), revision: expectedRevision + 1, updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('revision', '=', expectedRevision).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function setCollectionDeleted(db: Executor, siteId: string, id: string, deleted: boolean, now: string): Promise<void> {
  await db.updateTable('data_collections').set({ deleted: deleted ? 1 : 0, updated_date: now }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Removes a (deleted) collection with its items, references and index records for good. */
export async function purgeCollection(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('data_items').where('site_id', '=', siteId).where('collection_id', '=', id).execute();
  await db.deleteFrom('data_references').where('site_id', '=', siteId).where('collection_id', '=', id).execute();
  await db.deleteFrom('data_collections').where('site_id', '=', siteId).where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// Items

export interface ItemRow { id: string; ownerId: string | null; draft: boolean; data: Record<string, unknown>; createdDate: string; updatedDate: string }

const toItem = (r: Pick<DataItemsTable, 'id' | 'owner_id' | 'draft' | 'data' | 'created_date' | 'updated_date'>): ItemRow => ({
  id: r.id, ownerId: r.owner_id, draft: Number(r.draft) === 1, data: readJson(r.data), createdDate: r.created_date, updatedDate: r.updated_date,
});

/** Which rows of a collection a statement may touch. */
export interface ItemScope {
  siteId: string;
  collectionId: string;
  /** Set for SITE_MEMBER_AUTHOR callers: only their own items. */
  ownerId?: string | undefined;
  includeDrafts: boolean;
  /** Compiled filter (storage/json-filter.ts). */
  filter?: RawBuilder<boolean> | undefined;
  /** Search words (LIKE patterns): every one (or, with `searchAny`, any one) occurs case-insensitively in the item's JSON text. */
  searchPatterns?: string[] | undefined;
  searchAny?: boolean | undefined;
  ids?: string[] | undefined;
}

export function scopeWhere(scope: ItemScope, dialect: DialectName): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`site_id = ${scope.siteId}`, sql<boolean>`collection_id = ${scope.collectionId}`];
  if (scope.ownerId !== undefined) parts.push(sql<boolean>`owner_id = ${scope.ownerId}`);
  if (!scope.includeDrafts) parts.push(sql<boolean>`draft = 0`);
  if (scope.ids) parts.push(scope.ids.length ? sql<boolean>`id IN (${sql.join(scope.ids)})` : sql<boolean>`1=0`);
  if (scope.filter) parts.push(scope.filter);
  const words = (scope.searchPatterns ?? []).map((pattern) => ilike(dialect, jsonAsText(dialect, sql`data`), pattern));
  if (words.length) parts.push(sql<boolean>`(${sql.join(words, scope.searchAny ? sql` OR ` : sql` AND `)})`);
  return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
}

/** Per-item savepoints of bulk calls: a failed statement (a unique index) undoes only that item. */
export async function savepoint(db: Executor, action: 'begin' | 'release' | 'rollback'): Promise<void> {
  const statement = { begin: 'SAVEPOINT data_bulk_item', release: 'RELEASE SAVEPOINT data_bulk_item', rollback: 'ROLLBACK TO SAVEPOINT data_bulk_item' }[action];
  await sql.raw(statement).execute(db);
}

export async function findItem(db: Executor, siteId: string, collectionId: string, id: string): Promise<ItemRow | undefined> {
  const row = await db.selectFrom('data_items').select(['id', 'owner_id', 'draft', 'data', 'created_date', 'updated_date'])
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('id', '=', id).executeTakeFirst();
  return row && toItem(row);
}

export async function findItems(db: Executor, siteId: string, collectionId: string, ids: string[]): Promise<Map<string, ItemRow>> {
  const out = new Map<string, ItemRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (chunk.length === 0) continue;
    const rows = await db.selectFrom('data_items').select(['id', 'owner_id', 'draft', 'data', 'created_date', 'updated_date'])
      .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('id', 'in', chunk).execute();
    for (const r of rows) out.set(r.id, toItem(r));
  }
  return out;
}

export interface NewItem { id: string; ownerId: string | null; draft: boolean; data: unknown; createdDate: string; updatedDate: string }

/** Inserts rows, skipping any that collide with an existing id or unique index; returns the ids inserted. */
export async function insertItems(db: Executor, siteId: string, collectionId: string, items: NewItem[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < items.length; i += 200) {
    const chunk = items.slice(i, i + 200);
    if (chunk.length === 0) continue;
    const rows = await db.insertInto('data_items').values(chunk.map((it) => ({
      site_id: siteId, collection_id: collectionId, id: it.id, owner_id: it.ownerId, draft: it.draft ? 1 : 0,
      data: toJson(it.data), created_date: it.createdDate, updated_date: it.updatedDate,
    }))).onConflict((oc) => oc.doNothing()).returning('id').execute();
    for (const r of rows) inserted.add(r.id);
  }
  return inserted;
}

export async function updateItemRow(db: Executor, siteId: string, collectionId: string, id: string, data: unknown, updatedDate: string): Promise<void> {
  await db.updateTable('data_items').set({ data: toJson(data), updated_date: updatedDate })
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('id', '=', id).execute();
}

/**
 * Moves an item from draft state `from` to `!from`, setting the `updated_date` column and the item's
 * `data._updatedDate` to the same instant in one statement (only that key of the document is written,
 * so a concurrent update of other fields is not lost). Returns the row as stored, or undefined when
 * the item is no longer in state `from` (a concurrent call moved it first).
 */
export async function setItemDraft(db: Executor, dialect: DialectName, siteId: string, collectionId: string, id: string, from: boolean, updatedDate: string): Promise<ItemRow | undefined> {
  const stamp = toJson(dateValue(updatedDate));
  const data = new JsonPath(dialect, ['_updatedDate']).set(stamp);
  const row = await db.updateTable('data_items').set({ draft: from ? 0 : 1, updated_date: updatedDate, data })
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('id', '=', id).where('draft', '=', from ? 1 : 0)
    .returning(['id', 'owner_id', 'draft', 'data', 'created_date', 'updated_date']).executeTakeFirst();
  return row && toItem(row);
}

export async function deleteItemRows(db: Executor, siteId: string, collectionId: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (chunk.length === 0) continue;
    await db.deleteFrom('data_items').where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('id', 'in', chunk).execute();
    await db.deleteFrom('data_references').where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('referring_id', 'in', chunk).execute();
  }
}

export async function truncateItems(db: Executor, siteId: string, collectionId: string): Promise<void> {
  await db.deleteFrom('data_items').where('site_id', '=', siteId).where('collection_id', '=', collectionId).execute();
  await db.deleteFrom('data_references').where('site_id', '=', siteId).where('collection_id', '=', collectionId).execute();
}

export async function queryItemRows(db: Executor, dialect: DialectName, scope: ItemScope, order: RawBuilder<unknown>[], limit: number, offset: number): Promise<ItemRow[]> {
  const where = scopeWhere(scope, dialect);
  const idOrder = sql`${byteOrder(dialect, sql`id`)} ASC`;
  // With a filter, `+created_date` keeps SQLite from walking the created-date index (and filtering
  // every row) instead of seeking the filter's expression index; without one, that walk is the plan.
  const created = sql`${scope.filter ? notIndexed(dialect, 'created_date') : sql`created_date`} DESC`;
  const orderBy = order.length ? sql.join([...order, idOrder]) : sql.join([created, idOrder]);
  const res = await sql<DataItemsTable>`SELECT id, owner_id, draft, data, created_date, updated_date FROM data_items WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`.execute(db);
  return res.rows.map(toItem);
}

export async function countItemRows(db: Executor, dialect: DialectName, scope: ItemScope): Promise<number> {
  const res = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM data_items WHERE ${scopeWhere(scope, dialect)}`.execute(db);
  return Number(res.rows[0]?.n ?? 0);
}

/** Ids (and owners) of the rows in scope, in id order, for jobs that walk a filter. */
export async function itemIdsInScope(db: Executor, dialect: DialectName, scope: ItemScope, limit: number): Promise<string[]> {
  const res = await sql<{ id: string }>`SELECT id FROM data_items WHERE ${scopeWhere(scope, dialect)} ORDER BY id LIMIT ${limit}`.execute(db);
  return res.rows.map((r) => r.id);
}

/** Distinct values of one JSON expression over the scope, as JSON text (typed), at most `cap`. */
export async function distinctValues(db: Executor, dialect: DialectName, scope: ItemScope, value: RawBuilder<unknown>, type: RawBuilder<unknown>, cap: number): Promise<unknown[]> {
  const where = scopeWhere(scope, dialect);
  // json_extract turns JSON true/false into 1/0: the type beside the value tells them apart (readTypedValue).
  const res = await sql<{ t: string; v: unknown }>`SELECT DISTINCT ${type} AS t, ${value} AS v FROM data_items WHERE ${where} AND ${type} IS NOT NULL LIMIT ${cap}`.execute(db);
  return res.rows.map((r) => readTypedValue(dialect, r.t, r.v));
}

export interface GroupSpec {
  /** Per grouping field: a typed key (SQLite type + value; PostgreSQL jsonb). */
  keys: { type: RawBuilder<unknown>; value: RawBuilder<unknown> }[];
  /** Aggregates over numbers only: `fn` of a numeric expression. */
  ops: { alias: string; fn: 'SUM' | 'AVG' | 'MIN' | 'MAX' | 'COUNT'; number?: RawBuilder<unknown> }[];
}

/** GROUP BY over the scope; returns raw rows (k0t, k0v, ..., a0, ...), at most `cap`. */
export async function groupRows(db: Executor, dialect: DialectName, scope: ItemScope, spec: GroupSpec, cap: number): Promise<Record<string, unknown>[]> {
  const where = scopeWhere(scope, dialect);
  const cols: RawBuilder<unknown>[] = [];
  const groupBy: RawBuilder<unknown>[] = [];
  spec.keys.forEach((k, i) => {
    cols.push(sql`${k.type} AS ${sql.ref(`k${i}t`)}`, sql`${k.value} AS ${sql.ref(`k${i}v`)}`);
    groupBy.push(k.type, k.value);
  });
  spec.ops.forEach((op, i) => {
    const alias = sql.ref(`a${i}`);
    if (op.fn === 'COUNT') cols.push(sql`COUNT(*) AS ${alias}`);
    else cols.push(sql`${sql.raw(op.fn)}(${op.number!}) AS ${alias}`);
  });
  if (cols.length === 0) cols.push(sql`COUNT(*) AS n`);
  const group = groupBy.length ? sql` GROUP BY ${sql.join(groupBy)}` : sql``;
  const res = await sql<Record<string, unknown>>`SELECT ${sql.join(cols)} FROM data_items WHERE ${where}${group} LIMIT ${cap}`.execute(db);
  return res.rows;
}

// ---------------------------------------------------------------------------------------------
// Multi-references

export async function referencedIds(db: Executor, siteId: string, collectionId: string, field: string, referringIds: string[]): Promise<{ referringId: string; referencedId: string }[]> {
  if (referringIds.length === 0) return [];
  const rows = await db.selectFrom('data_references').select(['referring_id', 'referenced_id'])
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('field', '=', field).where('referring_id', 'in', referringIds)
    .orderBy('referring_id').orderBy('position').orderBy('referenced_id').execute();
  return rows.map((r) => ({ referringId: r.referring_id, referencedId: r.referenced_id }));
}

export async function isReferenced(db: Executor, siteId: string, collectionId: string, field: string, referringId: string, referencedId: string): Promise<boolean> {
  const row = await db.selectFrom('data_references').select('position')
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('field', '=', field)
    .where('referring_id', '=', referringId).where('referenced_id', '=', referencedId).executeTakeFirst();
  return row !== undefined;
}

export async function addReferences(db: Executor, siteId: string, collectionId: string, field: string, referringId: string, referencedIdsToAdd: string[]): Promise<void> {
  if (referencedIdsToAdd.length === 0) return;
  const max = await db.selectFrom('data_references').select((eb) => eb.fn.max<number>('position').as('m'))
    .where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('field', '=', field).where('referring_id', '=', referringId).executeTakeFirst();
  let position = Number(max?.m ?? -1) + 1;
  await db.insertInto('data_references').values(referencedIdsToAdd.map((referenced) => ({
    site_id: siteId, collection_id: collectionId, field, referring_id: referringId, referenced_id: referenced, position: position++,
  }))).onConflict((oc) => oc.doNothing()).execute();
}

export async function removeReferences(db: Executor, siteId: string, collectionId: string, field: string, referringId: string, referencedIdsToRemove?: string[]): Promise<void> {
  let q = db.deleteFrom('data_references').where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('field', '=', field).where('referring_id', '=', referringId);
  if (referencedIdsToRemove) {
    if (referencedIdsToRemove.length === 0) return;
    q = q.where('referenced_id', 'in', referencedIdsToRemove);
  }
  await q.execute();
}

// ---------------------------------------------------------------------------------------------
// Indexes: records plus the real database index, named by the service from a hash, over an
// expression storage/json-filter.ts built from validated field names.

export interface IndexRow { name: string; sqlName: string; doc: unknown; status: string }

export async function listIndexRows(db: Executor, siteId: string, collectionId: string): Promise<IndexRow[]> {
  const rows = await db.selectFrom('data_indexes').selectAll().where('site_id', '=', siteId).where('collection_id', '=', collectionId).orderBy('created_date').orderBy('name').execute();
  return rows.map((r) => ({ name: r.name, sqlName: r.sql_name, doc: readJson(r.doc), status: r.status }));
}

export async function insertIndexRow(db: Executor, siteId: string, collectionId: string, row: IndexRow, now: string): Promise<void> {
  await db.insertInto('data_indexes').values({ site_id: siteId, collection_id: collectionId, name: row.name, sql_name: row.sqlName, doc: toJson(row.doc), status: row.status, created_date: now }).execute();
}

export async function setIndexStatus(db: Executor, siteId: string, collectionId: string, name: string, status: string, doc: unknown): Promise<void> {
  await db.updateTable('data_indexes').set({ status, doc: toJson(doc) }).where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('name', '=', name).execute();
}

export async function deleteIndexRow(db: Executor, siteId: string, collectionId: string, name: string): Promise<void> {
  await db.deleteFrom('data_indexes').where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('name', '=', name).execute();
}

/**
 * CREATE INDEX over item rows. `sqlName` matches /^dx_[0-9a-f]{24}$/, `expressions` come from
 * storage/json-filter.ts indexExpression, and the partial-index literals of a unique index are checked ids.
 */
export async function createSqlIndex(db: Executor, sqlName: string, expressions: string[], unique: { siteId: string; collectionId: string } | undefined): Promise<void> {
  if (!/^dx_[0-9a-f]{24}$/.test(sqlName)) throw new Error('bad index name');
  const cols = ['site_id', 'collection_id', ...expressions].join(', ');
  if (unique) {
    const lit = (s: string) => { if (!/^[A-Za-z0-9_\-/]+$/.test(s)) throw new Error('bad id in index'); return `'${s}'`; };
    await sql.raw(`CREATE UNIQUE INDEX ${sqlName} ON data_items (${cols}) WHERE site_id = ${lit(unique.siteId)} AND collection_id = ${lit(unique.collectionId)}`).execute(db);
  } else {
    await sql.raw(`CREATE INDEX ${sqlName} ON data_items (${cols})`).execute(db);
  }
}

export async function dropSqlIndex(db: Executor, sqlName: string): Promise<void> {
  if (!/^dx_[0-9a-f]{24}$/.test(sqlName)) throw new Error('bad index name');
  await sql.raw(`DROP INDEX IF EXISTS ${sqlName}`).execute(db);
}

// ---------------------------------------------------------------------------------------------
// Jobs and cursor keys

export interface JobRow { id: string; collectionId: string; kind: string; status: string; request: unknown; successCount: number; failureCount: number }

export async function insertJob(db: Executor, siteId: string, job: JobRow, now: string): Promise<void> {
  await db.insertInto('data_jobs').values({
    id: job.id, site_id: siteId, collection_id: job.collectionId, kind: job.kind, status: job.status, request: toJson(job.request),
    success_count: job.successCount, failure_count: job.failureCount, created_date: now, updated_date: now,
  }).execute();
}

/** Rows per multi-row INSERT of job items (well under SQLite's bound-variable limit). */
const JOB_ITEM_INSERT_CHUNK = 500;

export async function insertJobItems(db: Executor, jobId: string, itemIds: readonly string[]): Promise<void> {
  for (let i = 0; i < itemIds.length; i += JOB_ITEM_INSERT_CHUNK) {
    await db.insertInto('data_job_items').values(itemIds.slice(i, i + JOB_ITEM_INSERT_CHUNK).map((item_id) => ({ job_id: jobId, item_id, done: 0 }))).execute();
  }
}

/** The next ids of a job not done yet, in id order. */
export async function pendingJobItems(db: Executor, jobId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('data_job_items').select('item_id').where('job_id', '=', jobId).where('done', '=', 0).orderBy('item_id').limit(limit).execute();
  return rows.map((r) => r.item_id);
}

/** Marks ids done and adds their outcome to the job's counts (call in the transaction that handled them). */
export async function settleJobItems(db: Executor, jobId: string, itemIds: readonly string[], counts: { ok: number; failed: number }, now: string): Promise<void> {
  for (let i = 0; i < itemIds.length; i += JOB_ITEM_INSERT_CHUNK) {
    await db.updateTable('data_job_items').set({ done: 1 }).where('job_id', '=', jobId).where('item_id', 'in', itemIds.slice(i, i + JOB_ITEM_INSERT_CHUNK)).execute();
  }
  await db.updateTable('data_jobs').set({
    status: 'PROCESSING', success_count: sql<number>`success_count + ${counts.ok}`, failure_count: sql<number>`failure_count + ${counts.failed}`, updated_date: now,
  }).where('id', '=', jobId).execute();
}

export async function setJobStatus(db: Executor, id: string, status: string, now: string): Promise<void> {
  await db.updateTable('data_jobs').set({ status, updated_date: now }).where('id', '=', id).execute();
}

export async function findJob(db: Executor, siteId: string, id: string): Promise<JobRow | undefined> {
  const r = await db.selectFrom('data_jobs').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return r && { id: r.id, collectionId: r.collection_id, kind: r.kind, status: r.status, request: readJson(r.request), successCount: Number(r.success_count), failureCount: Number(r.failure_count) };
}

export async function cursorSecret(db: Executor, siteId: string, fresh: string): Promise<string> {
  await db.insertInto('data_cursor_keys').values({ site_id: siteId, secret: fresh }).onConflict((oc) => oc.column('site_id').doNothing()).execute();
  const row = await db.selectFrom('data_cursor_keys').select('secret').where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return row.secret;
}
