import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { waitFor } from './events-support.js';
import { claimedByADeadProcess } from './jobs-support.js';
import { createLogger, createServer, type Server } from '../src/server.js';
import { defineJobKind, JobKinds, type JobKind } from '../src/jobs/kinds.js';
import { JobInterrupted, PermanentJobError } from '../src/jobs/errors.js';
import { JOB_CONCURRENCY, JobRunner } from '../src/jobs/runner.js';
import { enqueueJob, getJob } from '../src/jobs/service.js';
import { insertJob } from '../src/jobs/store.js';
import { DEFAULT_JOBS_SETTINGS, type JobsSettings } from '../src/jobs/settings.js';
import { inTransaction } from '../src/storage/transaction.js';
import { countingQueries } from '../src/storage/query-counter.js';
import { JOBS_RETENTION_MS, pruneJobsJob } from '../src/jobs/prune.js';
import type { AppDeps } from '../src/http/context.js';

/** The job runner on a real database: retries, leases, two runners, dedup keys, stop. Test kinds are unknown to the server's own runner. */
let t: TestServer;
const FAST: JobsSettings = { ...DEFAULT_JOBS_SETTINGS, pollIntervalMs: 20, leaseMs: 5_000, backoffBaseMs: 50, backoffMaxMs: 400 };
const runners: JobRunner[] = [];

beforeAll(async () => { t = await startTestServer(); }, 120_000);
afterAll(async () => {
  for (const r of runners) await r.stop();
  await t?.close();
});

function runner(kinds: JobKind<never>[], settings: Partial<JobsSettings> = {}, deps: AppDeps = t.server.deps, concurrency?: number): JobRunner {
  const r = new JobRunner(deps, new JobKinds(kinds), { ...FAST, ...settings }, concurrency);
  runners.push(r);
  r.start();
  return r;
}

const db = () => t.server.deps.storage.db;
const finished = async (id: string) => ['SUCCEEDED', 'FAILED'].includes((await getJob(db(), id))?.status ?? '');
const finishedIn = async (server: TestServer, id: string) => ['SUCCEEDED', 'FAILED'].includes((await getJob(server.server.deps.storage.db, id))?.status ?? '');

