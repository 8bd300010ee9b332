/**
 * Catalog V3 products (`@vitrine/sdk/stores` -> `productsV3`), as the public `@wix/stores` productsV3
 * module: cursor paging, decimal-text money, `revision` for optimistic concurrency (a stale revision
 * is a 409 `REVISION_MISMATCH`). Writes are elevated.
 */
import type { ClientCore } from '../../client.js';
import { defineMethod } from '../../define.js';
import { cursorQuery, type CursorQueryBuilder } from '../../query/cursor.js';
import type { BulkItemMetadata as BulkItemMetadataWire } from '@vitrine/types';
import type * as wire from '@vitrine/types/stores';
import type { FromWire } from '../../wire-types.js';

export type { Money } from '@vitrine/types/stores';
// Caller shapes of the V3 wire types (`_id`, `_createdDate`, dates as Date): see wire-types.ts.
export type VariantV3 = FromWire<wire.VariantV3>;
export type ProductV3 = FromWire<wire.ProductV3>;
/** Input of create/update: the REST shape in caller names (see contracts/endpoints.md stores.productsV3). */
export type ProductV3Input = FromWire<wire.ProductV3Input>;
export type ProductV3Field = '_id' | 'name' | 'slug' | 'visible' | 'productType' | 'brand._id' | 'brand.name' | 'ribbon.name' | 'actualPriceRange.minValue.amount' | 'actualPriceRange.maxValue.amount' | 'inventory.availabilityStatus' | '_createdDate' | '_updatedDate' | 'allCategoriesInfo.categories' | 'options.choicesSettings.choices.choiceId';

const ONE = { dates: ['product.createdDate', 'product.updatedDate'] };
const MANY = { dates: ['products.createdDate', 'products.updatedDate'] };
type Fields = { fields?: string[] };

/** Elevated. Returns the product (as the public call does). */
export const createProduct = defineMethod(async (client, product: ProductV3Input, options: Fields = {}) =>
  (await client.request<{ product: ProductV3 }>({ method: 'POST', path: '/stores/v3/products', payload: { product, ...options }, decode: ONE })).product);

/** Elevated. `updateProduct(_id, { revision, ...changes })` -> the product. */
export const updateProduct = defineMethod(async (client, _id: string, product: Partial<ProductV3Input> & { revision: string }, options: Fields = {}) =>
  (await client.request<{ product: ProductV3 }>({ method: 'PATCH', path: `/stores/v3/products/${encodeURIComponent(_id)}`, payload: { product: { ...product, _id }, ...options }, decode: ONE })).product);

/** Elevated. */
export const deleteProduct = defineMethod((client, productId: string) =>
  client.request<Record<string, never>>({ method: 'DELETE', path: `/stores/v3/products/${encodeURIComponent(productId)}`, payload: { productId } }));

/** `getProduct(id, { fields: ['MERCHANT_DATA'] })` -> the product. */
export const getProduct = defineMethod(async (client, productId: string, options: Fields = {}) =>
  (await client.request<{ product: ProductV3 }>({ method: 'GET', path: `/stores/v3/products/${encodeURIComponent(productId)}`, payload: { productId, ...options }, decode: ONE })).product);

export const getProductBySlug = defineMethod((client, slug: string, options: Fields = {}) =>
  client.request<{ product: ProductV3 }>({ method: 'GET', path: `/stores/v3/products/slug/${encodeURIComponent(slug)}`, payload: { slug, ...options }, decode: ONE }));

/** `productsV3.queryProducts().eq('brand.name', 'x').limit(10).find()` (cursor paging). */
export const queryProducts = defineMethod((client, options: Fields = {}): CursorQueryBuilder<ProductV3, ProductV3Field> =>
  cursorQuery<ProductV3, ProductV3Field>(async (query) => {
    const res = await client.request<{ products?: ProductV3[]; pagingMetadata?: { cursors?: { next?: string | null; prev?: string | null }; hasNext?: boolean } }>({
      method: 'GET', path: '/stores/v3/products/query', payload: { query, ...options }, postTwin: true, decode: MANY,
    });
    return { items: res.products ?? [], cursors: res.pagingMetadata?.cursors, hasNext: res.pagingMetadata?.hasNext };
  }));

