import type { CollectionV1, DiscountType, ProductV1, ProductV1Input, ProductV1Patch } from '@vitrine/types/stores';
import type { Api, PageMeta } from './client';

/** Wire shapes (REST names, ISO dates): the dashboard calls the API directly, so it reads them as sent. */
export type Product = ProductV1;
export type Variant = ProductV1['variants'][number];

/** "Size: M, Color: Black" (choice descriptions from the product options). */
export function variantLabel(product: Pick<Product, 'productOptions'>, v: Pick<Variant, 'choices'>): string {
  return Object.entries(v.choices).map(([option, value]) => {
    const described = product.productOptions?.find((o) => o.name === option)?.choices.find((c) => c.value === value)?.description;
    return `${option}: ${described || value}`;
  }).join(', ');
}

export interface VariantStockInput { variantId: string; quantity?: number; inStock?: boolean }

/** Stock of a product with managed variants: per variant, through the V2 inventory route. */
export async function updateVariantStock(api: Api, productId: string, trackQuantity: boolean, variants: VariantStockInput[]): Promise<void> {
  await api(`/stores/v2/inventoryItems/product/${encodeURIComponent(productId)}`, { method: 'PATCH', body: { inventoryItem: { trackQuantity, variants } } });
}

export type { DiscountType };

export type Collection = CollectionV1;

/** The built-in collection every product is in (the platform's fixed id); it cannot be edited. */
export const ALL_PRODUCTS_ID = '00000000-000000-000000-000000000001';
/** Largest page of a V1 product or collection query (server bound PRODUCT_PAGE_MAX). */
export const CATALOG_PAGE_MAX = 100;

type Filter = Record<string, unknown>;

/** Sort orders the product list offers (fields the V1 query sorts on). */
export const PRODUCT_SORTS = {
  'name-asc': { label: 'Alphabetical', sort: [{ fieldName: 'name', order: 'ASC' }] },
  'price-asc': { label: 'Cheapest first', sort: [{ fieldName: 'price', order: 'ASC' }, { fieldName: 'name', order: 'ASC' }] },
  'price-desc': { label: 'Most expensive first', sort: [{ fieldName: 'price', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
  'updated-desc': { label: 'Recently updated', sort: [{ fieldName: 'lastUpdated', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
} as const;
export type ProductSort = keyof typeof PRODUCT_SORTS;

export interface ProductQuery { search?: string; collectionId?: string; excludeCollectionId?: string; sort?: ProductSort; offset: number; limit: number }

export async function queryProducts(api: Api, q: ProductQuery): Promise<{ products: Product[]; metadata: PageMeta }> {
  const parts: Filter[] = [];
  if (q.search?.trim()) parts.push({ name: { $contains: q.search.trim() } });
  if (q.collectionId) parts.push({ collectionIds: { $hasSome: [q.collectionId] } });
  if (q.excludeCollectionId) parts.push({ $not: { collectionIds: { $hasSome: [q.excludeCollectionId] } } });
  const filter = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { $and: parts };
  return api('/stores-reader/v1/products/query-platformized', {
    body: { query: { ...(filter ? { filter } : {}), sort: PRODUCT_SORTS[q.sort ?? 'name-asc'].sort, paging: { limit: q.limit, offset: q.offset } } },
  });
}

export async function getProduct(api: Api, id: string): Promise<Product> {
  return (await api<{ product: Product }>(`/stores-reader/v1/products/${encodeURIComponent(id)}`)).product;
}

export type ProductPatch = ProductV1Patch;

export async function updateProduct(api: Api, id: string, product: ProductPatch): Promise<Product> {
  return (await api<{ product: Product }>(`/stores/v1/products/${encodeURIComponent(id)}`, { method: 'PATCH', body: { product } })).product;
}

export async function createProduct(api: Api, product: ProductV1Input): Promise<Product> {
  return (await api<{ product: Product }>('/stores/v1/products', { body: { product } })).product;
}

export async function deleteProduct(api: Api, id: string): Promise<void> {
  await api(`/stores/v1/products/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function queryCollections(api: Api, offset: number, limit: number): Promise<{ collections: Collection[]; metadata: PageMeta }> {
  return api('/stores-reader/v1/collections/query', { body: { query: { paging: { limit, offset } } } });
}

export async function createCollection(api: Api, name: string): Promise<Collection> {
  return (await api<{ collection: Collection }>('/stores/v1/collections', { body: { collection: { name } } })).collection;
}

export async function renameCollection(api: Api, id: string, name: string): Promise<Collection> {
  return (await api<{ collection: Collection }>(`/stores/v1/collections/${encodeURIComponent(id)}`, { method: 'PATCH', body: { collection: { name } } })).collection;
}

export async function deleteCollection(api: Api, id: string): Promise<void> {
  await api(`/stores/v1/collections/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function addToCollection(api: Api, id: string, productIds: string[]): Promise<void> {
  await api(`/stores/v1/collections/${encodeURIComponent(id)}/productIds`, { body: { productIds } });
}

export async function removeFromCollection(api: Api, id: string, productIds: string[]): Promise<void> {
  await api(`/stores/v1/collections/${encodeURIComponent(id)}/productIds/delete`, { body: { productIds } });
}
