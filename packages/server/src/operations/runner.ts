import { randomUUID } from 'node:crypto';
import type { AppDeps, Caller, RequestContext } from '../http/context.js';
import { ApplicationError, badRequest, ValidationError, WireError, type FieldViolation, type HttpStatus } from '../http/errors.js';
import { callerKey } from '../http/idempotency.js';
import type { Executor } from '../storage/database.js';
import { readJson } from '../storage/dialect.js';
import { hashRequest, IDEMPOTENCY_DEFAULT_TTL_MS, isValidIdempotencyKey, withIdempotency } from '../storage/idempotency.js';
import { inTransaction } from '../storage/transaction.js';
import { getSite } from '../domains/sites/service.js';
import { registeredOperation, registeredOperationNames, type Operation, type OperationContext } from './define.js';
import { claimOperation, findOperation, insertOperation, listAbandoned, saveProgress, UNFINISHED, type OperationStatus, type OperationTable, type ProgressChange } from './store.js';

/** A runner's hold on an operation; renewed by every progress write. Recovery takes operations whose lease ran out. */
export const OPERATION_LEASE_MS = 60_000;
/** Attempts of one step before its failure counts as permanent (a crash during the step counts as one). */
export const OPERATION_STEP_MAX_ATTEMPTS = 5;
/** Attempts of one compensation before the operation is left FAILED for a person to look at. */
export const OPERATION_COMPENSATION_MAX_ATTEMPTS = 5;
/** Pause before retry n of a step or compensation: n x this. */
export const OPERATION_RETRY_DELAY_MS = 100;
/** How long a keyed repeat waits for an operation another runner is driving before answering its current status. */
export const OPERATION_WAIT_MS = 10_000;
export const OPERATION_POLL_MS = 50;
/** Most operations one recoverOperations call takes on. */
export const OPERATION_RECOVERY_BATCH = 100;
/** How long an operation key answers repeats. */
export const OPERATION_KEY_TTL_MS = IDEMPOTENCY_DEFAULT_TTL_MS;
/** Largest input or state (JSON bytes) an operation stores. */
export const OPERATION_DOCUMENT_MAX_BYTES = 1_000_000;

/** Why an operation was compensated (or failed): the wire error of the step that failed for good. */
export interface OperationError {
  step: string;
  status: HttpStatus;
  code: string;
  description: string;
  data: Record<string, unknown>;
}

export interface OperationOutcome<S> {
  operationId: string;
  name: string;
  /** COMPLETED or COMPENSATED normally; RUNNING/COMPENSATING when a keyed repeat stopped waiting; FAILED when a compensation gave up. */
  status: OperationStatus;
  state: Partial<S>;
  error?: OperationError;
}

export interface RunOptions {
  /** Idempotency key: the same key (same caller, same input) returns the existing operation's outcome. */
  key?: string;
  /** Milliseconds since the epoch; tests move time forward. */
  clock?: () => number;
}

interface StoredContext { caller: Caller; origin: string; ip: string; requestId: string }

/** Thrown when another runner took the operation over: this runner stops, its open transaction rolls back. */
class LeaseLost extends Error {}

/**
 * Runs `op` to its end in this process and returns its outcome: every step in order, its progress
 * stored after each; a step failing for good (an ApplicationError / ValidationError, or
 * OPERATION_STEP_MAX_ATTEMPTS failures) has the completed steps compensated in reverse order. With a
 * key, a repeat returns the first run's outcome (waiting up to OPERATION_WAIT_MS while it runs);
 * another input under the key is refused with 409 IDEMPOTENCY_KEY_REUSED. `ctx.db` must be the
 * database, not a transaction: each step commits on its own.
 */
