import { randomUUID } from 'node:crypto';
import type { AppDeps, RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { getSite } from '../sites/index.js';
import { defineJobKind, type JobContext } from '../../jobs/kinds.js';
import { JobInterrupted } from '../../jobs/errors.js';
import { enqueueJob } from '../../jobs/service.js';
import { JOB_BATCH_SIZE, JOB_ERRORS_KEPT } from './limits.js';
import type { SearchInput } from './schema.js';
import { applyStatusAction, deleteMemberWithin, parseFilter, requireMember, searchClause, whereFor, withFilter } from './service.js';
import {
  findJob, finishJobItem, insertJobWithItems, pendingJobItems, recordJobProgress,
  type JobItemError, type JobKind, type JobParams, type MemberJob,
} from './store.js';

/**
 * By-filter bulk jobs (approve, block, delete). Starting a job freezes the matching member ids into
 * `member_job_items` and queues one `members.bulk` job (jobs/) in the request's transaction; the job
 * runner handles the items, each in its own transaction together with the job's counters, so a job
 * claimed again after a crash or a retry resumes with the items still pending. Items that fail (a
 * transition not allowed, a protected member) are counted and their first JOB_ERRORS_KEPT errors kept.
 */

export async function startJob(
  ctx: RequestContext,
  kind: JobKind,
  input: { filter: Record<string, unknown>; search?: SearchInput; contentAssigneeId?: string | null | undefined },
): Promise<{ jobId: string }> {
  const caller = ctx.caller;
  if (caller.kind !== 'owner' && caller.kind !== 'app') throw new ApplicationError(403, 'ELEVATED_REQUIRED', 'Bulk jobs need an elevated caller');
  const search = searchClause(ctx, input.search, 'search');
  const filter = await withFilter(undefined, async () => parseFilter(input.filter));
  const jobId = randomUUID();
  await inTransaction(ctx.db, async (trx) => {
    if (input.contentAssigneeId) await requireAssignee({ ...ctx, db: trx }, input.contentAssigneeId);
    const params: JobParams = {
      actor: caller.kind === 'owner' ? { kind: 'owner', apiKeyId: caller.apiKeyId } : { kind: 'app', appId: caller.appId },
      ...(input.contentAssigneeId ? { contentAssigneeId: input.contentAssigneeId } : {}),
    };
    await withFilter(undefined, () => insertJobWithItems(trx, { id: jobId, siteId: ctx.site.id, kind, params, now: new Date().toISOString() }, whereFor(ctx, filter, search)));
    await enqueueJob(trx, memberBulkJob, { jobId, siteId: ctx.site.id }, { siteId: ctx.site.id });
  });
  return { jobId };
}

async function requireAssignee(ctx: RequestContext, id: string): Promise<void> {
  try {
    await requireMember(ctx, id);
  } catch {
    throw badRequest('INVALID_CONTENT_ASSIGNEE', `Content assignee ${id} is not a member`, { contentAssigneeId: id });
  }
}

/** A job of the caller's site (view.ts `jobAnswer` encodes it). */
export async function getJob(ctx: RequestContext, jobId: string): Promise<MemberJob> {
  const job = await findJob(ctx.db, ctx.site.id, jobId);
  if (!job) throw notFound('JOB_NOT_FOUND', `Job ${jobId} not found`, { jobId });
  return job;
}

// ---------------------------------------------------------------------------------------------
// The job kind the runner calls (registered by createServer)

export const memberBulkJob = defineJobKind<{ jobId: string; siteId: string }>({
  kind: 'members.bulk',
  maxAttempts: 10,
  async run(jctx, { jobId, siteId }) {
    const job = await findJob(jctx.db, siteId, jobId);
    if (job && job.status !== 'FINISHED') await runJob(jctx, job);
  },
  async onFailed(_jctx, { jobId, siteId }, _error, trx) {
    const job = await findJob(trx, siteId, jobId);
    const now = new Date().toISOString();
    if (job && job.status !== 'FINISHED') await recordJobProgress(trx, { ...job, status: 'FAILED', finishedDate: now }, now);
  },
});

/** Every job kind of the members domain. */
export const membersJobKinds = [memberBulkJob] as const;

async function jobContext(deps: AppDeps, job: MemberJob): Promise<RequestContext | undefined> {
  const site = await getSite(deps.storage.db, job.siteId);
  if (!site) return undefined;
  return {
    requestId: job.id,
    deps,
    db: deps.storage.db,
    dialect: deps.storage.dialect,
    caller: job.params.actor,
    origin: deps.config.publicUrl ?? '',
    ip: '127.0.0.1',
    log: deps.log,
    site,
  };
}

async function runJob(jctx: JobContext, job: MemberJob): Promise<void> {
  const deps = jctx.deps;
  const ctx = await jobContext(deps, job);
  const now = () => new Date().toISOString();
  if (!ctx) {
    await recordJobProgress(deps.storage.db, { ...job, status: 'FAILED', finishedDate: now() }, now());
    return;
  }
  if (job.status === 'INITIALIZED') {
    job.status = 'PROCESSING';
    await recordJobProgress(deps.storage.db, job, now());
  }
  for (;;) {
    const ids = await pendingJobItems(deps.storage.db, job.id, JOB_BATCH_SIZE);
    if (ids.length === 0) break;
    for (const memberId of ids) {
      if (jctx.signal.aborted) throw new JobInterrupted();
      await runItem(ctx, job, memberId);
    }
  }
  const latest = (await findJob(deps.storage.db, job.siteId, job.id)) ?? job;
  await recordJobProgress(deps.storage.db, { ...latest, status: 'FINISHED', finishedDate: now() }, now());
}

/** One member: the action, the item's state and the job's counters commit together. */
async function runItem(ctx: RequestContext, job: MemberJob, memberId: string): Promise<void> {
  const act = async (tctx: RequestContext) => {
    switch (job.kind) {
      case 'APPROVE': await applyStatusAction(tctx, memberId, 'approve'); break;
      case 'BLOCK': await applyStatusAction(tctx, memberId, 'block'); break;
      case 'DELETE': await deleteMemberWithin(tctx, memberId, job.params.contentAssigneeId); break;
    }
  };
  /** Claims the item (false: another worker had it) and counts the outcome on the job. */
  const settle = async (tctx: RequestContext, error: JobItemError | undefined): Promise<boolean> => {
    if (!(await finishJobItem(tctx.db, job.id, memberId, error))) return false;
    const current = (await findJob(tctx.db, job.siteId, job.id))!;
    const errors = error && current.errors.length < JOB_ERRORS_KEPT ? [...current.errors, error] : current.errors;
    await recordJobProgress(tctx.db, {
      ...current,
      processed: current.processed + 1,
      succeeded: current.succeeded + (error ? 0 : 1),
      failed: current.failed + (error ? 1 : 0),
      errors,
    }, new Date().toISOString());
    return true;
  };
  try {
    await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      if (await settle(tctx, undefined)) await act(tctx);
    });
  } catch (error) {
    // The action was refused: its transaction (claim included) rolled back; count the failure instead.
    if (!(error instanceof ApplicationError)) throw error;
    await inTransaction(ctx.db, (trx) => settle({ ...ctx, db: trx }, { memberId, code: error.code, description: error.description }));
  }
}
