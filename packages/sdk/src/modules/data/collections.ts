/**
 * Data collections (`@vitrine/sdk/data` -> `collections`), as the public `@wix/data` collections
 * module: owner calls (elevated) on `/wix-data/v2/collections`. The collection's id is `_id`.
 */
import { defineMethod } from '../../define.js';

export type Permission = 'ANYONE' | 'SITE_MEMBER' | 'SITE_MEMBER_AUTHOR' | 'CMS_EDITOR' | 'PRIVILEGED' | 'ADMIN';
export interface DataField { key: string; displayName?: string; type: string; systemField?: boolean; required?: boolean; typeMetadata?: Record<string, unknown> }
export interface DataPermissions { read: Permission; insert: Permission; update: Permission; remove: Permission }

export interface DataCollection {
  _id: string;
  displayName?: string;
  collectionType?: string;
  displayField?: string | null;
  fields: DataField[];
  permissions?: DataPermissions;
  revision?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
}

/** What an owner sends to create one (`_id` is the collection's name in queries). */
export type DataCollectionInput = Pick<DataCollection, '_id' | 'displayName' | 'displayField' | 'fields'> & { permissions?: DataPermissions };

export interface PagingMetadataV2 { count?: number; offset?: number; total?: number; tooManyToCount?: boolean; hasNext?: boolean }

const dates = (prefix: string) => ({ dates: [`${prefix}.createdDate`, `${prefix}.updatedDate`] });
const C = '/wix-data/v2/collections';

/** Elevated: `collections.listDataCollections({ paging })` -> `{ collections, pagingMetadata }`. */
export const listDataCollections = defineMethod((client, options: { paging?: { limit?: number; offset?: number }; consistentRead?: boolean } = {}) =>
  client.request<{ collections: DataCollection[]; pagingMetadata: PagingMetadataV2 }>({ method: 'GET', path: C, payload: { ...options }, decode: dates('collections') }));

/** Elevated: `collections.getDataCollection(id)` -> the collection (404 WDE0025 when unknown). */
export const getDataCollection = defineMethod(async (client, dataCollectionId: string, options: { consistentRead?: boolean } = {}) =>
  (await client.request<{ collection: DataCollection }>({ method: 'GET', path: `${C}/${encodeURIComponent(dataCollectionId)}`, payload: { dataCollectionId, ...options }, decode: dates('collection') })).collection);

/** Elevated: `collections.createDataCollection({ _id, fields, permissions })` -> the collection. */
export const createDataCollection = defineMethod(async (client, collection: DataCollectionInput) =>
  (await client.request<{ collection: DataCollection }>({ method: 'POST', path: C, payload: { collection }, decode: dates('collection') })).collection);

/** Elevated: `collections.updateDataCollection({ _id, revision, fields, permissions })` replaces the definition (a stale revision is refused). */
export const updateDataCollection = defineMethod(async (client, collection: DataCollectionInput & { revision?: string }) =>
  (await client.request<{ collection: DataCollection }>({ method: 'PUT', path: C, payload: { collection }, decode: dates('collection') })).collection);

/** Elevated: `collections.deleteDataCollection(id)`. */
export const deleteDataCollection = defineMethod(async (client, dataCollectionId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${C}/${encodeURIComponent(dataCollectionId)}`, payload: { dataCollectionId } });
});
