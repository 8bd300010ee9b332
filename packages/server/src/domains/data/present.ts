import type {
  AggregateDataItemsResponse, AvailableDataIndexesResponse, BulkDataItemResult, BulkDataItemsResponse, BulkReferencesResponse, CountDataItemsResponse,
  DataBulkActionMetadata, DataCollection, DataIndex, DataIndexResponse, DataItem, DataItemReference, DataItemResponse, DataJobStarted, DataJobStatus,
  DataJobStatusResponse, DataPagingMetadata, DistinctValuesResponse, IsReferencedResponse, ListDataIndexesResponse, QueryDataItemsResponse,
  QueryReferencedResponse, SaveDataItemResponse, UnresolvedReference,
} from '@vitrine/types/data';
import { PAGE_MAX, type Item } from './common.js';
import { INDEX_LIMITS, type IndexDoc, type IndexQuota } from './collections.js';
import { SYSTEM_FIELD_DEFS, type CollectionDoc } from './model.js';
import type { CollectionRow, JobRow } from './store.js';

/**
 * The one place the data domain is encoded for the wire: services return `Item`s (and pages, bulk
 * results and reference results holding them), counts, stored collection rows, index documents and
 * job rows; routes and item events call these presenters, each typed by its `@vitrine/types/data` answer.
 */

export function presentItem(item: Item): DataItem {
  return { id: item.id, dataCollectionId: item.collectionId, data: item.data };
}

export function itemAnswer(item: Item): DataItemResponse {
  return { dataItem: presentItem(item) };
}

export function saveAnswer(saved: { action: 'INSERT' | 'UPDATE'; item: Item }): SaveDataItemResponse {
  return { action: saved.action, dataItem: presentItem(saved.item) };
}

export function itemsPageAnswer(page: { items: Item[]; pagingMetadata: DataPagingMetadata }): QueryDataItemsResponse {
  return { dataItems: page.items.map(presentItem), pagingMetadata: page.pagingMetadata };
}

/** A bulk result as the services keep it: the item itself for the ones that succeeded. */
export type ItemResult = Omit<BulkDataItemResult, 'dataItem'> & { item?: Item };

/** A bulk result: `dataItem` present for the items that succeeded. */
export function bulkAnswer(out: { results: ItemResult[]; bulkActionMetadata: DataBulkActionMetadata }): BulkDataItemsResponse {
  return {
    results: out.results.map(({ item, ...rest }) => ({ ...rest, ...(item ? { dataItem: presentItem(item) } : {}) })),
    bulkActionMetadata: out.bulkActionMetadata,
  };
}

/** query-referenced: each result holds the referenced item, or says the reference is unresolved. */
export function referencedAnswer(out: {
  results: ({ referringItemId: string; item: Item } | { referringItemId: string; unresolvedReference: UnresolvedReference })[];
  pagingMetadata: DataPagingMetadata;
}): QueryReferencedResponse {
  return {
    results: out.results.map((r) => ('item' in r ? { referringItemId: r.referringItemId, dataItem: presentItem(r.item) } : r)),
    pagingMetadata: out.pagingMetadata,
  };
}

export function countAnswer(totalCount: number): CountDataItemsResponse {
  return { totalCount };
}

export function distinctAnswer(page: { values: unknown[]; pagingMetadata: DataPagingMetadata }): DistinctValuesResponse {
  return { distinctValues: page.values, pagingMetadata: page.pagingMetadata };
}

/** Aggregate groups as the service computed them (grouping fields, `_id`, operation results). */
export function aggregateAnswer(page: { groups: Record<string, unknown>[]; pagingMetadata: DataPagingMetadata }): AggregateDataItemsResponse {
  return { results: page.groups, pagingMetadata: page.pagingMetadata };
}

/** insert-references / remove-references: every reference given, all done (the call is all or nothing). */
export function referencesAnswer(refs: DataItemReference[]): BulkReferencesResponse {
  return {
    results: refs.map((r) => ({ dataItemReference: { referringItemFieldName: r.referringItemFieldName, referringItemId: r.referringItemId, referencedItemId: r.referencedItemId } })),
    bulkActionMetadata: { totalSuccesses: refs.length, totalFailures: 0 },
  };
}

export function isReferencedAnswer(isReferenced: boolean): IsReferencedResponse {
  return { isReferenced };
}

export function jobStartedAnswer(jobId: string): DataJobStarted {
  return { jobId };
}

const JOB_STATUSES: readonly DataJobStatus[] = ['INITIALIZED', 'PROCESSING', 'SUCCEEDED', 'FAILED'];

export function jobStatusAnswer(job: JobRow): DataJobStatusResponse {
  // Stored text narrowed to the wire's names; anything else is a bug, not input.
  const status = JOB_STATUSES.find((s) => s === job.status);
  if (status === undefined) throw new Error(`data job ${job.id} has an unknown status ${job.status}`);
  return { status, successCount: job.successCount };
}

export function presentIndex(index: IndexDoc): DataIndex {
  return {
    id: index.id, name: index.name, fields: index.fields, unique: index.unique, caseInsensitive: index.caseInsensitive, status: index.status, source: index.source,
    ...(index.failure ? { failure: index.failure } : {}),
  };
}

export function indexAnswer(index: IndexDoc): DataIndexResponse {
  return { index: presentIndex(index) };
}

export function indexesAnswer(page: { indexes: IndexDoc[]; offset: number; total: number }): ListDataIndexesResponse {
  return { indexes: page.indexes.map(presentIndex), pagingMetadata: { count: page.indexes.length, offset: page.offset, total: page.total, tooManyToCount: false } };
}

export function availableIndexesAnswer(quota: IndexQuota): AvailableDataIndexesResponse {
  return { regular1Field: quota.regular, regular3Field: quota.regular, unique1Field: quota.unique, total: quota.total };
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
