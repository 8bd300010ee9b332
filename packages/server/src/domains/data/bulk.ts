import { randomUUID } from 'node:crypto';
import type { DataBulkAction, DataBulkActionMetadata } from '@vitrine/types/data';
import type { Caller, RequestContext } from '../../http/context.js';
import { isElevated } from '../../http/context.js';
import { ApplicationError, ValidationError } from '../../http/errors.js';
import { notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { JobInterrupted } from '../../jobs/errors.js';
import { defineJobKind } from '../../jobs/kinds.js';
import { enqueueJob } from '../../jobs/service.js';
import { getSite } from '../sites/index.js';
import { authorize, BULK_MAX, parseDataFilter, requireItemId, scopeFor, itemOf, withSystemFields, newItemId, type Item } from './common.js';
import { bulkItemsInvalid, itemExists, itemIdsNotStrings, itemNotFound, permissionDenied, tooManyIdsToRemove, tooManyItems, uniqueViolation } from './errors.js';
import { matches } from './evaluate.js';
import { openCollection, type ItemOptions, type Loaded } from './item-access.js';
import { ownerIdOf } from './model.js';
import { applyModifications, readModifications, type FieldModification } from './patch.js';
import { hooksSuppressed, isUniqueViolation, itemEvent, itemEvents, prepareData, type PreparedData } from './prepare.js';
import { saveMultiRefs } from './references.js';
import type { ItemResult } from './present.js';
import {
  deleteItemRows, findItems, findJob, insertItems, insertJob, insertJobItems, itemIdsInScope, pendingJobItems, savepoint, setJobStatus, settleJobItems, updateItemRow,
  type ItemRow, type JobRow,
} from './store.js';
import { isPlainObject, type ItemData } from './values.js';

/**
 * Bulk calls (at most BULK_MAX items, one result per item in request order) and the async
 * patch/remove-by-filter jobs. A bad item fails alone; the rest of the request goes through.
 */

type BulkAction = DataBulkAction;


function failure(action: BulkAction, index: number, id: string | undefined, error: unknown): ItemResult {
  let e: { code: string; description: string; data: Record<string, unknown> };
  if (error instanceof ApplicationError) e = { code: error.code, description: error.description, data: error.data };
  else if (error instanceof ValidationError) e = { code: 'INVALID_ARGUMENT', description: error.message, data: { fieldViolations: error.violations } };
  else throw error;
  return { action, itemMetadata: { ...(id !== undefined ? { id } : {}), originalIndex: index, success: false, error: e } };
}

function summary(results: ItemResult[]): { results: ItemResult[]; bulkActionMetadata: DataBulkActionMetadata } {
  const ok = results.filter((r) => r.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses: ok, totalFailures: results.length - ok } };
}

/** Runs `fn` inside a savepoint, so a failed statement (a unique index) undoes only this item. */
async function inSavepoint<T>(ctx: RequestContext, fn: () => Promise<T>): Promise<T> {
  await savepoint(ctx.db, 'begin');
  try {
    const out = await fn();
    await savepoint(ctx.db, 'release');
    return out;
  } catch (error) {
    await savepoint(ctx.db, 'rollback');
    await savepoint(ctx.db, 'release');
    throw isUniqueViolation(error) ? uniqueViolation('') : error;
  }
}

function readItems(loaded: Loaded, raw: unknown): Record<string, unknown>[] {
  if (!Array.isArray(raw) || !raw.every(isPlainObject)) throw bulkItemsInvalid(loaded.collectionId);
  if (raw.length > BULK_MAX) throw tooManyItems(loaded.collectionId, BULK_MAX);
  return raw as Record<string, unknown>[];
}

function idOf(item: Record<string, unknown>): unknown {
  const data = isPlainObject(item.data) ? item.data : {};
  return data._id ?? item.id;
}

export interface BulkInput extends ItemOptions { dataItems?: unknown; dataItemIds?: unknown; patches?: unknown; condition?: unknown }

interface Planned { index: number; id: string; prepared: PreparedData }

