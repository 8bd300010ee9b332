import { z } from 'zod';
import { route, type RouteDef } from '../../../http/route.js';
import { cursorPaging, sortItem } from '../schema.js';
import { bulkResults } from '../bulk-results.js';
import { bulkChangeInventory, countInventoryItems, getInventoryItem, queryInventoryItems, updateInventoryItem } from './inventory.js';
import { inventoryItemPatch, V3_LIMITS } from './schema.js';
import {
  adjustByFilterRequest, bulkCreateRequest, bulkDecrementAtRequest, bulkDeleteRequest, bulkIncrementAtRequest, bulkUpsertRequest, createByVariantFilterRequest,
  createRequest, deleteByFilterRequest, deleteRequest, searchDetails, searchRequest, setOrAdjustByFilterRequest, updateByFilterRequest,
} from './inventory-schema.js';
import { adjustByFilter, createByVariantFilter, deleteByFilter, setOrAdjustByFilter, updateByFilter } from './inventory-jobs.js';
import { searchInventoryItems } from './inventory-search.js';
import { bulkChangeAt, bulkCreateItems, bulkDeleteItems, bulkUpsertItems, createItem, deleteItem } from './inventory-writes.js';

const P = '/stores/v3';
const B = `${P}/bulk/inventory-items`;

