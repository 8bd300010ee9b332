import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { createLogger, createServer, type Server } from '../src/server.js';
import { ApplicationError } from '../src/http/errors.js';
import {
  getOperationOutcome, operationError, recoverOperations, runOperation,
  OPERATION_LEASE_MS, OPERATION_STEP_MAX_ATTEMPTS,
} from '../src/operations/index.js';
import { contextOf, effectsOf, ensureEffectsTable, flaky, remote, threeSteps } from './operations-fixture.js';

/**
 * The operation runner on a real database: steps in order with stored progress, compensation in
 * reverse, bounded retries, keyed runs, and recovery after the process running an operation is
 * SIGKILLed between two steps (a real child process over the same database), also from two servers
 * at once.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHILD = path.join(ROOT, 'packages/server/test/operations-child.ts');

let t: TestServer;
const ctx = (apiKeyId?: string) => contextOf(t.server.deps, t.site, apiKeyId);
const db = () => t.server.deps.storage.db;
/** A clock past every lease taken now: what a recovering server sees once the dead runner's lease ran out. */
const later = () => Date.now() + OPERATION_LEASE_MS + 1_000;

beforeAll(async () => {
  t = await startTestServer({ events: { ...(await import('../src/config.js')).loadConfig({}).events, workerEnabled: false } });
  await ensureEffectsTable(db());
});
afterAll(() => t?.close());

describe('running an operation', () => {
  it('runs every step once, stores the state and ends COMPLETED', async () => {
    const outcome = await runOperation(ctx(), threeSteps, { cart: 'c1' });
    expect(outcome).toEqual({ operationId: outcome.operationId, name: 'test.three-steps', status: 'COMPLETED', state: { reserved: true, charged: 10, confirmed: true } });
    expect(await effectsOf(db(), outcome.operationId)).toEqual(['run:reserve', 'run:charge', 'run:confirm']);
    expect(await getOperationOutcome(db(), outcome.operationId)).toEqual(outcome);
    expect(operationError(outcome)).toBeUndefined();
  });

  it('a step failing for good compensates the completed steps in reverse order, each once', async () => {
    const outcome = await runOperation(ctx(), threeSteps, { cart: 'c2', refuseAt: 'confirm' });
    expect(outcome.status).toBe('COMPENSATED');
    expect(outcome.error).toEqual({ step: 'confirm', status: 409, code: 'OUT_OF_STOCK', description: 'The last item was sold meanwhile', data: { cart: 'c2' } });
    expect(await effectsOf(db(), outcome.operationId)).toEqual(['run:reserve', 'run:charge', 'undo:charge', 'undo:reserve']);
    const error = operationError(outcome);
    expect(error).toBeInstanceOf(ApplicationError);
    expect(error && error.body()).toEqual({ message: 'The last item was sold meanwhile', details: { applicationError: { code: 'OUT_OF_STOCK', description: 'The last item was sold meanwhile', data: { cart: 'c2' } } } });
    // Nothing left for recovery.
    expect((await recoverOperations(t.server.deps, { clock: later })).claimed).toBe(0);
    expect(await effectsOf(db(), outcome.operationId)).toHaveLength(4);
  });

  it('retries a step that fails for a passing reason; a failed attempt leaves no effect', async () => {
    const outcome = await runOperation(ctx(), flaky, { failures: 2 });
    expect(outcome.status).toBe('COMPLETED');
    expect(await effectsOf(db(), outcome.operationId)).toEqual(['run:first', 'run:unsteady@3']);
  });

  it(`gives up after ${OPERATION_STEP_MAX_ATTEMPTS} attempts and compensates`, async () => {
    const outcome = await runOperation(ctx(), flaky, { failures: OPERATION_STEP_MAX_ATTEMPTS });
    expect(outcome.status).toBe('COMPENSATED');
    expect(outcome.error?.code).toBe('OPERATION_STEP_FAILED');
    expect(outcome.error?.step).toBe('unsteady');
    expect(await effectsOf(db(), outcome.operationId)).toEqual(['run:first', 'undo:first']);
  });
});