export async function runOperation<I, S extends object>(ctx: RequestContext, op: Operation<I, S>, input: I, options: RunOptions = {}): Promise<OperationOutcome<S>> {
  if (ctx.db.isTransaction) throw new Error('runOperation needs the database handle, not a transaction');
  if (registeredOperation(op.name) !== op) throw new Error(`Operation "${op.name}" was not made by defineOperation`);
  const clock = options.clock ?? Date.now;
  const owner = randomUUID();
  const inputJson = boundedJson(input, 'input');
  const create = async (db: Executor): Promise<string> => {
    const now = iso(clock());
    const id = randomUUID();
    const context: StoredContext = { caller: ctx.caller, origin: ctx.origin, ip: ctx.ip, requestId: ctx.requestId };
    await insertOperation(db, {
      id, site_id: ctx.site.id, name: op.name, input: inputJson, state: '{}', context: JSON.stringify(context),
      status: 'RUNNING', step: 0, attempts: 0, error: null,
      lease_owner: owner, lease_until: iso(clock() + OPERATION_LEASE_MS), created_at: now, updated_at: now,
    });
    return id;
  };

  let id: string;
  if (options.key !== undefined) {
    if (!isValidIdempotencyKey(options.key)) throw badRequest('INVALID_IDEMPOTENCY_KEY', 'The idempotency key is empty, too long or has characters outside A-Z a-z 0-9 _ . : ~ + = / -');
    const first = await withIdempotency<{ operationId: string }>(ctx.db, {
      siteId: ctx.site.id,
      scope: `operation:${op.name}:${callerKey(ctx.caller)}`,
      key: options.key,
      requestHash: hashRequest(op.name, input),
      ttlMs: OPERATION_KEY_TTL_MS,
      clock,
    }, async (trx) => ({ status: 201, body: { operationId: await create(trx) } }));
    if (first.replayed) return awaitOutcome<S>(ctx, first.body.operationId, clock);
    id = first.body.operationId;
  } else {
    id = await create(ctx.db);
  }
  const row = await findOperation(ctx.db, id);
  if (!row) throw new Error(`Operation ${id} vanished`);
  await drive(ctx.deps, row, owner, clock, ctx);
  return outcomeOf<S>(await mustFind(ctx.db, id));
}

/** The outcome of an operation someone else started: waits for it, or drives it when its runner is gone. */
async function awaitOutcome<S>(ctx: RequestContext, id: string, clock: () => number): Promise<OperationOutcome<S>> {
  const deadline = Date.now() + OPERATION_WAIT_MS;
  for (;;) {
    const row = await mustFind(ctx.db, id);
    if (!UNFINISHED.includes(row.status)) return outcomeOf<S>(row);
    const owner = randomUUID();
    if (await claimOperation(ctx.db, id, owner, iso(clock()), iso(clock() + OPERATION_LEASE_MS))) {
      await drive(ctx.deps, await mustFind(ctx.db, id), owner, clock, ctx);
      return outcomeOf<S>(await mustFind(ctx.db, id));
    }
    if (Date.now() >= deadline) return outcomeOf<S>(row);
    await sleep(OPERATION_POLL_MS);
  }
}

export interface RecoveryReport {
  /** Operations this call took over. */
  claimed: number;
  completed: number;
  compensated: number;
  failed: number;
  /** Taken over but left unfinished (another runner took them back, or the database failed). */
  unfinished: number;
}

/**
 * Finishes operations whose runner is gone (its lease ran out): the remaining steps, or the
 * compensations of a failed one. For the job system to call periodically and at start; safe to run
 * from several processes at once (each operation is claimed by one, and every local step or
 * compensation commits together with its progress, fenced on the claim). Only operations whose
 * definition this process has loaded are touched.
 */
export async function recoverOperations(deps: AppDeps, options: { clock?: () => number; limit?: number } = {}): Promise<RecoveryReport> {
  const clock = options.clock ?? Date.now;
  const db = deps.storage.db;
  const limit = Math.min(Math.max(options.limit ?? OPERATION_RECOVERY_BATCH, 1), OPERATION_RECOVERY_BATCH);
  const report: RecoveryReport = { claimed: 0, completed: 0, compensated: 0, failed: 0, unfinished: 0 };
  const ids = await listAbandoned(db, registeredOperationNames(), iso(clock()), limit);
  for (const id of ids) {
    const owner = randomUUID();
    if (!(await claimOperation(db, id, owner, iso(clock()), iso(clock() + OPERATION_LEASE_MS)))) continue;
    report.claimed += 1;
    try {
      await drive(deps, await mustFind(db, id), owner, clock);
    } catch (error) {
      deps.log.error({ err: error, operationId: id }, 'operation recovery stopped');
    }
    const status = (await mustFind(db, id)).status;
    if (status === 'COMPLETED') report.completed += 1;
    else if (status === 'COMPENSATED') report.compensated += 1;
    else if (status === 'FAILED') report.failed += 1;
    else report.unfinished += 1;
  }
  return report;
}

