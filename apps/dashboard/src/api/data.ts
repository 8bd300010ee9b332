import type { DataItem as WireDataItem } from '@vitrine/types/data';
import type { Api, PageMeta } from './client';

export interface DataField { key: string; displayName?: string; type: string; systemField?: boolean; required?: boolean }
export type Permission = 'ANYONE' | 'SITE_MEMBER' | 'SITE_MEMBER_AUTHOR' | 'CMS_EDITOR' | 'PRIVILEGED' | 'ADMIN';

export interface DataCollection {
  id: string;
  displayName?: string;
  collectionType?: string;
  displayField?: string | null;
  fields: DataField[];
  permissions?: { read?: Permission; insert?: Permission; update?: Permission; remove?: Permission };
  createdDate?: string;
}

export type DataItem = WireDataItem;

export async function listDataCollections(api: Api, offset: number, limit: number): Promise<{ collections: DataCollection[]; pagingMetadata: PageMeta }> {
  return api('/wix-data/v2/collections', { query: { paging: { limit, offset } } });
}

export async function getDataCollection(api: Api, id: string): Promise<DataCollection> {
  return (await api<{ collection: DataCollection }>(`/wix-data/v2/collections/${encodeURIComponent(id)}`)).collection;
}

export async function queryItems(api: Api, collectionId: string, offset: number, limit: number): Promise<{ dataItems: DataItem[]; pagingMetadata: PageMeta }> {
  return api('/wix-data/v2/items/query', {
    body: { dataCollectionId: collectionId, query: { sort: [{ fieldName: '_createdDate', order: 'DESC' }], paging: { limit, offset } }, returnTotalCount: true },
  });
}

export async function insertItem(api: Api, collectionId: string, data: Record<string, unknown>): Promise<DataItem> {
  return (await api<{ dataItem: DataItem }>('/wix-data/v2/items', { body: { dataCollectionId: collectionId, dataItem: { data } } })).dataItem;
}

export async function removeItem(api: Api, collectionId: string, id: string): Promise<void> {
  await api('/wix-data/v2/items/remove', { body: { dataCollectionId: collectionId, dataItemId: id } });
}

/** A stored value as one line of text: dates unwrap, objects and arrays as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !Array.isArray(value) && typeof (value as { $date?: unknown }).$date === 'string') {
    return (value as { $date: string }).$date.replace('T', ' ').slice(0, 19);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const TEXT_TYPES = new Set(['TEXT', 'IMAGE', 'DOCUMENT', 'URL', 'RICH_TEXT', 'VIDEO', 'AUDIO', 'TIME', 'LANGUAGE', 'PAGE_LINK', 'DATE', 'REFERENCE']);

export type InputKind = 'text' | 'number' | 'boolean' | 'datetime' | 'json';

/** The form control a field type takes in the "new item" form. */
export function inputKind(type: string): InputKind {
  if (TEXT_TYPES.has(type)) return 'text';
  if (type === 'NUMBER') return 'number';
  if (type === 'BOOLEAN') return 'boolean';
  if (type === 'DATETIME') return 'datetime';
  return 'json';
}

/** Form text to a wire value; throws with the field name when JSON does not parse. */
export function parseInput(field: DataField, raw: string | boolean): unknown {
  const kind = inputKind(field.type);
  if (kind === 'boolean') return raw === true;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  switch (kind) {
    case 'text': return raw;
    case 'number': return Number(raw);
    case 'datetime': return { $date: new Date(raw).toISOString() };
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`${field.key}: must be JSON`);
      }
  }
}
