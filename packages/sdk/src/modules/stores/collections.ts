/**
 * Collections (`@vitrine/sdk/stores` -> `collections`), as the public `@wix/stores` collections module:
 * reads on the `/v2/collections` paths. The built-in all-products collection comes first in an
 * unfiltered query. Writes are on `products` (createCollection, ...), as in the public client.
 */
import { defineMethod } from '../../define.js';
import { offsetQuery, type OffsetQueryBuilder } from '../../query/offset.js';
import type { Collection } from './products-writes.js';

export type { Collection };
export type CollectionField = '_id' | 'name' | 'slug' | 'visible';

/** `collections.getCollection(id)` -> the collection. */
export const getCollection = defineMethod(async (client, _id: string) =>
  (await client.request<{ collection: Collection }>({ method: 'GET', path: `/v2/collections/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: { id: '_id' } })).collection);

/** `collections.getCollectionBySlug(slug)` -> `{ collection }` */
export const getCollectionBySlug = defineMethod((client, slug: string) =>
  client.request<{ collection: Collection }>({ method: 'GET', path: `/v2/collections/slug/${encodeURIComponent(slug)}`, payload: { slug } }));

/** `collections.queryCollections().eq('slug', 'tea').find()` (offset paging). */
export const queryCollections = defineMethod((client): OffsetQueryBuilder<Collection, CollectionField> =>
  offsetQuery<Collection, CollectionField>(async (query) => {
    const res = await client.request<{ collections?: Collection[]; metadata?: { total?: number; tooManyToCount?: boolean } }>({ method: 'GET', path: '/v2/collections/query', payload: { query }, postTwin: true });
    return { items: res.collections ?? [], total: res.metadata?.total, tooManyToCount: res.metadata?.tooManyToCount };
  }));
