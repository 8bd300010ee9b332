import { bulkResults } from '../bulk-results.js';
import { DEFAULT_LOCATION_ID } from '../model.js';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, badRequest, conflict, notFound, ValidationError, type FieldViolation } from '../../../http/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { isUniqueViolation } from '../../../storage/errors.js';
import { recordEvent } from '../../events/index.js';
import {
  adjust, deleteItemRow, getItem, InsufficientStockError, insertItem, itemsOfVariant, QuantityLimitError, v3ItemsAt, type InventoryRow, type StockChange,
} from '../../inventory/index.js';
import { INVENTORY_ITEM_V3_FQDN, presentItem, refresh, updateInventoryItem } from './inventory.js';
import { INVENTORY_V3_LIMITS, type InventoryItemCreate, type InventoryItemUpsert } from './inventory-schema.js';
import { findProductV3 } from './store.js';

/**
 * V3 inventory writes at any location (docs/catalog-inventory.md): create, delete, bulk create /
 * upsert / delete, and the by-variant-and-location decrement / increment. Every item is written in
 * one transaction with its event; products whose cached stock could change (default location) are
 * refreshed in it.
 */

type Item = ReturnType<typeof presentItem>;

const itemNotFound = (id: string) => notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${id} not found`, { inventoryItemId: id });

/** quantity / inStock are one-of (tracked or not); preorder limits need tracking. */
export function stockOf(input: { trackQuantity?: boolean | undefined; quantity?: number | undefined; inStock?: boolean | undefined; preorderInfo?: { limit?: number | null | undefined } | undefined }, field: string) {
  const v: FieldViolation[] = [];
  if (input.quantity !== undefined && input.inStock !== undefined) v.push({ field: `${field}.inStock`, description: 'give quantity (tracked) or inStock (not tracked), not both', violatedRule: 'ONE_OF_ALIGNMENT', data: {} });
  if (input.trackQuantity === true && input.inStock !== undefined) v.push({ field: `${field}.inStock`, description: 'a tracked item takes quantity, not inStock', violatedRule: 'ONE_OF_ALIGNMENT', data: {} });
  if (input.trackQuantity === false && input.quantity !== undefined) v.push({ field: `${field}.quantity`, description: 'an untracked item takes inStock, not quantity', violatedRule: 'ONE_OF_ALIGNMENT', data: {} });
  const track = input.trackQuantity ?? (input.inStock === undefined);
  if (!track && input.preorderInfo?.limit != null) {
    v.push({ field: `${field}.preorderInfo.limit`, description: 'a preorder limit needs quantity tracking', violatedRule: 'FIELD_NOT_ALLOWED', data: { ruleName: 'PREORDER_LIMIT_NOT_SUPPORTED_FOR_UNTRACKED_INVENTORY' } });
  }
  if (v.length) throw new ValidationError(v);
  return { trackQuantity: track, quantity: track ? (input.quantity ?? 0) : null, inStock: track ? (input.quantity ?? 0) > 0 : (input.inStock ?? false) };
}

/** Creates the item of a V3 product's variant at a location (same transaction as the caller's, if any). */
export async function createItem(ctx: RequestContext, input: InventoryItemCreate, field = 'inventoryItem'): Promise<Item> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const locationId = input.locationId ?? DEFAULT_LOCATION_ID;
    const product = await findProductV3(trx, ctx.site.id, { id: input.productId }, ctx.dialect);
    if (!product) throw notFound('PRODUCT_NOT_FOUND', `Product ${input.productId} not found`, { productId: input.productId });
    const variant = product.variantsInfo.variants.find((v) => v.id === input.variantId);
    if (!variant) throw new ValidationError([{ field: `${field}.variantId`, description: `is not a variant of product ${input.productId}`, violatedRule: 'FORMAT', data: { productId: input.productId, variantId: input.variantId } }]);
    const stock = stockOf(input, field);
    const existing = await itemsOfVariant(tctx, input.productId, input.variantId);
    const same = existing.find((r) => r.locationId === locationId);
    if (same) throw conflict('ITEM_ALREADY_EXISTS', `Variant ${input.variantId} already has an inventory item at location ${locationId}`, { inventoryItemId: same.id, locationId });
    if (existing.length >= INVENTORY_V3_LIMITS.locationsPerVariant) {
      throw badRequest('TOO_MANY_LOCATIONS', `A variant has stock at most at ${INVENTORY_V3_LIMITS.locationsPerVariant} locations`, { max: INVENTORY_V3_LIMITS.locationsPerVariant });
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    try {
      await insertItem(tctx, {
        id, catalog: 'v3', productId: input.productId, variantId: input.variantId, locationId,
        // The SKU belongs to the variant: every location's row carries it (the SKU check skips the own product).
        sku: existing.find((r) => r.locationId === DEFAULT_LOCATION_ID)?.sku ?? variant.sku ?? null,
        ...stock, preorderEnabled: input.preorderInfo?.enabled ?? false, preorderLimit: input.preorderInfo?.limit ?? null, preorderMessage: input.preorderInfo?.message ?? null,
      }, now);
    } catch (error) {
      // A concurrent create of the same (variant, location) won the unique index.
      if (isUniqueViolation(error)) throw conflict('ITEM_ALREADY_EXISTS', `Variant ${input.variantId} already has an inventory item at location ${locationId}`, { locationId });
      throw error;
    }
    if (locationId === DEFAULT_LOCATION_ID) await refresh(tctx, input.productId);
    const item = presentItem((await getItem(tctx, id))!);
    await recordEvent(tctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'created', entityId: id, entity: item });
    return item;
  });
}

/**
 * Deletes an item at a location other than the default one. The default-location item lives and dies
 * with its variant (product writes): deleting it is refused with 409 DEFAULT_LOCATION_ITEM, so the
 * storefront's availability never changes through this call (set quantity 0 / inStock false instead).
 */
export async function deleteItem(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const row = await getItem(tctx, id);
    if (!row) throw itemNotFound(id);
    if (row.locationId === DEFAULT_LOCATION_ID) {
      throw conflict('DEFAULT_LOCATION_ITEM', 'The default-location item belongs to the variant; set its stock to 0 or delete the variant instead', { inventoryItemId: id, locationId: DEFAULT_LOCATION_ID });
    }
    await deleteItemRow(tctx, id);
    await recordEvent(tctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'deleted', entityId: id, entity: presentItem(row) });
  });
}

export async function bulkCreateItems(ctx: RequestContext, items: InventoryItemCreate[], returnEntity: boolean) {
  return bulkResults(items, async (input, i) => {
    const item = await createItem(ctx, input, `inventoryItems[${i}]`);
    return { id: item.id, ...(returnEntity ? { item } : {}) };
  });
}

export async function bulkDeleteItems(ctx: RequestContext, ids: string[]) {
  return bulkResults(ids, async (id) => { await deleteItem(ctx, id); return { id }; });
}

/** The key an upsert item names: its id, or product + variant + location. */
function upsertKey(u: InventoryItemUpsert, i: number): string {
  if (u.id) return `id:${u.id}`;
  if (!u.productId || !u.variantId) {
    throw new ValidationError([{ field: `inventoryItems[${i}].inventoryItem`, description: 'give id, or productId and variantId', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
  }
  return `at:${u.productId}\u0000${u.variantId}\u0000${u.locationId ?? DEFAULT_LOCATION_ID}`;
}

/**
 * Upsert: an item named by id is updated (revision checked when given; 404 when absent); an item named
 * by product + variant + location is updated when it exists, created otherwise. Two items with the
 * same key refuse the whole call (400 DUPLICATE_BULK_UPSERT_KEY, nothing written).
 */
export async function bulkUpsertItems(ctx: RequestContext, items: InventoryItemUpsert[], returnEntity: boolean) {
  const keys = items.map(upsertKey);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup >= 0) throw new ValidationError([{ field: `inventoryItems[${dup}].inventoryItem`, description: 'names the same item as an earlier one', violatedRule: 'FORMAT', data: { ruleName: 'DUPLICATE_BULK_UPSERT_KEY' } }]);
  return bulkResults(items, async (u, i) => inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const field = `inventoryItems[${i}].inventoryItem`;
    let current: InventoryRow | undefined;
    if (u.id) {
      current = await getItem(tctx, u.id);
      if (!current) throw itemNotFound(u.id);
    } else {
      current = (await itemsOfVariant(tctx, u.productId!, u.variantId!)).find((r) => r.locationId === (u.locationId ?? DEFAULT_LOCATION_ID));
    }
    if (!current) {
      const item = await createItem(tctx, { productId: u.productId!, variantId: u.variantId!, locationId: u.locationId, trackQuantity: u.trackQuantity, quantity: u.quantity, inStock: u.inStock, preorderInfo: u.preorderInfo }, field);
      return { id: item.id, ...(returnEntity ? { item } : {}) };
    }
    // Giving quantity tracks the item, giving inStock untracks it; neither keeps its tracking.
    const track = u.trackQuantity ?? (u.quantity !== undefined ? true : u.inStock !== undefined ? false : undefined);
    stockOf({ ...u, trackQuantity: track ?? current.trackQuantity }, field);
    const r = await updateInventoryItem(tctx, current.id, { ...(u.revision ? { revision: u.revision } : {}), trackQuantity: track, quantity: u.quantity, inStock: u.inStock, preorderInfo: u.preorderInfo });
    return { id: current.id, ...(returnEntity ? { item: r.inventoryItem } : {}) };
  }));
}

type AtChange = { variantId: string; locationId?: string | null | undefined; by: number; preorderRequest?: boolean | undefined };

/** The V3 item of a variant at a location, or a per-item NOT_FOUND / AMBIGUOUS_VARIANT. */
async function itemAt(ctx: RequestContext, c: AtChange): Promise<InventoryRow> {
  const locationId = c.locationId ?? DEFAULT_LOCATION_ID;
  const rows = await v3ItemsAt(ctx, c.variantId, locationId);
  if (rows.length === 0) throw notFound('NOT_FOUND', `Variant ${c.variantId} has no inventory item at location ${locationId}`, { variantId: c.variantId, locationId });
  if (rows.length > 1) throw conflict('AMBIGUOUS_VARIANT', `Variant id ${c.variantId} is used by more than one product; change the items by id`, { variantId: c.variantId });
  return rows[0]!;
}

/**
 * Decrement / increment by variant and location, per item (each its own transaction). Decrements with
 * restrictInventory (default true) never go below zero (INSUFFICIENT_INVENTORY), except into an
 * enabled preorder's limit; untracked items refuse (INVENTORY_QUANTITY_NOT_TRACKED); increments stop
 * at the quantity bound (MAX_QUANTITY_LIMIT_REACHED). `preorderRequest` counts preordered units on a
 * preorder-enabled item without touching its quantity.
 */
export async function bulkChangeAt(ctx: RequestContext, changes: AtChange[], direction: 'decrement' | 'increment', opts: { restrict: boolean; returnEntity: boolean; reason?: string | undefined }) {
  return bulkResults(changes, async (c) => inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const row = await itemAt(tctx, c);
    const data = { variantId: c.variantId, locationId: row.locationId, inventoryItemId: row.id };
    const preorder = direction === 'decrement' && !!c.preorderRequest;
    if (!preorder && !row.trackQuantity) throw new ApplicationError(409, 'INVENTORY_QUANTITY_NOT_TRACKED', `Item ${row.id} does not track quantity`, data);
    const change: StockChange = preorder ? { inventoryItemId: row.id, preorder: c.by }
      : direction === 'decrement' ? { inventoryItemId: row.id, decrement: c.by, restrict: opts.restrict }
        : { inventoryItemId: row.id, increment: c.by, max: INVENTORY_V3_LIMITS.quantityMax };
    // The stock listener (../inventory.ts) refreshes the product of a default-location item.
    await adjust(tctx, [change]).catch((error: unknown) => {
      if (error instanceof QuantityLimitError) throw conflict('MAX_QUANTITY_LIMIT_REACHED', `Item ${row.id} would hold more than ${INVENTORY_V3_LIMITS.quantityMax}`, { ...data, max: INVENTORY_V3_LIMITS.quantityMax });
      if (error instanceof InsufficientStockError) {
        if (preorder) throw conflict('INSUFFICIENT_INVENTORY', `Item ${row.id} takes no preorder of ${c.by} units`, { ...data, requested: c.by });
        throw conflict('INSUFFICIENT_INVENTORY', `Item ${row.id} has ${row.quantity ?? 0}, not ${c.by}`, { ...data, available: row.quantity ?? 0, requested: c.by });
      }
      throw error;
    });
    const item = presentItem((await getItem(tctx, row.id))!);
    await recordEvent(tctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'updated', entityId: row.id, entity: item, data: { reason: opts.reason ?? 'MANUAL' } });
    return { id: row.id, ...(opts.returnEntity ? { item } : {}) };
  }));
}
