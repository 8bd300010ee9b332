import { defineJobKind } from '../../../jobs/kinds.js';
import { abandonIdleCheckouts } from './service.js';

/**
 * Periodic: checkouts idle past `ABANDONED_CHECKOUT_AFTER_MS` become ABANDONED (with their events);
 * tracking rows that can never be abandoned are pruned. Every `ABANDONED_CHECKOUT_SCAN_MS`.
 */
export const abandonCheckoutsJob = defineJobKind<Record<string, never>>({
  kind: 'cart.abandon-checkouts',
  everyMs: (deps) => deps.config.abandonedCheckouts.scanEveryMs,
  run: (ctx) => abandonIdleCheckouts(ctx.deps, ctx.job.id, ctx.signal),
});

export const abandonedCheckoutJobKinds = [abandonCheckoutsJob];
