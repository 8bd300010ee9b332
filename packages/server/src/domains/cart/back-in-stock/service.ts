import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AftercareQuery, CountBackInStockRequestsByCatalogReferencesResponse } from '@vitrine/types/ecom-aftercare';
import { isElevated, type RequestContext } from '../../../http/context.js';
import { notFound, tooManyRequests, violation } from '../../../http/errors.js';
import { enqueueJob } from '../../../jobs/service.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvents } from '../../events/index.js';
import { DEFAULT_LOCATION_ID, onStockChanged } from '../../inventory/index.js';
import { AFTERCARE_PAGING, runPagedQuery } from '../abandoned/paging.js';
import { notifyBackInStockJob } from './jobs.js';
import type { StockRequest } from './model.js';
import { requestEvent } from './notify.js';
import { BACK_IN_STOCK_LIMITS, type catalogReference, type createRequest, type reportRequest } from './schema.js';
import { countCreatedBy, countWaiting, deleteRequest, findRequest, insertOpenRequest, itemsWithWaitingRequests, moveRequest, queryRequests, requestSortColumn } from './store.js';

const L = BACK_IN_STOCK_LIMITS;
const HOUR_MS = 3_600_000;

type CatalogReferenceInput = z.infer<typeof catalogReference>;

const notFoundError = (id: string) => notFound('BACK_IN_STOCK_REQUEST_NOT_FOUND', `Back-in-stock notification request ${id} not found`, { id });

function variantOf(ref: CatalogReferenceInput): string | null {
  const v = ref.options?.variantId;
  return typeof v === 'string' ? v : null;
}

/**
 * The item page the mail links to: a page of this store only (a path, or an absolute URL on the
 * server's own origin), so the mail can never carry a visitor's link to another site.
 */
function itemUrlOf(ctx: RequestContext, given: string | null | undefined): string | null {
  if (!given) return null;
  const origins = new Set([ctx.origin, ctx.deps.config.publicUrl].filter((o): o is string => !!o));
  if (given.startsWith('/') && !given.startsWith('//')) return `${ctx.origin}${given}`;
  try {
    const url = new URL(given);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && origins.has(url.origin)) return url.toString();
  } catch {
    // not a URL: refused below
  }
  throw violation('request.itemUrl', 'must be a page of this store (a path, or a URL on the store\'s address)', 'FORMAT');
}

/** Hash of the site and client address: bounds creation per client without storing addresses. */
function requesterOf(ctx: RequestContext): string {
  return createHash('sha256').update(`${ctx.site.id} ${ctx.ip}`).digest('base64url');
}

/**
 * A visitor or member asks to be e-mailed when an item is back. One open request per e-mail and item:
 * asking again while one is open changes nothing and answers a request shaped exactly like a new one
 * (with an id of its own that names nothing), so the answer never tells whether that e-mail had asked
 * before. Non-owners may create `createdPerRequesterPerHour` requests per hour from one address.
 */
export async function createBackInStockRequest(ctx: RequestContext, input: z.infer<typeof createRequest>): Promise<StockRequest> {
  const ref = input.request.catalogReference;
  const itemUrl = itemUrlOf(ctx, input.request.itemUrl);
  const now = new Date();
  const requester = isElevated(ctx.caller) ? null : requesterOf(ctx);
  if (requester) {
    const recent = await countCreatedBy(ctx.db, ctx.site.id, requester, new Date(now.getTime() - HOUR_MS).toISOString(), L.createdPerRequesterPerHour);
    if (recent >= L.createdPerRequesterPerHour) throw tooManyRequests(HOUR_MS / 1000);
  }
  const row = {
    id: randomUUID(), siteId: ctx.site.id, appId: ref.appId, catalogItemId: ref.catalogItemId, variantId: variantOf(ref),
    options: ref.options ?? null, email: input.request.email, contactId: null,
    item: { name: input.itemDetails.name ?? null, price: input.itemDetails.price ?? null, url: itemUrl },
    linkOrigin: ctx.deps.config.publicUrl ?? ctx.origin, requester, now: now.toISOString(),
  };
  const created = await inTransaction(ctx.db, async (trx) => {
    const inserted = await insertOpenRequest(trx, row);
    if (inserted) await recordEvents({ ...ctx, db: trx }, [requestEvent('created', inserted)]);
    return inserted;
  });
  if (created) return created;
  // The same e-mail already waits for this item: nothing stored, the answer looks the same.
  return {
    id: row.id, siteId: row.siteId, appId: row.appId, catalogItemId: row.catalogItemId, variantId: row.variantId, options: row.options,
    email: row.email, contactId: null, status: 'RECEIVED', autoNotified: true, item: row.item, linkOrigin: row.linkOrigin, mailId: null,
    createdDate: row.now, updatedDate: row.now,
  };
}

