import type { RequestContext } from '../../http/context.js';
import {
  adjust, adjustKnown, commit, INVENTORY_LIMITS, InsufficientStockError, release, variantsWithItemsOf, reserve, type StockChange,
} from '../inventory/index.js';
import { ApplicationError } from '../../http/errors.js';
import { DEFAULT_VARIANT_ID, STORES_APP_ID, type InventoryUpdateTrigger, type Order, type OrderRecord, type StockState } from './model.js';

/**
 * An order's units in inventory (docs/orders.md "Stock"). Placed under ON_ORDER_PLACED: taken at
 * once. Under ON_ORDER_PAID: held by a reservation named after the order, taken when paid. Cancel
 * releases what is held and, with restock, gives taken units back; a refund with restock gives back
 * the lines it names. Units taken are always guarded (never below zero), both catalogs alike
 * (variants are named by product and variant id).
 */

/** How long an unpaid order holds its units (the inventory's longest reservation). */
export const ORDER_HOLD_MS = INVENTORY_LIMITS.reservationTtlMaxMs - 60_000;

interface StockLine { lineItemId: string; productId: string; variantId: string; quantity: number }

export const reservationIdOf = (orderId: string) => `order:${orderId}`;

/** The lines of catalog products (other apps' items have no stock here). */
export function stockLines(order: Order): StockLine[] {
  return order.lineItems.flatMap((li) => {
    const ref = li.catalogReference;
    if (!ref || ref.appId !== STORES_APP_ID || !ref.catalogItemId) return [];
    const v = ref.options?.variantId;
    return [{ lineItemId: li.id, productId: ref.catalogItemId, variantId: typeof v === 'string' && v ? v : DEFAULT_VARIANT_ID, quantity: li.quantity }];
  });
}

/** Only lines whose variant has stock to count (an owner may order items the catalog does not know). */
async function known(ctx: RequestContext, lines: StockLine[]): Promise<StockLine[]> {
  if (lines.length === 0) return [];
  const counted = await variantsWithItemsOf(ctx, lines);
  return lines.filter((l) => counted.has(`${l.productId}/${l.variantId}`));
}

const decrements = (lines: StockLine[]): StockChange[] => lines.map((l) => ({ productId: l.productId, variantId: l.variantId, decrement: l.quantity }));

/** Takes or holds a new order's units; InsufficientStockError (409) propagates and the caller's transaction rolls back. */
export async function placeStock(ctx: RequestContext, order: Order, trigger: InventoryUpdateTrigger, paid: boolean): Promise<StockState> {
  if (trigger === 'ON_ORDER_PLACED' || paid) {
    const lines = stockLines(order);
    if (lines.length === 0) return 'NONE';
    // Lines whose variant has no item are skipped in the same resolution that takes the others' units.
    const { matched } = await adjustKnown(ctx, decrements(lines));
    return matched > 0 ? 'COMMITTED' : 'NONE';
  }
  const lines = await known(ctx, stockLines(order));
  if (lines.length === 0) return 'NONE';
  await reserve(ctx, lines.map((l) => ({ item: { productId: l.productId, variantId: l.variantId }, quantity: l.quantity })), {
    reservationId: reservationIdOf(order.id), owner: order.id, expiresAt: new Date(Date.now() + ORDER_HOLD_MS),
  });
  return 'RESERVED';
}

const gone = new Set(['RESERVATION_EXPIRED', 'RESERVATION_RELEASED', 'RESERVATION_NOT_FOUND']);

