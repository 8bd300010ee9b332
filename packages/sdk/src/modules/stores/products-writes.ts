/**
 * Catalog V1 writes and the remaining V1 reads (`@vitrine/sdk/stores` -> `products`), re-exported by
 * products.ts. Names and argument order follow the public `@wix/stores` products module; paths are
 * the V1 REST paths of contracts/endpoints.md. Writes are elevated (an API-key client or `elevate`).
 */
import { defineMethod } from '../../define.js';
import type { DecodeOptions } from '../../http/codec.js';
import type * as wire from '@vitrine/types/stores';
import type { FromWire } from '../../wire-types.js';
import type { Product, Variant } from './products-types.js';

const ONE: DecodeOptions = { dates: ['product.createdDate', 'product.lastUpdated'] };

/** Input of `updateProduct`: any subset of the create fields; `null` brand or ribbon removes it. */
export type ProductUpdate = FromWire<wire.ProductV1Patch>;
export interface VariantOverride { choices?: Record<string, string>; variantIds?: string[]; price?: number | null; cost?: number | null; weight?: number | null; sku?: string | null; visible?: boolean | null }
export interface MediaDataForWrite { mediaId?: string; url?: string; choice?: { option: string; choice: string } }
export interface MediaAssignmentToChoice { option: string; choice: string; mediaIds?: string[] }
export interface BulkResult { itemMetadata: { _id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } } }
export interface BulkResponse { results: BulkResult[]; bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number } }
export interface Adjustment { amount?: number; percentage?: { rate: number; roundToInt?: boolean } }
export type Collection = FromWire<wire.CollectionV1>;

const path = (id: string, rest = '') => `/stores/v1/products/${encodeURIComponent(id)}${rest}`;

/** Elevated. `updateProduct(_id, { priceData: { price } })` -> `{ product }` (partial). */
export const updateProduct = defineMethod((client, _id: string, product: ProductUpdate) =>
  client.request<{ product: Product }>({ method: 'PATCH', path: path(_id), payload: { product: { ...product, _id } }, decode: ONE }));

/** Elevated. */
export const deleteProduct = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'DELETE', path: path(_id), payload: { _id } }));

/** Elevated. Price, cost, weight, SKU or visibility of the variants matching choices or ids. */
export const updateProductVariants = defineMethod((client, _id: string, variants: VariantOverride[]) =>
  client.request<{ variants: Variant[] }>({ method: 'PATCH', path: path(_id, '/variants'), payload: { _id, variants } }));

/** Elevated. Every variant back to the product's own price, cost, weight and SKU. */
export const resetAllProductVariantData = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/variants/resetToDefault'), payload: { _id } }));