export interface SearchAggregation { name?: string; type?: 'VALUE' | 'RANGE' | 'SCALAR'; fieldPath: string; value?: { limit?: number; sortType?: 'COUNT' | 'VALUE'; sortDirection?: 'ASC' | 'DESC' }; range?: { buckets: { from?: number; to?: number }[] }; scalar?: { type: 'COUNT_DISTINCT' | 'MIN' | 'MAX' } }
export interface CursorSearch { filter?: Record<string, unknown>; sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[]; cursorPaging?: { limit?: number; cursor?: string }; aggregations?: SearchAggregation[]; search?: { expression?: string; mode?: 'OR' | 'AND' } }

/** Full-text search with filter, sort, cursor paging and aggregations (facet counts, price ranges). */
export const searchProducts = defineMethod((client, search: CursorSearch, options: Fields = {}) =>
  client.request<{ products: ProductV3[]; pagingMetadata: { count: number; hasNext: boolean; cursors: { next: string | null; prev: string | null } }; aggregationData: { results: unknown[] } }>({
    method: 'GET', path: '/stores/v3/products/search', payload: { search, ...options }, postTwin: true, decode: MANY,
  }));

export const countProducts = defineMethod((client, options: { filter?: Record<string, unknown>; search?: { expression?: string }; returnNonVisibleProducts?: boolean } = {}) =>
  client.request<{ count: number }>({ method: 'GET', path: '/stores/v3/products/count', payload: options, postTwin: true }));

// ---------------------------------------------------------------------------------------------
// Bulk calls (elevated). Per-item results: `{ results: [{ itemMetadata: { _id, originalIndex, success, error? }, item? }], bulkActionMetadata }`.

export type BulkItemMetadata = FromWire<BulkItemMetadataWire>;
export interface BulkProductsResponse { results: { itemMetadata: BulkItemMetadata; item?: ProductV3 }[]; bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number } }
export interface BulkWithInventoryResponse {
  productResults: BulkProductsResponse;
  inventoryResults: { results: { itemMetadata: BulkItemMetadata; item?: Record<string, unknown> }[]; bulkActionMetadata: BulkProductsResponse['bulkActionMetadata'] };
}
export interface ProductIdWithRevision { productId: string; revision: string }
export interface Tags { publicTags?: { tagIds: string[] }; privateTags?: { tagIds: string[] } }
export interface AdjustValue { amount?: string; percentage?: number }
/** Free text to match, as in searchProducts. */
export type SearchDetails = FromWire<wire.ProductSearchDetails>;
type JobId = wire.BulkJobStarted;
const RESULTS = { dates: ['results.item.createdDate', 'results.item.updatedDate'] };
const PRODUCT_RESULTS = { dates: ['productResults.results.item.createdDate', 'productResults.results.item.updatedDate'] };
const post = <T>(client: ClientCore, path: string, payload: Record<string, unknown>, decode?: { dates: string[] }) =>
  client.request<T>({ method: 'POST', path: `/stores/v3/bulk/${path}`, payload, ...(decode ? { decode } : {}) });

/** Adds info sections to products given with their revisions. */
export const bulkAddInfoSectionsToProducts = defineMethod((client, products: ProductIdWithRevision[], options: { infoSectionIds: string[]; returnEntity?: boolean; fields?: string[] }) =>
  post<BulkProductsResponse>(client, 'products/add-info-sections', { products, ...options }, RESULTS));

export const bulkRemoveInfoSectionsFromProducts = defineMethod((client, products: ProductIdWithRevision[], options: { infoSectionIds: string[]; returnEntity?: boolean; fields?: string[] }) =>
  post<BulkProductsResponse>(client, 'products/remove-info-sections', { products, ...options }, RESULTS));

/** Unassigns, then assigns tags (a tag in both lists ends up assigned). */
export const bulkUpdateProductTags = defineMethod((client, productIds: string[], options: { assignTags?: Tags; unassignTags?: Tags }) =>
  post<{ results: { itemMetadata: BulkItemMetadata }[]; bulkActionMetadata: BulkProductsResponse['bulkActionMetadata'] }>(client, 'products/update-tags', { productIds, ...options }));

