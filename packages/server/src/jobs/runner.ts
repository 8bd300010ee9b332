import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../http/context.js';
import type { Executor } from '../storage/database.js';
import { inTransaction } from '../storage/transaction.js';
import { JobDeferred, JobInterrupted, PermanentJobError } from './errors.js';
import type { JobContext, JobKind, JobKinds } from './kinds.js';
import type { JobsSettings } from './settings.js';
import { claimJobs, insertJob, renewLease, saveProgress, settleJob, type JobOutcome, type JobRecord } from './store.js';

/** Jobs one process runs at the same time. */
export const JOB_CONCURRENCY = 4;
/** Attempts of a kind that does not say otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** Random extra on each retry delay, as a share of it, so retries of many jobs spread out. */
export const JITTER_SHARE = 0.2;
/** Characters of an error message kept on the job. */
const ERROR_TEXT_MAX = 1_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Runners by the database they claim from, so a commit can wake the local one (enqueueJob). */
/** Dedup key of a periodic kind's waiting job; enqueue with it to run such a kind now (still one waiting). */
export const PERIODIC_DEDUP_KEY = 'periodic';

const runnersByDb = new WeakMap<object, Set<JobRunner>>();

/**
 * Wakes the runners of this process that claim from `db` (other processes find the job by polling);
 * with `kind`, only that kind's slot group is claimed for, not every group.
 */
export function wakeRunners(db: Executor, kind?: string): void {
  for (const runner of runnersByDb.get(db) ?? []) runner.wake(kind);
}

export function exponentialBackoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.slice(0, ERROR_TEXT_MAX);
}

/**
 * Claims due jobs of its kinds and runs up to JOB_CONCURRENCY at once; sleeps `pollIntervalMs` when
 * there is nothing to do, or until a local commit wakes it. Each running job's lease is renewed every
 * third of `leaseMs`; a job whose process died is claimed again once its lease expires.
 */
