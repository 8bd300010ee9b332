/**
 * Inventory (`@vitrine/sdk/stores` -> `inventory`). V1, as the public `@wix/stores` inventory module:
 * one inventory item per product listing its variants' stock; decrement takes every line or none (409
 * `INSUFFICIENT_STOCK`). V3, as the public inventoryItemsV3 module (same function names): one item per
 * variant and location, below. Writes are elevated.
 */
import type * as wire from '@vitrine/types/stores';
import type { BulkActionMetadata, BulkItemMetadata } from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type InventoryItem = FromWire<wire.InventoryItemV1>;
export type StockChange = Omit<wire.InventoryStockChangeV1, 'preorderRequest'>;
type InventoryItemUpdate = FromWire<wire.InventoryItemV1Update>;

const DECODE = { dates: ['inventoryItems.lastUpdated', 'inventoryItem.lastUpdated'] };

/** `inventory.queryInventory({ query: { filter, paging } })` */
export const queryInventory = defineMethod((client, options: { query?: { filter?: Record<string, unknown> | string; paging?: { limit?: number; offset?: number } } } = {}) =>
  client.request<FromWire<wire.QueryInventoryV1Response>>({ method: 'POST', path: '/stores-reader/v2/inventoryItems/query', payload: { query: options.query ?? {} }, decode: DECODE }));

/** `inventory.getInventoryVariants(inventoryId, { productId?, variantIds? })` -> `{ inventoryItem }` */
export const getInventoryVariants = defineMethod((client, inventoryId: string, options: { externalId?: string; productId?: string; variantIds?: string[] } = {}) =>
  client.request<FromWire<wire.GetInventoryVariantsV1Response>>({ method: 'POST', path: `/stores-reader/v2/inventoryItems/${encodeURIComponent(inventoryId)}/getVariants`, payload: { inventoryId, ...options }, decode: DECODE }));

/** Elevated. Tracking, quantities, in-stock flags and preorder of one product's variants. */
export const updateInventoryVariants = defineMethod((client, productId: string, inventoryItem: InventoryItemUpdate) =>
  client.request<Record<string, never>>({ method: 'PATCH', path: `/stores/v2/inventoryItems/product/${encodeURIComponent(productId)}`, payload: { inventoryItemProductId: productId, inventoryItem } }));

