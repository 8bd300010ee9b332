import type { z } from 'zod';
import { isElevated, type RequestContext } from '../../http/context.js';
import { notFound, ValidationError } from '../../http/errors.js';
import { parseFilter, parseSort } from '../../storage/filter.js';
import { withFilterErrors } from '../../http/filter-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/index.js';
import type {
  GetInventoryVariantsV1Response, InventoryItemV1, QueryInventoryV1Response, QueryStoreVariantsResponse, StoreVariant, StoreVariantResponse,
} from '@vitrine/types/stores';
import type { ProductV1 } from './model.js';
import { presentProduct } from './present.js';
import type { productQuery, updateInventoryRequest } from './schema.js';
import { PAGE_DEFAULT } from './schema.js';
import { PRODUCT_FQDN, refreshProductStock } from './service.js';
import { refreshProductV3Stock } from './v3/service.js';
import { findProduct, findProductsByIds, queryProductRows } from './store.js';
import { adjust, DEFAULT_LOCATION_ID, defaultItemsOf, defaultItemsOfProducts, InsufficientStockError, onStockChanged, type InventoryRow, type StockChange } from '../inventory/index.js';
import { queryVariantRows, variantSortColumn } from './store-inventory.js';

export const INVENTORY_FQDN = 'wix.stores.v2.inventory_item';

/** One line of stock to take or give back, at the variant's default location. */
export interface StockLine { productId: string; variantId: string; quantity: number }

export { InsufficientStockError };

/**
 * The product documents cache default-location stock (availability, V1 stock): whenever the
 * inventory domain changes on-hand stock there (our calls, or a checkout committing a reservation),
 * it tells us inside the change's transaction and the products are recomputed in it. Each item
 * names its catalog, so only that catalog's document is read.
 */
onStockChanged(async (ctx, changed) => {
  const products = new Map(changed.filter((r) => r.locationId === DEFAULT_LOCATION_ID).map((r) => [r.productId, r.catalog]));
  for (const [productId, catalog] of products) {
    if (catalog === 'v3') await refreshProductV3Stock(ctx, productId);
    else await refreshProductStock(ctx, productId);
  }
});

/**
 * Takes stock for every line or for none (inventory `adjust`: one guarded decrement per item, rows
 * locked in id order, active reservations and preorder limits honoured). Untracked variants must be
 * in stock. Throws InsufficientStockError (409) naming the first item that cannot be served.
 */
export async function decrementStock(ctx: RequestContext, items: StockLine[]): Promise<void> {
  await adjust(ctx, items.map((i) => ({ productId: i.productId, variantId: i.variantId, decrement: i.quantity })));
}

/** Gives stock back (cancellations, manual increments); untracked and unknown variants are left as they are. */
export async function incrementStock(ctx: RequestContext, items: StockLine[]): Promise<void> {
  await adjust(ctx, items.map((i) => ({ productId: i.productId, variantId: i.variantId, increment: i.quantity })), { ignoreMissing: true });
}

// ---------------------------------------------------------------------------------------------
// V1 inventory module: one item per product, listing its variants.

function inventoryItemV2(product: ProductV1, rows: InventoryRow[]): InventoryItemV1 {
  const tracked = rows.length > 0 && rows.every((r) => r.trackQuantity);
  const preorder = rows.find((r) => r.preorderEnabled);
  return {
    id: product.inventoryItemId,
    externalId: product.id,
    productId: product.id,
    trackQuantity: tracked,
    variants: rows.map((r) => ({
      variantId: r.variantId,
      inStock: r.trackQuantity ? (r.quantity ?? 0) > 0 || r.preorderEnabled : r.inStock,
      ...(r.trackQuantity ? { quantity: r.quantity ?? 0 } : {}),
      availableForPreorder: r.preorderEnabled,
    })),
    lastUpdated: rows.reduce((max, r) => (r.updatedDate > max ? r.updatedDate : max), product.lastUpdated),
    numericId: product.numericId,
    preorderInfo: { enabled: !!preorder, ...(preorder?.preorderMessage ? { message: preorder.preorderMessage } : {}), ...(preorder?.preorderLimit != null ? { limit: preorder.preorderLimit } : {}) },
  };
}

