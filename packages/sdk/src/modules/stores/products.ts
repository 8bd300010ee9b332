/**
 * Catalog V1 products (`@vitrine/sdk/stores` -> `products`). Call names and argument shapes follow
 * the public `@wix/stores` products module; paths are the V1 REST paths of contracts/endpoints.md.
 * This file is the reference example of a module: see docs/sdk.md "Adding a module".
 */
import { defineMethod } from '../../define.js';
import type { DecodeOptions } from '../../http/codec.js';
import { offsetQuery, type OffsetQueryBuilder, type OffsetQueryResult } from '../../query/offset.js';
import type * as wire from '@vitrine/types/stores';
import type { FromWire } from '../../wire-types.js';

export type {
  Discount, FormattedPrice, InventoryStatus, MeasurementUnit, MediaImage, NumericRange, PriceData, PricePerUnitData, ProductType,
} from '@vitrine/types/stores';

// Caller shapes of the V1 wire types: their own file, so products-writes.ts needs nothing of this one.
export type { Choice, CostAndProfitData, MediaItem, Product, ProductOption, Variant } from './products-types.js';
import type { Product } from './products-types.js';

/** Fields `queryProducts()` filters and sorts on. */
export type ProductField =
  | '_id' | 'name' | 'slug' | 'productType' | 'description' | 'sku' | 'price' | 'priceData.price' | 'numericId'
  | 'lastUpdated' | '_createdDate' | 'collections.id' | 'collectionIds' | 'visible' | 'inStock' | 'ribbon' | 'brand';

export type ProductsQueryBuilder = OffsetQueryBuilder<Product, ProductField>;
export type ProductsQueryResult = OffsetQueryResult<Product, ProductField>;

export interface GetProductOptions {
  /** Cost and profit data; the server includes it only for elevated callers. */
  includeMerchantSpecificData?: boolean;
}

/** Input of `createProduct`: what an owner sets; prices, variants and ranges are derived by the server. */
export type ProductInput = FromWire<wire.ProductV1Input>;

/** Float and date fields of a product (wire names, relative to the product). */
const PRODUCT_FLOATS = [
  'weight', 'discount.value',
  ...['price', 'priceData', 'convertedPriceData'].flatMap((p) => [`${p}.price`, `${p}.discountedPrice`, `${p}.pricePerUnit`]),
  'costAndProfitData.itemCost', 'costAndProfitData.profit', 'costAndProfitData.profitMargin',
  'priceRange.minValue', 'priceRange.maxValue', 'costRange.minValue', 'costRange.maxValue', 'weightRange.minValue', 'weightRange.maxValue',
  'pricePerUnitData.totalQuantity', 'pricePerUnitData.baseQuantity', 'variants.variant.weight',
  ...['priceData', 'convertedPriceData'].flatMap((p) => [`variants.variant.${p}.price`, `variants.variant.${p}.discountedPrice`, `variants.variant.${p}.pricePerUnit`]),
  'variants.variant.costAndProfitData.itemCost', 'variants.variant.costAndProfitData.profit', 'variants.variant.costAndProfitData.profitMargin',
];
const PRODUCT_DATES = ['createdDate', 'lastUpdated'];

/** Decode paths of a response holding product(s) under `key`. */
const productPaths = (key: 'product' | 'products'): DecodeOptions => ({
  dates: PRODUCT_DATES.map((p) => `${key}.${p}`),
  floats: PRODUCT_FLOATS.map((p) => `${key}.${p}`),
});
const ONE = productPaths('product');
const MANY = productPaths('products');

interface QueryProductsResponse {
  products?: Product[];
  metadata?: { count?: number; offset?: number; total?: number; tooManyToCount?: boolean };
}

/** `products.queryProducts().eq('name', 'x').limit(5).find()` */
export const queryProducts = defineMethod((client): ProductsQueryBuilder =>
  offsetQuery<Product, ProductField>(async (query) => {
    const res = await client.request<QueryProductsResponse>({
      method: 'GET',
      path: '/stores-reader/v1/products/query-platformized',
      payload: { query },
      postTwin: true,
      decode: MANY,
    });
    return { items: res.products ?? [], total: res.metadata?.total, tooManyToCount: res.metadata?.tooManyToCount };
  }));

/** `products.getProduct(id, { includeMerchantSpecificData })` -> `{ product }` */
export const getProduct = defineMethod((client, _id: string, options: GetProductOptions = {}) =>
  client.request<{ product: Product }>({
    method: 'GET',
    path: `/stores-reader/v1/products/${encodeURIComponent(_id)}`,
    payload: { _id, ...options },
    decode: ONE,
    argumentFields: { id: '_id' },
  }));

/** Elevated (`ApiKeyStrategy`): `products.createProduct({ name, priceData: { price } })` -> `{ product }` */
export const createProduct = defineMethod((client, product: ProductInput) =>
  client.request<{ product: Product }>({ method: 'POST', path: '/stores/v1/products', payload: { product }, decode: ONE }));

// V1 writes and the remaining reads (catalog engineer's file).
export * from './products-writes.js';
