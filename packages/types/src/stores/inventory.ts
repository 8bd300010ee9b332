/**
 * Inventory wire shapes: V1 (one item per product listing its variants' stock) and V3 (one item per
 * variant and location). Field names as in the endpoint table.
 */
import type { BulkActionMetadata, BulkItemMetadata, Cursors, IsoDate, SortItem } from '../common.js';

// ---- V1 (`/stores-reader/v2/inventoryItems`, `/stores/v2/inventoryItems`)

export interface InventoryVariantV1 { variantId: string; inStock: boolean; quantity?: number; availableForPreorder: boolean }
export interface InventoryPreorderInfoV1 { enabled: boolean; message?: string; limit?: number }

/** A V1 inventory item: one per product. */
export interface InventoryItemV1 {
  id: string; externalId: string; productId: string; trackQuantity: boolean;
  variants: InventoryVariantV1[];
  lastUpdated: IsoDate; numericId: string; preorderInfo: InventoryPreorderInfoV1;
}

export interface QueryInventoryV1Response { inventoryItems: InventoryItemV1[]; metadata: { items: number; offset: number }; totalResults: number }
export interface GetInventoryVariantsV1Response { inventoryItem: InventoryItemV1 }

/** The `inventoryItem` of an update-inventory-variants request. */
export interface InventoryItemV1Update {
  trackQuantity?: boolean | null;
  variants?: { variantId: string; inStock?: boolean | null; quantity?: number | null }[];
  preorderInfo?: { enabled?: boolean; message?: string | null; limit?: number | null };
}

/** Which stock a V1 decrement / increment line names (a product by one of its ids, and a variant). */
export interface InventoryStockChangeV1 { inventoryId?: string; externalId?: string; productId?: string; variantId?: string; preorderRequest?: boolean }
export interface InventoryDecrementV1 extends InventoryStockChangeV1 { decrementBy: number }
export interface InventoryIncrementV1 extends InventoryStockChangeV1 { incrementBy: number }

// ---- V3 (`/stores/v3/inventory-items`)

export type InventoryAvailabilityStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PREORDER';
export type InventoryChangeReason = 'ORDER' | 'MANUAL' | 'REVERT_INVENTORY_CHANGE';

export interface InventoryItemV3 {
  id: string; revision: string; createdDate: IsoDate; updatedDate: IsoDate;
  productId: string; variantId: string; locationId: string;
  trackQuantity: boolean; quantity?: number; inStock: boolean;
  availabilityStatus: InventoryAvailabilityStatus;
  /** `quantity`: units sold beyond stock (tracked items below zero). */
  preorderInfo: { enabled: boolean; message?: string; limit?: number; counter: number; quantity?: number };
}

/** Preorder settings of an item to create or set (`null` clears message / limit). */
export interface InventoryPreorderInput { enabled?: boolean | null; message?: string | null; limit?: number | null }

/** Stock of an item to set: `quantity` (tracked) or `inStock` (not tracked). */
export interface InventoryStockInputV3 { trackQuantity?: boolean; quantity?: number; inStock?: boolean; preorderInfo?: InventoryPreorderInput }

/** An item to create (the default location when `locationId` is absent). */
export interface InventoryItemV3Input extends InventoryStockInputV3 { productId: string; variantId: string; locationId?: string | null }

/** An item update (`revision` guards against a stale write). */
export interface InventoryItemV3Patch extends InventoryStockInputV3 { revision?: string }

/** An upsert item: by `id` (+ revision) or by product + variant + location. */
export interface InventoryItemV3Upsert extends InventoryStockInputV3 { id?: string | null; revision?: string | null; productId?: string; variantId?: string; locationId?: string | null }

export interface InventoryItemV3Response { inventoryItem: InventoryItemV3 }
export interface InventoryItemsV3Page { inventoryItems: InventoryItemV3[]; pagingMetadata: { cursors: Cursors; count: number; hasNext?: boolean } }
export interface BulkInventoryItemsV3Response { results: { itemMetadata: BulkItemMetadata; item?: InventoryItemV3 }[]; bulkActionMetadata: BulkActionMetadata }
/** A by-filter call's answer: the job to poll at `GET /stores/v3/bulk/jobs/{jobId}`. */
export interface BulkJobStarted { jobId: string }

// Search and by-filter options (V3)

/** Free text over product name and variant SKU (case-insensitive substrings). */
export interface InventorySearchDetails { expression?: string | null; mode?: 'OR' | 'AND'; fields?: ('product.name' | 'product.variantSku')[]; fuzzy?: boolean }
export interface InventoryAggregation {
  name?: string | null;
  type?: 'VALUE' | 'SCALAR';
  fieldPath: string;
  value?: { limit?: number | null; sortType?: 'COUNT' | 'VALUE'; sortDirection?: 'ASC' | 'DESC' };
  scalar?: { type: 'COUNT_DISTINCT' | 'MIN' | 'MAX' };
}
/** `searchInventoryItems` body `search`. */
export interface InventorySearch {
  filter?: Record<string, unknown> | null;
  sort?: SortItem[];
  cursorPaging?: { limit?: number; cursor?: string | null };
  aggregations?: InventoryAggregation[];
  search?: InventorySearchDetails;
  timeZone?: string | null;
}
export interface InventorySearchV3Response extends InventoryItemsV3Page { aggregationData: { results: unknown[] } }
/** A by-filter adjustment: exactly one of the two. */
export interface InventoryAdjustment { incrementBy?: number; decrementBy?: number }