/** V1 inventory filters name products: productId / externalId map to the product id. */
function toProductFilter(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(toProductFilter);
  if (typeof filter !== 'object' || filter === null) return filter;
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k === 'productId' || k === 'externalId' ? 'id' : k, k.startsWith('$') ? toProductFilter(v) : v]));
}

export async function queryInventory(ctx: RequestContext, query: z.infer<typeof productQuery>): Promise<QueryInventoryV1Response> {
  const limit = query.paging?.limit ?? PAGE_DEFAULT;
  const offset = query.paging?.offset ?? 0;
  const { products, total } = await withFilterErrors('query', async () => queryProductRows(ctx.db, {
    siteId: ctx.site.id, filter: parseFilter(toProductFilter(query.filter)), sort: [], onlyVisible: !isElevated(ctx.caller), limit, offset, dialect: ctx.dialect,
  }));
  const stock = await defaultItemsOfProducts(ctx, products.map((p) => p.id));
  const inventoryItems = products.map((p) => inventoryItemV2(p, stock.get(p.id) ?? []));
  return { inventoryItems, metadata: { items: inventoryItems.length, offset }, totalResults: total };
}

async function productOfInventory(ctx: RequestContext, inventoryId: string, productId?: string): Promise<ProductV1> {
  // The public client sends the product id as inventoryId when it has no inventory id.
  const byProduct = await findProduct(ctx.db, ctx.site.id, productId ?? inventoryId);
  if (byProduct && (!productId || byProduct.inventoryItemId === inventoryId || byProduct.id === inventoryId)) return byProduct;
  throw notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${inventoryId} not found`);
}

export async function getInventoryVariants(ctx: RequestContext, input: { inventoryId: string; productId?: string | undefined; externalId?: string | undefined; variantIds?: string[] | undefined }): Promise<GetInventoryVariantsV1Response> {
  const product = await productOfInventory(ctx, input.inventoryId, input.productId ?? input.externalId);
  if (!product.visible && !isElevated(ctx.caller)) throw notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${input.inventoryId} not found`);
  const rows = (await defaultItemsOf(ctx, product.id)).filter((r) => !input.variantIds || input.variantIds.includes(r.variantId));
  return { inventoryItem: inventoryItemV2(product, rows) };
}

export async function updateInventoryVariants(ctx: RequestContext, productId: string, item: z.infer<typeof updateInventoryRequest>['inventoryItem']) {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const product = await findProduct(trx, ctx.site.id, productId);
    if (!product) throw notFound('PRODUCT_NOT_FOUND', `Product ${productId} not found`);
    const rows = await defaultItemsOf(tctx, productId);
    const unknown = (item.variants ?? []).filter((v) => !rows.some((r) => r.variantId === v.variantId)).map((v) => v.variantId);
    if (unknown.length) throw new ValidationError([{ field: 'inventoryItem.variants', description: `unknown variant ids: ${unknown.join(', ')}`, violatedRule: 'FORMAT', data: { unknownIds: unknown } }]);
    const changes: StockChange[] = rows.map((r) => {
      const v = item.variants?.find((x) => x.variantId === r.variantId);
      return { inventoryItemId: r.id, set: {
        trackQuantity: item.trackQuantity ?? r.trackQuantity,
        ...(v?.quantity != null ? { quantity: v.quantity } : {}),
        ...(v?.inStock != null ? { inStock: v.inStock } : {}),
        ...(item.preorderInfo ? { preorderEnabled: item.preorderInfo.enabled ?? r.preorderEnabled, preorderLimit: item.preorderInfo.limit ?? null, preorderMessage: item.preorderInfo.message ?? null } : {}),
      } };
    });
    // The stock listener recomputes the product; with no variant rows there is nothing to change but the document.
    if (changes.length > 0) await adjust(tctx, changes);
    else await refreshProductStock(tctx, productId);
    await recordEvent(tctx, { entityFqdn: INVENTORY_FQDN, slug: 'updated', entityId: product.inventoryItemId, entity: inventoryItemV2(product, await defaultItemsOf(tctx, productId)) });
  });
  return {};
}

type ChangeData = { inventoryId?: string | undefined; externalId?: string | undefined; productId?: string | undefined; variantId?: string | undefined };

