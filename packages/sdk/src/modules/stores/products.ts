/**
 * Catalog V1 products (`@vitrine/sdk/stores` -> `products`). Call names and argument shapes follow
 * the public `@wix/stores` products module; paths are the V1 REST paths of contracts/endpoints.md.
 * This file is the reference example of a module: see docs/sdk.md "Adding a module".
 */
import { defineMethod } from '../../define.js';
import type { DecodeOptions } from '../../http/codec.js';
import { offsetQuery, type OffsetQueryBuilder, type OffsetQueryResult } from '../../query/offset.js';

export interface FormattedPrice { price: string; discountedPrice: string; pricePerUnit?: string }
export interface PriceData { currency: string; price: number; discountedPrice: number; formatted: FormattedPrice; pricePerUnit?: number }
export interface NumericRange { minValue: number; maxValue: number }
export interface MediaImage { url: string; width: number; height: number }
export interface MediaItem { _id: string; title: string; mediaType: string; image?: MediaImage; video?: { files: MediaImage[]; stillFrameMediaId?: string }; thumbnail?: MediaImage }
export interface Choice { value: string; description: string; inStock: boolean; visible: boolean }
export interface ProductOption { optionType: 'drop_down' | 'color'; name: string; choices: Choice[] }
export interface CostAndProfitData { itemCost: number; formattedItemCost: string; profit: number; formattedProfit: string; profitMargin: number }
export interface Variant {
  _id: string;
  choices: Record<string, string>;
  variant: { priceData: PriceData; convertedPriceData: PriceData; costAndProfitData?: CostAndProfitData; weight?: number; sku?: string; visible: boolean };
  stock: { trackQuantity: boolean; quantity?: number; inStock: boolean };
}

/** A V1 product in the caller's names (`_id`, `_createdDate`); dates are Date objects. */
export interface Product {
  _id: string;
  name: string;
  slug: string;
  visible: boolean;
  productType: 'physical' | 'digital';
  description: string;
  sku?: string;
  weight?: number;
  stock: { trackInventory: boolean; quantity?: number; inStock: boolean; inventoryStatus: 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK' };
  price: PriceData;
  priceData: PriceData;
  convertedPriceData: PriceData;
  priceRange: NumericRange;
  costAndProfitData?: CostAndProfitData;
  costRange?: NumericRange;
  weightRange?: NumericRange;
  additionalInfoSections: { title: string; description: string }[];
  ribbons: { text: string }[];
  media: { mainMedia?: MediaItem; items: MediaItem[] };
  customTextFields: { title: string; maxLength: number; mandatory: boolean }[];
  manageVariants: boolean;
  productOptions: ProductOption[];
  productPageUrl: { base: string; path: string };
  numericId: string;
  inventoryItemId: string;
  discount: { type: 'NONE' | 'AMOUNT' | 'PERCENT'; value: number };
  collectionIds: string[];
  variants: Variant[];
  lastUpdated: Date;
  _createdDate: Date;
  ribbon?: string;
  brand?: string;
}

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
export interface ProductInput {
  name: string;
  priceData: { price: number };
  slug?: string;
  description?: string;
  productType?: 'physical' | 'digital';
  sku?: string;
  weight?: number;
  visible?: boolean;
  brand?: string;
  ribbon?: string;
  costAndProfitData?: { itemCost: number };
  discount?: { type: 'NONE' | 'AMOUNT' | 'PERCENT'; value: number };
  productOptions?: { optionType?: 'drop_down' | 'color'; name: string; choices: { value: string; description: string; inStock?: boolean; visible?: boolean }[] }[];
  stock?: { trackInventory?: boolean; quantity?: number; inStock?: boolean };
  collectionIds?: string[];
}

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