export async function getBackInStockRequest(ctx: RequestContext, id: string): Promise<StockRequest> {
  const r = await findRequest(ctx.db, ctx.site.id, id);
  if (!r) throw notFoundError(id);
  return r;
}

export async function deleteBackInStockRequest(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const r = await findRequest(trx, ctx.site.id, id);
    if (!r || !(await deleteRequest(trx, ctx.site.id, id))) throw notFoundError(id);
    await recordEvents({ ...ctx, db: trx }, [requestEvent('deleted', r)]);
  });
}

/** The owner notified the person another way: NOTIFICATION_SENT (it will not be mailed). Repeating it changes nothing. */
export async function markAsNotificationSent(ctx: RequestContext, id: string): Promise<StockRequest> {
  return inTransaction(ctx.db, async (trx) => {
    const r = await findRequest(trx, ctx.site.id, id);
    if (!r) throw notFoundError(id);
    if (r.status === 'NOTIFICATION_SENT') return r;
    const moved = await moveRequest(trx, ctx.site.id, id, ['RECEIVED', 'PROCESSING', 'FAILED'], 'NOTIFICATION_SENT', new Date().toISOString());
    if (!moved) return (await findRequest(trx, ctx.site.id, id)) ?? r;
    await recordEvents({ ...ctx, db: trx }, [requestEvent('updated', moved)]);
    return moved;
  });
}

export async function queryBackInStockRequests(ctx: RequestContext, query: AftercareQuery | undefined) {
  return runPagedQuery(ctx, { kind: 'back-in-stock.query', argument: 'query', sortable: requestSortColumn }, query, undefined, (page) => queryRequests(ctx.db, {
    siteId: ctx.site.id, filter: page.filter, sort: page.sort, limit: page.limit, offset: page.offset,
    withTotal: page.withTotal, countCap: AFTERCARE_PAGING.countCap, dialect: ctx.dialect,
  }));
}

/** Waiting (RECEIVED) requests per catalog reference, in the order asked; without a variant, all of the item's. */
export async function countByCatalogReferences(ctx: RequestContext, refs: CatalogReferenceInput[]): Promise<CountBackInStockRequestsByCatalogReferencesResponse> {
  const counts = [];
  for (const ref of refs) {
    const count = await countWaiting(ctx.db, ctx.site.id, { appId: ref.appId, catalogItemId: ref.catalogItemId, variantId: variantOf(ref) });
    counts.push({ catalogReference: { catalogItemId: ref.catalogItemId, appId: ref.appId, ...(ref.options ? { options: ref.options } : {}) }, count });
  }
  return { countsPerCatalogReference: counts };
}

/**
 * The owner says an item (or the listed requests' items) is back: every waiting request it names is
 * mailed, without a stock check, by a `back-in-stock.notify` job. `requestIds` wins over `catalogReference`.
 */
export async function reportItemsBackInStock(ctx: RequestContext, input: z.infer<typeof reportRequest>): Promise<void> {
  if (!input.requestIds && !input.catalogReference) throw violation('catalogReference', 'catalogReference or requestIds is required', 'REQUIRED_FIELD');
  const ref = input.catalogReference;
  await enqueueJob(ctx.db, notifyBackInStockJob, {
    siteId: ctx.site.id,
    reported: true,
    ...(input.requestIds ? { requestIds: input.requestIds } : ref ? { item: { appId: ref.appId, catalogItemId: ref.catalogItemId, variantId: variantOf(ref) } } : {}),
    itemDetails: { name: input.itemDetails.name, price: input.itemDetails.price },
  }, { siteId: ctx.site.id });
}

/**
 * Stock listener (inside the stock change's transaction): for each product with waiting requests whose
 * storefront stock is positive now, one notify job is queued (at most one waits per product); the job
 * checks availability again and mails. Requests already mailed are not waiting, so a later change never
 * mails them twice.
 */
onStockChanged(async (ctx, changed, how) => {
  if (!how.raised) return; // units taken (a sale) bring nothing back
  const back = changed.filter((r) => r.locationId === DEFAULT_LOCATION_ID && (r.trackQuantity ? (r.quantity ?? 0) > 0 : r.inStock));
  const products = await itemsWithWaitingRequests(ctx.db, ctx.site.id, [...new Set(back.map((r) => r.productId))]);
  for (const productId of products.sort()) {
    await enqueueJob(ctx.db, notifyBackInStockJob, { siteId: ctx.site.id, reported: false, item: { catalogItemId: productId } }, { siteId: ctx.site.id, dedupKey: `stock:${ctx.site.id}:${productId}` });
  }
});
