import type { CatalogBulkJobResponse } from '@vitrine/types/stores';
import { randomUUID } from 'node:crypto';
import type { AppDeps, RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, notFound, ValidationError, WireError } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { getSite } from '../sites/index.js';
import { defineJobKind, type JobContext } from '../../jobs/kinds.js';
import { JobInterrupted } from '../../jobs/errors.js';
import { enqueueJob } from '../../jobs/service.js';
import {
  countCatalogJobItem, findCatalogJob, insertCatalogJob, pendingCatalogJobItems, setCatalogJobStatus, settleCatalogJobItem,
  type CatalogJob, type CatalogJobItemError, type JobActor,
} from './store-jobs.js';

/**
 * Catalog bulk jobs (V3 products by filter, inventory by filter, ...). A job kind registers a handler
 * for one item; `startCatalogJob` freezes the item ids into `catalog_job_items` and queues one
 * `catalog.bulk` job (jobs/) in the caller's transaction; the job runner runs the items in order, each
 * in its own transaction together with the job's counters, so a job claimed again after a crash or a
 * retry resumes with the items still pending.
 * A handler refusing an item (any wire error: ApplicationError, ValidationError) rolls that item back
 * and counts it as failed with its code; the first CATALOG_JOB_ERRORS_KEPT errors are kept on the job.
 */

/** Most items one job may hold (the starter's filter must match at most this many). */
export const CATALOG_JOB_ITEMS_MAX = 10_000;
/** Errors kept on a job (the status route shows these). */
export const CATALOG_JOB_ERRORS_KEPT = 100;
/** Items read per batch by the worker. */
export const CATALOG_JOB_BATCH_SIZE = 50;
/** Attempts of a job (an attempt ends early only on an unexpected error, e.g. the database went away). */
export const CATALOG_JOB_MAX_ATTEMPTS = 10;

export interface CatalogJobHandler<P> {
  /** Runs inside the item's transaction (ctx.db is the trx); throw ApplicationError to count the item as failed. */
  runItem(ctx: RequestContext, itemId: string, params: P): Promise<void>;
}

const handlers = new Map<string, CatalogJobHandler<unknown>>();

export function registerCatalogJobKind<P>(kind: string, handler: CatalogJobHandler<P>): void {
  if (handlers.has(kind)) throw new Error(`catalog job kind ${kind} is registered twice`);
  handlers.set(kind, handler as CatalogJobHandler<unknown>);
}

/**
 * Starts a job over `itemIds` (deduplicated, order kept). Elevated callers only. When ctx.db is a
 * transaction the job commits with it; otherwise it commits here. Params must be JSON.
 */
export async function startCatalogJob<P>(ctx: RequestContext, kind: string, itemIds: readonly string[], params: P): Promise<{ jobId: string }> {
  const caller = ctx.caller;
  if (caller.kind !== 'owner' && caller.kind !== 'app') throw new ApplicationError(403, 'ELEVATED_REQUIRED', 'Bulk jobs need an elevated caller');
  if (!handlers.has(kind)) throw new Error(`unknown catalog job kind ${kind}`);
  const ids = [...new Set(itemIds)];
  if (ids.length > CATALOG_JOB_ITEMS_MAX) {
    throw badRequest('TOO_MANY_ITEMS', `A bulk job takes at most ${CATALOG_JOB_ITEMS_MAX} items; narrow the filter`, { max: CATALOG_JOB_ITEMS_MAX, matched: ids.length });
  }
  const actor: JobActor = caller.kind === 'owner' ? { kind: 'owner', apiKeyId: caller.apiKeyId } : { kind: 'app', appId: caller.appId };
  const jobId = randomUUID();
  const insert = (db: RequestContext['db']) => insertCatalogJob(db, { id: jobId, siteId: ctx.site.id, kind, params: { actor, params }, now: new Date().toISOString() }, ids);
  // The job runs once the caller's transaction (or this one) commits.
  await inTransaction(ctx.db, async (trx) => {
    await insert(trx);
    await enqueueJob(trx, catalogBulkJob, { jobId, siteId: ctx.site.id }, { siteId: ctx.site.id });
  });
  return { jobId };
}

/** Job status as `GET /stores/v3/bulk/jobs/:jobId` answers it. */
export function presentCatalogJob(job: CatalogJob): CatalogBulkJobResponse {
  return {
    job: {
      id: job.id, type: job.kind, status: job.status, total: job.total, processed: job.processed, succeeded: job.succeeded, failed: job.failed,
      errors: job.errors, createdDate: job.createdDate, updatedDate: job.updatedDate, ...(job.finishedDate ? { finishedDate: job.finishedDate } : {}),
    },
  };
}

