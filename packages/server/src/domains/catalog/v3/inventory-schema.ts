import { z } from 'zod';
import type { InventoryAdjustment, InventoryAggregation as InventoryAggregationWire, InventoryItemV3Input, InventoryItemV3Upsert, InventorySearch, InventorySearchDetails } from '@vitrine/types/stores';
import { conforms } from '../../../http/conforms.js';
import { cursorPaging, sortItem } from '../schema.js';
import { V3_LIMITS } from './schema.js';

/** Bounds of the V3 inventory calls (docs/catalog-inventory.md). */
export const INVENTORY_V3_LIMITS = {
  /** Items per bulk call (create / upsert / delete / by variant and location). */
  bulk: V3_LIMITS.bulk,
  /** Locations one variant may have stock at (the default location included). */
  locationsPerVariant: 50,
  /** Largest quantity an item may hold; increments stop here (MAX_QUANTITY_LIMIT_REACHED). */
  quantityMax: 99_999_999,
  /** Largest single adjustment of a by-filter job (the platform's bound). */
  adjustMax: 99_999,
  /** Search page size. */
  pageMax: V3_LIMITS.pageMax,
  pageDefault: 50,
  aggregations: V3_LIMITS.aggregations,
  aggregationValues: V3_LIMITS.aggregationValues,
  aggregationValuesDefault: 10,
  /** Free-text `search.expression`: characters and terms (each a case-insensitive substring). */
  searchExpression: 100,
  searchTerms: 10,
  sortFields: 5,
} as const;

const guid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a GUID');
export const locationId = guid;
const id = z.string().min(1).max(100);
const quantity = z.number().int().min(0).max(INVENTORY_V3_LIMITS.quantityMax);
const preorderInfo = z.object({ enabled: z.boolean().nullish(), message: z.string().max(250).nullish(), limit: z.number().int().min(0).max(INVENTORY_V3_LIMITS.quantityMax).nullish() });
export const reason = z.enum(['ORDER', 'MANUAL', 'REVERT_INVENTORY_CHANGE']).optional();

/** An item to create: product + variant (+ location, default the default location) and its stock. */
export const inventoryItemCreate = conforms<InventoryItemV3Input>()(z.object({
  productId: id, variantId: id, locationId: locationId.nullish(),
  trackQuantity: z.boolean().optional(), quantity: quantity.optional(), inStock: z.boolean().optional(), preorderInfo: preorderInfo.optional(),
}));
export type InventoryItemCreate = z.infer<typeof inventoryItemCreate>;

/** An upsert item: by `id` (update, with its revision if given) or by product + variant + location. */
export const inventoryItemUpsert = conforms<InventoryItemV3Upsert>()(z.object({
  id: id.nullish(), revision: z.string().regex(/^\d{1,18}$/).nullish(),
  productId: id.optional(), variantId: id.optional(), locationId: locationId.nullish(),
  trackQuantity: z.boolean().optional(), quantity: quantity.optional(), inStock: z.boolean().optional(), preorderInfo: preorderInfo.optional(),
}));
export type InventoryItemUpsert = z.infer<typeof inventoryItemUpsert>;

/** Fields a by-filter update sets on every matched item (no revision: the filter picks the items). */
export const inventoryItemSet = z.object({
  trackQuantity: z.boolean().optional(), quantity: quantity.optional(), inStock: z.boolean().optional(), preorderInfo: preorderInfo.optional(),
});

const filter = z.record(z.string(), z.unknown());
export const searchDetails = conforms<InventorySearchDetails>()(z.object({
  expression: z.string().max(INVENTORY_V3_LIMITS.searchExpression).nullish(),
  mode: z.enum(['OR', 'AND']).optional(),
  fields: z.array(z.enum(['product.name', 'product.variantSku'])).max(20).optional(),
  fuzzy: z.boolean().optional(),
}));
export type SearchDetails = z.infer<typeof searchDetails>;