/** Takes held units when the order is paid. A hold that expired is taken anew, line by line, as far as stock allows. */
export async function commitStock(ctx: RequestContext, rec: OrderRecord): Promise<StockState> {
  if (rec.stockState !== 'RESERVED') return rec.stockState;
  try {
    await commit(ctx, reservationIdOf(rec.order.id));
    return 'COMMITTED';
  } catch (error) {
    if (!(error instanceof ApplicationError) || !gone.has(error.code)) throw error;
  }
  for (const line of await known(ctx, stockLines(rec.order))) {
    try {
      await adjust(ctx, decrements([line]));
    } catch (error) {
      // Paid already: the sale stands; the stock stays at what is left rather than going below zero.
      if (!(error instanceof InsufficientStockError)) throw error;
      ctx.log.warn({ orderId: rec.order.id, lineItemId: line.lineItemId }, 'orders: paid after its hold expired and the stock is gone');
    }
  }
  return 'COMMITTED';
}

/** Gives back units: held ones all at once; taken ones per line, never more than the line took minus what went back before. */
export async function restock(ctx: RequestContext, rec: OrderRecord, lines: { lineItemId: string; quantity: number }[] | 'ALL'): Promise<OrderRecord> {
  if (rec.stockState === 'RESERVED') {
    await release(ctx, reservationIdOf(rec.order.id));
    return { ...rec, stockState: 'NONE' };
  }
  if (rec.stockState !== 'COMMITTED') return rec;
  const byLine = new Map(stockLines(rec.order).map((l) => [l.lineItemId, l]));
  const wanted = lines === 'ALL' ? rec.order.lineItems.map((li) => ({ lineItemId: li.id, quantity: li.quantity })) : lines;
  const back = new Map<string, number>();
  const changes: StockChange[] = [];
  for (const w of wanted) {
    const li = rec.order.lineItems.find((l) => l.id === w.lineItemId);
    const line = byLine.get(w.lineItemId);
    if (!li || !line) continue;
    const left = li.quantity - (li.restockQuantity ?? 0) - (back.get(li.id) ?? 0);
    const n = Math.min(w.quantity, left);
    if (n <= 0) continue;
    back.set(li.id, (back.get(li.id) ?? 0) + n);
    changes.push({ productId: line.productId, variantId: line.variantId, increment: n });
  }
  if (changes.length === 0) return rec;
  await adjust(ctx, changes, { ignoreMissing: true });
  const lineItems = rec.order.lineItems.map((li) => (back.has(li.id) ? { ...li, restockQuantity: (li.restockQuantity ?? 0) + back.get(li.id)! } : li));
  return { ...rec, order: { ...rec.order, lineItems } };
}

/**
 * Applies the quantity changes of an order edit: taken units follow the new lines (more taken, or
 * given back). Held units are released and the edited lines taken at once (an edited unpaid order
 * keeps its units from then on). Returns the new stock state.
 */
export async function editStock(ctx: RequestContext, rec: OrderRecord, before: Order): Promise<StockState> {
  if (rec.stockState === 'NONE') return 'NONE';
  if (rec.stockState === 'RESERVED') {
    await release(ctx, reservationIdOf(rec.order.id));
    const lines = await known(ctx, stockLines(rec.order));
    if (lines.length) await adjust(ctx, decrements(lines));
    return lines.length ? 'COMMITTED' : 'NONE';
  }
  const old = new Map(stockLines(before).map((l) => [`${l.productId}|${l.variantId}`, l.quantity]));
  const now = new Map<string, StockLine>();
  for (const l of stockLines(rec.order)) {
    const key = `${l.productId}|${l.variantId}`;
    const prev = now.get(key);
    now.set(key, prev ? { ...prev, quantity: prev.quantity + l.quantity } : l);
  }
  const keys = new Set([...old.keys(), ...now.keys()]);
  const changes: StockChange[] = [];
  for (const key of keys) {
    const [productId, variantId] = key.split('|') as [string, string];
    const delta = (now.get(key)?.quantity ?? 0) - (old.get(key) ?? 0);
    if (delta > 0) changes.push({ productId, variantId, decrement: delta });
    if (delta < 0) changes.push({ productId, variantId, increment: -delta });
  }
  if (changes.length) await adjust(ctx, changes, { ignoreMissing: true });
  return 'COMMITTED';
}
