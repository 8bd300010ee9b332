import { route, type RouteDef } from '../../../http/route.js';
import {
  adjustByFilterRequest, bulkCreateRequest, bulkDecrementAtRequest, bulkDeleteRequest, bulkIncrementAtRequest, bulkUpsertRequest, createByVariantFilterRequest,
  createRequest, deleteByFilterRequest, deleteRequest, searchRequest, setOrAdjustByFilterRequest, updateByFilterRequest,
} from './inventory-schema.js';
import { adjustByFilter, createByVariantFilter, deleteByFilter, setOrAdjustByFilter, updateByFilter } from './inventory-jobs.js';
import { searchInventoryItems } from './inventory-search.js';
import { bulkChangeAt, bulkCreateItems, bulkDeleteItems, bulkUpsertItems, createItem, deleteItem } from './inventory-writes.js';

const P = '/stores/v3';
const B = `${P}/bulk/inventory-items`;

/**
 * V3 inventory calls beyond get / query / count / update / by-id decrement and increment (those stay in
 * v3/routes.ts): create, delete, search, bulk create / upsert / delete, by variant and location, and
 * the by-filter jobs. docs/catalog-inventory.md.
 */
export const inventoryV3Routes: RouteDef[] = [
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
