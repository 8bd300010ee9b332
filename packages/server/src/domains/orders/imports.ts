import type { AppDeps, RequestContext } from '../../http/context.js';
import { defineJobKind } from '../../jobs/kinds.js';
import { enqueueJob } from '../../jobs/service.js';
import { inTransaction } from '../../storage/transaction.js';
import { getSite } from '../sites/index.js';
import { recordOrderEvents } from './record.js';
import { deleteOrderRows, findOrders, lockOrders } from './store.js';

/**
 * bulkDeleteImportedOrders: a job (`orders.delete-imported`) deletes the imported orders among the
 * ids (others are left alone), with an `imported_order_deleted` event each, in one transaction.
 */

interface Payload { siteId: string; orderIds: string[]; actor: { kind: 'owner'; apiKeyId: string } | { kind: 'app'; appId: string } }

export const deleteImportedOrdersJob = defineJobKind<Payload>({
  kind: 'orders.delete-imported',
  async run(job, payload) {
    const site = await getSite(job.db, payload.siteId);
    if (!site) return { deleted: 0 };
    const ctx = contextFor(job.deps, site, payload.actor);
    return inTransaction(job.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      await lockOrders(trx, ctx.dialect, site.id, payload.orderIds);
      const imported = (await findOrders(trx, site.id, payload.orderIds)).filter((r) => r.order.imported).sort((a, b) => (a.order.id < b.order.id ? -1 : 1));
      await deleteOrderRows(trx, site.id, imported.map((r) => r.order.id));
      for (const r of imported) await recordOrderEvents(tctx, r.order, [{ slug: 'imported_order_deleted' }]);
      return { deleted: imported.length };
    });
  },
});

function contextFor(deps: AppDeps, site: RequestContext['site'], caller: Payload['actor']): RequestContext {
  return { requestId: `job-${Date.now()}`, deps, db: deps.storage.db, dialect: deps.storage.dialect, caller, origin: deps.config.publicUrl ?? '', ip: '', log: deps.log, site };
}

export async function bulkDeleteImportedOrders(ctx: RequestContext, orderIds: string[]): Promise<{ jobId: string }> {
  const c = ctx.caller;
  const actor: Payload['actor'] = c.kind === 'app' ? { kind: 'app', appId: c.appId } : { kind: 'owner', apiKeyId: c.kind === 'owner' ? c.apiKeyId : 'unknown' };
  const { jobId } = await enqueueJob(ctx.db, deleteImportedOrdersJob, { siteId: ctx.site.id, orderIds: [...new Set(orderIds)], actor }, { siteId: ctx.site.id });
  return { jobId };
}

export const ordersJobKinds = [deleteImportedOrdersJob];
