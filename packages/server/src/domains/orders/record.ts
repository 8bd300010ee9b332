import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvents } from '../events/index.js';
import { currencyOf, toMinor } from './amounts.js';
import type { Order, OrderActivity, OrderActivityType, OrderRecord } from './model.js';
import { findOrder, updateOrderRow } from './store.js';

/**
 * What every order change shares: the locked read, the save (revision, dates, columns), activities
 * and the events written in the same transaction.
 */

export const ORDER_FQDN = 'wix.ecom.v1.order';
export const FULFILLMENTS_FQDN = 'wix.ecom.v1.fulfillments';
export const ORDERS_SETTINGS_FQDN = 'wix.ecom.v1.orders_settings';

export const orderNotFound = (id: string) => notFound('ORDER_NOT_FOUND', `Order ${id} not found`, { orderId: id });

/** Throws at a named point when the test configuration asks for it (all-or-nothing proofs); a no-op otherwise. */
export function failpoint(ctx: RequestContext, name: string): void {
  if (ctx.deps.config.failpoints?.includes(name)) throw new Error(`failpoint ${name}`);
}

export function newActivity(type: OrderActivityType, extra: Partial<Omit<OrderActivity, 'id' | 'type' | 'createdDate'>> = {}, now = new Date().toISOString()): OrderActivity {
  return { id: randomUUID(), createdDate: now, type, ...extra };
}

export function totalMinor(order: Order): bigint {
  return toMinor(order.priceSummary.total.amount, currencyOf(order.currency), 'order.priceSummary.total.amount', { allowNegative: true });
}

export interface OrderEvent { slug: string; data?: Record<string, unknown>; entity?: unknown; fqdn?: string }

/** Saves a changed order: revision + 1, updatedDate, columns and document, then its events (the entity after the change). */
export async function saveOrder(ctx: RequestContext, rec: OrderRecord, events: OrderEvent[] = []): Promise<OrderRecord> {
  const now = new Date().toISOString();
  const next: OrderRecord = { ...rec, revision: rec.revision + 1, order: { ...rec.order, updatedDate: now } };
  await updateOrderRow(ctx.db, ctx.site.id, next, totalMinor(next.order));
  await recordOrderEvents(ctx, next.order, events);
  return next;
}

export async function recordOrderEvents(ctx: RequestContext, order: Order, events: OrderEvent[]): Promise<void> {
  await recordEvents(ctx, events.map((e) => ({
    entityFqdn: e.fqdn ?? ORDER_FQDN, slug: e.slug, entityId: order.id, entity: e.entity ?? order, ...(e.data ? { data: e.data } : {}),
  })));
}

/**
 * Runs `fn` on the order locked for this transaction (the caller's, if any). `fn` returns the
 * changed record and its events, or undefined for "nothing changed".
 */
export async function changeOrder(
  ctx: RequestContext, orderId: string,
  fn: (tctx: RequestContext, rec: OrderRecord) => Promise<{ rec: OrderRecord; events: OrderEvent[] } | undefined>,
): Promise<OrderRecord> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const rec = await findOrder(trx, ctx.site.id, orderId, ctx.dialect);
    if (!rec) throw orderNotFound(orderId);
    const changed = await fn(tctx, rec);
    if (!changed) return rec;
    return saveOrder(tctx, changed.rec, changed.events);
  });
}

/** The order read for a caller: members only their own (others get the same 404 as a missing order). */
export async function readOrder(ctx: RequestContext, orderId: string): Promise<OrderRecord> {
  const rec = await findOrder(ctx.db, ctx.site.id, orderId);
  if (!rec || !visibleTo(ctx, rec.order)) throw orderNotFound(orderId);
  return rec;
}

export function visibleTo(ctx: RequestContext, order: Order): boolean {
  const c = ctx.caller;
  if (c.kind === 'owner' || c.kind === 'app') return true;
  if (c.kind === 'member') return order.buyerInfo.memberId === c.memberId;
  return false;
}