/** Elevated. Media by uploaded id, `wix:` URI, `data:` URL or https URL; optionally onto a choice. */
export const addProductMedia = defineMethod((client, _id: string, media: MediaDataForWrite[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/media'), payload: { _id, media } }));

/** Elevated. No ids: every media item. */
export const removeProductMedia = defineMethod((client, _id: string, mediaIds: string[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/media/delete'), payload: { _id, mediaIds } }));

/** Elevated. */
export const addProductMediaToChoices = defineMethod((client, _id: string, media: MediaAssignmentToChoice[]) =>
  client.request<Record<string, never>>({ method: 'PATCH', path: path(_id, '/choices/media'), payload: { _id, media } }));

/** Elevated. */
export const removeProductMediaFromChoices = defineMethod((client, _id: string, media: MediaAssignmentToChoice[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/choices/media/delete'), payload: { _id, media } }));

/** Elevated. */
export const deleteProductOptions = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'DELETE', path: path(_id, '/options'), payload: { _id } }));

/** Elevated. */
export const removeBrand = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/remove-brand'), payload: { _id } }));

/** Elevated. */
export const removeRibbon = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/remove-ribbon'), payload: { _id } }));

/** Elevated. Sets one of price, cost, weight, ribbon, brand on every product; per-item results. */
export const bulkUpdateProductsProperty = defineMethod((client, ids: string[], set: { price?: number; cost?: number; weight?: number; ribbon?: string; brand?: string }) =>
  client.request<BulkResponse>({ method: 'POST', path: '/stores/v1/bulk/products/update', payload: { ids, set } }));

/** Elevated. Adjusts one of price, cost, weight by an amount or a percentage; per-item results. */
export const bulkAdjustProductProperty = defineMethod((client, adjust: { price?: Adjustment; cost?: Adjustment; weight?: Adjustment }, ids: string[]) =>
  client.request<BulkResponse>({ method: 'POST', path: '/stores/v1/bulk/products/adjust-properties', payload: { ids, adjust } }));

/** Elevated. */
export const createCollection = defineMethod((client, collection: { name: string; slug?: string; description?: string; visible?: boolean; media?: unknown }) =>
  client.request<{ collection: Collection }>({ method: 'POST', path: '/stores/v1/collections', payload: { collection } }));

/** Elevated. */
export const updateCollection = defineMethod((client, _id: string, collection: Partial<Omit<Collection, '_id' | 'numberOfProducts'>>) =>
  client.request<{ collection: Collection }>({ method: 'PATCH', path: `/stores/v1/collections/${encodeURIComponent(_id)}`, payload: { collection: { ...collection, _id } } }));

/** Elevated. */
export const deleteCollection = defineMethod((client, _id: string) =>
  client.request<Record<string, never>>({ method: 'DELETE', path: `/stores/v1/collections/${encodeURIComponent(_id)}`, payload: { _id } }));

/** Elevated. */
export const addProductsToCollection = defineMethod((client, _id: string, productIds: string[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: `/stores/v1/collections/${encodeURIComponent(_id)}/productIds`, payload: { _id, productIds } }));

/** Elevated. */
export const removeProductsFromCollection = defineMethod((client, _id: string, productIds: string[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: `/stores/v1/collections/${encodeURIComponent(_id)}/productIds/delete`, payload: { _id, productIds } }));

/** `getCollectionBySlug(slug)` -> `{ collection }` (V1 reader path). */
export const getCollectionBySlug = defineMethod((client, slug: string) =>
  client.request<{ collection: Collection }>({ method: 'GET', path: `/stores-reader/v1/collections/slug/${encodeURIComponent(slug)}`, payload: { slug } }));

export type OptionsAvailability = FromWire<wire.ProductOptionsAvailability>;

/** Which choices are in stock given a (partial) selection, and the variant a full selection picks. */
export const getProductOptionsAvailability = defineMethod((client, _id: string, options: Record<string, string>) =>
  client.request<OptionsAvailability>({ method: 'POST', path: `/stores-reader/v1/products/${encodeURIComponent(_id)}/productOptionsAvailability`, payload: { _id, options } }));

/** Variants of one product by choices or ids. */
export const queryProductVariants = defineMethod((client, _id: string, options: { choices?: Record<string, string>; variantIds?: string[]; paging?: { limit?: number; offset?: number }; includeMerchantSpecificData?: boolean } = {}) =>
  client.request<FromWire<wire.QueryProductVariantsResponse>>({ method: 'POST', path: `/stores-reader/v1/products/${encodeURIComponent(_id)}/variants/query`, payload: { _id, ...options } }));

export type StoreVariant = FromWire<wire.StoreVariant>;

/** `getStoreVariant('<productId>-<variantId>')` -> `{ variant }` */
export const getStoreVariant = defineMethod((client, _id: string) =>
  client.request<FromWire<wire.StoreVariantResponse>>({ method: 'GET', path: `/stores-reader/v1/variants/${encodeURIComponent(_id)}`, payload: { _id } }));

/** Variants across products (filter on productId, variantId, sku, stock.inStock, stock.quantity, productName). */
export const queryStoreVariants = defineMethod((client, query: { filter?: Record<string, unknown>; sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[]; paging?: { limit?: number; offset?: number } }) =>
  client.request<FromWire<wire.QueryStoreVariantsResponse>>({ method: 'POST', path: '/stores-reader/v1/variants/query', payload: { query } }));
