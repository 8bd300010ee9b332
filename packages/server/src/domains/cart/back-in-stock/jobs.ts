import { defineJobKind } from '../../../jobs/kinds.js';
import { enqueueJob } from '../../../jobs/service.js';
import { notifyWaiting, settleProcessing, type NotifyPayload } from './notify.js';
import { hasProcessing } from './store.js';

/**
 * Mails the waiting requests of an item whose stock came back (queued by the stock listener inside the
 * stock change's transaction), or of the owner's report. Bounded per run; queues itself again when
 * requests are left.
 */
export const notifyBackInStockJob = defineJobKind<NotifyPayload>({
  kind: 'back-in-stock.notify',
  async run(ctx, payload) {
    const result = await notifyWaiting(ctx.deps, payload, ctx.job.id, ctx.signal);
    if (result.more) await enqueueJob(ctx.db, notifyBackInStockJob, payload, { siteId: payload.siteId });
    return result;
  },
});

/** Periodic: PROCESSING requests follow their mail's outcome (NOTIFICATION_SENT or FAILED). Every `BACK_IN_STOCK_SETTLE_MS`. */
export const settleBackInStockJob = defineJobKind<Record<string, never>>({
  kind: 'back-in-stock.settle',
  everyMs: (deps) => deps.config.backInStock.settleEveryMs,
  hasWork: (deps) => hasProcessing(deps.storage.db),
  run: (ctx) => settleProcessing(ctx.deps, ctx.job.id),
});

export const backInStockJobKinds = [notifyBackInStockJob, settleBackInStockJob];
