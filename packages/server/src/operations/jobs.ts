import { defineJobKind } from '../jobs/kinds.js';
import { OPERATION_LEASE_MS, recoverOperations } from './runner.js';

/**
 * Finishes or compensates operations whose process died (their lease ran out): queued at every
 * runner start, so a restart picks them up at once, then every half lease.
 */
export const recoverOperationsJob = defineJobKind<Record<string, never>>({
  kind: 'operations.recover',
  everyMs: () => OPERATION_LEASE_MS / 2,
  async run(ctx) {
    return recoverOperations(ctx.deps);
  },
});