/** Creates products with stock per variant (`variantsInfo.variants[].inventoryItem`). */
export const bulkCreateProductsWithInventory = defineMethod((client, products: ProductV3Input[], options: { returnEntity?: boolean; fields?: string[] } = {}) =>
  post<BulkWithInventoryResponse>(client, 'products-with-inventory/create', { products, ...options }, PRODUCT_RESULTS));

/** Updates products (each `{ product: { _id, revision, ...changes } }`) and their stock. */
export const bulkUpdateProductsWithInventory = defineMethod((client, products: { product: Partial<ProductV3Input> & { _id: string; revision: string } }[], options: { returnEntity?: boolean; fields?: string[] } = {}) =>
  post<BulkWithInventoryResponse>(client, 'products-with-inventory/update', { products, ...options }, PRODUCT_RESULTS));

// By-filter jobs: `filter` and `search` as in queryProducts / searchProducts ({} = every product);
// each answers `{ jobId }`, followed with getBulkJob.

export const bulkAddInfoSectionsToProductsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { infoSectionIds: string[]; search?: SearchDetails }) =>
  post<JobId>(client, 'products/add-info-sections-by-filter', { filter, ...options }));

export const bulkRemoveInfoSectionsFromProductsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { infoSectionIds: string[]; search?: SearchDetails }) =>
  post<JobId>(client, 'products/remove-info-sections-by-filter', { filter, ...options }));

export const bulkAddProductsToCategoriesByFilter = defineMethod((client, options: { filter?: Record<string, unknown>; categoryIds: string[]; search?: SearchDetails }) =>
  post<JobId>(client, 'products/add-to-categories-by-filter', options));

export const bulkRemoveProductsFromCategoriesByFilter = defineMethod((client, options: { filter?: Record<string, unknown>; categoryIds: string[]; search?: SearchDetails }) =>
  post<JobId>(client, 'products/remove-from-categories-by-filter', options));

export const bulkUpdateProductTagsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { assignTags?: Tags; unassignTags?: Tags }) =>
  post<JobId>(client, 'products/update-tags-by-filter', { filter, ...options }));

/** Sets the given fields (visible, barcode, prices, cost, weight; not sku) on every variant. */
export const bulkUpdateProductVariantsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { variant: Record<string, unknown>; search?: SearchDetails }) =>
  post<JobId>(client, 'products/update-variants-by-filter', { filter, ...options }));

/** Adjusts prices / cost by an amount or a percentage; a product whose price would go negative fails (INVALID_VALUE). */
export const bulkAdjustProductVariantsByFilter = defineMethod((client, filter: Record<string, unknown>, options: {
  actualPrice?: AdjustValue; compareAtPrice?: AdjustValue; cost?: AdjustValue; compareAtPriceDiscount?: AdjustValue;
  rounding?: 'NO_ROUNDING' | 'CURRENCY_PRECISION' | 'NEAREST_WHOLE_NUMBER'; search?: SearchDetails;
}) => post<JobId>(client, 'products/adjust-variants-by-filter', { filter, ...options }));

/** Applies a partial product (not slug, options, modifiers, variants) to every matching product. */
export const bulkUpdateProductsByFilter = defineMethod((client, options: { filter?: Record<string, unknown>; product: Partial<ProductV3Input>; search?: SearchDetails }) =>
  post<JobId>(client, 'products/update-by-filter', options));

export const bulkDeleteProductsByFilter = defineMethod((client, filter: Record<string, unknown>, options: { search?: SearchDetails } = {}) =>
  post<JobId>(client, 'products/delete-by-filter', { filter, ...options }));

/** A catalog bulk job's progress; its dates as Date. */
export type BulkJob = FromWire<wire.CatalogBulkJob, 'createdDate' | 'updatedDate' | 'finishedDate'>;

/**
 * Our extension (the platform answers these through its separate Async Jobs API): status of a
 * catalog bulk job started by a by-filter call. Elevated; another site's job is 404 JOB_NOT_FOUND.
 */
export const getBulkJob = defineMethod(async (client, jobId: string) =>
  (await client.request<{ job: BulkJob }>({ method: 'GET', path: `/stores/v3/bulk/jobs/${encodeURIComponent(jobId)}`, payload: { jobId }, decode: { dates: ['job.createdDate', 'job.updatedDate', 'job.finishedDate'] } })).job);