export class JobRunner {
  /** Lease owner id of this runner. */
  readonly owner = randomUUID();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private sleeping: (() => void) | undefined;
  private again = false;
  /**
   * Kinds to claim for in the next round; 'all' after a poll interval, on start and for whenIdle.
   * A commit that queues one job wakes its own slot group only: claiming every group after every
   * commit cost about ten claim statements per add-to-cart.
   */
  private due: Set<string> | 'all' = 'all';
  private readonly abort = new AbortController();
  private readonly active = new Set<Promise<void>>();
  /** Running jobs per slot group ('' is the shared JOB_CONCURRENCY slots). */
  private readonly busy = new Map<string, number>();
  /**
   * Slot groups that may have due jobs left behind: their last claim filled every free slot, or a
   * wake found no free slot. Only these are claimed for again when one of their jobs ends; a claim
   * that took fewer jobs than it had slots took everything due (new jobs wake the runner themselves).
   */
  private readonly saturated = new Set<string>();
  /** When each periodic kind is next queued by this runner. */
  private readonly nextPeriodic = new Map<string, number>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: AppDeps, private readonly kinds: JobKinds, private readonly settings: JobsSettings, private readonly concurrency = JOB_CONCURRENCY) {}

  start(): void {
    if (this.loop) return;
    const db = this.deps.storage.db;
    const set = runnersByDb.get(db) ?? new Set();
    set.add(this);
    runnersByDb.set(db, set);
    this.loop = this.run();
  }

  /** Stops claiming, asks running handlers to stop (JobInterrupted hands their job back) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    runnersByDb.get(this.deps.storage.db)?.delete(this);
    this.abort.abort();
    this.wake();
    await this.loop;
    while (this.active.size > 0) await Promise.all([...this.active]);
    this.releaseIdleWaiters();
  }

  /** Looks for jobs now rather than at the next poll: of `kind`'s slot group, or of every group. */
  wake(kind?: string): void {
    if (kind === undefined) this.due = 'all';
    else if (this.due !== 'all') this.due.add(kind);
    this.again = true;
    this.sleeping?.();
  }

  /**
   * Resolves once a round found nothing due and no job of this runner is running (tests, shutdown).
   * Jobs waiting for a retry later do not count.
   */
  whenIdle(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.wake();
    return done;
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.again = false;
      const due = this.due;
      this.due = new Set();
      let claimed = 0;
      try {
        for (const kind of await this.queuePeriodic()) if (due !== 'all') due.add(kind);
        claimed = await this.claimRound(due);
      } catch (err) {
        this.deps.log.error({ err }, 'job runner: claiming failed');
      }
      if (claimed === 0 && this.active.size === 0 && !this.again) this.releaseIdleWaiters();
      if (this.stopped || claimed > 0 || this.again) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => { this.due = 'all'; resolve(); }, this.sleepMs());
        this.sleeping = () => { clearTimeout(timer); resolve(); };
      });
      this.sleeping = undefined;
    }
  }

  /** The poll interval, shorter when a periodic kind comes due before it. */
  private sleepMs(): number {
    const now = Date.now();
    let ms = this.settings.pollIntervalMs;
    for (const due of this.nextPeriodic.values()) ms = Math.min(ms, Math.max(0, due - now));
    return ms;
  }

  /** Queues each periodic kind that is due (one waiting job per kind across processes: dedup key); answers those kinds. */
  private async queuePeriodic(): Promise<string[]> {
    const queued: string[] = [];
    const now = Date.now();
    for (const name of this.kinds.names()) {
      const kind = this.kinds.get(name)!;
      const every = kind.everyMs?.(this.deps);
      if (every === undefined || (this.nextPeriodic.get(name) ?? 0) > now) continue;
      this.nextPeriodic.set(name, now + every);
      if (kind.hasWork && !(await kind.hasWork(this.deps))) continue;
      await insertJob(this.deps.storage.db, {
        id: randomUUID(), kind: name, siteId: null, payload: {}, maxAttempts: kind.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        runAt: iso(now), dedupKey: PERIODIC_DEDUP_KEY, now: iso(now),
      });
      queued.push(name);
    }
    return queued;
  }

  /** Slot group of a kind: its own name when it has its own slots or lease (JOB_CONCURRENCY slots unless it says), else the shared ''. */
  private groupOf(kind: JobKind<unknown>): string {
    return kind.concurrency !== undefined || kind.leaseMs !== undefined ? kind.kind : '';
  }

  /** One claim per slot group that holds a due kind; a group that got jobs stays due (there may be more). */
  private async claimRound(due: Set<string> | 'all'): Promise<number> {
    const groups = new Map<string, { kinds: string[]; limit: number; leaseMs: number }>();
    for (const name of this.kinds.names()) {
      const kind = this.kinds.get(name)!;
      const key = this.groupOf(kind);
      const group = groups.get(key) ?? {
        kinds: [], limit: kind.concurrency?.(this.deps) ?? this.concurrency, leaseMs: kind.leaseMs?.(this.deps) ?? this.settings.leaseMs,
      };
      group.kinds.push(name);
      groups.set(key, group);
    }
    const { db, dialect } = this.deps.storage;
    let claimed = 0;
    for (const group of groups.values()) {
      if (due !== 'all' && !group.kinds.some((k) => due.has(k))) continue;
      const slot = this.groupOf(this.kinds.get(group.kinds[0]!)!);
      const free = group.limit - (this.busy.get(slot) ?? 0);
      if (this.stopped) continue;
      if (free <= 0) {
        this.saturated.add(slot);
        continue;
      }
      const now = Date.now();
      const jobs = await claimJobs(db, dialect, { owner: this.owner, kinds: group.kinds, now: iso(now), leaseUntil: iso(now + group.leaseMs), limit: free });
      for (const job of jobs) this.launch(job, slot, group.leaseMs);
      if (jobs.length < free) this.saturated.delete(slot);
      else this.saturated.add(slot);
      claimed += jobs.length;
    }
    return claimed;
  }

  private launch(job: JobRecord, slot: string, leaseMs: number): void {
    this.busy.set(slot, (this.busy.get(slot) ?? 0) + 1);
    const running: Promise<void> = this.execute(job, leaseMs)
      .catch((err: unknown) => this.deps.log.error({ err, jobId: job.id, kind: job.kind }, 'job runner: recording the outcome failed'))
      .finally(() => {
        this.busy.set(slot, (this.busy.get(slot) ?? 1) - 1);
        this.active.delete(running);
        // Its slot is free: look for more of its group when the last claim may have left some (or
        // when someone waits for the runner to be idle, which only a round can tell).
        if (this.saturated.has(slot) || this.idleWaiters.length > 0) this.wake(job.kind);
      });
    this.active.add(running);
  }

  private async execute(job: JobRecord, leaseMs: number): Promise<void> {
    const { db } = this.deps.storage;
    const kind = this.kinds.get(job.kind)!;
    const ctx: JobContext = {
      deps: this.deps, db, log: this.deps.log.child({ jobId: job.id, kind: job.kind }), runnerId: this.owner,
      job: { id: job.id, kind: job.kind, siteId: job.siteId, attempt: job.attempts, maxAttempts: job.maxAttempts },
      signal: this.abort.signal,
      saveProgress: (progress) => saveProgress(db, job.id, this.owner, progress, iso(Date.now())),
    };
    const settle = (outcome: JobOutcome, trx: Executor = db) => settleJob(trx, job.id, this.owner, outcome, iso(Date.now()));
    const fail = async (error: string) => {
      await inTransaction(db, async (trx) => {
        if (await settle({ status: 'FAILED', error }, trx)) await kind.onFailed?.(ctx, job.payload, error, trx);
      });
      ctx.log.warn({ attempts: job.attempts, error }, 'job failed');
    };
    if (job.attempts > job.maxAttempts) {
      // Claimed again after its last attempt's process died (its lease expired): do not start it once more.
      await fail(job.lastError ?? `its process stopped during the last of ${job.maxAttempts} attempts`);
      return;
    }
    const heartbeat = setInterval(() => {
      renewLease(db, job.id, this.owner, iso(Date.now() + leaseMs))
        .then((mine) => { if (!mine) ctx.log.warn('job lease lost'); })
        .catch((err: unknown) => ctx.log.warn({ err }, 'job lease renewal failed'));
    }, Math.max(1, Math.floor(leaseMs / 3)));
    try {
      const result = await kind.run(ctx, job.payload);
      await settle({ status: 'SUCCEEDED', result: result ?? null });
    } catch (err) {
      if (err instanceof JobDeferred) {
        await settle({ status: 'QUEUED', runAt: iso(Date.now() + err.delayMs), error: job.lastError, countAttempt: false });
        return;
      }
      if (err instanceof JobInterrupted || (this.stopped && this.abort.signal.aborted && !(err instanceof PermanentJobError))) {
        await settle({ status: 'QUEUED', runAt: iso(Date.now()), error: job.lastError, countAttempt: false });
        return;
      }
      const error = errorText(err);
      if (err instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
        await fail(error);
        return;
      }
      const base = kind.backoffMs?.(job.attempts, this.deps)
        ?? exponentialBackoffMs(job.attempts, this.settings.backoffBaseMs, this.settings.backoffMaxMs);
      const delay = Math.round(base * (1 + Math.random() * JITTER_SHARE));
      ctx.log.info({ attempt: job.attempts, retryInMs: delay, error }, 'job attempt failed; retrying');
      await settle({ status: 'QUEUED', runAt: iso(Date.now() + delay), error, countAttempt: true });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