describe('job runner', () => {
  it('retries with growing delays, then FAILED with the last error kept; onFailed runs once', async () => {
    const runs: number[] = [];
    const failures: string[] = [];
    const kind = defineJobKind<{ n: number }>({
      kind: 'test.always-fails', maxAttempts: 3,
      async run(ctx, p) {
        runs.push(Date.now());
        throw new Error(`boom ${ctx.job.attempt} of ${p.n}`);
      },
      async onFailed(_ctx, _p, error) { failures.push(error); },
    });
    runner([kind]);
    const { jobId } = await enqueueJob(db(), kind, { n: 7 });
    await waitFor(() => finished(jobId), 10_000, 'the job to fail');
    const job = (await getJob(db(), jobId))!;
    expect(job).toMatchObject({ status: 'FAILED', attempts: 3, maxAttempts: 3, lastError: 'boom 3 of 7', leaseOwner: null });
    expect(failures).toEqual(['boom 3 of 7']);
    expect(runs).toHaveLength(3);
    // Base 50 ms doubling (x1.0 to x1.2 jitter): at least 50 then 100 ms apart.
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(50);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(100);
  });

  it('a PermanentJobError fails at once; a success keeps its result and progress', async () => {
    const permanent = defineJobKind<Record<string, never>>({ kind: 'test.permanent', async run() { throw new PermanentJobError('no use retrying'); } });
    const ok = defineJobKind<{ a: number }>({
      kind: 'test.ok',
      async run(ctx, p) {
        await ctx.saveProgress({ done: p.a });
        return { doubled: p.a * 2 };
      },
    });
    runner([permanent, ok]);
    const a = await enqueueJob(db(), permanent, {});
    const b = await enqueueJob(db(), ok, { a: 21 }, { siteId: t.site.id });
    await waitFor(async () => (await finished(a.jobId)) && finished(b.jobId), 10_000, 'both jobs');
    expect(await getJob(db(), a.jobId)).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'PermanentJobError: no use retrying' });
    expect(await getJob(db(), b.jobId)).toMatchObject({ status: 'SUCCEEDED', attempts: 1, siteId: t.site.id, progress: { done: 21 }, result: { doubled: 42 }, lastError: null });
  });

  it('claims again a job whose process died (lease expired); one out of attempts fails without running', async () => {
    const ran: string[] = [];
    const kind = defineJobKind<{ tag: string }>({ kind: 'test.reclaim', maxAttempts: 2, async run(_ctx, p) { ran.push(p.tag); } });
    const again = await claimedByADeadProcess(db(), kind, { tag: 'again' });
    const spent = await inTransaction(db(), async (trx) => {
      const id = await claimedByADeadProcess(trx, kind, { tag: 'spent' });
      await trx.updateTable('jobs').set({ attempts: 2, last_error: 'killed' }).where('id', '=', id).execute();
      return id;
    });
    runner([kind]);
    await waitFor(async () => (await finished(again)) && finished(spent), 10_000, 'both jobs');
    expect(await getJob(db(), again)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(await getJob(db(), spent)).toMatchObject({ status: 'FAILED', attempts: 3, lastError: 'killed' });
    expect(ran).toEqual(['again']);
  });

  it('renews the lease of a long job, so no other runner takes it', async () => {
    let runs = 0;
    const kind = defineJobKind<Record<string, never>>({
      kind: 'test.long',
      async run() {
        runs += 1;
        await new Promise((r) => setTimeout(r, 1_000));
      },
    });
    const first = runner([kind], { leaseMs: 300 });
    const { jobId } = await enqueueJob(db(), kind, {});
    await waitFor(async () => (await getJob(db(), jobId))?.status === 'RUNNING', 5_000, 'the first claim');
    runner([kind], { leaseMs: 300 });
    await waitFor(() => finished(jobId), 10_000, 'the long job');
    expect(runs).toBe(1);
    expect(await getJob(db(), jobId)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    await first.stop();
  });

  it('a dedup key holds one waiting job per kind; once it runs, the key is free', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const kind = defineJobKind<{ n: number }>({ kind: 'test.dedup', async run() { await gate; } });
    const a = await enqueueJob(db(), kind, { n: 1 }, { dedupKey: 'k' });
    const b = await enqueueJob(db(), kind, { n: 2 }, { dedupKey: 'k' });
    const other = await enqueueJob(db(), kind, { n: 3 }, { dedupKey: 'other' });
    expect(b).toEqual({ jobId: a.jobId, inserted: false });
    expect(a.inserted && other.inserted).toBe(true);
    runner([kind]);
    await waitFor(async () => (await getJob(db(), a.jobId))?.status === 'RUNNING', 5_000, 'the first to run');
    const c = await enqueueJob(db(), kind, { n: 4 }, { dedupKey: 'k' });
    expect(c.inserted).toBe(true);
    expect(c.jobId).not.toBe(a.jobId);
    release();
    await waitFor(async () => (await finished(a.jobId)) && (await finished(c.jobId)) && finished(other.jobId), 10_000, 'all three');
    expect((await getJob(db(), a.jobId))!.payload).toEqual({ n: 1 });
  });

  it('a periodic kind with hasWork is queued only while it answers true: nothing is written for it meanwhile', async () => {
    let work = false;
    let asked = 0;
    const runs: number[] = [];
    const kind = defineJobKind<Record<string, never>>({
      kind: 'test.periodic-has-work', everyMs: () => 30,
      async hasWork() { asked++; return work; },
      async run() { runs.push(Date.now()); work = false; },
    });
    const jobsOfKind = async () => (await db().selectFrom('jobs').select('id').where('kind', '=', kind.kind).execute()).length;
    runner([kind]);
    await waitFor(async () => asked >= 5, 5_000, 'five periods asked');
    expect([runs.length, await jobsOfKind()]).toEqual([0, 0]);
    work = true;
    await waitFor(async () => runs.length === 1, 5_000, 'the run once there is work');
    const asking = asked;
    await waitFor(async () => asked >= asking + 5, 5_000, 'five more periods asked');
    expect([runs.length, await jobsOfKind()]).toEqual([1, 1]);
  });

  it('a queued job wakes only its own slot group; the others wait for the poll (or a full wake)', async () => {
    const ran: string[] = [];
    const own = (name: string) => defineJobKind<Record<string, never>>({ kind: name, concurrency: () => 1, async run() { ran.push(name); } });
    const a = own('test.group-a');
    const b = own('test.group-b');
    const r = runner([a, b], { pollIntervalMs: 60_000 });
    await r.whenIdle();
    // B is due but queued as another process would queue it: nothing here wakes for it.
    const { id: bId } = await insertJob(db(), { id: randomUUID(), kind: b.kind, siteId: null, payload: {}, maxAttempts: 1, runAt: new Date().toISOString(), dedupKey: null, now: new Date().toISOString() });
    const { jobId: aId } = await enqueueJob(db(), a, {});
    await waitFor(() => finished(aId), 5_000, 'job A');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran).toEqual(['test.group-a']);
    expect((await getJob(db(), bId))?.status).toBe('QUEUED');
    await r.whenIdle(); // a full wake claims every group, as the poll does
    await waitFor(() => finished(bId), 5_000, 'job B');
    expect(ran).toEqual(['test.group-a', 'test.group-b']);
  });

  it('claims once per wake: a claim that left slots free is not repeated when its job ends', async () => {
    // The runner's statements, counted: its loop runs in the async context that started it.
    const counted = await startTestServer({ countQueries: true });
    try {
      const ran: string[] = [];
      const shared = defineJobKind<{ tag: string }>({ kind: 'test.claims-shared', async run(_ctx, p) { ran.push(p.tag); } });
      const single = defineJobKind<{ tag: string }>({ kind: 'test.claims-single', concurrency: () => 1, async run(_ctx, p) { ran.push(p.tag); } });
      const r = new JobRunner(counted.server.deps, new JobKinds([shared, single]), { ...FAST, pollIntervalMs: 60_000 });
      const count = await countingQueries(async (c) => { r.start(); return c; });
      try {
        await r.whenIdle(); // claims for every slot group, nothing found
        const start = count.statements;
        const { jobId } = await enqueueJob(counted.server.deps.storage.db, shared, { tag: 'one' });
        await waitFor(() => finishedIn(counted, jobId), 5_000, 'the shared job');
        await new Promise((resolve) => setTimeout(resolve, 100));
        // One claim (one job, four free slots: nothing left behind), one settle; no claim after the job ended.
        expect(count.statements - start).toBe(2);
        // A group of one slot fills with its first job: the second is claimed when the first ends.
        const before = count.statements;
        const ids = await inTransaction(counted.server.deps.storage.db, async (trx) => [
          (await enqueueJob(trx, single, { tag: 'first' })).jobId, (await enqueueJob(trx, single, { tag: 'second' })).jobId,
        ]);
        await waitFor(async () => (await Promise.all(ids.map((id) => finishedIn(counted, id)))).every(Boolean), 5_000, 'both single-slot jobs');
        await waitFor(() => count.statements - before >= 5, 5_000, 'the claim after the second job');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(ran).toEqual(['one', 'first', 'second']);
        // claim (1 of 2), settle, claim (the second), settle, claim (nothing: the group is drained).
        expect(count.statements - before).toBe(5);
      } finally {
        await r.stop();
      }
    } finally {
      await counted.close();
    }
  });

  it('stop hands a running job back without counting the attempt', async () => {
    let started = false;
    const kind = defineJobKind<Record<string, never>>({
      kind: 'test.interruptible',
      async run(ctx) {
        started = true;
        while (!ctx.signal.aborted) await new Promise((r) => setTimeout(r, 10));
        throw new JobInterrupted();
      },
    });
    const r = runner([kind]);
    const { jobId } = await enqueueJob(db(), kind, {});
    await waitFor(() => started, 5_000, 'the job to start');
    await r.stop();
    expect(await getJob(db(), jobId)).toMatchObject({ status: 'QUEUED', attempts: 0, leaseOwner: null });
  });
});