async function linesFrom(ctx: RequestContext, data: (ChangeData & { by: number })[]): Promise<StockLine[]> {
  const lines: StockLine[] = [];
  for (const [i, d] of data.entries()) {
    const productId = d.productId ?? d.externalId ?? d.inventoryId;
    if (!productId) throw new ValidationError([{ field: `data[${i}].productId`, description: 'give productId, externalId or inventoryId', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
    const product = await productOfInventory(ctx, d.inventoryId ?? productId, d.productId ?? d.externalId);
    lines.push({ productId: product.id, variantId: d.variantId ?? '00000000-0000-0000-0000-000000000000', quantity: d.by });
  }
  return lines;
}

export async function decrementInventory(ctx: RequestContext, data: (ChangeData & { decrementBy: number })[]) {
  await decrementStock(ctx, await linesFrom(ctx, data.map((d) => ({ ...d, by: d.decrementBy }))));
  return {};
}

export async function incrementInventory(ctx: RequestContext, data: (ChangeData & { incrementBy: number })[]) {
  await incrementStock(ctx, await linesFrom(ctx, data.map((d) => ({ ...d, by: d.incrementBy }))));
  return {};
}

// ---------------------------------------------------------------------------------------------
// Store variants (V1 reader): a variant with its product's name, media and collections.

function storeVariant(ctx: RequestContext, product: ProductV1, variantId: string, preorder: boolean): StoreVariant | undefined {
  const shown = presentProduct(ctx, product, false);
  const v = shown.variants.find((x) => x.id === variantId);
  if (!v) return undefined;
  const names = Object.values(v.choices);
  const image = shown.media.mainMedia?.image;
  return {
    id: `${product.id}-${variantId}`,
    variantId,
    productId: product.id,
    variantName: names.join(' | '),
    productName: product.name,
    managedVariant: product.manageVariants,
    ...(v.variant.sku ? { sku: v.variant.sku } : {}),
    stock: v.stock,
    choices: v.choices,
    collectionIds: product.collectionIds,
    ...(image ? { media: { image: { id: shown.media.mainMedia!.id, url: image.url, width: image.width, height: image.height } } } : {}),
    preorderInfo: { enabled: preorder },
  };
}

export async function queryStoreVariants(ctx: RequestContext, query: z.infer<typeof productQuery>): Promise<QueryStoreVariantsResponse> {
  const limit = query.paging?.limit ?? PAGE_DEFAULT;
  const offset = query.paging?.offset ?? 0;
  const { rows, total } = await withFilterErrors('query', async () => queryVariantRows(ctx.db, {
    siteId: ctx.site.id, filter: parseFilter(query.filter), sort: parseSort(query.sort, variantSortColumn), onlyVisible: !isElevated(ctx.caller), limit, offset, dialect: ctx.dialect,
  }));
  const products = new Map((await findProductsByIds(ctx.db, ctx.site.id, [...new Set(rows.map((r) => r.productId))])).map((p) => [p.id, p]));
  const stock = await defaultItemsOfProducts(ctx, [...products.keys()]);
  const variants = rows.flatMap((r) => {
    const p = products.get(r.productId);
    const pre = stock.get(r.productId)?.find((s) => s.variantId === r.variantId)?.preorderEnabled ?? false;
    const v = p && storeVariant(ctx, p, r.variantId, pre);
    return v ? [v] : [];
  });
  return { variants, metadata: { count: variants.length, offset, total } };
}

export async function getStoreVariant(ctx: RequestContext, id: string): Promise<StoreVariantResponse> {
  const m = /^(.+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(id);
  const product = m ? await findProduct(ctx.db, ctx.site.id, m[1]!) : undefined;
  const rows = product ? await defaultItemsOf(ctx, product.id) : [];
  const variant = product && (product.visible || isElevated(ctx.caller)) ? storeVariant(ctx, product, m![2]!, rows.find((r) => r.variantId === m![2])?.preorderEnabled ?? false) : undefined;
  if (!variant) throw notFound('VARIANT_NOT_FOUND', `Variant ${id} not found`);
  return { variant };
}

export { PRODUCT_FQDN };
