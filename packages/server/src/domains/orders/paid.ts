import type { RequestContext } from '../../http/context.js';
import { withDownloadLinks } from './digital.js';
import type { OrderRecord } from './model.js';
import type { OrderEvent } from './record.js';
import { commitStock } from './stock.js';

/**
 * What an order becoming paid brings, whatever made it so (a payment that completes it, or an edit that
 * lowers its total to what was paid already): a waiting order is approved, held stock is committed and
 * digital lines get their download links. `next` is the changed order of the caller's transaction, its
 * payment status set already; the caller adds the ORDER_PAID activity where its own activities put it.
 */
export async function becomePaid(tctx: RequestContext, next: OrderRecord, events: OrderEvent[]): Promise<OrderRecord> {
  const order = { ...next.order };
  if (order.status === 'INITIALIZED' || order.status === 'PENDING') {
    order.status = 'APPROVED';
    events.push({ slug: 'approved' });
  }
  const paid: OrderRecord = { ...next, order };
  paid.stockState = await commitStock(tctx, paid);
  paid.order.lineItems = await withDownloadLinks(tctx, paid.order);
  return paid;
}