describe('two runners', () => {
  /** On PostgreSQL two servers (two pools) on one schema; on SQLite two runners on one handle (one writer per file). */
  it('never run the same job twice, and share the work', async () => {
    const JOBS = 120;
    const runs = new Map<string, string[]>();
    const seen = new Set<string>();
    /** Jobs each runner runs at this moment, and the most it ever ran at once (never above its JOB_CONCURRENCY slots). */
    const running = new Map<string, number>();
    let mostAtOnce = 0;
    /** How long a job holds its slot waiting for the other runner's first claim (so neither can take every job alone under load). */
    const SHARE_WAIT_MS = 10_000;
    const kind = defineJobKind<{ i: number }>({
      kind: 'test.shared',
      async run(ctx) {
        runs.set(ctx.job.id, [...(runs.get(ctx.job.id) ?? []), ctx.runnerId]);
        seen.add(ctx.runnerId);
        const now = (running.get(ctx.runnerId) ?? 0) + 1;
        running.set(ctx.runnerId, now);
        mostAtOnce = Math.max(mostAtOnce, now);
        const until = Date.now() + SHARE_WAIT_MS;
        while (seen.size < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 20));
        running.set(ctx.runnerId, running.get(ctx.runnerId)! - 1);
      },
    });
    let second: Server | undefined;
    try {
      const otherDeps = t.server.deps.storage.dialect === 'postgres'
        ? (second = await createServer({ ...t.config, jobs: { ...t.config.jobs, runnerEnabled: false } }, createLogger('silent'))).deps
        : t.server.deps;
      await getJob(otherDeps.storage.db, 'none'); // the second pool connected before the work starts
      const ids = await inTransaction(db(), async (trx) => {
        const out: string[] = [];
        for (let i = 0; i < JOBS; i++) out.push((await enqueueJob(trx, kind, { i })).jobId);
        return out;
      });
      const a = runner([kind], {}, t.server.deps);
      const b = runner([kind], {}, otherDeps);
      await waitFor(async () => {
        const left = await db().selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'test.shared').where('status', '!=', 'SUCCEEDED').executeTakeFirstOrThrow();
        return Number(left.n) === 0;
      }, 30_000, 'every shared job');
      expect([...runs.keys()].sort()).toEqual([...ids].sort());
      expect([...runs.values()].every((r) => r.length === 1)).toBe(true);
      const attempts = await db().selectFrom('jobs').select('attempts').where('kind', '=', 'test.shared').execute();
      expect(attempts.every((j) => Number(j.attempts) === 1)).toBe(true);
      expect(mostAtOnce).toBeLessThanOrEqual(JOB_CONCURRENCY);
      const byRunner = new Set([...runs.values()].flat());
      expect(byRunner).toEqual(new Set([a.owner, b.owner]));
      await a.stop();
      await b.stop();
    } finally {
      await second?.close();
    }
  }, 60_000);
});

