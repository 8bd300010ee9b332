import type { BulkActionMetadata } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import type { BulkFailure, BulkItem } from './changes.js';
import { EncodedJson } from '../../http/wire.js';
import type { Order, OrderAggregateGroup } from './model.js';
import type { OrderSearchPage } from './search.js';
import { orderJson, orderOf } from './store.js';

/** The merchant's callers (an owner key or session, an app) see an order exactly as stored. */
const seesWholeOrder = (ctx: RequestContext): boolean => ctx.caller.kind === 'owner' || ctx.caller.kind === 'app';

/**
 * Orders as the wire shows them. The merchant sees everything; a member (their own orders only)
 * does not see private tags or merchant comments.
 */
export function presentOrder(ctx: RequestContext, order: Order): Order {
  if (seesWholeOrder(ctx)) return order;
  const { createdBy: _createdBy, ...rest } = order;
  // Merchant-only: private tags, merchant comments, and which owner key or app created the order.
  return {
    ...rest,
    tags: { tags: order.tags.tags ?? { tagIds: [] } },
    activities: order.activities.filter((a) => a.type !== 'MERCHANT_COMMENT'),
  };
}

export const orderAnswer = (ctx: RequestContext, order: Order): { order: Order } => ({ order: presentOrder(ctx, order) });

/** `{ orders, metadata }` of a search. An owner sees orders as stored, so theirs is spliced from the stored text unparsed. */
export function searchAnswer(ctx: RequestContext, page: OrderSearchPage): EncodedJson | { orders: Order[]; metadata: unknown } {
  const metadata = { count: page.count, cursors: { next: page.next, prev: page.prev }, hasNext: page.hasNext };
  if (seesWholeOrder(ctx)) return new EncodedJson(`{"orders":[${page.rows.map(orderJson).join(',')}],"metadata":${JSON.stringify(metadata)}}`);
  return { orders: page.rows.map((r) => presentOrder(ctx, orderOf(r))), metadata };
}

/** Bulk results in the wire's shape: per item metadata, the entity when asked for. */
export function bulkAnswer<T>(results: (BulkItem<T> | BulkFailure)[], entity: ((v: T) => Record<string, unknown>) | undefined): { results: Record<string, unknown>[]; bulkActionMetadata: BulkActionMetadata } {
  const ok = results.filter((r) => r.ok).length;
  return {
    results: results.map((r, originalIndex) => (r.ok
      ? { itemMetadata: { id: r.id, originalIndex, success: true }, ...(entity ? entity(r.value) : {}) }
      : { itemMetadata: { ...(r.id ? { id: r.id } : {}), originalIndex, success: false, error: r.error } })),
    bulkActionMetadata: { totalSuccesses: ok, totalFailures: results.length - ok, undetailedFailures: 0 },
  };
}

export const aggregateAnswer = (a: { groups: OrderAggregateGroup[] }) => ({ aggregates: { groups: a.groups } });