describe('non-local steps', () => {
  it('run outside a transaction, get a stable key, and are compensated like the others', async () => {
    const done = await runOperation(ctx(), remote, { refuse: false });
    expect(done).toMatchObject({ status: 'COMPLETED', state: { provider: 'ok' } });
    expect(await effectsOf(db(), done.operationId)).toEqual(['run:local-first', `run:provider key=${done.operationId}:provider`, 'run:finish']);
    const refused = await runOperation(ctx(), remote, { refuse: true });
    expect(refused).toMatchObject({ status: 'COMPENSATED', error: { code: 'DECLINED', step: 'finish' } });
    expect(await effectsOf(db(), refused.operationId)).toEqual([
      'run:local-first', `run:provider key=${refused.operationId}:provider`, 'undo:provider ok', 'undo:local-first',
    ]);
  });
});

describe('keyed operations', () => {
  it('the same key returns the first outcome without running again; another input is refused', async () => {
    const key = `op-${crypto.randomUUID()}`;
    const first = await runOperation(ctx(), threeSteps, { cart: 'k1' }, { key });
    const again = await runOperation(ctx(), threeSteps, { cart: 'k1' }, { key });
    expect(again).toEqual(first);
    expect(await effectsOf(db(), first.operationId)).toEqual(['run:reserve', 'run:charge', 'run:confirm']);
    await expect(runOperation(ctx(), threeSteps, { cart: 'other' }, { key })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 409 });
    // Another caller's key is its own.
    const theirs = await runOperation(ctx('someone-else'), threeSteps, { cart: 'k1' }, { key });
    expect(theirs.operationId).not.toBe(first.operationId);
  });

  it('20 concurrent runs with one key make one operation and all get its outcome', async () => {
    const key = `op-${crypto.randomUUID()}`;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => runOperation(ctx(), threeSteps, { cart: 'burst' }, { key })));
    expect(new Set(outcomes.map((o) => o.operationId)).size).toBe(1);
    expect(outcomes.every((o) => o.status === 'COMPLETED')).toBe(true);
    expect(await effectsOf(db(), outcomes[0]!.operationId)).toEqual(['run:reserve', 'run:charge', 'run:confirm']);
  });

  it('a compensated keyed operation answers repeats with the same failure', async () => {
    const key = `op-${crypto.randomUUID()}`;
    const first = await runOperation(ctx(), threeSteps, { cart: 'k2', refuseAt: 'confirm' }, { key });
    const again = await runOperation(ctx(), threeSteps, { cart: 'k2', refuseAt: 'confirm' }, { key });
    expect(again).toEqual(first);
    expect(await effectsOf(db(), first.operationId)).toEqual(['run:reserve', 'run:charge', 'undo:charge', 'undo:reserve']);
  });
});

/** Runs the child until a step announces `hang`, SIGKILLs it there, and returns the operation's id. */
async function killAt(hang: string, input: Record<string, unknown>, extraEnv: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ?? '',
      DATABASE_SCHEMA: t.config.databaseSchema ?? '',
      SITE_ID: t.site.id,
      OPS_HANG: hang,
      OPS_INPUT: JSON.stringify(input),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let output = '';
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not reach ${hang}:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = new RegExp(`HANG ${hang} (\\S+)`).exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`child exited with ${code}:\n${output}`)); });
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return id;
}

/** Another server process's view: a fresh server over the same database (SQLite file or PostgreSQL schema). */
async function freshServer(): Promise<Server> {
  return createServer({ ...t.config, events: { ...t.config.events, workerEnabled: false } }, createLogger('silent'));
}

/**
 * A recovery test starts a child runner (through tsx, seconds on a loaded 2-core machine; killAt
 * waits up to 60 s for it) before it recovers: the default 30 s bound cut one off in a CI run.
 */
const RECOVERY_TEST_TIMEOUT_MS = 90_000;

