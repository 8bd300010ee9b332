/** Data hooks: owner views of data collections and their items (`@vitrine/sdk/data`). */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { collections, items } from '@vitrine/sdk/data';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation, type QueryHookOptions } from './mutation.js';
import { useVitrineClient } from './provider.js';

type Paging = { limit?: number; offset?: number };

/** Elevated: a page of `collections.listDataCollections({ paging })`. */
export function useDataCollections(options: { paging?: Paging } & QueryHookOptions = {}): UseQueryResult<{ collections: collections.DataCollection[]; pagingMetadata: collections.PagingMetadataV2 }> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, ...call } = options;
  return useQuery({
    queryKey: queryKeys.dataCollections.list(call),
    queryFn: () => bindModule(collections, client).listDataCollections(call),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

/** Elevated: one data collection's definition; disabled while `id` is empty. */
export function useDataCollection(id: string | undefined): UseQueryResult<collections.DataCollection> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: queryKeys.dataCollections.detail(id ?? ''),
    queryFn: () => bindModule(collections, client).getDataCollection(id!),
    enabled: Boolean(id),
  });
}

export interface DataItemsOptions extends QueryHookOptions {
  limit?: number;
  skip?: number;
  sort?: readonly { fieldName: string; order?: 'ASC' | 'DESC' }[];
  /** Asks the server for `totalCount` (one more count per page). */
  returnTotalCount?: boolean;
  /** Conditions every item must meet (joined with AND); plain data, so they can be part of the query key. */
  where?: readonly DataItemCondition[];
  /** Reference fields to expand into the referenced items. */
  include?: readonly string[];
}

/** Comparisons the items grid offers (each is the query builder method of that name). */
export type DataItemOperator = 'eq' | 'ne' | 'contains' | 'startsWith' | 'gt' | 'ge' | 'lt' | 'le' | 'isEmpty' | 'isNotEmpty';
export interface DataItemCondition { fieldName: string; op: DataItemOperator; value?: unknown }

type ItemsQuery = ReturnType<typeof items.query>;

/** The query with one condition added (text operators take text; empty checks take no value). */
function withCondition(q: ItemsQuery, c: DataItemCondition): ItemsQuery {
  switch (c.op) {
    case 'isEmpty': return q.isEmpty(c.fieldName);
    case 'isNotEmpty': return q.isNotEmpty(c.fieldName);
    case 'contains': return q.contains(c.fieldName, String(c.value ?? ''));
    case 'startsWith': return q.startsWith(c.fieldName, String(c.value ?? ''));
    default: return q[c.op](c.fieldName, c.value);
  }
}

/** A page of `items.query(collectionId)` (items are plain objects with `_id`, dates as Date). */
export function useDataItems(collectionId: string, options: DataItemsOptions = {}): UseQueryResult<items.WixDataResult<items.WixDataItem>> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, ...params } = options;
  return useQuery({
    queryKey: queryKeys.dataItems.list(collectionId, params),
    queryFn: () => {
      let q = bindModule(items, client).query(collectionId);
      for (const s of params.sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
      for (const c of params.where ?? []) q = withCondition(q, c);
      if (params.include?.length) q = q.include(...params.include);
      if (params.limit !== undefined) q = q.limit(params.limit);
      if (params.skip !== undefined) q = q.skip(params.skip);
      return q.find({ returnTotalCount: params.returnTotalCount });
    },
    enabled: (enabled ?? true) && Boolean(collectionId),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

/** `mutate({ collectionId, item })` -> the stored item (`items.insert`). */
export const useInsertDataItem = () =>
  useVitrineMutation((client, { collectionId, item }: { collectionId: string; item: Record<string, unknown> }) => bindModule(items, client).insert(collectionId, item),
    (v) => invalidates.dataItems(v.collectionId));

/** `mutate({ collectionId, itemId })` (`items.remove`). */
export const useRemoveDataItem = () =>
  useVitrineMutation((client, { collectionId, itemId }: { collectionId: string; itemId: string }) => bindModule(items, client).remove(collectionId, itemId),
    (v) => invalidates.dataItems(v.collectionId));
