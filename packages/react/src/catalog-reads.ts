/**
 * The SDK side of prefetch.ts's catalog queries, in a module of its own: prefetch.ts loads it when a
 * query first runs, so a page rendered from a server's cache (a hydrating storefront) does not carry
 * the SDK's catalog module and query builders until the shopper moves on.
 */
import { bindModule, type ClientCore, type SortOrder } from '@vitrine/sdk';
import { collections, products } from '@vitrine/sdk/stores';

export interface ProductsBuilderOptions {
  limit?: number;
  skip?: number;
  sort?: readonly { fieldName: products.ProductField; order?: SortOrder }[];
  collectionId?: string;
  slug?: string;
}

// Only the two reads are bound: binding the whole `products` module would keep every product write.
export function productsBuilder(client: ClientCore, { limit, skip, sort, collectionId, slug }: ProductsBuilderOptions): products.ProductsQueryBuilder {
  let q = bindModule({ queryProducts: products.queryProducts }, client).queryProducts();
  if (limit !== undefined) q = q.limit(limit);
  if (skip !== undefined) q = q.skip(skip);
  for (const s of sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
  if (collectionId) q = q.hasSome('collectionIds', [collectionId]);
  if (slug !== undefined) q = q.eq('slug', slug);
  return q;
}

export const collectionsBuilder = (client: ClientCore, limit: number) =>
  bindModule({ queryCollections: collections.queryCollections }, client).queryCollections().limit(limit);
