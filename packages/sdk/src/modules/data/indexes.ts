/**
 * Indexes of a data collection (`@vitrine/sdk/data` -> `indexes`), owner calls on
 * `/wix-data/v2/indexes`: each index is a real database index on the items' field paths.
 */
import type { AvailableDataIndexesResponse, DataIndex, DataIndexResponse, ListDataIndexesResponse } from '@vitrine/types/data';
import { defineMethod } from '../../define.js';

export type { DataIndex };
export interface DataIndexInput { name: string; fields: { path: string; order?: 'ASC' | 'DESC' }[]; unique?: boolean }

const I = '/wix-data/v2/indexes';

/** Elevated: the collection's indexes with their status (BUILDING, ACTIVE or FAILED with the reason). */
export const listIndexes = defineMethod((client, dataCollectionId: string, options: { paging?: { limit?: number; offset?: number } } = {}) =>
  client.request<ListDataIndexesResponse>({ method: 'GET', path: I, payload: { dataCollectionId, ...options } }));

/** Elevated: creates the index (a unique one fails when items already repeat a value). */
export const createIndex = defineMethod(async (client, dataCollectionId: string, index: DataIndexInput) =>
  (await client.request<DataIndexResponse>({ method: 'POST', path: I, payload: { dataCollectionId, index } })).index);

/** Elevated: drops the index by name. */
export const dropIndex = defineMethod(async (client, dataCollectionId: string, indexName: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: I, payload: { dataCollectionId, indexName } });
});

/** Elevated: how many more indexes of each kind the collection may get. */
export const availableIndexes = defineMethod((client, dataCollectionId: string) =>
  client.request<AvailableDataIndexesResponse>({ method: 'GET', path: `${I}/available`, payload: { dataCollectionId } }));
