/**
 * Catalog reads that a server can run before rendering and hand to the browser: each read is a
 * `*Query(client, options)` (TanStack query options: key + function) that a route loader passes to
 * `queryClient.ensureQueryData`, and a hook that reads the same key in components. Results are plain
 * data (no methods), so `dehydrateQueries` / `hydrateQueries` carry them inside the page's HTML.
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { dehydrate, hydrate } from '@tanstack/react-query';
import { bindModule, type ClientCore, type SortOrder } from '@vitrine/sdk';
import { collections, products } from '@vitrine/sdk/stores';
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

export interface ProductListOptions {
  limit?: number;
  skip?: number;
  sort?: readonly { fieldName: products.ProductField; order?: SortOrder }[];
  /** Only products of this collection (by id). */
  collectionId?: string;
  /** Only these slugs (product pages). */
  slug?: string;
  /**
   * Reads following pages of `limit` until the result set ends or this many products are read (a
   * caller's named bound): one list over the whole result set, e.g. for facet counts.
   */
  upTo?: number;
}

function productsBuilder(client: ClientCore, { limit, skip, sort, collectionId, slug }: Omit<ProductListOptions, 'upTo'>): products.ProductsQueryBuilder {
  let q = bindModule(products, client).queryProducts();
  if (limit !== undefined) q = q.limit(limit);
  if (skip !== undefined) q = q.skip(skip);
  for (const s of sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
  if (collectionId) q = q.hasSome('collectionIds', [collectionId]);
  if (slug !== undefined) q = q.eq('slug', slug);
  return q;
}

/** Query options of one page of `products.queryProducts()` as plain data. */
export function productListQuery(client: ClientCore, options: ProductListOptions = {}) {
  const builder = productsBuilder(client, options);
  return {
    queryKey: [...queryKeys.products.all, 'plain', builder.query, ...(options.upTo === undefined ? [] : [{ upTo: options.upTo }])] as const,
    queryFn: async (): Promise<ProductList> => {
      let page = await builder.find();
      const items = [...page.items];
      while (options.upTo !== undefined && items.length < options.upTo && page.items.length > 0 && page.hasNext()) {
        page = await page.next();
        items.push(...page.items);
      }
      return { items: options.upTo === undefined ? items : items.slice(0, options.upTo), totalCount: page.totalCount };
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
  const builder = bindModule(collections, client).queryCollections().limit(limit);
  return {
    queryKey: [...queryKeys.collections.all, 'plain', builder.query] as const,
    queryFn: async (): Promise<Collection[]> => (await builder.find()).items,
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