/** bulk insert / save: `save` updates the items that exist and the caller may update. */
export async function bulkWrite(ctx: RequestContext, input: BulkInput, mode: 'insert' | 'save' | 'update'): Promise<ReturnType<typeof summary>> {
  const loaded = await openCollection(ctx, input);
  const items = readItems(loaded, input.dataItems);
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  const results: (ItemResult | undefined)[] = new Array(items.length);
  const planned: Planned[] = [];
  items.forEach((item, index) => {
    const action: BulkAction = mode === 'insert' ? 'INSERT' : 'UPDATE';
    let id: string | undefined;
    try {
      const raw = idOf(item);
      id = raw === undefined || raw === null ? (mode === 'update' ? requireItemId(raw) : newItemId()) : requireItemId(raw);
      planned.push({ index, id, prepared: prepareData(loaded.collection, item.data ?? {}, `dataItems[${index}].data`) });
    } catch (error) {
      results[index] = failure(action, index, id, error);
    }
  });
  const insertScope = mode === 'update' ? undefined : tryAuthorize(ctx, loaded, 'insert');
  const updateScope = mode === 'insert' ? undefined : tryAuthorize(ctx, loaded, 'update');
  const owner = ownerIdOf(ctx.caller) ?? null;
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const existing = await findItems(trx, ctx.site.id, loaded.collectionId, planned.map((p) => p.id));
    const now = new Date().toISOString();
    const toInsert: Planned[] = [];
    for (const p of planned) {
      const row = existing.get(p.id);
      if (!row) {
        if (mode === 'update') results[p.index] = failure('UPDATE', p.index, p.id, itemNotFound(p.id, loaded.collectionId));
        else if (insertScope instanceof ApplicationError) results[p.index] = failure('INSERT', p.index, p.id, insertScope);
        else toInsert.push(p);
        continue;
      }
      if (mode === 'insert') { results[p.index] = failure('INSERT', p.index, p.id, itemExists(p.id, loaded.collectionId)); continue; }
      if (updateScope instanceof ApplicationError) { results[p.index] = failure('UPDATE', p.index, p.id, updateScope); continue; }
      if (updateScope!.ownerOnly !== undefined && row.ownerId !== updateScope!.ownerOnly) {
        results[p.index] = failure('UPDATE', p.index, p.id, mode === 'save' ? permissionDenied('update', loaded.collectionId) : itemNotFound(p.id, loaded.collectionId));
        continue;
      }
      try {
        const item = await inSavepoint(tctx, async () => updateOne(tctx, loaded, row, p.prepared, now, suppressed));
        results[p.index] = { action: 'UPDATE', itemMetadata: { id: p.id, originalIndex: p.index, success: true }, item };
      } catch (error) {
        results[p.index] = failure('UPDATE', p.index, p.id, error instanceof ApplicationError && error.code === 'UNIQUE_INDEX_VIOLATION' ? uniqueViolation(loaded.collectionId) : error);
      }
    }
    // One multi-row INSERT ... ON CONFLICT DO NOTHING; rows it skipped collided with an id or a unique index.
    const seen = new Set<string>();
    const rows = toInsert.filter((p) => !seen.has(p.id) && seen.add(p.id)).map((p) => ({
      plan: p, row: { id: p.id, ownerId: owner, draft: false, data: withSystemFields(p.prepared.data, p.id, owner, now, now), createdDate: now, updatedDate: now },
    }));
    const inserted = await insertItems(trx, ctx.site.id, loaded.collectionId, rows.map((r) => r.row));
    const rowOf = new Map(rows.map((r) => [r.plan, r]));
    const created: Item[] = [];
    for (const p of toInsert) {
      const r = rowOf.get(p);
      if (!r || !inserted.has(p.id)) {
        results[p.index] = failure('INSERT', p.index, p.id, r ? uniqueViolation(loaded.collectionId) : itemExists(p.id, loaded.collectionId));
        continue;
      }
      await saveMultiRefs(tctx, loaded.collectionId, p.id, p.prepared.multiRefs, false);
      const item = itemOf(loaded.collectionId, { ...r.row, data: r.row.data as Record<string, unknown> });
      created.push(item);
      results[p.index] = { action: 'INSERT', itemMetadata: { id: p.id, originalIndex: p.index, success: true }, item };
    }
    await itemEvents(tctx, suppressed, 'created', created);
  });
  return summary(results as ItemResult[]);
}

function tryAuthorize(ctx: RequestContext, loaded: Loaded, action: 'insert' | 'update' | 'remove'): { ownerOnly: string | undefined } | ApplicationError {
  try {
    return authorize(ctx, loaded.collection, action);
  } catch (error) {
    if (error instanceof ApplicationError) return error;
    throw error;
  }
}

async function updateOne(ctx: RequestContext, loaded: Loaded, row: ItemRow, prepared: PreparedData, now: string, suppressed: boolean): Promise<Item> {
  const data = withSystemFields(prepared.data, row.id, row.ownerId, row.createdDate, now);
  await updateItemRow(ctx.db, ctx.site.id, loaded.collectionId, row.id, data, now);
  await saveMultiRefs(ctx, loaded.collectionId, row.id, prepared.multiRefs, true);
  const item = itemOf(loaded.collectionId, { ...row, data, updatedDate: now });
  await itemEvent(ctx, suppressed, 'updated', item);
  return item;
}