/** Every V3 inventory-item call (docs/catalog-inventory.md). */
export const inventoryV3Routes: RouteDef[] = [
  route({ method: 'GET', path: `${P}/inventory-items/query`, postTwin: true, access: 'visitor', summary: 'Query inventory items (V3): filter, sort, cursor paging',
    request: z.object({ query: z.object({ filter: z.record(z.string(), z.unknown()).nullish(), sort: z.array(sortItem).max(5).optional(), cursorPaging: cursorPaging(V3_LIMITS.pageMax).optional() }).optional() }),
    handler: (ctx, i) => queryInventoryItems(ctx, i.query ?? {}) }),
  route({ method: 'GET', path: `${P}/inventory-items/count`, postTwin: true, access: 'visitor', summary: 'Count inventory items (V3): filter, text',
    request: z.object({ filter: z.record(z.string(), z.unknown()).nullish(), search: searchDetails.optional() }),
    handler: (ctx, i) => countInventoryItems(ctx, i.filter ?? {}, i.search) }),
  route({ method: 'POST', path: `${P}/bulk/inventory-items/update`, access: 'elevated', summary: 'Update inventory items, per-item results',
    request: z.object({ inventoryItems: z.array(z.object({ inventoryItem: inventoryItemPatch.extend({ id: z.string().min(1).max(100) }), fieldMask: z.unknown().optional() })).min(1).max(V3_LIMITS.bulk), returnEntity: z.boolean().optional(), reason: z.string().max(50).optional() }),
    handler: (ctx, i) => bulkResults(i.inventoryItems, async ({ inventoryItem }) => { const r = await updateInventoryItem(ctx, inventoryItem.id, inventoryItem); return { id: inventoryItem.id, ...(i.returnEntity ? { item: r.inventoryItem } : {}) }; }) }),
  route({ method: 'GET', path: `${P}/inventory-items/:inventoryItemId`, access: 'visitor', summary: 'Get an inventory item (V3)',
    request: z.object({ inventoryItemId: z.string().min(1).max(100) }), handler: (ctx, i) => getInventoryItem(ctx, i.inventoryItemId) }),
  route({ method: 'PATCH', path: `${P}/inventory-items/:inventoryItemId`, access: 'elevated', summary: 'Update an inventory item (quantity, tracking, preorder)',
    request: z.object({ inventoryItemId: z.string().min(1).max(100), inventoryItem: inventoryItemPatch, reason: z.string().max(50).optional() }),
    handler: (ctx, i) => updateInventoryItem(ctx, i.inventoryItemId, i.inventoryItem) }),
  route({ method: 'POST', path: `${P}/bulk/inventory-items/decrement`, access: 'elevated', summary: 'Decrement inventory items (all or none)',
    request: z.object({ decrementData: z.array(z.object({ inventoryItemId: z.string().min(1).max(100), decrementBy: z.number().int().min(1).max(99_999_999) })).min(1).max(V3_LIMITS.bulk), restrictInventory: z.boolean().optional(), returnEntity: z.boolean().optional(), reason: z.string().max(50).optional() }),
    handler: (ctx, i) => bulkChangeInventory(ctx, i.decrementData.map((d) => ({ inventoryItemId: d.inventoryItemId, by: d.decrementBy })), 'decrement', i.returnEntity ?? false) }),
  route({ method: 'POST', path: `${P}/bulk/inventory-items/increment`, access: 'elevated', summary: 'Increment inventory items',
    request: z.object({ incrementData: z.array(z.object({ inventoryItemId: z.string().min(1).max(100), incrementBy: z.number().int().min(1).max(99_999_999) })).min(1).max(V3_LIMITS.bulk), returnEntity: z.boolean().optional(), reason: z.string().max(50).optional() }),
    handler: (ctx, i) => bulkChangeInventory(ctx, i.incrementData.map((d) => ({ inventoryItemId: d.inventoryItemId, by: d.incrementBy })), 'increment', i.returnEntity ?? false) }),
  route({ method: 'POST', path: `${P}/inventory-items`, access: 'elevated', summary: 'Create an inventory item (V3 variant at a location)', request: createRequest,
    handler: async (ctx, i) => ({ inventoryItem: await createItem(ctx, i.inventoryItem) }) }),
  route({ method: 'DELETE', path: `${P}/inventory-items/:inventoryItemId`, access: 'elevated', summary: 'Delete an inventory item (not the default-location one)', request: deleteRequest,
    handler: async (ctx, i) => { await deleteItem(ctx, i.inventoryItemId); return {}; } }),
  route({ method: 'GET', path: `${P}/inventory-items/search`, postTwin: true, access: 'visitor', summary: 'Search inventory items (V3): filter, sort, text, aggregations, cursor paging', request: searchRequest,
    handler: (ctx, i) => searchInventoryItems(ctx, i.search ?? {}) }),
  route({ method: 'POST', path: `${B}/create`, access: 'elevated', summary: 'Create inventory items, per-item results', request: bulkCreateRequest,
    handler: (ctx, i) => bulkCreateItems(ctx, i.inventoryItems, i.returnEntity ?? false) }),
  route({ method: 'POST', path: `${B}/upsert`, access: 'elevated', summary: 'Create or update inventory items (by id or product + variant + location), per-item results', request: bulkUpsertRequest,
    handler: (ctx, i) => bulkUpsertItems(ctx, i.inventoryItems.map((x) => x.inventoryItem), i.returnEntity ?? false) }),
  route({ method: 'POST', path: `${B}/delete`, access: 'elevated', summary: 'Delete inventory items, per-item results', request: bulkDeleteRequest,
    handler: (ctx, i) => bulkDeleteItems(ctx, i.inventoryItemIds) }),
  route({ method: 'POST', path: `${B}/decrement-by-variant-and-location`, access: 'elevated', summary: 'Decrement inventory items by variant and location, per-item results', request: bulkDecrementAtRequest,
    handler: (ctx, i) => bulkChangeAt(ctx, i.decrementData.map((d) => ({ variantId: d.variantId, locationId: d.locationId, by: d.decrementBy, preorderRequest: d.preorderRequest })), 'decrement',
      { restrict: i.restrictInventory ?? true, returnEntity: i.returnEntity ?? false, reason: i.reason }) }),
  route({ method: 'POST', path: `${B}/increment-by-variant-and-location`, access: 'elevated', summary: 'Increment inventory items by variant and location, per-item results', request: bulkIncrementAtRequest,
    handler: (ctx, i) => bulkChangeAt(ctx, i.incrementData.map((d) => ({ variantId: d.variantId, locationId: d.locationId, by: d.incrementBy })), 'increment',
      { restrict: true, returnEntity: i.returnEntity ?? false, reason: i.reason }) }),
  route({ method: 'POST', path: `${B}/update-by-filter`, access: 'elevated', summary: 'Update the inventory items a filter matches (job)', request: updateByFilterRequest,
    handler: (ctx, i) => updateByFilter(ctx, i, i.inventoryItem) }),
  route({ method: 'POST', path: `${B}/adjust-by-filter`, access: 'elevated', summary: 'Increment or decrement the inventory items a filter matches (job)', request: adjustByFilterRequest,
    handler: (ctx, i) => adjustByFilter(ctx, i, i.adjustment, i.trackQuantity ?? false) }),
  route({ method: 'POST', path: `${B}/set-or-adjust-by-filter`, access: 'elevated', summary: 'Adjust tracked / set untracked inventory items a filter matches (job)', request: setOrAdjustByFilterRequest,
    handler: (ctx, i) => setOrAdjustByFilter(ctx, i, i.adjustedInventoryAction) }),
  route({ method: 'POST', path: `${B}/delete-by-filter`, access: 'elevated', summary: 'Delete the inventory items a filter matches (job)', request: deleteByFilterRequest,
    handler: (ctx, i) => deleteByFilter(ctx, i) }),
  route({ method: 'POST', path: `${B}/create-by-variant-filter`, access: 'elevated', summary: 'Create inventory items at a location for the variants a filter matches (job)', request: createByVariantFilterRequest,
    handler: (ctx, i) => createByVariantFilter(ctx, i, i.locationId, i.inventoryCreationData?.quantity ?? 0) }),
];