/** Elevated. All lines or none. */
export const decrementInventory = defineMethod((client, decrementData: wire.InventoryDecrementV1[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/stores/v2/inventoryItems/decrement', payload: { decrementData } }));

/** Elevated. */
export const incrementInventory = defineMethod((client, incrementData: Omit<wire.InventoryIncrementV1, 'preorderRequest'>[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/stores/v2/inventoryItems/increment', payload: { incrementData } }));

// ---------------------------------------------------------------------------------------------
// Inventory items V3 (the public `@wix/stores` inventoryItemsV3 names): one item per variant and
// location; the default location (all zeros) is what the storefront and checkout read. Reads are
// visitor calls (items of visible products); writes are elevated. See docs/catalog-inventory.md.

export const DEFAULT_LOCATION_ID = '00000000-0000-0000-0000-000000000000';

export type InventoryItemV3 = FromWire<wire.InventoryItemV3>;
/** Stock of an item to create or set: `quantity` (tracked) or `inStock` (not tracked). */
export type InventoryStockInput = FromWire<wire.InventoryStockInputV3>;
export type InventoryItemInput = FromWire<wire.InventoryItemV3Input>;
export type ReasonType = wire.InventoryChangeReason;
export interface BulkItemResult<T> { itemMetadata: FromWire<BulkItemMetadata>; item?: T }
export interface BulkResponse<T> { results: BulkItemResult<T>[]; bulkActionMetadata: BulkActionMetadata }
export type SearchDetails = FromWire<wire.InventorySearchDetails>;
export type InventorySearch = FromWire<wire.InventorySearch>;
/** Exactly one of `incrementBy` and `decrementBy`. */
export type Adjustment = wire.InventoryAdjustment;

const ITEM = { dates: ['inventoryItem.createdDate', 'inventoryItem.updatedDate'] };
const ITEMS = { dates: ['inventoryItems.createdDate', 'inventoryItems.updatedDate'] };
const RESULTS = { dates: ['results.item.createdDate', 'results.item.updatedDate'] };
const V3 = '/stores/v3';
const BULK = `${V3}/bulk/inventory-items`;

/** Elevated. An item for a variant at a location (409 ITEM_ALREADY_EXISTS when it has one there). */
export const createInventoryItem = defineMethod(async (client, inventoryItem: InventoryItemInput) =>
  (await client.request<FromWire<wire.InventoryItemV3Response>>({ method: 'POST', path: `${V3}/inventory-items`, payload: { inventoryItem }, decode: ITEM })).inventoryItem);

export const getInventoryItem = defineMethod(async (client, inventoryItemId: string) =>
  (await client.request<FromWire<wire.InventoryItemV3Response>>({ method: 'GET', path: `${V3}/inventory-items/${encodeURIComponent(inventoryItemId)}`, payload: { inventoryItemId }, decode: ITEM })).inventoryItem);

/** Elevated. `updateInventoryItem(_id, { revision, quantity })`; a stale revision is 409 REVISION_MISMATCH. */
export const updateInventoryItem = defineMethod(async (client, _id: string, inventoryItem: FromWire<wire.InventoryItemV3Patch>, options: { reason?: ReasonType } = {}) =>
  (await client.request<FromWire<wire.InventoryItemV3Response>>({ method: 'PATCH', path: `${V3}/inventory-items/${encodeURIComponent(_id)}`, payload: { inventoryItem, ...options }, decode: ITEM })).inventoryItem);

/** Elevated. The default-location item is refused (409 DEFAULT_LOCATION_ITEM). */
export const deleteInventoryItem = defineMethod(async (client, inventoryItemId: string): Promise<void> => {
  await client.request<Record<string, never>>({ method: 'DELETE', path: `${V3}/inventory-items/${encodeURIComponent(inventoryItemId)}`, payload: { inventoryItemId } });
});

/** `queryInventoryItems({ filter: { productId }, cursorPaging })` (filters `productId` / `_id`). */
export const queryInventoryItems = defineMethod((client, query: { filter?: Record<string, unknown>; cursorPaging?: { limit?: number; cursor?: string } } = {}) =>
  client.request<FromWire<wire.InventoryItemsV3Page>>({ method: 'GET', path: `${V3}/inventory-items/query`, payload: { query }, postTwin: true, decode: ITEMS }));

/** Filter, sort, text (product name / SKU), aggregations, cursor paging. */
export const searchInventoryItems = defineMethod((client, search: InventorySearch = {}) =>
  client.request<FromWire<wire.InventorySearchV3Response>>({ method: 'GET', path: `${V3}/inventory-items/search`, payload: { search }, postTwin: true, decode: ITEMS }));

export const countInventoryItems = defineMethod(async (client, options: { filter?: Record<string, unknown> } = {}) =>
  (await client.request<{ count: number }>({ method: 'GET', path: `${V3}/inventory-items/count`, payload: options, postTwin: true })).count);

/** Elevated. Per-item results. */
export const bulkCreateInventoryItems = defineMethod((client, inventoryItems: InventoryItemInput[], options: { returnEntity?: boolean } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/create`, payload: { inventoryItems, ...options }, decode: RESULTS }));

/** Elevated. Each item by `_id` (+ revision) or by productId + variantId + locationId; created when absent. */
export const bulkUpsertInventoryItems = defineMethod((client, inventoryItems: { inventoryItem: FromWire<wire.InventoryItemV3Upsert> }[], options: { returnEntity?: boolean } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/upsert`, payload: { inventoryItems, ...options }, decode: RESULTS }));

/** Elevated. Each item with its `_id` (and revision when given). */
export const bulkUpdateInventoryItems = defineMethod((client, inventoryItems: { inventoryItem: InventoryStockInput & { _id: string; revision?: string } }[], options: { returnEntity?: boolean; reason?: ReasonType } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/update`, payload: { inventoryItems, ...options }, decode: RESULTS }));

/** Elevated. Per-item results. */
export const bulkDeleteInventoryItems = defineMethod((client, inventoryItemIds: string[]) =>
  client.request<BulkResponse<never>>({ method: 'POST', path: `${BULK}/delete`, payload: { inventoryItemIds } }));

/** Elevated. By item id, all or none (409 INSUFFICIENT_STOCK). */
export const bulkDecrementInventoryItems = defineMethod((client, decrementData: { inventoryItemId: string; decrementBy: number }[], options: { restrictInventory?: boolean; returnEntity?: boolean; reason?: ReasonType } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/decrement`, payload: { decrementData, ...options }, decode: RESULTS }));

export const bulkIncrementInventoryItems = defineMethod((client, incrementData: { inventoryItemId: string; incrementBy: number }[], options: { returnEntity?: boolean; reason?: ReasonType } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/increment`, payload: { incrementData, ...options }, decode: RESULTS }));

/** Elevated. Per item; with restrictInventory (default) a decrement never goes below zero. */
export const bulkDecrementInventoryItemsByVariantAndLocation = defineMethod((client, decrementData: { variantId: string; locationId?: string; decrementBy: number; preorderRequest?: boolean }[], options: { restrictInventory?: boolean; returnEntity?: boolean; reason?: ReasonType } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/decrement-by-variant-and-location`, payload: { decrementData, ...options }, decode: RESULTS }));

export const bulkIncrementInventoryItemsByVariantAndLocation = defineMethod((client, incrementData: { variantId: string; locationId?: string; incrementBy: number }[], options: { returnEntity?: boolean; reason?: ReasonType } = {}) =>
  client.request<FromWire<wire.BulkInventoryItemsV3Response>>({ method: 'POST', path: `${BULK}/increment-by-variant-and-location`, payload: { incrementData, ...options }, decode: RESULTS }));

// By-filter jobs: each returns `{ jobId }`; GET /stores/v3/bulk/jobs/:jobId reports progress.

/** Elevated. Sets `inventoryItem` on every matched item. */
export const bulkUpdateInventoryItemsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { inventoryItem: InventoryStockInput; search?: SearchDetails }) =>
  client.request<wire.BulkJobStarted>({ method: 'POST', path: `${BULK}/update-by-filter`, payload: { filter, ...options } }));

/** Elevated. Adjusts tracked items (never below zero); `trackQuantity: true` starts tracking untracked ones at 0. */
export const bulkAdjustInventoryItemsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { adjustment: Adjustment; search?: SearchDetails; trackQuantity?: boolean }) =>
  client.request<wire.BulkJobStarted>({ method: 'POST', path: `${BULK}/adjust-by-filter`, payload: { filter, ...options } }));

/** Elevated. Adjusts tracked items; untracked ones start tracking at the increment. */
export const bulkSetOrAdjustInventoryItemsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { adjustedInventoryAction: Adjustment; search?: SearchDetails }) =>
  client.request<wire.BulkJobStarted>({ method: 'POST', path: `${BULK}/set-or-adjust-by-filter`, payload: { filter, ...options } }));

/** Elevated. Default-location items are counted as failures (DEFAULT_LOCATION_ITEM). */
export const bulkDeleteInventoryItemsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { search?: SearchDetails } = {}) =>
  client.request<wire.BulkJobStarted>({ method: 'POST', path: `${BULK}/delete-by-filter`, payload: { filter, ...options } }));

/** Elevated. An item at `locationId` for every variant the filter matches (inventory search fields). */
export const bulkCreateInventoryItemsByVariantFilter = defineMethod((client, filter: Record<string, unknown>, options: { locationId: string; search?: SearchDetails; inventoryCreationData?: { quantity?: number } }) =>
  client.request<wire.BulkJobStarted>({ method: 'POST', path: `${BULK}/create-by-variant-filter`, payload: { filter, ...options } }));
