import { useMemo } from 'react';
import { keepPreviousData, useInfiniteQuery, useQuery, type UseInfiniteQueryResult, type InfiniteData, type UseQueryResult } from '@tanstack/react-query';
import { bindModule, type SortOrder } from '@vitrine/sdk';
import { collections, products } from '@vitrine/sdk/stores';
import { queryKeys } from './keys.js';
import type { QueryHookOptions } from './mutation.js';
import { useVitrineClient } from './provider.js';

type GetProductOptions = products.GetProductOptions;
type Product = products.Product;
type ProductField = products.ProductField;
type ProductsQueryBuilder = products.ProductsQueryBuilder;
type ProductsQueryResult = products.ProductsQueryResult;
type CollectionsQueryBuilder = ReturnType<typeof collections.queryCollections>;
type CollectionsQueryResult = Awaited<ReturnType<CollectionsQueryBuilder['find']>>;

export interface ProductsQueryOptions extends QueryHookOptions {
  limit?: number;
  skip?: number;
  sort?: readonly { fieldName: ProductField; order?: SortOrder }[];
  /** Anything else the builder offers: `(q) => q.eq('brand', 'Brewline').gt('priceData.price', 10)`. */
  build?: (query: ProductsQueryBuilder) => ProductsQueryBuilder;
}

/** The `queryProducts()` builder of the options (stable while the options are). */
function useProductsBuilder({ limit, skip, sort, build }: ProductsQueryOptions): ProductsQueryBuilder {
  const client = useVitrineClient();
  return useMemo(() => {
    let q = bindModule(products, client).queryProducts();
    if (limit !== undefined) q = q.limit(limit);
    if (skip !== undefined) q = q.skip(skip);
    for (const s of sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
    return build ? build(q) : q;
  }, [client, limit, skip, sort, build]);
}

/** One page of `products.queryProducts()`; `data.next()` / `data.prev()` fetch the neighbours. */
export function useProducts(options: ProductsQueryOptions = {}): UseQueryResult<ProductsQueryResult> {
  const builder = useProductsBuilder(options);
  return useQuery({
    queryKey: queryKeys.products.list(builder.query),
    queryFn: () => builder.find(),
    enabled: options.enabled,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}

/**
 * Pages of `products.queryProducts()` loaded one after another ("Load more"): `data.pages`,
 * `fetchNextPage()`, `hasNextPage`. `limit` is the page size; `skip` is ignored.
 */
export function useInfiniteProducts(options: Omit<ProductsQueryOptions, 'skip' | 'keepPrevious'> = {}): UseInfiniteQueryResult<InfiniteData<ProductsQueryResult, number>> {
  const builder = useProductsBuilder({ ...options, skip: undefined });
  return useInfiniteQuery({
    queryKey: queryKeys.products.infinite(builder.query),
    queryFn: ({ pageParam }) => builder.skip(pageParam).find(),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.hasNext() ? pages.reduce((n, p) => n + p.items.length, 0) : undefined),
    enabled: options.enabled,
  });
}

/** One product by id (`products.getProduct`); disabled while `id` is empty. */
export function useProduct(id: string | undefined, options: GetProductOptions = {}): UseQueryResult<Product> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: queryKeys.products.detail(id ?? '', options),
    queryFn: async () => (await bindModule(products, client).getProduct(id!, options)).product,
    enabled: Boolean(id),
  });
}

export interface CollectionsQueryOptions extends QueryHookOptions {
  limit?: number;
  skip?: number;
  build?: (query: CollectionsQueryBuilder) => CollectionsQueryBuilder;
}

/** One page of `collections.queryCollections()` (the built-in all-products collection first). */
export function useCollections(options: CollectionsQueryOptions = {}): UseQueryResult<CollectionsQueryResult> {
  const client = useVitrineClient();
  const { limit, skip, build } = options;
  const builder = useMemo(() => {
    let q = bindModule(collections, client).queryCollections();
    if (limit !== undefined) q = q.limit(limit);
    if (skip !== undefined) q = q.skip(skip);
    return build ? build(q) : q;
  }, [client, limit, skip, build]);
  return useQuery({
    queryKey: queryKeys.collections.list(builder.query),
    queryFn: () => builder.find(),
    enabled: options.enabled,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}