/** A job of the caller's site (404 JOB_NOT_FOUND for unknown ids and other sites' jobs). */
export async function getCatalogJob(ctx: RequestContext, jobId: string): Promise<CatalogBulkJobResponse> {
  const job = await findCatalogJob(ctx.db, ctx.site.id, jobId);
  if (!job) throw notFound('JOB_NOT_FOUND', `Job ${jobId} not found`, { jobId });
  return presentCatalogJob(job);
}

// ---------------------------------------------------------------------------------------------
// The job kind the runner calls (registered by createServer)

export const catalogBulkJob = defineJobKind<{ jobId: string; siteId: string }>({
  kind: 'catalog.bulk',
  maxAttempts: CATALOG_JOB_MAX_ATTEMPTS,
  async run(jctx, { jobId, siteId }) {
    const job = await findCatalogJob(jctx.db, siteId, jobId);
    if (job && job.status !== 'FINISHED') await runJob(jctx, job);
  },
  // Out of attempts: the job stops where it is; its counters show what was done.
  async onFailed(_jctx, { jobId }, _error, trx) {
    await setCatalogJobStatus(trx, jobId, 'FINISHED', new Date().toISOString());
  },
});

/** Every job kind of the catalog domain. */
export const catalogJobKinds = [catalogBulkJob] as const;

async function jobContext(deps: AppDeps, job: CatalogJob): Promise<RequestContext | undefined> {
  const site = await getSite(deps.storage.db, job.siteId);
  if (!site) return undefined;
  return {
    requestId: job.id, deps, db: deps.storage.db, dialect: deps.storage.dialect, caller: job.params.actor,
    origin: deps.config.publicUrl ?? '', ip: '127.0.0.1', log: deps.log, site,
  };
}

async function runJob(jctx: JobContext, job: CatalogJob): Promise<void> {
  const deps = jctx.deps;
  const db = deps.storage.db;
  const now = () => new Date().toISOString();
  const ctx = await jobContext(deps, job);
  if (ctx) {
    if (job.status === 'INITIALIZED') await setCatalogJobStatus(db, job.id, 'PROCESSING', now());
    for (;;) {
      const ids = await pendingCatalogJobItems(db, job.id, CATALOG_JOB_BATCH_SIZE);
      if (ids.length === 0) break;
      for (const id of ids) {
        if (jctx.signal.aborted) throw new JobInterrupted();
        await runItem(ctx, job, id);
      }
    }
  }
  // A site that no longer exists leaves nothing to do: the job finishes with what it had.
  await setCatalogJobStatus(db, job.id, 'FINISHED', now());
}

/** One item: the handler's writes, the item's state and the job's counters commit together. */
async function runItem(ctx: RequestContext, job: CatalogJob, itemId: string): Promise<void> {
  const handler = handlers.get(job.kind);
  const settle = async (db: RequestContext['db'], error: CatalogJobItemError | undefined): Promise<boolean> => {
    if (!(await settleCatalogJobItem(db, job.id, itemId, error))) return false;
    await countCatalogJobItem(db, job.id, error, CATALOG_JOB_ERRORS_KEPT, new Date().toISOString());
    return true;
  };
  let failure: CatalogJobItemError;
  try {
    if (!handler) throw new ApplicationError(400, 'UNKNOWN_JOB_KIND', `No handler for job kind ${job.kind}`);
    await inTransaction(ctx.db, async (trx) => {
      if (await settle(trx, undefined)) await handler.runItem({ ...ctx, db: trx }, itemId, job.params.params);
    });
    return;
  } catch (error) {
    // The item was refused: its transaction (claim included) rolled back; count the failure instead.
    if (error instanceof ApplicationError) failure = { itemId, code: error.code, description: error.description };
    else if (error instanceof ValidationError) failure = { itemId, code: 'INVALID_ARGUMENT', description: error.violations.map((v) => `${v.field} ${v.description}`).join('; ') };
    else if (error instanceof WireError) failure = { itemId, code: 'INVALID_ARGUMENT', description: error.message };
    else {
      ctx.log.error({ err: error, jobId: job.id, itemId }, 'catalog job item failed');
      failure = { itemId, code: 'INTERNAL_ERROR', description: 'The item could not be processed' };
    }
  }
  await inTransaction(ctx.db, (trx) => settle(trx, failure));
}