/** The stored outcome of an operation, or undefined. */
export async function getOperationOutcome<S>(db: Executor, id: string): Promise<OperationOutcome<S> | undefined> {
  const row = await findOperation(db, id);
  return row ? outcomeOf<S>(row) : undefined;
}

/** The error a compensated or failed operation's caller should answer with (undefined when it completed). */
export function operationError(outcome: OperationOutcome<unknown>): WireError | undefined {
  const e = outcome.error;
  if (!e || outcome.status === 'COMPLETED') return undefined;
  if (e.code === 'INVALID_ARGUMENT' && Array.isArray(e.data.fieldViolations)) return new ValidationError(e.data.fieldViolations as FieldViolation[]);
  return new ApplicationError(e.status, e.code, e.description, e.data);
}

/**
 * Drives an operation this runner holds the lease of until it ends, or until the lease is lost.
 * Local steps and compensations commit together with their progress; others run, then record it.
 */
async function drive(deps: AppDeps, row: OperationTable, owner: string, clock: () => number, requestCtx?: RequestContext): Promise<void> {
  const def = registeredOperation(row.name);
  if (!def) throw new Error(`Operation "${row.name}" is not defined in this process`);
  const db = deps.storage.db;
  let op = { status: row.status, step: row.step, attempts: row.attempts, state: readJson<Record<string, unknown>>(row.state) };

  /** Records progress from where `op` stands; throws LeaseLost when another runner holds it now. */
  const progress = async (exec: Executor, change: ProgressChange): Promise<void> => {
    const saved = await saveProgress(exec, row.id, owner, { status: op.status, step: op.step }, change, iso(clock() + OPERATION_LEASE_MS), iso(clock()));
    if (!saved) throw new LeaseLost();
  };

  const base = requestCtx ?? (await storedContext(deps, row));
  if (!base) {
    await progress(db, { status: 'FAILED', error: JSON.stringify(siteGone(row)) }).catch(() => undefined);
    return;
  }
  const input: unknown = readJson(row.input);
  const stepCtx = (exec: Executor, step: string, attempt: number): OperationContext => ({
    ...base, db: exec, operation: { id: row.id, name: row.name, step, attempt, input },
  });
  const log = base.log.child({ operationId: row.id, operation: row.name });
  const maxIterations = def.steps.length * (OPERATION_STEP_MAX_ATTEMPTS + OPERATION_COMPENSATION_MAX_ATTEMPTS + 2) + 2;

  try {
    for (let i = 0; i < maxIterations; i++) {
      if (op.status === 'RUNNING') {
        const step = def.steps[op.step];
        if (!step) { // only when a definition lost steps since the run began
          await progress(db, { status: 'COMPLETED' });
          return;
        }
        if (op.attempts >= OPERATION_STEP_MAX_ATTEMPTS) {
          const failure: OperationError = { step: step.name, status: 500, code: 'OPERATION_STEP_FAILED', description: `Step "${step.name}" did not finish after ${op.attempts} attempts`, data: { step: step.name } };
          log.warn({ step: step.name, attempts: op.attempts }, 'operation step abandoned; compensating');
          await progress(db, { status: 'COMPENSATING', attempts: 0, error: JSON.stringify(failure) });
          op = { ...op, status: 'COMPENSATING', attempts: 0 };
          continue;
        }
        const last = op.step + 1 === def.steps.length;
        const next: OperationStatus = last ? 'COMPLETED' : 'RUNNING';
        try {
          const apply = async (exec: Executor): Promise<Record<string, unknown>> => {
            const patch = await step.run(stepCtx(exec, step.name, op.attempts + 1), op.state);
            const state = { ...op.state, ...(patch ?? {}) };
            await progress(exec, { state: boundedJson(state, 'state'), step: op.step + 1, attempts: 0, status: next });
            return state;
          };
          const state = step.local === false ? await apply(db) : await inTransaction(db, apply);
          op = { status: next, step: op.step + 1, attempts: 0, state };
        } catch (error) {
          if (error instanceof LeaseLost) throw error;
          const attempts = op.attempts + 1;
          if (error instanceof WireError) {
            const failure = describeFailure(step.name, error);
            log.info({ step: step.name, code: failure.code }, 'operation step refused; compensating');
            await progress(db, { status: 'COMPENSATING', attempts: 0, error: JSON.stringify(failure) });
            op = { ...op, status: 'COMPENSATING', attempts: 0 };
          } else {
            log.warn({ err: error, step: step.name, attempts }, 'operation step failed; retrying');
            await progress(db, { attempts });
            op = { ...op, attempts };
            if (attempts < OPERATION_STEP_MAX_ATTEMPTS) await sleep(OPERATION_RETRY_DELAY_MS * attempts);
          }
        }
        continue;
      }
      if (op.status === 'COMPENSATING') {
        if (op.step === 0) {
          await progress(db, { status: 'COMPENSATED' });
          return;
        }
        if (op.attempts >= OPERATION_COMPENSATION_MAX_ATTEMPTS) {
          log.error({ step: def.steps[op.step - 1]?.name, attempts: op.attempts }, 'operation compensation gave up; left FAILED');
          await progress(db, { status: 'FAILED' });
          return;
        }
        const step = def.steps[op.step - 1]!;
        const remaining = op.step - 1;
        const next: OperationStatus = remaining === 0 ? 'COMPENSATED' : 'COMPENSATING';
        try {
          const undo = async (exec: Executor): Promise<void> => {
            await step.compensate?.(stepCtx(exec, step.name, op.attempts + 1), op.state);
            await progress(exec, { step: remaining, attempts: 0, status: next });
          };
          if (step.local === false || !step.compensate) await undo(db);
          else await inTransaction(db, undo);
          op = { ...op, status: next, step: remaining, attempts: 0 };
        } catch (error) {
          if (error instanceof LeaseLost) throw error;
          const attempts = op.attempts + 1;
          log.warn({ err: error, step: step.name, attempts }, 'operation compensation failed; retrying');
          await progress(db, { attempts });
          op = { ...op, attempts };
          if (attempts < OPERATION_COMPENSATION_MAX_ATTEMPTS) await sleep(OPERATION_RETRY_DELAY_MS * attempts);
        }
        continue;
      }
      return;
    }
  } catch (error) {
    if (error instanceof LeaseLost) {
      log.warn('operation taken over by another runner');
      return;
    }
    throw error;
  }
}

