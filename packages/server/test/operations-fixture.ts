import { randomUUID } from 'node:crypto';
import type { AppDeps, RequestContext } from '../src/http/context.js';
import { conflict } from '../src/http/errors.js';
import type { Executor } from '../src/storage/database.js';
import { defineOperation, type OperationContext } from '../src/operations/index.js';
import type { Site } from '../src/domains/sites/service.js';

/**
 * Test operations shared by operations.test.ts and the child process it kills (operations-child.ts).
 * Every step and compensation appends a row to `op_test_effects` in its own transaction, so a test sees
 * exactly which effects committed, how often, and in which order.
 */

type EffectsTable = { op_test_effects: { seq: number; op_id: string; what: string } };
const effects = (db: Executor) => db.withTables<EffectsTable>();

export async function ensureEffectsTable(db: Executor): Promise<void> {
  await effects(db).schema.createTable('op_test_effects').ifNotExists()
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('op_id', 'text', (c) => c.notNull())
    .addColumn('what', 'text', (c) => c.notNull())
    .execute();
}

export async function effectsOf(db: Executor, opId: string): Promise<string[]> {
  const rows = await effects(db).selectFrom('op_test_effects').select('what').where('op_id', '=', opId).orderBy('seq').execute();
  return rows.map((r) => r.what);
}

/** Appends an effect; in the child, OPS_HANG=<what> then announces itself and never returns (the test SIGKILLs it). */
async function effect(ctx: OperationContext, what: string): Promise<void> {
  const db = effects(ctx.db);
  const last = await db.selectFrom('op_test_effects').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirst();
  await db.insertInto('op_test_effects').values({ seq: Number(last?.m ?? 0) + 1, op_id: ctx.operation.id, what }).execute();
  if (process.env.OPS_HANG === what) {
    process.stdout.write(`HANG ${what} ${ctx.operation.id}\n`);
    await new Promise(() => undefined);
  }
}

export interface CheckoutInput { cart: string; refuseAt?: 'confirm' }
export interface CheckoutState { reserved: boolean; charged: number; confirmed: boolean }

/** Three local steps, the first two with compensations; `refuseAt: 'confirm'` makes step 3 fail for good. */
export const threeSteps = defineOperation<CheckoutInput, CheckoutState>({
  name: 'test.three-steps',
  steps: [
    {
      name: 'reserve',
      run: async (ctx) => { await effect(ctx, 'run:reserve'); return { reserved: true }; },
      compensate: async (ctx) => { await effect(ctx, 'undo:reserve'); },
    },
    {
      name: 'charge',
      run: async (ctx) => { await effect(ctx, 'run:charge'); return { charged: 10 }; },
      compensate: async (ctx) => { await effect(ctx, 'undo:charge'); },
    },
    {
      name: 'confirm',
      run: async (ctx) => {
        const input = ctx.operation.input as CheckoutInput;
        if (input.refuseAt === 'confirm') throw conflict('OUT_OF_STOCK', 'The last item was sold meanwhile', { cart: input.cart });
        await effect(ctx, 'run:confirm');
        return { confirmed: true };
      },
    },
  ],
});

/** Failures left to throw per operation id (a plain Error = retryable). */
export const flakyFailures = new Map<string, number>();

export const flaky = defineOperation<{ failures: number }, { done: boolean }>({
  name: 'test.flaky',
  steps: [
    {
      name: 'first',
      run: async (ctx) => { await effect(ctx, 'run:first'); return {}; },
      compensate: async (ctx) => { await effect(ctx, 'undo:first'); },
    },
    {
      name: 'unsteady',
      run: async (ctx) => {
        const left = flakyFailures.get(ctx.operation.id) ?? ctx.operation.input.failures;
        if (left > 0) {
          flakyFailures.set(ctx.operation.id, left - 1);
          await effect(ctx, 'partial'); // rolled back with the failed attempt
          throw new Error('connection reset');
        }
        await effect(ctx, `run:unsteady@${ctx.operation.attempt}`);
        return { done: true };
      },
    },
  ],
});

/** A request context of `site` outside HTTP (what a route handler would pass). */
export function contextOf(deps: AppDeps, site: Site, apiKeyId = 'test'): RequestContext {
  return {
    requestId: randomUUID(), deps, db: deps.storage.db, dialect: deps.storage.dialect,
    caller: { kind: 'owner', apiKeyId }, origin: 'http://127.0.0.1', ip: '127.0.0.1', log: deps.log, site,
  };
}

/** A step that reaches outside (`local: false`): it runs outside a transaction, as a provider call would. */
export const remote = defineOperation<{ refuse: boolean }, { provider: string }>({
  name: 'test.remote',
  steps: [
    {
      name: 'local-first',
      run: async (ctx) => { await effect(ctx, 'run:local-first'); },
      compensate: async (ctx) => { await effect(ctx, 'undo:local-first'); },
    },
    {
      name: 'provider',
      local: false,
      run: async (ctx) => {
        if (ctx.db.isTransaction) throw new Error('a non-local step must not run in a transaction');
        await effect(ctx, `run:provider key=${ctx.operation.id}:${ctx.operation.step}`);
        return { provider: 'ok' };
      },
      compensate: async (ctx, state) => {
        if (ctx.db.isTransaction) throw new Error('a non-local compensation must not run in a transaction');
        await effect(ctx, `undo:provider ${state.provider}`);
      },
    },
    {
      name: 'finish',
      run: async (ctx) => {
        if (ctx.operation.input.refuse) throw conflict('DECLINED', 'Declined');
        if (!ctx.db.isTransaction) throw new Error('a local step runs in a transaction');
        await effect(ctx, 'run:finish');
      },
    },
  ],
});
