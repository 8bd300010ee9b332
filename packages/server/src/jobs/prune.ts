import { defineJobKind } from './kinds.js';
import { pruneFinishedJobs } from './store.js';

/** Finished jobs (SUCCEEDED, FAILED) are kept this long after their last change, for diagnostics. */
export const JOBS_RETENTION_MS = 7 * 86_400_000;
/** How often finished jobs are pruned, and at most how many rows per pass. */
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;

/** Periodic upkeep of the jobs table itself (queued by every runner, one waiting at a time). */
export const pruneJobsJob = defineJobKind<Record<string, never>>({
  kind: 'jobs.prune',
  everyMs: () => PRUNE_EVERY_MS,
  async run(ctx) {
    return { deleted: await pruneFinishedJobs(ctx.db, new Date(Date.now() - JOBS_RETENTION_MS).toISOString(), PRUNE_BATCH) };
  },
});
