/**
 * Catalog reads that a server can run before rendering and hand to the browser: each read is a
 * `*Query(client, options)` (TanStack query options: key + function) that a route loader passes to
 * `queryClient.ensureQueryData`, and a hook that reads the same key in components. Results are plain
 * data (no methods), so `dehydrateQueries` / `hydrateQueries` carry them inside the page's HTML.
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { dehydrate, hydrate } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import type { collections, products } from '@vitrine/sdk/stores';
import type { ProductsBuilderOptions } from './catalog-reads.js';
import { queryKeys } from './keys.js';
import { useVitrineClient } from './provider.js';

type Product = products.Product;
type Collection = collections.Collection;

/** One page of products as plain data. */
export interface ProductList {
  items: Product[];
  /** Undefined when the server could not count. */
  totalCount: number | undefined;
}

export interface ProductListOptions extends ProductsBuilderOptions {
  /**
   * Reads following pages of `limit` until the result set ends or this many products are read (a
   * caller's named bound): one list over the whole result set, e.g. for facet counts.
   */
  upTo?: number;
}

/** The SDK's catalog reads, loaded when a query first runs (see catalog-reads.ts). */
const catalogReads = () => import('./catalog-reads.js');

/** Loads the code the catalog queries run, ahead of the first one (e.g. on idle after hydration). */
export async function preloadCatalogQueries(): Promise<void> {
  await catalogReads();
}

/**
 * Query options of one page of `products.queryProducts()` as plain data. The key is made of the
 * options themselves, so reading the cache needs no SDK code.
 */
export function productListQuery(client: ClientCore, options: ProductListOptions = {}) {
  const { limit, skip, sort, collectionId, slug, upTo } = options;
  return {
    queryKey: [...queryKeys.products.all, 'plain', { limit, skip, sort, collectionId, slug }, ...(upTo === undefined ? [] : [{ upTo }])] as const,
    queryFn: async (): Promise<ProductList> => {
      let page = await (await catalogReads()).productsBuilder(client, options).find();
      const items = [...page.items];
      while (upTo !== undefined && items.length < upTo && page.items.length > 0 && page.hasNext()) {
        page = await page.next();
        items.push(...page.items);
      }
      return { items: upTo === undefined ? items : items.slice(0, upTo), totalCount: page.totalCount };
    },
  };
}

/** A page of products (see `productListQuery`); pending until a loader or the fetch fills it. */
export function useProductList(options: ProductListOptions = {}, enabled = true): UseQueryResult<ProductList> {
  const client = useVitrineClient();
  return useQuery({ ...productListQuery(client, options), enabled });
}

/** Query options of the product with this slug (`null` when there is none). */
export function productBySlugQuery(client: ClientCore, slug: string) {
  const list = productListQuery(client, { slug, limit: 1 });
  return {
    queryKey: [...queryKeys.products.all, 'slug', slug] as const,
    queryFn: async (): Promise<Product | null> => (await list.queryFn()).items[0] ?? null,
  };
}

export function useProductBySlug(slug: string): UseQueryResult<Product | null> {
  const client = useVitrineClient();
  return useQuery(productBySlugQuery(client, slug));
}

/** Query options of the visible collections (first page, up to `limit`), plain data. */
export function collectionListQuery(client: ClientCore, limit = 100) {
  return {
    queryKey: [...queryKeys.collections.all, 'plain', { limit }] as const,
    queryFn: async (): Promise<Collection[]> => (await (await catalogReads()).collectionsBuilder(client, limit).find()).items,
  };
}

export function useCollectionList(limit = 100): UseQueryResult<Collection[]> {
  const client = useVitrineClient();
  return useQuery(collectionListQuery(client, limit));
}

const DATE_TAG = '$vitrineDate';

/**
 * The successful queries of `queryClient` as text safe inside an inline `<script>`: Dates survive
 * (tagged), and `<` is escaped so no value can close the script element.
 */
export function dehydrateQueries(queryClient: QueryClient): string {
  const state = dehydrate(queryClient);
  const text = JSON.stringify(state, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [DATE_TAG]: raw.toISOString() } : value;
  });
  return text.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Puts what `dehydrateQueries` wrote into `queryClient` (Dates restored). */
export function hydrateQueries(queryClient: QueryClient, text: string): void {
  const state: unknown = JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && DATE_TAG in value && typeof value[DATE_TAG] === 'string') return new Date(value[DATE_TAG]);
    return value;
  });
  // The text is what dehydrateQueries wrote on the server of this same app.
  hydrate(queryClient, state as Parameters<typeof hydrate>[1]);
}