describe('recovery after a crash', () => {
  it('a runner killed between step 1 and step 2 is finished by recovery on a fresh server', async () => {
    const id = await killAt('run:charge', { cart: 'crash-1' });
    // Step 1 committed with its progress; step 2's uncommitted effect died with the process.
    expect(await effectsOf(db(), id)).toEqual(['run:reserve']);
    expect(await getOperationOutcome(db(), id)).toMatchObject({ status: 'RUNNING', state: { reserved: true } });

    const fresh = await freshServer();
    try {
      // The dead runner's lease still stands: nothing is taken yet.
      expect((await recoverOperations(fresh.deps)).claimed).toBe(0);
      expect(await recoverOperations(fresh.deps, { clock: later })).toEqual({ claimed: 1, completed: 1, compensated: 0, failed: 0, unfinished: 0 });
      expect(await getOperationOutcome(fresh.deps.storage.db, id)).toEqual({
        operationId: id, name: 'test.three-steps', status: 'COMPLETED', state: { reserved: true, charged: 10, confirmed: true },
      });
      expect(await effectsOf(db(), id)).toEqual(['run:reserve', 'run:charge', 'run:confirm']);
      expect((await recoverOperations(fresh.deps, { clock: later })).claimed).toBe(0);
    } finally {
      await fresh.close();
    }
  }, RECOVERY_TEST_TIMEOUT_MS);

  it('a runner killed while compensating is finished by two servers recovering at once, each compensation once', async () => {
    const id = await killAt('undo:reserve', { cart: 'crash-2', refuseAt: 'confirm' });
    expect(await effectsOf(db(), id)).toEqual(['run:reserve', 'run:charge', 'undo:charge']);
    expect(await getOperationOutcome(db(), id)).toMatchObject({ status: 'COMPENSATING', error: { code: 'OUT_OF_STOCK', step: 'confirm' } });

    const [a, b] = [await freshServer(), await freshServer()];
    try {
      const reports = await Promise.all([recoverOperations(a.deps, { clock: later }), recoverOperations(b.deps, { clock: later })]);
      expect(reports.reduce((n, r) => n + r.claimed, 0)).toBe(1);
      expect(reports.reduce((n, r) => n + r.compensated, 0)).toBe(1);
      const again = await Promise.all([recoverOperations(a.deps, { clock: later }), recoverOperations(b.deps, { clock: later })]);
      expect(again.map((r) => r.claimed)).toEqual([0, 0]);
      expect(await effectsOf(db(), id)).toEqual(['run:reserve', 'run:charge', 'undo:charge', 'undo:reserve']);
      expect(await getOperationOutcome(db(), id)).toMatchObject({ status: 'COMPENSATED', state: { reserved: true, charged: 10 } });
    } finally {
      await a.close();
      await b.close();
    }
  }, RECOVERY_TEST_TIMEOUT_MS);

  it(`a step that kills its process every time is given up after ${OPERATION_STEP_MAX_ATTEMPTS} attempts and compensated`, async () => {
    const id = await killAt('run:charge', { cart: 'crash-loop' });
    // Each recovering server (a child process) takes the operation over and dies in the same step.
    for (let attempt = 1; attempt < OPERATION_STEP_MAX_ATTEMPTS; attempt++) {
      expect(await killAt('run:charge', {}, { OPS_RECOVER: '1', OPS_LEASES_LATER: String(attempt) })).toBe(id);
      expect(await getOperationOutcome(db(), id)).toMatchObject({ status: 'RUNNING' });
    }
    const fresh = await freshServer();
    try {
      const muchLater = () => Date.now() + OPERATION_STEP_MAX_ATTEMPTS * (OPERATION_LEASE_MS + 1_000);
      expect(await recoverOperations(fresh.deps, { clock: muchLater })).toEqual({ claimed: 1, completed: 0, compensated: 1, failed: 0, unfinished: 0 });
    } finally {
      await fresh.close();
    }
    expect(await getOperationOutcome(db(), id)).toMatchObject({ status: 'COMPENSATED', error: { step: 'charge', code: 'OPERATION_STEP_FAILED' } });
    expect(await effectsOf(db(), id)).toEqual(['run:reserve', 'undo:reserve']);
  }, 120_000);
});
