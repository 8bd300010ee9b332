/** Owner writes of data collections (definition, indexes) and of single items (inline edit). */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { collections, indexes, items } from '@vitrine/sdk/data';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

type CollectionInput = collections.DataCollectionInput;
/** Most indexes one collection can have (server INDEX_LIMITS.total), so one page lists them all. */
export const DATA_INDEXES_MAX = 15;

const collectionsStale = () => [queryKeys.dataCollections.all];
const indexesKey = (collectionId: string) => [...queryKeys.dataCollections.detail(collectionId), 'indexes'] as const;

/** `mutate({ _id, fields, permissions, ... })` -> the new collection. */
export const useCreateDataCollection = () =>
  useVitrineMutation((client, collection: CollectionInput) => bindModule(collections, client).createDataCollection(collection), collectionsStale);

/** `mutate({ _id, revision, fields, permissions, ... })` replaces the definition; items that no longer fit stay as they are. */
export const useUpdateDataCollection = () =>
  useVitrineMutation((client, collection: CollectionInput & { revision?: string }) => bindModule(collections, client).updateDataCollection(collection),
    (v) => [queryKeys.dataCollections.all, queryKeys.dataItems.collection(v._id)]);

/** `mutate(id)`: deletes the collection (the server keeps it restorable). */
export const useDeleteDataCollection = () =>
  useVitrineMutation((client, id: string) => bindModule(collections, client).deleteDataCollection(id), collectionsStale);

/** The collection's indexes with their status. */
export function useDataIndexes(collectionId: string): UseQueryResult<indexes.DataIndex[]> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: indexesKey(collectionId),
    queryFn: async () => (await bindModule(indexes, client).listIndexes(collectionId, { paging: { limit: DATA_INDEXES_MAX } })).indexes,
    enabled: Boolean(collectionId),
  });
}

/** `mutate({ collectionId, index })` -> the index (status FAILED with the reason when the database refused it). */
export const useCreateDataIndex = () =>
  useVitrineMutation((client, { collectionId, index }: { collectionId: string; index: indexes.DataIndexInput }) => bindModule(indexes, client).createIndex(collectionId, index),
    (v) => [indexesKey(v.collectionId)]);

/** `mutate({ collectionId, name })`. */
export const useDropDataIndex = () =>
  useVitrineMutation((client, { collectionId, name }: { collectionId: string; name: string }) => bindModule(indexes, client).dropIndex(collectionId, name),
    (v) => [indexesKey(v.collectionId)]);

/** `mutate({ collectionId, item })` replaces the item (`items.update`; `item._id` names it). */
export const useUpdateDataItem = () =>
  useVitrineMutation((client, { collectionId, item }: { collectionId: string; item: Record<string, unknown> & { _id: string } }) => bindModule(items, client).update(collectionId, item),
    (v) => invalidates.dataItems(v.collectionId));
