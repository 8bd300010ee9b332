import type { Logger } from 'pino';
import type { AppDeps } from '../http/context.js';
import type { Db, Executor } from '../storage/database.js';

/** What a handler gets besides its payload. */
export interface JobContext {
  deps: AppDeps;
  /** The root database handle (handlers open their own transactions). */
  db: Db;
  log: Logger;
  /** Lease owner id of the runner running it (logs, tests). */
  runnerId: string;
  job: { id: string; kind: string; siteId: string | null; attempt: number; maxAttempts: number };
  /** Aborted when the process stops: a long handler checks it between steps and throws `JobInterrupted`. */
  signal: AbortSignal;
  /** Stores a progress document on the job row (visible through getJob). */
  saveProgress(progress: unknown): Promise<void>;
}

export interface JobKind<P> {
  kind: string;
  /** Does the work; what it returns is kept as the job's result. Throwing retries (or fails, see errors.ts). */
  run(ctx: JobContext, payload: P): Promise<unknown>;
  /** Attempts before the job is FAILED (default DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Delay before attempt `attempt + 1`, without jitter (default: the runner's exponential backoff). */
  backoffMs?(attempt: number, deps: AppDeps): number;
  /**
   * Own slots for this kind (default: it shares JOB_CONCURRENCY with the other kinds without one).
   * For kinds that mostly wait on the network, like webhook deliveries.
   */
  concurrency?(deps: AppDeps): number;
  /** Lease of this kind (default: the runner's leaseMs). */
  leaseMs?(deps: AppDeps): number;
  /**
   * Queued by every runner that knows the kind, this often (and at start), with a dedup key, so one
   * waits at a time: periodic upkeep such as retention pruning. The payload must be `{}`.
   */
  everyMs?(deps: AppDeps): number;
  /**
   * For a periodic kind that runs often: one read telling whether a run would find anything. When it
   * answers false the periodic job is not queued, so an idle server writes nothing on the kind's
   * account (queueing, claiming and settling a job are three writes). Work it misses by a race waits
   * for the next period, as it would for a job already queued.
   */
  hasWork?(deps: AppDeps): Promise<boolean>;
  /** Called once, with the transaction that marks the job FAILED (the domain records it on its own rows). */
  onFailed?(ctx: JobContext, payload: P, error: string, trx: Executor): Promise<void>;
}

/** A kind whose payload type is checked where it is enqueued and where it runs. */
export function defineJobKind<P>(kind: JobKind<P>): JobKind<P> {
  return kind;
}

/** Job kinds by name; createServer builds one from every domain's exported kinds. */
export class JobKinds {
  private readonly byName = new Map<string, JobKind<unknown>>();

  constructor(kinds: readonly JobKind<never>[] = []) {
    for (const k of kinds) this.register(k);
  }

  register<P>(kind: JobKind<P>): this {
    if (this.byName.has(kind.kind)) throw new Error(`job kind ${kind.kind} is registered twice`);
    // The payload type is checked at enqueueJob and inside run; here every kind is stored alike.
    this.byName.set(kind.kind, kind as unknown as JobKind<unknown>);
    return this;
  }

  get(name: string): JobKind<unknown> | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
