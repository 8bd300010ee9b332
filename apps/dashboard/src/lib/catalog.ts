/** Catalog helpers and bounds of the dashboard (the calls themselves are @vitrine/react hooks). */
import type { products } from '@vitrine/sdk/stores';

export type Product = products.Product;
export type Variant = products.Variant;
export type Collection = products.Collection;
export type DiscountType = Product['discount']['type'];

/** "Size: M, Color: Black" (choice descriptions from the product options). */
export function variantLabel(product: Pick<Product, 'productOptions'>, v: Pick<Variant, 'choices'>): string {
  return Object.entries(v.choices).map(([option, value]) => {
    const described = product.productOptions?.find((o) => o.name === option)?.choices.find((c) => c.value === value)?.description;
    return `${option}: ${described || value}`;
  }).join(', ');
}

/** The built-in collection every product is in (the platform's fixed id); it cannot be edited. */
export const ALL_PRODUCTS_ID = '00000000-000000-000000-000000000001';
/** Largest page of a V1 product or collection query (server bound PRODUCT_PAGE_MAX). */
export const CATALOG_PAGE_MAX = 100;

/** Sort orders the product list offers (fields the V1 query sorts on). */
export const PRODUCT_SORTS = {
  'name-asc': { label: 'Alphabetical', sort: [{ fieldName: 'name', order: 'ASC' }] },
  'price-asc': { label: 'Cheapest first', sort: [{ fieldName: 'price', order: 'ASC' }, { fieldName: 'name', order: 'ASC' }] },
  'price-desc': { label: 'Most expensive first', sort: [{ fieldName: 'price', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
  'updated-desc': { label: 'Recently updated', sort: [{ fieldName: 'lastUpdated', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
} as const satisfies Record<string, { label: string; sort: readonly { fieldName: products.ProductField; order: 'ASC' | 'DESC' }[] }>;
export type ProductSort = keyof typeof PRODUCT_SORTS;

export interface ProductFilter { search?: string; collectionId?: string; excludeCollectionId?: string }

/** The product list's filters on a `queryProducts()` builder (name search, in / not in a collection). */
export function filterProducts(f: ProductFilter): (q: products.ProductsQueryBuilder) => products.ProductsQueryBuilder {
  return (q) => {
    // `not` first, while the builder's own filter is still empty, so only the condition is negated.
    if (f.excludeCollectionId) q = q.not(q.hasSome('collectionIds', [f.excludeCollectionId]));
    if (f.collectionId) q = q.hasSome('collectionIds', [f.collectionId]);
    if (f.search?.trim()) q = q.contains('name', f.search.trim());
    return q;
  };
}
