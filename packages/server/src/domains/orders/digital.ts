import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BaseContext, RequestContext } from '../../http/context.js';
import { ApplicationError, forbidden } from '../../http/errors.js';
import type { Executor } from '../../storage/database.js';
import { digitalFileOfVariant, fileDownload } from '../catalog/index.js';
import { DIGITAL_LINK_TTL_MS } from './limits.js';
import { STORES_APP_ID, type Order, type OrderLineItem } from './model.js';
import { findOrder, findSiteRow } from './store.js';

/**
 * Digital products of paid orders. When an order is paid each of its digital lines (a V3 variant
 * with a secure file) gets `digitalFile: {fileId, link, expirationDate}`; the link names the order
 * and the line, not the file, and is signed with the site's orders key. So a download checks the
 * order as it is then: a line refunded in full, a fully refunded or canceled order, stops its link
 * at once, while a re-sent e-mail or another read of the order shows the same link.
 */

export const ORDER_DOWNLOADS_PATH = '/_api/vitrine/orders/v1/downloads';

/** The signature of one line's link: HMAC-SHA256 with the site's orders key, apart from cursor signatures by its prefix. */
function sign(key: string, siteId: string, orderId: string, lineItemId: string, expires: number): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(`download.${siteId}.${orderId}.${lineItemId}.${expires}`).digest('base64url');
}

/** The download link of an order's line, valid until `expires` (ms). */
export async function orderDownloadLink(db: Executor, origin: string, siteId: string, orderId: string, lineItemId: string, expires: number): Promise<string> {
  const signature = sign((await findSiteRow(db, siteId)).cursorKey, siteId, orderId, lineItemId, expires);
  const path = `${ORDER_DOWNLOADS_PATH}/${siteId}/${orderId}/${encodeURIComponent(lineItemId)}?expires=${expires}&signature=${signature}`;
  return `${origin}${path}`;
}

/**
 * The order's lines for an order that has just been paid: each digital one of the store catalog with
 * its file and a link valid DIGITAL_LINK_TTL_MS. The file is the variant's as the order is paid; a
 * line whose product or file is gone by then has none.
 */
export async function withDownloadLinks(ctx: RequestContext, order: Order): Promise<OrderLineItem[]> {
  const out: OrderLineItem[] = [];
  const expires = Date.now() + DIGITAL_LINK_TTL_MS;
  for (const line of order.lineItems) {
    const ref = line.catalogReference;
    const fileId = line.itemType?.preset === 'DIGITAL' && ref?.appId === STORES_APP_ID
      ? await digitalFileOfVariant(ctx, ref.catalogItemId, typeof ref.options?.variantId === 'string' ? ref.options.variantId : undefined)
      : undefined;
    if (fileId === undefined) {
      out.push(line);
      continue;
    }
    const link = await orderDownloadLink(ctx.db, ctx.origin, ctx.site.id, order.id, line.id, expires);
    out.push({ ...line, digitalFile: { fileId, link, expirationDate: new Date(expires).toISOString() } });
  }
  return out;
}

/**
 * The order as one read of it shows it (its buyer's or the owner's get): a digital line whose link ran
 * out gets a new one, valid DIGITAL_LINK_TTL_MS, while the buyer still owns the line, so a buyer can
 * download again from their account. Nothing is written: the stored link stays as it was sent.
 */
export async function withLiveDownloadLinks(ctx: RequestContext, order: Order): Promise<Order> {
  const now = Date.now();
  const stale = (l: OrderLineItem) => l.digitalFile !== undefined && Date.parse(l.digitalFile.expirationDate) <= now && stillOwned(order, l);
  if (!order.lineItems.some(stale)) return order;
  const expires = now + DIGITAL_LINK_TTL_MS;
  const lineItems: OrderLineItem[] = [];
  for (const l of order.lineItems) {
    lineItems.push(stale(l) ? {
      ...l, digitalFile: { fileId: l.digitalFile!.fileId, link: await orderDownloadLink(ctx.db, ctx.origin, ctx.site.id, order.id, l.id, expires), expirationDate: new Date(expires).toISOString() },
    } : l);
  }
  return { ...order, lineItems };
}

const unavailable = () => new ApplicationError(403, 'DOWNLOAD_NOT_AVAILABLE', 'This purchase can no longer be downloaded');

/** Whether the buyer still owns the line: the order paid (or partly refunded, this line not in full) and not canceled. */
function stillOwned(order: Order, line: OrderLineItem): boolean {
  if (order.status === 'CANCELED') return false;
  if (order.paymentStatus === 'PAID') return true;
  return order.paymentStatus === 'PARTIALLY_REFUNDED' && (line.refundQuantity ?? 0) < line.quantity;
}

/** The file behind a line's link (public: the signature is the right to it), or 403 with why not. */
export async function serveOrderDownload(ctx: BaseContext, input: { siteId: string; orderId: string; lineItemId: string; expires: number; signature: string }): Promise<Response> {
  const record = await findOrder(ctx.db, input.siteId, input.orderId);
  const expected = record ? Buffer.from(sign((await findSiteRow(ctx.db, input.siteId)).cursorKey, input.siteId, input.orderId, input.lineItemId, input.expires)) : undefined;
  const given = Buffer.from(input.signature);
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) throw forbidden('DOWNLOAD_URL_INVALID', 'This download link is not valid');
  if (input.expires < Date.now()) throw new ApplicationError(403, 'DOWNLOAD_URL_EXPIRED', 'This download link has expired');
  const line = record!.order.lineItems.find((l) => l.id === input.lineItemId);
  if (!line?.digitalFile || !stillOwned(record!.order, line)) throw unavailable();
  return fileDownload(ctx.db, line.digitalFile.fileId);
}
