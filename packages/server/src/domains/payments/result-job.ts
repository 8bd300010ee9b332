import { defineJobKind } from '../../jobs/kinds.js';
import { jobRequestContext } from './job-context.js';
import type { ProviderReport } from './providers/index.js';
import { applyProviderReport } from './results.js';

/** A provider's later outcome of a call it answered PENDING (docs/payments.md). */
export const providerResultJob = defineJobKind<{ siteId: string; report: ProviderReport }>({
  kind: 'payments.provider-result',
  maxAttempts: 10,
  async run(jctx, { siteId, report }) {
    const ctx = await jobRequestContext(jctx.deps, siteId, jctx.job.id);
    if (!ctx) return { outcome: 'skipped' };
    return { outcome: await applyProviderReport(ctx, report) };
  },
});
