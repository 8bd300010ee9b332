import { defineJobKind } from '../../jobs/kinds.js';
import { runScheduledAction } from './authorizations.js';
import { jobRequestContext } from './job-context.js';

/** The capture or void a delayed capture's settings scheduled, due at its execution date. */
export const scheduledActionJob = defineJobKind<{ siteId: string; orderId: string; paymentId: string; action: 'VOID' | 'CAPTURE' }>({
  kind: 'payments.scheduled-action',
  maxAttempts: 10,
  async run(jctx, { siteId, orderId, paymentId, action }) {
    const ctx = await jobRequestContext(jctx.deps, siteId, jctx.job.id);
    if (!ctx) return { outcome: 'skipped' };
    return { outcome: await runScheduledAction(ctx, orderId, paymentId, action) };
  },
});
