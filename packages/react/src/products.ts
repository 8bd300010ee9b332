import { useMemo } from 'react';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule, type SortOrder } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';

type GetProductOptions = products.GetProductOptions;
type Product = products.Product;
type ProductField = products.ProductField;
type ProductsQueryBuilder = products.ProductsQueryBuilder;
type ProductsQueryResult = products.ProductsQueryResult;
import { useVitrineClient } from './provider.js';

/** Query keys, for invalidation: `queryClient.invalidateQueries({ queryKey: productKeys.all })`. */
export const productKeys = {
  all: ['vitrine', 'products'] as const,
  query: (query: unknown) => ['vitrine', 'products', 'query', query] as const,
  one: (id: string, options: GetProductOptions) => ['vitrine', 'products', 'get', id, options] as const,
};

export interface ProductsQueryOptions {
  limit?: number;
  skip?: number;
  sort?: { fieldName: ProductField; order?: SortOrder }[];
  /** Anything else the builder offers: `(q) => q.eq('brand', 'Brewline').gt('priceData.price', 10)`. */
  build?: (query: ProductsQueryBuilder) => ProductsQueryBuilder;
  enabled?: boolean;
  /** Keep showing the previous page while the next one loads (paging without a flash). */
  keepPrevious?: boolean;
}

/** One page of `products.queryProducts()`; `data.next()` / `data.prev()` fetch the neighbours. */
export function useProducts(options: ProductsQueryOptions = {}): UseQueryResult<ProductsQueryResult> {
  const client = useVitrineClient();
  const { limit, skip, sort, build, enabled, keepPrevious } = options;
  const builder = useMemo(() => {
    let q = bindModule(products, client).queryProducts();
    if (limit !== undefined) q = q.limit(limit);
    if (skip !== undefined) q = q.skip(skip);
    for (const s of sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
    return build ? build(q) : q;
  }, [client, limit, skip, sort, build]);
  return useQuery({
    queryKey: productKeys.query(builder.query),
    queryFn: () => builder.find(),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

/** One product by id (`products.getProduct`); disabled while `id` is empty. */
export function useProduct(id: string | undefined, options: GetProductOptions = {}): UseQueryResult<Product> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: productKeys.one(id ?? '', options),
    queryFn: async () => (await bindModule(products, client).getProduct(id!, options)).product,
    enabled: Boolean(id),
  });
}
