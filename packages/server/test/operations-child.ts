import { loadConfig } from '../src/config.js';
import { createLogger, createServer } from '../src/server.js';
import { getSite } from '../src/domains/sites/service.js';
import { OPERATION_LEASE_MS, recoverOperations, runOperation } from '../src/operations/index.js';
import { contextOf, ensureEffectsTable, threeSteps, type CheckoutInput } from './operations-fixture.js';

/**
 * Runs one test operation over the database named by the environment (DATA_DIR, DATABASE_URL,
 * DATABASE_SCHEMA), for operations.test.ts to SIGKILL when a step announces OPS_HANG.
 */
const config = { ...loadConfig(process.env), events: { ...loadConfig(process.env).events, workerEnabled: false } };
const server = await createServer(config, createLogger('silent'));
await ensureEffectsTable(server.deps.storage.db);
const site = await getSite(server.deps.storage.db, process.env.SITE_ID ?? '');
if (!site) throw new Error('no site');
if (process.env.OPS_RECOVER === '1') {
  // A server recovering what a killed one left; OPS_LEASES_LATER leases into the future, so the
  // leases taken by earlier (killed) recoveries have run out too.
  const leases = Number(process.env.OPS_LEASES_LATER ?? '1');
  const report = await recoverOperations(server.deps, { clock: () => Date.now() + leases * (OPERATION_LEASE_MS + 1_000) });
  process.stdout.write(`DONE ${JSON.stringify(report)}\n`);
} else {
  const input = JSON.parse(process.env.OPS_INPUT ?? '{}') as CheckoutInput;
  const outcome = await runOperation(contextOf(server.deps, site), threeSteps, input);
  process.stdout.write(`DONE ${JSON.stringify(outcome)}\n`);
}
await server.close();
