import type { RequestContext } from '../../http/context.js';
import { enqueueJob } from '../../jobs/service.js';
import type { ProviderCall } from './providers/index.js';
import { providerResultJob } from './result-job.js';

/** The ProviderCall of a change: an outcome reported later is queued as a job in the change's transaction. */
export function providerCall(ctx: RequestContext): ProviderCall {
  return {
    siteId: ctx.site.id,
    async reportLater(report, delayMs) {
      await enqueueJob(ctx.db, providerResultJob, { siteId: ctx.site.id, report }, { siteId: ctx.site.id, runAt: new Date(Date.now() + delayMs) });
    },
  };
}
