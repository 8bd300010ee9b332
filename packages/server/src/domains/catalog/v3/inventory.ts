import type { z } from 'zod';
import { isElevated, type RequestContext } from '../../../http/context.js';
import { conflict, notFound } from '../../../http/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { adjust, getItem, InsufficientStockError, listItems, type InventoryRow } from '../../inventory/index.js';
import { bulkResults } from '../bulk-results.js';
import { INVENTORY_V3_LIMITS } from './inventory-schema.js';
import { V3_LIMITS, type inventoryItemPatch } from './schema.js';
import type { ProductV3 } from './model.js';
import { refreshProductV3Stock } from './service.js';
import { refreshProductStock } from '../service.js';
import { findProductV3 } from './store.js';

export const INVENTORY_ITEM_V3_FQDN = 'wix.stores.inventory.v3.inventory_item';

export { presentItem } from './inventory-present.js';
import { presentItem } from './inventory-present.js';

/**
 * The inventory items of products just written, in variant order, as the `inventoryResults` of the
 * with-inventory calls (each item's entity only when `withEntity`).
 */
export async function inventoryResultsOf(ctx: RequestContext, products: ProductV3[], withEntity: boolean) {
  const results: { itemMetadata: { id: string; originalIndex: number; success: true }; item?: unknown }[] = [];
  for (const p of products) {
    const { rows } = await listItems(ctx, { productIds: [p.id], limit: V3_LIMITS.variants, offset: 0 });
    const order = new Map(p.variantsInfo.variants.map((v, i) => [v.id, i]));
    rows.sort((a, b) => (order.get(a.variantId) ?? 0) - (order.get(b.variantId) ?? 0));
    for (const r of rows) results.push({ itemMetadata: { id: r.id, originalIndex: results.length, success: true }, ...(withEntity ? { item: presentItem(r) } : {}) });
  }
  return { results, bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 } };
}

async function visibleToCaller(ctx: RequestContext, r: InventoryRow): Promise<boolean> {
  if (isElevated(ctx.caller)) return true;
  const p = await findProductV3(ctx.db, ctx.site.id, { id: r.productId });
  return !!p?.visible;
}

export async function getInventoryItem(ctx: RequestContext, id: string) {
  const r = await getItem(ctx, id);
  if (!r || !(await visibleToCaller(ctx, r))) throw notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${id} not found`);
  return { inventoryItem: presentItem(r) };
}

// Query and count run on the search engine (inventory-search.ts): every search field filters, visitors
// see items of visible V3 products, elevated callers also V1 products' items.
export { countInventoryItems, queryInventoryItems } from './inventory-search.js';

export async function refresh(ctx: RequestContext, productId: string): Promise<void> {
  await refreshProductV3Stock(ctx, productId);
  await refreshProductStock(ctx, productId);
}

export async function updateInventoryItem(ctx: RequestContext, id: string, patch: z.infer<typeof inventoryItemPatch>) {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const cur = await getItem(tctx, id);
    if (!cur) throw notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${id} not found`);
    if (patch.revision !== undefined && patch.revision !== String(cur.revision)) throw conflict('REVISION_MISMATCH', `Inventory item ${id} is at revision ${cur.revision}`, { currentRevision: String(cur.revision) });
    // The stock listener (../inventory.ts) recomputes the product when this is its default-location item.
    await adjust(tctx, [{ inventoryItemId: id, set: {
      ...(patch.trackQuantity !== undefined ? { trackQuantity: patch.trackQuantity } : {}),
      ...(patch.quantity !== undefined ? { quantity: patch.quantity, ...(patch.trackQuantity === undefined ? { trackQuantity: true } : {}) } : {}),
      ...(patch.inStock !== undefined ? { inStock: patch.inStock } : {}),
      ...(patch.preorderInfo ? { preorderEnabled: patch.preorderInfo.enabled ?? cur.preorderEnabled, preorderLimit: patch.preorderInfo.limit ?? cur.preorderLimit, preorderMessage: patch.preorderInfo.message ?? cur.preorderMessage } : {}),
    } }]);
    const next = (await getItem(tctx, id))!;
    await recordEvent(tctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'updated', entityId: id, entity: presentItem(next) });
    return { inventoryItem: presentItem(next) };
  });
}

type Change = { inventoryItemId: string; by: number };

/**
 * Bulk decrement (all-or-nothing in one transaction, 409 INSUFFICIENT_STOCK when short) or
 * increment (409 MAX_QUANTITY_LIMIT_REACHED past the quantity bound), answering per item like the
 * platform: one inventory `adjust` over every item, at any location (rows locked in id order, one
 * guarded decrement each, untracked items must be in stock). Each changed item records `updated`.
 */
export async function bulkChangeInventory(ctx: RequestContext, changes: Change[], direction: 'decrement' | 'increment', returnEntity: boolean) {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await adjust(tctx, changes.map((c) => (direction === 'decrement'
      ? { inventoryItemId: c.inventoryItemId, decrement: c.by }
      : { inventoryItemId: c.inventoryItemId, increment: c.by, max: INVENTORY_V3_LIMITS.quantityMax })));
    for (const id of new Set(changes.map((c) => c.inventoryItemId))) {
      const r = (await getItem(tctx, id))!;
      await recordEvent(tctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'updated', entityId: id, entity: presentItem(r), data: { reason: direction } });
    }
  });
  return bulkResults(changes, async (c) => {
    const r = (await getItem(ctx, c.inventoryItemId))!;
    return { id: r.id, ...(returnEntity ? { item: presentItem(r) } : {}) };
  });
}

export { InsufficientStockError };