describe('retention', () => {
  it('jobs.prune deletes finished jobs older than JOBS_RETENTION_MS, never queued ones', async () => {
    const kind = defineJobKind<{ n: number }>({ kind: 'test.old', async run() { return undefined; } });
    const old = new Date(Date.now() - JOBS_RETENTION_MS - 60_000).toISOString();
    const ids = await inTransaction(db(), async (trx) => {
      const out: string[] = [];
      for (let n = 0; n < 3; n++) out.push((await enqueueJob(trx, kind, { n })).jobId);
      return out;
    });
    await db().updateTable('jobs').set({ status: 'SUCCEEDED', updated_date: old }).where('id', '=', ids[0]!).execute();
    await db().updateTable('jobs').set({ status: 'FAILED', updated_date: old }).where('id', '=', ids[1]!).execute();
    await db().updateTable('jobs').set({ updated_date: old }).where('id', '=', ids[2]!).execute(); // still QUEUED
    runner([pruneJobsJob]); // this one or the server's own runner prunes: both know the kind
    await waitFor(async () => (await getJob(db(), ids[1]!)) === undefined, 10_000, 'the pruning');
    expect(await getJob(db(), ids[0]!)).toBeUndefined();
    expect(await getJob(db(), ids[1]!)).toBeUndefined();
    expect(await getJob(db(), ids[2]!)).toMatchObject({ status: 'QUEUED' });
  });
});
