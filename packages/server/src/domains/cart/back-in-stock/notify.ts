import type { AppDeps, RequestContext } from '../../../http/context.js';
import { inTransaction } from '../../../storage/transaction.js';
import { enqueueMail, listMail, recordEvents } from '../../events/index.js';
import { availability, defaultItemsOf, INVENTORY_LIMITS } from '../../inventory/index.js';
import { getSite } from '../../sites/index.js';
import { renderBackInStockMail } from './mail.js';
import { presentRequest } from './present.js';
import { BACK_IN_STOCK_FQDN, BACK_IN_STOCK_TEMPLATE, type StockRequest } from './model.js';
import { attachMail, findProcessing, findWaiting, moveRequest, type WaitingSelection } from './store.js';

/**
 * The work behind the two job kinds (jobs.ts): mailing waiting requests when their item is back, and
 * reading back how those mails went.
 */
export const NOTIFY_LIMITS = {
  /** Requests moved to PROCESSING (and mailed) per transaction, and transactions per job run; a job with more left queues itself again. */
  batch: 100,
  batchesPerRun: 20,
  /** PROCESSING requests looked at per settle run. */
  settleBatch: 200,
} as const;

/** What a notify job works on: one item whose stock came back (checked again here), or the owner's report. */
export interface NotifyPayload {
  siteId: string;
  /** The owner reported the item back (reportItemsBackInStock): no stock check. */
  reported: boolean;
  item?: { appId?: string | undefined; catalogItemId: string; variantId?: string | null | undefined };
  requestIds?: string[];
  itemDetails?: { name?: string | undefined; price?: string | undefined };
}

/** One outbox event as the events domain takes it. */
type DomainEvent = Parameters<typeof recordEvents>[1][number];

/** A request's event; the entity is the request as the owner sees it (before the change, for `deleted`). */
export function requestEvent(slug: 'created' | 'updated' | 'deleted', r: StockRequest): DomainEvent {
  return { entityFqdn: BACK_IN_STOCK_FQDN, slug, entityId: r.id, entity: presentRequest(r) };
}

export async function jobContext(deps: AppDeps, siteId: string, requestId: string): Promise<RequestContext | undefined> {
  const site = await getSite(deps.storage.db, siteId);
  if (!site) return undefined;
  return {
    requestId, deps, db: deps.storage.db, dialect: deps.storage.dialect, caller: { kind: 'anonymous' },
    origin: deps.config.publicUrl ?? '', ip: '127.0.0.1', log: deps.log, site,
  };
}

/** Which waiting requests the payload reaches now; undefined when nothing is back in stock. */
async function selectionOf(ctx: RequestContext, p: NotifyPayload): Promise<WaitingSelection | undefined> {
  if (p.requestIds) return { kind: 'ids', ids: p.requestIds };
  if (!p.item) return undefined;
  if (p.reported) {
    const variantId = p.item.variantId ?? null;
    return { kind: 'item', appId: p.item.appId, catalogItemId: p.item.catalogItemId, variantIds: variantId ? [variantId] : [], anyVariant: variantId === null };
  }
  // A stock change: the variants sellable now (reservations counted), at the storefront's location.
  const rows = (await defaultItemsOf(ctx, p.item.catalogItemId)).slice(0, INVENTORY_LIMITS.linesPerCall);
  if (rows.length === 0) return undefined;
  const back = (await availability(ctx, rows.map((r) => ({ inventoryItemId: r.id })))).filter((a) => a.inStock).map((a) => a.variantId);
  return back.length ? { kind: 'item', catalogItemId: p.item.catalogItemId, variantIds: back, anyVariant: false } : undefined;
}

/**
 * Mails every waiting (RECEIVED) request the payload reaches: each one, in the transaction that moves
 * it to PROCESSING, gets its mail queued in the one outbox and an `updated` event. Answers whether
 * requests are left for another run.
 */
export async function notifyWaiting(deps: AppDeps, p: NotifyPayload, jobId: string, signal: AbortSignal): Promise<{ notified: number; more: boolean }> {
  const ctx = await jobContext(deps, p.siteId, jobId);
  if (!ctx) return { notified: 0, more: false };
  const selection = await selectionOf(ctx, p);
  if (!selection) return { notified: 0, more: false };
  let notified = 0;
  for (let batch = 0; batch < NOTIFY_LIMITS.batchesPerRun; batch++) {
    if (signal.aborted) return { notified, more: true };
    const moved = await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      const waiting = await findWaiting(trx, ctx.site.id, selection, NOTIFY_LIMITS.batch);
      const events: DomainEvent[] = [];
      const now = new Date().toISOString();
      for (const r of waiting) {
        const processing = await moveRequest(trx, ctx.site.id, r.id, ['RECEIVED'], 'PROCESSING', now);
        if (!processing) continue; // settled meanwhile (owner marked it, or deleted)
        const mailId = await enqueueMail(tctx, renderBackInStockMail(ctx.site.name, processing, p.itemDetails ?? {}));
        await attachMail(trx, ctx.site.id, r.id, mailId);
        events.push(requestEvent('updated', processing));
      }
      await recordEvents(tctx, events);
      return waiting;
    });
    notified += moved.length;
    if (moved.length < NOTIFY_LIMITS.batch) return { notified, more: false };
  }
  return { notified, more: true };
}

/**
 * Settles PROCESSING requests by the outcome of their mail: sent (or kept in the mailbox when no SMTP
 * server is configured) -> NOTIFICATION_SENT; failed for good -> FAILED; still retrying -> unchanged.
 */
export async function settleProcessing(deps: AppDeps, jobId: string): Promise<{ sent: number; failed: number }> {
  const rows = await findProcessing(deps.storage.db, NOTIFY_LIMITS.settleBatch);
  const bySite = new Map<string, StockRequest[]>();
  for (const r of rows) bySite.set(r.siteId, [...(bySite.get(r.siteId) ?? []), r]);
  let sent = 0;
  let failed = 0;
  for (const [siteId, requests] of bySite) {
    const ctx = await jobContext(deps, siteId, jobId);
    if (!ctx) continue;
    const mailStatus = new Map<string, string>();
    for (const email of new Set(requests.map((r) => r.email))) {
      for (const m of await listMail(ctx.db, siteId, email, [BACK_IN_STOCK_TEMPLATE])) mailStatus.set(m.id, m.status);
    }
    await inTransaction(ctx.db, async (trx) => {
      const now = new Date().toISOString();
      const events: DomainEvent[] = [];
      for (const r of requests.sort((a, b) => (a.id < b.id ? -1 : 1))) {
        const status = r.mailId ? mailStatus.get(r.mailId) : undefined;
        if (!r.mailId || status === 'PENDING') continue;
        const to = status === 'SENT' || status === 'STORED' ? 'NOTIFICATION_SENT' : 'FAILED';
        const moved = await moveRequest(trx, siteId, r.id, ['PROCESSING'], to, now);
        if (!moved) continue;
        if (to === 'FAILED') failed++;
        else sent++;
        events.push(requestEvent('updated', moved));
      }
      await recordEvents({ ...ctx, db: trx }, events);
    });
  }
  return { sent, failed };
}