function describeFailure(step: string, error: WireError): OperationError {
  if (error instanceof ApplicationError) return { step, status: error.status, code: error.code, description: error.description, data: error.data };
  if (error instanceof ValidationError) return { step, status: 400, code: 'INVALID_ARGUMENT', description: error.message, data: { fieldViolations: error.violations } };
  return { step, status: error.status, code: 'OPERATION_STEP_REFUSED', description: error.message, data: {} };
}

function siteGone(row: OperationTable): OperationError {
  return { step: '', status: 404, code: 'SITE_NOT_FOUND', description: `Site ${row.site_id} no longer exists`, data: {} };
}

/** The request context an operation started with, rebuilt for recovery (undefined when its site is gone). */
async function storedContext(deps: AppDeps, row: OperationTable): Promise<RequestContext | undefined> {
  const site = await getSite(deps.storage.db, row.site_id);
  if (!site) return undefined;
  const stored = readJson<StoredContext>(row.context);
  return {
    requestId: stored.requestId, deps, db: deps.storage.db, dialect: deps.storage.dialect,
    caller: stored.caller, origin: stored.origin, ip: stored.ip, log: deps.log, site,
  };
}

function outcomeOf<S>(row: OperationTable): OperationOutcome<S> {
  return {
    operationId: row.id,
    name: row.name,
    status: row.status,
    state: readJson<Partial<S>>(row.state),
    ...(row.error ? { error: readJson<OperationError>(row.error) } : {}),
  };
}

async function mustFind(db: Executor, id: string): Promise<OperationTable> {
  const row = await findOperation(db, id);
  if (!row) throw new Error(`Operation ${id} not found`);
  return row;
}

function boundedJson(value: unknown, what: string): string {
  const text = JSON.stringify(value ?? {});
  if (Buffer.byteLength(text) > OPERATION_DOCUMENT_MAX_BYTES) throw new Error(`Operation ${what} is larger than ${OPERATION_DOCUMENT_MAX_BYTES} bytes`);
  return text;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
