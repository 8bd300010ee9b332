import { randomUUID } from 'node:crypto';
import type { Executor } from '../storage/database.js';
import { afterCommit } from '../storage/transaction.js';
import type { JobKind } from './kinds.js';
import { DEFAULT_MAX_ATTEMPTS, wakeRunners } from './runner.js';
import { findJobRecord, insertJob, type JobRecord } from './store.js';

export interface EnqueueOptions {
  siteId?: string | null;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** At most one waiting (QUEUED) job of this kind per key: a second enqueue answers the first one's id. */
  dedupKey?: string;
}

/**
 * Queues a job. Call it with the transaction of the change that asks for it: the job exists exactly
 * when the change committed. After the commit the local runner is woken; other processes find the
 * job at their next poll.
 */
export async function enqueueJob<P>(db: Executor, kind: JobKind<P>, payload: P, options: EnqueueOptions = {}): Promise<{ jobId: string; inserted: boolean }> {
  const now = new Date();
  const { id, inserted } = await insertJob(db, {
    id: randomUUID(),
    kind: kind.kind,
    siteId: options.siteId ?? null,
    payload,
    maxAttempts: kind.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    runAt: (options.runAt ?? now).toISOString(),
    dedupKey: options.dedupKey ?? null,
    now: now.toISOString(),
  });
  if (inserted) await afterCommit(db, async (root) => wakeRunners(root, kind.kind));
  return { jobId: id, inserted };
}

/** A job's state as stored (status, attempts, last error, progress, result). */
export async function getJob(db: Executor, id: string): Promise<JobRecord | undefined> {
  return findJobRecord(db, id);
}
