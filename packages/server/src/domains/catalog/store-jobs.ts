import { sql } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { readJson, toJson } from '../../storage/dialect.js';

/** All SQL of catalog bulk jobs (jobs.ts). */

interface CatalogJobsTable {
  id: string; site_id: string; kind: string; status: string; params: unknown;
  total: number; processed: number; succeeded: number; failed: number; errors: unknown;
  created_date: string; updated_date: string; finished_date: string | null;
}
interface CatalogJobItemsTable { job_id: string; item_id: string; position: number; state: string; error: unknown }

declare module '../../storage/schema.js' {
  interface Database {
    catalog_jobs: CatalogJobsTable;
    catalog_job_items: CatalogJobItemsTable;
  }
}

export type CatalogJobStatus = 'INITIALIZED' | 'PROCESSING' | 'FINISHED';
export interface CatalogJobItemError { itemId: string; code: string; description: string }
export type JobActor = { kind: 'owner'; apiKeyId: string } | { kind: 'app'; appId: string };
export interface StoredJobParams { actor: JobActor; params: unknown }
export interface CatalogJob {
  id: string; siteId: string; kind: string; status: CatalogJobStatus; params: StoredJobParams;
  total: number; processed: number; succeeded: number; failed: number; errors: CatalogJobItemError[];
  createdDate: string; updatedDate: string; finishedDate?: string;
}

function toJob(r: CatalogJobsTable): CatalogJob {
  return {
    id: r.id, siteId: r.site_id, kind: r.kind, status: r.status as CatalogJobStatus, params: readJson<StoredJobParams>(r.params),
    total: Number(r.total), processed: Number(r.processed), succeeded: Number(r.succeeded), failed: Number(r.failed),
    errors: readJson<CatalogJobItemError[]>(r.errors), createdDate: r.created_date, updatedDate: r.updated_date,
    ...(r.finished_date ? { finishedDate: r.finished_date } : {}),
  };
}

/** Rows per multi-row INSERT of job items (well under SQLite's 32,766 bound variables). */
const ITEM_INSERT_CHUNK = 500;

/** Creates a job with its items (in the given order) and total. */
export async function insertCatalogJob(db: Executor, job: { id: string; siteId: string; kind: string; params: StoredJobParams; now: string }, itemIds: readonly string[]): Promise<void> {
  await db.insertInto('catalog_jobs').values({
    id: job.id, site_id: job.siteId, kind: job.kind, status: 'INITIALIZED', params: toJson(job.params),
    total: itemIds.length, processed: 0, succeeded: 0, failed: 0, errors: toJson([]), created_date: job.now, updated_date: job.now, finished_date: null,
  }).execute();
  for (let i = 0; i < itemIds.length; i += ITEM_INSERT_CHUNK) {
    const rows = itemIds.slice(i, i + ITEM_INSERT_CHUNK).map((itemId, j) => ({ job_id: job.id, item_id: itemId, position: i + j, state: 'PENDING', error: null }));
    await db.insertInto('catalog_job_items').values(rows).execute();
  }
}

export async function findCatalogJob(db: Executor, siteId: string, id: string): Promise<CatalogJob | undefined> {
  const r = await db.selectFrom('catalog_jobs').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return r && toJob(r);
}

export async function pendingCatalogJobItems(db: Executor, jobId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('catalog_job_items').select('item_id').where('job_id', '=', jobId).where('state', '=', 'PENDING')
    .orderBy('position').limit(limit).execute();
  return rows.map((r) => r.item_id);
}

/** Claims one item (PENDING -> DONE / FAILED); false when another worker got it first. */
export async function settleCatalogJobItem(db: Executor, jobId: string, itemId: string, error: CatalogJobItemError | undefined): Promise<boolean> {
  const r = await db.updateTable('catalog_job_items').set({ state: error ? 'FAILED' : 'DONE', error: error ? toJson(error) : null })
    .where('job_id', '=', jobId).where('item_id', '=', itemId).where('state', '=', 'PENDING').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Counts one settled item on the job (increments in SQL: safe beside another worker); keeps the first `keep` errors. */
export async function countCatalogJobItem(db: Executor, jobId: string, error: CatalogJobItemError | undefined, keep: number, now: string): Promise<void> {
  await db.updateTable('catalog_jobs').set({
    status: 'PROCESSING',
    processed: sql`processed + 1`,
    succeeded: error ? sql`succeeded` : sql`succeeded + 1`,
    failed: error ? sql`failed + 1` : sql`failed`,
    updated_date: now,
  }).where('id', '=', jobId).execute();
  if (!error) return;
  const r = await db.selectFrom('catalog_jobs').select('errors').where('id', '=', jobId).executeTakeFirst();
  const errors = r ? readJson<CatalogJobItemError[]>(r.errors) : [];
  if (errors.length < keep) await db.updateTable('catalog_jobs').set({ errors: toJson([...errors, error]) }).where('id', '=', jobId).execute();
}

export async function setCatalogJobStatus(db: Executor, jobId: string, status: CatalogJobStatus, now: string): Promise<void> {
  await db.updateTable('catalog_jobs').set({ status, updated_date: now, ...(status === 'FINISHED' ? { finished_date: now } : {}) }).where('id', '=', jobId).execute();
}