export async function bulkPatch(ctx: RequestContext, input: BulkInput) {
  const loaded = await openCollection(ctx, input);
  const patches = input.patches;
  if (!Array.isArray(patches) || !patches.every(isPlainObject)) throw bulkItemsInvalid(loaded.collectionId);
  if (patches.length > BULK_MAX) throw tooManyItems(loaded.collectionId, BULK_MAX);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
  const condition = isPlainObject(input.condition) ? parseDataFilter(input.condition.filter, 'condition.filter') : undefined;
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  const results: ItemResult[] = [];
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const ids = (patches as Record<string, unknown>[]).map((p) => (typeof p.dataItemId === 'string' ? p.dataItemId : ''));
    const existing = await findItems(trx, ctx.site.id, loaded.collectionId, ids.filter(Boolean));
    const now = new Date().toISOString();
    for (const [index, p] of (patches as Record<string, unknown>[]).entries()) {
      let id: string | undefined;
      try {
        id = requireItemId(p.dataItemId);
        const mods: FieldModification[] = readModifications(p.fieldModifications, `patches[${index}].fieldModifications`);
        const row = existing.get(id);
        if (!row || (ownerOnly !== undefined && row.ownerId !== ownerOnly) || (row.draft && !isElevated(ctx.caller)) || !matches(condition, row.data)) throw itemNotFound(id, loaded.collectionId);
        const prepared = prepareData(loaded.collection, applyModifications(row.data as ItemData, mods, `patches[${index}].fieldModifications`), `patches[${index}]`);
        const item = await inSavepoint(tctx, () => updateOne(tctx, loaded, row, prepared, now, suppressed));
        existing.set(id, { ...row, data: item.data, updatedDate: now });
        results.push({ action: 'PATCH', itemMetadata: { id, originalIndex: index, success: true }, item });
      } catch (error) {
        results.push(failure('PATCH', index, id, error instanceof ApplicationError && error.code === 'UNIQUE_INDEX_VIOLATION' ? uniqueViolation(loaded.collectionId) : error));
      }
    }
  });
  return summary(results);
}

export async function bulkRemove(ctx: RequestContext, input: BulkInput) {
  const loaded = await openCollection(ctx, input);
  const ids = input.dataItemIds;
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string')) throw itemIdsNotStrings();
  if (ids.length > BULK_MAX) throw tooManyIdsToRemove(loaded.collectionId, BULK_MAX);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'remove');
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  const results: ItemResult[] = [];
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const existing = await findItems(trx, ctx.site.id, loaded.collectionId, ids as string[]);
    const doomed: string[] = [];
    for (const [index, id] of (ids as string[]).entries()) {
      const row = existing.get(id);
      if (!row || (ownerOnly !== undefined && row.ownerId !== ownerOnly) || doomed.includes(id)) {
        results.push(failure('DELETE', index, id, itemNotFound(id, loaded.collectionId)));
        continue;
      }
      doomed.push(id);
      const item = itemOf(loaded.collectionId, row);
      await itemEvent(tctx, suppressed, 'deleted', item);
      results.push({ action: 'DELETE', itemMetadata: { id, originalIndex: index, success: true }, item });
    }
    await deleteItemRows(trx, ctx.site.id, loaded.collectionId, doomed);
  });
  return summary(results);
}

// ---------------------------------------------------------------------------------------------
// Async jobs

/** Most items one job touches; more is refused up front (split the filter). */
export const JOB_MAX_ITEMS = 100_000;
/** Items per transaction of a running job. */
export const DATA_JOB_BATCH_SIZE = 500;
/** Attempts of a by-filter job (an attempt ends early only on an unexpected error). */
const JOB_MAX_ATTEMPTS = 10;

interface DataJobPayload {
  jobId: string;
  siteId: string;
  collectionId: string;
  kind: 'patch' | 'remove';
  fieldModifications: unknown;
  suppressHooks: boolean;
  /** Who started it: the events of its changes name this actor. */
  caller: Caller;
  origin: string;
}

/**
 * Starts a patch/remove-by-filter job: the matching ids are frozen into `data_job_items` and one
 * `data.bulk-by-filter` job is queued, in one transaction; the job runner does the work.
 */
