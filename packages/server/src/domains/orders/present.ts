import type { BulkActionMetadata } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import type { BulkFailure, BulkItem } from './changes.js';
import type { Order, OrderAggregateGroup } from './model.js';

/**
 * Orders as the wire shows them. The merchant sees everything; a member (their own orders only)
 * does not see private tags or merchant comments.
 */
export function presentOrder(ctx: RequestContext, order: Order): Order {
  if (ctx.caller.kind === 'owner' || ctx.caller.kind === 'app') return order;
  return {
    ...order,
    tags: { tags: order.tags.tags ?? { tagIds: [] } },
    activities: order.activities.filter((a) => a.type !== 'MERCHANT_COMMENT'),
  };
}

export const orderAnswer = (ctx: RequestContext, order: Order): { order: Order } => ({ order: presentOrder(ctx, order) });

export function searchAnswer(ctx: RequestContext, page: { orders: Order[]; count: number; next: string | null; prev: string | null; hasNext: boolean }) {
  return { orders: page.orders.map((o) => presentOrder(ctx, o)), metadata: { count: page.count, cursors: { next: page.next, prev: page.prev }, hasNext: page.hasNext } };
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
