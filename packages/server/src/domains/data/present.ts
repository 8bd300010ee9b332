import type { DataCollection, DataItem } from '@vitrine/types/data';
import { PAGE_MAX, type Item } from './common.js';
import { INDEX_LIMITS } from './collections.js';
import { SYSTEM_FIELD_DEFS, type CollectionDoc } from './model.js';
import type { CollectionRow } from './store.js';

/**
 * The one place data items and collections are encoded for the wire: services return `Item`s (and
 * pages, bulk results and reference results holding them) and stored collection rows; routes and item events call these presenters.
 */

export function presentItem(item: Item): DataItem {
  return { id: item.id, dataCollectionId: item.collectionId, data: item.data };
}

export function itemAnswer(item: Item): { dataItem: DataItem } {
  return { dataItem: presentItem(item) };
}

export function saveAnswer(saved: { action: 'INSERT' | 'UPDATE'; item: Item }): { action: 'INSERT' | 'UPDATE'; dataItem: DataItem } {
  return { action: saved.action, dataItem: presentItem(saved.item) };
}

export function itemsPageAnswer<M>(page: { items: Item[]; pagingMetadata: M }): { dataItems: DataItem[]; pagingMetadata: M } {
  return { dataItems: page.items.map(presentItem), pagingMetadata: page.pagingMetadata };
}

/** A bulk result: `dataItem` present for the items that succeeded. */
export function bulkAnswer<R extends { item?: Item | undefined }, M>(out: { results: R[]; bulkActionMetadata: M }) {
  return {
    results: out.results.map(({ item, ...rest }) => ({ ...rest, ...(item ? { dataItem: presentItem(item) } : {}) })),
    bulkActionMetadata: out.bulkActionMetadata,
  };
}

/** query-referenced: each result holds the referenced item, or says the reference is unresolved. */
export function referencedAnswer<U, M>(out: { results: ({ referringItemId: string; item: Item } | { referringItemId: string; unresolvedReference: U })[]; pagingMetadata: M }) {
  return {
    results: out.results.map((r) => ('item' in r ? { referringItemId: r.referringItemId, dataItem: presentItem(r.item) } : r)),
    pagingMetadata: out.pagingMetadata,
  };
}

const DATA_OPERATIONS = ['AGGREGATE', 'BULK_INSERT', 'BULK_REMOVE', 'BULK_SAVE', 'BULK_UPDATE', 'COUNT', 'DISTINCT', 'FIND', 'GET', 'INSERT', 'INSERT_REFERENCE',
  'IS_REFERENCED', 'QUERY_REFERENCED', 'REMOVE', 'REMOVE_REFERENCE', 'REPLACE_REFERENCES', 'SAVE', 'TRUNCATE', 'UPDATE', 'PATCH', 'BULK_PATCH'];

/** The collection as the collections API answers it (the one encoding of a collection). */
export function presentCollection(row: CollectionRow): DataCollection {
  const doc = row.doc as CollectionDoc;
  return {
    id: doc.id,
    collectionType: 'NATIVE',
    displayName: doc.displayName,
    displayField: doc.displayField ?? null,
    fields: [...SYSTEM_FIELD_DEFS, ...doc.fields],
    permissions: doc.permissions,
    plugins: doc.plugins,
    revision: String(row.revision),
    maxPageSize: PAGE_MAX,
    pagingModes: ['OFFSET', 'CURSOR'],
    capabilities: { dataOperations: DATA_OPERATIONS, collectionOperations: ['UPDATE', 'REMOVE'], indexLimits: INDEX_LIMITS },
    createdDate: row.createdDate,
    updatedDate: row.updatedDate,
  };
}


export function collectionAnswer(row: CollectionRow): { collection: DataCollection } {
  return { collection: presentCollection(row) };
}

/** The PATCH, restore and field calls name the answer `dataCollection`. */
export function dataCollectionAnswer(row: CollectionRow): { dataCollection: DataCollection } {
  return { dataCollection: presentCollection(row) };
}

export function collectionsAnswer(page: { rows: CollectionRow[]; offset: number; total: number }) {
  return { collections: page.rows.map(presentCollection), pagingMetadata: { count: page.rows.length, offset: page.offset, total: page.total, tooManyToCount: false } };
}
