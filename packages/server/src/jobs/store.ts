import { sql } from 'kysely';
import type { Executor } from '../storage/database.js';
import { indexedState, readJson, toJson, type DialectName } from '../storage/dialect.js';
import { preparedQuery } from '../storage/prepared.js';

/** All SQL of the job system (docs/jobs.md). */

interface JobsTable {
  id: string;
  kind: string;
  site_id: string | null;
  payload: unknown;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  progress: unknown;
  result: unknown;
  dedup_key: string | null;
  created_date: string;
  updated_date: string;
}

declare module '../storage/schema.js' {
  interface Database {
    jobs: JobsTable;
  }
}

export type JobStatus = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface JobRecord {
  id: string;
  kind: string;
  siteId: string | null;
  payload: unknown;
  status: JobStatus;
  /** Claims so far, the current one included. */
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  lastError: string | null;
  progress: unknown;
  result: unknown;
  dedupKey: string | null;
  createdDate: string;
  updatedDate: string;
}

function toRecord(r: JobsTable): JobRecord {
  return {
    id: r.id, kind: r.kind, siteId: r.site_id, payload: readJson(r.payload), status: r.status as JobStatus, attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts), runAt: r.run_at, leaseOwner: r.lease_owner, leaseUntil: r.lease_until, lastError: r.last_error,
    progress: r.progress === null ? null : readJson(r.progress), result: r.result === null ? null : readJson(r.result),
    dedupKey: r.dedup_key, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

export interface NewJob {
  id: string; kind: string; siteId: string | null; payload: unknown; maxAttempts: number; runAt: string; dedupKey: string | null; now: string;
}

const jobInsert = preparedQuery((db, p: Omit<NewJob, 'payload'> & { payload: string }) => db.insertInto('jobs').values({
  id: p.id, kind: p.kind, site_id: p.siteId, payload: p.payload, status: 'QUEUED', attempts: 0, max_attempts: p.maxAttempts,
  run_at: p.runAt, lease_owner: null, lease_until: null, last_error: null, progress: null, result: null, dedup_key: p.dedupKey,
  created_date: p.now, updated_date: p.now,
}).onConflict((oc) => oc.doNothing()));

/**
 * Inserts a QUEUED job. With a dedup key already waiting (QUEUED) for this kind nothing is inserted
 * and the waiting job's id is answered instead.
 */
export async function insertJob(db: Executor, job: NewJob): Promise<{ id: string; inserted: boolean }> {
  const res = await jobInsert.run(db, { ...job, payload: toJson(job.payload) });
  if (Number(res.numAffectedRows ?? 0) > 0 || job.dedupKey === null) return { id: job.id, inserted: true };
  const waiting = await db.selectFrom('jobs').select('id').where('kind', '=', job.kind).where('dedup_key', '=', job.dedupKey)
    .where('status', '=', indexedState('QUEUED')).executeTakeFirst();
  return { id: waiting?.id ?? job.id, inserted: false };
}

export async function findJobRecord(db: Executor, id: string): Promise<JobRecord | undefined> {
  const r = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return r && toRecord(r);
}

/**
 * Leases up to `limit` jobs of the given kinds: QUEUED ones that are due, and RUNNING ones whose lease
 * expired (their process died; never the claimer's own: a job it still runs only looks expired when
 * its event loop stalled past the lease). Each claim counts an attempt. One statement, so the claim is atomic
 * on both dialects: SQLite has a single writer, PostgreSQL's SKIP LOCKED lets processes claim side
 * by side without waiting for (or taking) each other's rows.
 */
export async function claimJobs(db: Executor, dialect: DialectName, claim: { owner: string; kinds: readonly string[]; now: string; leaseUntil: string; limit: number }): Promise<JobRecord[]> {
  if (claim.kinds.length === 0 || claim.limit <= 0) return [];
  const lock = dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const kinds = sql.join(claim.kinds.map((k) => sql`${k}`));
  // The pick is a materialized CTE, run once: as `WHERE id IN (SELECT ... LIMIT n SKIP LOCKED)`
  // PostgreSQL may re-run the subquery per row under contention and lease far more than `limit` rows.
  const result = await sql<JobsTable>`
    WITH picked AS MATERIALIZED (
      SELECT j.id FROM jobs j
      WHERE j.kind IN (${kinds})
        AND ((j.status = 'QUEUED' AND j.run_at <= ${claim.now})
          OR (j.status = 'RUNNING' AND j.lease_until < ${claim.now} AND j.lease_owner <> ${claim.owner}))
      ORDER BY j.run_at, j.created_date
      LIMIT ${claim.limit}
      ${lock}
    )
    UPDATE jobs SET status = 'RUNNING', lease_owner = ${claim.owner}, lease_until = ${claim.leaseUntil}, attempts = attempts + 1, updated_date = ${claim.now}
    WHERE id IN (SELECT id FROM picked)
    AND ((status = 'QUEUED' AND run_at <= ${claim.now}) OR (status = 'RUNNING' AND lease_until < ${claim.now}))
    RETURNING *`.execute(db);
  return result.rows.map(toRecord);
}

/** Extends a lease; false when the job is no longer ours (it expired and another process took it). */
export async function renewLease(db: Executor, id: string, owner: string, leaseUntil: string): Promise<boolean> {
  const res = await db.updateTable('jobs').set({ lease_until: leaseUntil }).where('id', '=', id).where('lease_owner', '=', owner)
    .where('status', '=', 'RUNNING').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export type JobOutcome =
  | { status: 'SUCCEEDED'; result: unknown }
  | { status: 'FAILED'; error: string }
  /** Back to QUEUED at `runAt`; `countAttempt: false` gives the attempt back (the process stopped, nothing failed). */
  | { status: 'QUEUED'; runAt: string; error: string | null; countAttempt: boolean };

const settleSucceeded = preparedQuery((db, p: { id: string; owner: string; result: unknown; now: string }) =>
  db.updateTable('jobs').set({ lease_owner: null, lease_until: null, updated_date: p.now, status: 'SUCCEEDED', result: p.result, last_error: null })
    .where('id', '=', p.id).where('lease_owner', '=', p.owner).where('status', '=', 'RUNNING'));

/** Ends the lease with an outcome; only the lease holder may. False when the lease was lost. */
export async function settleJob(db: Executor, id: string, owner: string, outcome: JobOutcome, now: string): Promise<boolean> {
  // Nearly every job succeeds: that settle is compiled once.
  if (outcome.status === 'SUCCEEDED') {
    const res = await settleSucceeded.run(db, { id, owner, result: outcome.result === undefined ? null : toJson(outcome.result), now });
    return Number(res.numAffectedRows) === 1;
  }
  const base = { lease_owner: null, lease_until: null, updated_date: now };
  const set = outcome.status === 'FAILED' ? { ...base, status: 'FAILED', last_error: outcome.error }
    // Back in the queue without its dedup key: another job may hold the key meanwhile (one waiting job per key).
    : { ...base, status: 'QUEUED', run_at: outcome.runAt, last_error: outcome.error, dedup_key: null, ...(outcome.countAttempt ? {} : { attempts: sql<number>`attempts - 1` }) };
  const res = await db.updateTable('jobs').set(set).where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'RUNNING').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function saveProgress(db: Executor, id: string, owner: string, progress: unknown, now: string): Promise<void> {
  await db.updateTable('jobs').set({ progress: toJson(progress), updated_date: now }).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** Deletes finished jobs last changed before `before`, at most `limit` (retention). */
export async function pruneFinishedJobs(db: Executor, before: string, limit: number): Promise<number> {
  const res = await db.deleteFrom('jobs').where('id', 'in', (eb) => eb.selectFrom('jobs').select('id')
    .where('status', 'in', [indexedState('SUCCEEDED'), indexedState('FAILED')]).where('updated_date', '<', before).limit(limit)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
