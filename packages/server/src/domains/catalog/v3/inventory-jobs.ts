import type { z } from 'zod';
import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, conflict, notFound } from '../../../http/errors.js';
import { recordEvent } from '../../events/index.js';
import { CATALOG_JOB_ITEMS_MAX, registerCatalogJobKind, startCatalogJob } from '../jobs.js';
import { DEFAULT_LOCATION_ID } from '../model.js';
import { adjust, getItem, InsufficientStockError, QuantityLimitError, type StockChange } from '../../inventory/index.js';
import { INVENTORY_ITEM_V3_FQDN, presentItem, updateInventoryItem } from './inventory.js';
import { INVENTORY_V3_LIMITS, type Adjustment, type inventoryItemSet, type SearchDetails } from './inventory-schema.js';
import { selectItemIds } from './inventory-search.js';
import { createItem, deleteItem, stockOf } from './inventory-writes.js';

/**
 * The by-filter inventory calls as catalog jobs (jobs.ts): the route selects the matching item ids
 * (bad filter: 400, no job; more than CATALOG_JOB_ITEMS_MAX: 400 TOO_MANY_ITEMS, no job) and the
 * worker runs each item in its own transaction with its event. Job status: GET /stores/v3/bulk/jobs/:jobId.
 */

export const INVENTORY_JOB_KINDS = {
  update: 'inventory.v3.update-by-filter',
  adjust: 'inventory.v3.adjust-by-filter',
  setOrAdjust: 'inventory.v3.set-or-adjust-by-filter',
  delete: 'inventory.v3.delete-by-filter',
  createAtLocation: 'inventory.v3.create-by-variant-filter',
} as const;

type ItemSet = z.infer<typeof inventoryItemSet>;

const itemNotFound = (id: string) => notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${id} (matched by the filter) no longer exists`, { inventoryItemId: id });

/**
 * Adds `delta` to a tracked item (never below zero, never above the quantity bound). An untracked
 * item refuses (INVENTORY_QUANTITY_NOT_TRACKED) unless `untracked` says to start tracking it: from 0
 * ('track') or at the increment itself ('set').
 */
async function adjustItem(ctx: RequestContext, id: string, a: Adjustment, untracked: 'refuse' | 'track' | 'set'): Promise<void> {
  const row = await getItem(ctx, id);
  if (!row) throw itemNotFound(id);
  const delta = a.incrementBy ?? -(a.decrementBy ?? 0);
  const data = { inventoryItemId: id };
  const changes: StockChange[] = [];
  if (!row.trackQuantity) {
    if (untracked === 'refuse' || (untracked === 'set' && delta < 0)) throw new ApplicationError(409, 'INVENTORY_QUANTITY_NOT_TRACKED', `Item ${id} does not track quantity`, data);
    changes.push({ inventoryItemId: id, set: { trackQuantity: true, quantity: untracked === 'set' ? delta : 0 } });
  }
  if (row.trackQuantity || untracked === 'track') {
    changes.push(delta > 0 ? { inventoryItemId: id, increment: delta, max: INVENTORY_V3_LIMITS.quantityMax } : { inventoryItemId: id, decrement: -delta });
  }
  // One inventory call (all or nothing); its stock listener refreshes the product of a default-location item.
  await adjust(ctx, changes).catch((error: unknown) => {
    if (error instanceof QuantityLimitError) throw conflict('MAX_QUANTITY_LIMIT_REACHED', `Item ${id} would hold more than ${INVENTORY_V3_LIMITS.quantityMax}`, { ...data, max: INVENTORY_V3_LIMITS.quantityMax });
    if (error instanceof InsufficientStockError) throw conflict('INSUFFICIENT_INVENTORY', `Item ${id} has ${row.quantity ?? 0}, not ${-delta}`, { ...data, available: row.quantity ?? 0, requested: -delta });
    throw error;
  });
  const next = (await getItem(ctx, id))!;
  await recordEvent(ctx, { entityFqdn: INVENTORY_ITEM_V3_FQDN, slug: 'updated', entityId: id, entity: presentItem(next), data: { reason: 'MANUAL' } });
}

registerCatalogJobKind<{ patch: ItemSet }>(INVENTORY_JOB_KINDS.update, {
  async runItem(ctx, id, { patch }) {
    if (!(await getItem(ctx, id))) throw itemNotFound(id);
    await updateInventoryItem(ctx, id, patch);
  },
});
registerCatalogJobKind<{ adjustment: Adjustment; trackQuantity: boolean }>(INVENTORY_JOB_KINDS.adjust, {
  runItem: (ctx, id, p) => adjustItem(ctx, id, p.adjustment, p.trackQuantity ? 'track' : 'refuse'),
});
registerCatalogJobKind<{ adjustment: Adjustment }>(INVENTORY_JOB_KINDS.setOrAdjust, {
  runItem: (ctx, id, p) => adjustItem(ctx, id, p.adjustment, 'set'),
});
registerCatalogJobKind<Record<string, never>>(INVENTORY_JOB_KINDS.delete, {
  runItem: (ctx, id) => deleteItem(ctx, id),
});
registerCatalogJobKind<{ locationId: string; quantity: number }>(INVENTORY_JOB_KINDS.createAtLocation, {
  // The frozen id is the variant's default-location item: it names the product and variant.
  async runItem(ctx, id, p) {
    const anchor = await getItem(ctx, id);
    if (!anchor) throw notFound('VARIANT_NOT_FOUND', `The variant of item ${id} no longer exists`, { inventoryItemId: id });
    await createItem(ctx, { productId: anchor.productId, variantId: anchor.variantId, locationId: p.locationId, trackQuantity: true, quantity: p.quantity });
  },
});

type Selection = { filter: Record<string, unknown>; search?: SearchDetails | undefined };
const ids = (ctx: RequestContext, s: Selection, location?: string) => selectItemIds(ctx, s.filter, s.search, CATALOG_JOB_ITEMS_MAX + 1, location);

export async function updateByFilter(ctx: RequestContext, s: Selection, patch: ItemSet) {
  stockOf({ ...patch, trackQuantity: patch.trackQuantity ?? (patch.quantity !== undefined ? true : patch.inStock !== undefined ? false : undefined) }, 'inventoryItem');
  return startCatalogJob(ctx, INVENTORY_JOB_KINDS.update, await ids(ctx, s), { patch });
}
export async function adjustByFilter(ctx: RequestContext, s: Selection, adjustment: Adjustment, trackQuantity: boolean) {
  return startCatalogJob(ctx, INVENTORY_JOB_KINDS.adjust, await ids(ctx, s), { adjustment, trackQuantity });
}
export async function setOrAdjustByFilter(ctx: RequestContext, s: Selection, adjustment: Adjustment) {
  return startCatalogJob(ctx, INVENTORY_JOB_KINDS.setOrAdjust, await ids(ctx, s), { adjustment });
}
export async function deleteByFilter(ctx: RequestContext, s: Selection) {
  return startCatalogJob(ctx, INVENTORY_JOB_KINDS.delete, await ids(ctx, s), {});
}
/** Variants are selected through their default-location items (the inventory search fields). */
export async function createByVariantFilter(ctx: RequestContext, s: Selection, locationId: string, quantity: number) {
  return startCatalogJob(ctx, INVENTORY_JOB_KINDS.createAtLocation, await ids(ctx, s, DEFAULT_LOCATION_ID), { locationId, quantity });
}
