import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import {
  deleteInventoryItemRow, deleteStockRows, findItem, findItemsAt, findStockRows, findStockRowsForProducts, findVariantRows, insertInventoryItem, queryInventoryRows,
  skuUsedElsewhere as skuInUse, syncStockRows, variantsWithItems, type Catalog, type InventoryQuery, type InventoryRow, type NewInventoryItem, type VariantStock,
} from './store.js';

/**
 * Items as the catalog keeps them (docs/inventory.md): the default-location item of every variant,
 * written by product writes; V3 items at other locations (create / delete); reads. Stock changes on
 * them are `adjust` / reservations (service.ts). Pass `{...ctx, db: trx}` to join a transaction.
 */

/** The default-location items of a product, in variant id order: its document's stock. */
export const defaultItemsOf = (ctx: RequestContext, productId: string): Promise<InventoryRow[]> => findStockRows(ctx.db, ctx.site.id, productId);

export const defaultItemsOfProducts = (ctx: RequestContext, productIds: string[]): Promise<Map<string, InventoryRow[]>> => findStockRowsForProducts(ctx.db, ctx.site.id, productIds);

export const getItem = (ctx: RequestContext, id: string): Promise<InventoryRow | undefined> => findItem(ctx.db, ctx.site.id, id);

/** A variant's items at every location (location order). */
export const itemsOfVariant = (ctx: RequestContext, productId: string, variantId: string): Promise<InventoryRow[]> => findVariantRows(ctx.db, ctx.site.id, productId, variantId);

/** Which of these variants have an item at any location (`productId/variantId` keys), in one statement. */
export const variantsWithItemsOf = (ctx: RequestContext, refs: { productId: string; variantId: string }[]): Promise<Set<string>> => variantsWithItems(ctx.db, ctx.site.id, refs);

/** The V3 items of a variant id at a location (two: two products share a caller-chosen variant id). */
export const v3ItemsAt = (ctx: RequestContext, variantId: string, locationId: string): Promise<InventoryRow[]> => findItemsAt(ctx.db, ctx.site.id, variantId, locationId);

/** Items in id order (offset or cursor paging). */
export const listItems = (ctx: RequestContext, q: Omit<InventoryQuery, 'siteId'>): Promise<{ rows: InventoryRow[]; total: number }> => queryInventoryRows(ctx.db, { ...q, siteId: ctx.site.id });

/** Another product of the site uses one of `skus` on some variant (the SKU found). */
export const skuUsedElsewhere = (ctx: RequestContext, skus: string[], productId: string): Promise<string | undefined> => skuInUse(ctx.db, ctx.site.id, skus, productId);

/**
 * Makes a product's default-location items match its variants (product writes): new variants get an
 * item, changed ones are updated (revision + 1), removed ones lose their items at every location; a
 * changed SKU reaches the variant's items elsewhere. The caller refreshes its own documents.
 */
export const syncVariantItems = (ctx: RequestContext, catalog: Catalog, productId: string, rows: VariantStock[], now: string): Promise<void> =>
  syncStockRows(ctx.db, ctx.site.id, catalog, productId, rows, now, randomUUID);

/** Removes every item of a deleted product. */
export const deleteProductItems = (ctx: RequestContext, productId: string): Promise<void> => deleteStockRows(ctx.db, ctx.site.id, productId);

/** Inserts an item (the caller checked product, variant and location; a unique-index race throws). */
export const insertItem = (ctx: RequestContext, item: NewInventoryItem, now: string): Promise<void> => insertInventoryItem(ctx.db, ctx.site.id, item, now);

export const deleteItemRow = (ctx: RequestContext, id: string): Promise<void> => deleteInventoryItemRow(ctx.db, ctx.site.id, id);