const aggregation = conforms<InventoryAggregationWire>()(z.object({
  name: z.string().max(100).nullish(),
  type: z.enum(['VALUE', 'SCALAR']).optional(),
  fieldPath: z.string().max(200),
  value: z.object({ limit: z.number().int().min(1).max(INVENTORY_V3_LIMITS.aggregationValues).nullish(), sortType: z.enum(['COUNT', 'VALUE']).optional(), sortDirection: z.enum(['ASC', 'DESC']).optional() }).optional(),
  scalar: z.object({ type: z.enum(['COUNT_DISTINCT', 'MIN', 'MAX']) }).optional(),
}));
export type InventoryAggregation = z.infer<typeof aggregation>;

export const inventorySearch = conforms<InventorySearch>()(z.object({
  filter: filter.nullish(), sort: z.array(sortItem).max(INVENTORY_V3_LIMITS.sortFields).optional(),
  cursorPaging: cursorPaging(INVENTORY_V3_LIMITS.pageMax).optional(),
  aggregations: z.array(aggregation).max(INVENTORY_V3_LIMITS.aggregations).optional(), search: searchDetails.optional(), timeZone: z.string().max(100).nullish(),
}));
export const searchRequest = z.object({ search: inventorySearch.optional() });
export type InventorySearchInput = NonNullable<z.infer<typeof searchRequest>['search']>;

const bulkOf = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(INVENTORY_V3_LIMITS.bulk);
export const createRequest = z.object({ inventoryItem: inventoryItemCreate });
export const deleteRequest = z.object({ inventoryItemId: id });
export const bulkCreateRequest = z.object({ inventoryItems: bulkOf(inventoryItemCreate), returnEntity: z.boolean().optional() });
export const bulkUpsertRequest = z.object({ inventoryItems: bulkOf(z.object({ inventoryItem: inventoryItemUpsert, fieldMask: z.unknown().optional() })), returnEntity: z.boolean().optional() });
export const bulkDeleteRequest = z.object({ inventoryItemIds: bulkOf(id) });
const by = z.number().int().min(1).max(INVENTORY_V3_LIMITS.quantityMax);
export const bulkDecrementAtRequest = z.object({
  decrementData: bulkOf(z.object({ variantId: id, locationId: locationId.nullish(), decrementBy: by, preorderRequest: z.boolean().optional() })),
  restrictInventory: z.boolean().nullish(), returnEntity: z.boolean().optional(), reason,
});
export const bulkIncrementAtRequest = z.object({
  incrementData: bulkOf(z.object({ variantId: id, locationId: locationId.nullish(), incrementBy: by })),
  returnEntity: z.boolean().optional(), reason,
});

const adjustBy = z.number().int().min(1).max(INVENTORY_V3_LIMITS.adjustMax);
export const adjustment = conforms<InventoryAdjustment>()(z.object({ incrementBy: adjustBy.optional(), decrementBy: adjustBy.optional() })
  .refine((a) => (a.incrementBy === undefined) !== (a.decrementBy === undefined), { message: 'give exactly one of incrementBy and decrementBy', params: { rule: 'ONE_OF_ALIGNMENT' } }));
export type Adjustment = z.infer<typeof adjustment>;
export const adjustByFilterRequest = z.object({ filter, adjustment, search: searchDetails.optional(), trackQuantity: z.boolean().optional() });
export const setOrAdjustByFilterRequest = z.object({ filter, adjustedInventoryAction: adjustment, search: searchDetails.optional() });
export const updateByFilterRequest = z.object({ filter, inventoryItem: inventoryItemSet, search: searchDetails.optional() });
export const deleteByFilterRequest = z.object({ filter, search: searchDetails.optional() });
export const createByVariantFilterRequest = z.object({
  filter, search: searchDetails.optional(), locationId,
  inventoryCreationData: z.object({ quantity: z.number().int().min(0).max(INVENTORY_V3_LIMITS.adjustMax).optional() }).optional(),
});
