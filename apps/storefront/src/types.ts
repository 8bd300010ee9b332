import type { products } from '@vitrine/sdk/stores';

/**
 * The V1 product as the SDK returns it (caller names, dates as Date). Derived from the wire shape in
 * `@vitrine/types`; never redefine product fields here.
 */
export type StoreProduct = products.Product;
export type PriceData = products.PriceData;