export async function startJob(ctx: RequestContext, input: ItemOptions & { filter?: unknown; fieldModifications?: unknown }, kind: 'patch' | 'remove'): Promise<string> {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, kind === 'patch' ? 'update' : 'remove');
  const filter = parseDataFilter(input.filter, 'filter');
  if (kind === 'patch') readModifications(input.fieldModifications, 'fieldModifications');
  const scope = scopeFor(ctx, loaded.collectionId, ownerOnly, isElevated(ctx.caller), filter);
  const jobId = randomUUID();
  await inTransaction(ctx.db, async (trx) => {
    const ids = await itemIdsInScope(trx, ctx.dialect, scope, JOB_MAX_ITEMS + 1);
    if (ids.length > JOB_MAX_ITEMS) throw new ApplicationError(400, 'TOO_MANY_ITEMS', `The filter matches more than ${JOB_MAX_ITEMS} items`);
    const now = new Date().toISOString();
    await insertJob(trx, ctx.site.id, { id: jobId, collectionId: loaded.collectionId, kind, status: 'INITIALIZED', request: { filter: input.filter ?? null, fieldModifications: input.fieldModifications ?? null, requester: ownerIdOf(ctx.caller) ?? null }, successCount: 0, failureCount: 0 }, now);
    await insertJobItems(trx, jobId, ids);
    await enqueueJob(trx, dataBulkJob, {
      jobId, siteId: ctx.site.id, collectionId: loaded.collectionId, kind, fieldModifications: input.fieldModifications ?? null,
      suppressHooks: hooksSuppressed(ctx, input.suppressHooks), caller: ctx.caller, origin: ctx.origin,
    }, { siteId: ctx.site.id });
  });
  return jobId;
}

export const dataBulkJob = defineJobKind<DataJobPayload>({
  kind: 'data.bulk-by-filter',
  maxAttempts: JOB_MAX_ATTEMPTS,
  async run(jctx, p) {
    const site = await getSite(jctx.db, p.siteId);
    if (!site) return;
    const ctx: RequestContext = {
      requestId: p.jobId, deps: jctx.deps, db: jctx.db, dialect: jctx.deps.storage.dialect, caller: p.caller, origin: p.origin,
      ip: '127.0.0.1', log: jctx.log, site,
    };
    await runJob(ctx, jctx.signal, p);
  },
  async onFailed(_jctx, p, _error, trx) {
    await setJobStatus(trx, p.jobId, 'FAILED', new Date().toISOString());
  },
});

/** Every job kind of the data domain. */
export const dataJobKinds = [dataBulkJob] as const;

/** Handles the ids not done yet, DATA_JOB_BATCH_SIZE per transaction together with their mark and the job's counts. */
async function runJob(ctx: RequestContext, signal: AbortSignal, p: DataJobPayload): Promise<void> {
  // The collection may have changed since the start: the job applies the current schema, like a single patch would.
  const loaded = await openCollection(ctx, { dataCollectionId: p.collectionId });
  const mods: FieldModification[] = p.kind === 'patch' ? readModifications(p.fieldModifications, 'fieldModifications') : [];
  for (;;) {
    if (signal.aborted) throw new JobInterrupted();
    const batch = await pendingJobItems(ctx.db, p.jobId, DATA_JOB_BATCH_SIZE);
    if (batch.length === 0) break;
    await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      const rows = await findItems(trx, ctx.site.id, p.collectionId, batch);
      const now = new Date().toISOString();
      let ok = 0;
      let failed = 0;
      if (p.kind === 'remove') {
        for (const row of rows.values()) await itemEvent(tctx, p.suppressHooks, 'deleted', itemOf(p.collectionId, row));
        await deleteItemRows(trx, ctx.site.id, p.collectionId, [...rows.keys()]);
        ok = rows.size;
      } else {
        for (const row of rows.values()) {
          try {
            const prepared = prepareData(loaded.collection, applyModifications(row.data as ItemData, mods, 'fieldModifications'), 'fieldModifications');
            await inSavepoint(tctx, () => updateOne(tctx, loaded, row, prepared, now, p.suppressHooks));
            ok += 1;
          } catch (error) {
            if (!(error instanceof ApplicationError || error instanceof ValidationError)) throw error;
            failed += 1;
          }
        }
      }
      await settleJobItems(trx, p.jobId, batch, { ok, failed }, now);
    });
  }
  await setJobStatus(ctx.db, p.jobId, 'SUCCEEDED', new Date().toISOString());
}

/** The job (for the owner and for whoever started it); present.ts encodes its status. */
export async function jobStatus(ctx: RequestContext, jobId: string): Promise<JobRow> {
  const job = await findJob(ctx.db, ctx.site.id, jobId);
  // A job's status is for the owner and for whoever started it.
  const requester = (job?.request as { requester?: string | null } | undefined)?.requester ?? null;
  if (!job || (!isElevated(ctx.caller) && requester !== (ownerIdOf(ctx.caller) ?? null))) throw notFound('JOB_NOT_FOUND', `Job ${jobId} not found`);
  return job;
}
