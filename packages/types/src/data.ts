/**
 * Data collections and items (wix-data v2) as they travel on the wire. Item values inside `data` are
 * the caller's own fields (system fields `_id`, `_owner`, `_createdDate`, `_updatedDate` included);
 * dates anywhere in them travel as `{ "$date": "<ISO>" }`.
 */
import type { IsoDate } from './common.js';

export type DataFieldType =
  | 'TEXT' | 'NUMBER' | 'DATE' | 'DATETIME' | 'IMAGE' | 'BOOLEAN' | 'DOCUMENT' | 'URL' | 'RICH_TEXT' | 'VIDEO' | 'ANY' | 'ARRAY_STRING'
  | 'ARRAY_DOCUMENT' | 'AUDIO' | 'TIME' | 'LANGUAGE' | 'RICH_CONTENT' | 'MEDIA_GALLERY' | 'ADDRESS' | 'PAGE_LINK' | 'REFERENCE'
  | 'MULTI_REFERENCE' | 'OBJECT' | 'ARRAY';

/** Who may do an action on a collection's items (lowest to highest). */
export type DataRole = 'ANYONE' | 'SITE_MEMBER' | 'SITE_MEMBER_AUTHOR' | 'CMS_EDITOR' | 'PRIVILEGED' | 'ADMIN';

export interface DataCollectionField {
  key: string;
  displayName?: string | null;
  type: DataFieldType;
  typeMetadata?: { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string; referencingFieldKey?: string; referencingDisplayName?: string } };
  required?: boolean | null;
  systemField?: boolean;
}

export interface DataPermissions { read: DataRole; insert: DataRole; update: DataRole; remove: DataRole }

/** A collection as the collections API answers it (system fields first). */
export interface DataCollection {
  id: string;
  collectionType: 'NATIVE';
  displayName: string | null;
  displayField: string | null;
  fields: DataCollectionField[];
  permissions: DataPermissions;
  plugins: unknown[];
  revision: string;
  maxPageSize: number;
  pagingModes: ('OFFSET' | 'CURSOR')[];
  capabilities: { dataOperations: string[]; collectionOperations: string[]; indexLimits: { regular: number; unique: number; total: number } };
  createdDate: IsoDate;
  updatedDate: IsoDate;
}

/** An item: the SDK returns `data`. */
export interface DataItem { id: string; dataCollectionId: string; data: Record<string, unknown> }

// ---- Item calls (`/wix-data/v2/items...`, `/wix-data/v2/bulk/items/...`): request and answer wrappers

/** An item to write: `data` holds the fields (`data._id` or `id` names it; neither on insert: a new id). */
export interface DataItemInput { id?: string; data: Record<string, unknown> }
/** Options every item call takes. */
export interface DataCallOptions { dataCollectionId: string; suppressHooks?: boolean; consistentRead?: boolean; publishPluginOptions?: { includeDraftItems?: boolean } }
export interface DataItemRequest extends DataCallOptions { dataItem: DataItemInput }
export interface DataItemIdRequest extends DataCallOptions { dataItemId: string; fields?: string[] }
export interface BulkDataItemsRequest extends DataCallOptions { dataItems: DataItemInput[] }
export interface BulkRemoveDataItemsRequest extends DataCallOptions { dataItemIds: string[] }
export interface DataSortItem { fieldName: string; order?: 'ASC' | 'DESC' }
export interface DataPaging { limit?: number; offset?: number }
export interface QueryDataItemsRequest extends DataCallOptions {
  query: { filter?: Record<string, unknown>; sort?: DataSortItem[]; fields?: string[]; paging?: DataPaging; cursorPaging?: { limit?: number; cursor?: string } };
  includeReferences?: (string | { field: string; limit?: number })[];
  returnTotalCount?: boolean;
}
export interface CountDataItemsRequest extends DataCallOptions { filter?: Record<string, unknown> }
export interface DistinctValuesRequest extends DataCallOptions { fieldName: string; filter?: Record<string, unknown>; order?: 'ASC' | 'DESC'; paging?: DataPaging; returnTotalCount?: boolean }
export interface AggregateDataItemsRequest extends DataCallOptions {
  initialFilter?: Record<string, unknown>;
  aggregation: { groupingFields?: string[]; operations?: Record<string, unknown>[] };
  finalFilter?: Record<string, unknown>;
  sort?: DataSortItem[];
  paging?: DataPaging;
  returnTotalCount?: boolean;
}
export interface DataItemReference { referringItemFieldName: string; referringItemId: string; referencedItemId: string }
export interface DataReferencesRequest extends DataCallOptions { dataItemReferences: DataItemReference[] }
export interface ReplaceReferencesRequest extends DataCallOptions { referringItemFieldName: string; referringItemId: string; newReferencedItemIds: string[] }
export interface IsReferencedRequest extends DataCallOptions, DataItemReference {}
export interface QueryReferencedRequest extends DataCallOptions {
  referringItemId?: string; referringItemIds?: string[]; referringItemFieldName: string; order?: 'ASC' | 'DESC'; paging?: DataPaging; fields?: string[]; returnTotalCount?: boolean;
}
export interface DataPatchByFilterRequest extends DataCallOptions { filter: Record<string, unknown>; fieldModifications: Record<string, unknown>[] }
export interface DataRemoveByFilterRequest extends DataCallOptions { filter: Record<string, unknown> }

/** Paging metadata of item reads: offsets, and cursors that carry the rest of the request. */
export interface DataPagingMetadata { count: number; offset: number; total?: number; tooManyToCount: boolean; cursors: { next?: string; prev?: string }; hasNext: boolean }
export interface DataItemResponse { dataItem: DataItem }
export interface SaveDataItemResponse { action: 'INSERT' | 'UPDATE'; dataItem: DataItem }
export interface QueryDataItemsResponse { dataItems: DataItem[]; pagingMetadata: DataPagingMetadata }

export type DataBulkAction = 'INSERT' | 'UPDATE' | 'DELETE' | 'PATCH';
export interface DataItemError { code: string; description: string; data: Record<string, unknown> }
/** One result of a bulk call, in request order; `dataItem` for the items that succeeded. */
export interface BulkDataItemResult {
  action: DataBulkAction;
  itemMetadata: { id?: string; originalIndex: number; success: boolean; error?: DataItemError };
  dataItem?: DataItem;
}
/** Data bulk calls count successes and failures only (no undetailed failures). */
export interface DataBulkActionMetadata { totalSuccesses: number; totalFailures: number }
export interface BulkDataItemsResponse { results: BulkDataItemResult[]; bulkActionMetadata: DataBulkActionMetadata }

export interface CountDataItemsResponse { totalCount: number }
export interface DistinctValuesResponse { distinctValues: unknown[]; pagingMetadata: DataPagingMetadata }
/** One row per group: the grouping fields, `_id` (the group's key object, or null), the operations' results. */
export interface AggregateDataItemsResponse { results: Record<string, unknown>[]; pagingMetadata: DataPagingMetadata }

export interface BulkReferencesResponse { results: { dataItemReference: DataItemReference }[]; bulkActionMetadata: DataBulkActionMetadata }
export interface IsReferencedResponse { isReferenced: boolean }
export interface UnresolvedReference { referringItemId: string; referringItemFieldName: string }
export type ReferencedResult = { referringItemId: string; dataItem: DataItem } | { referringItemId: string; unresolvedReference: UnresolvedReference };
export interface QueryReferencedResponse { results: ReferencedResult[]; pagingMetadata: DataPagingMetadata }

/** A by-filter job: started with `{ jobId }`, followed with `async-jobs/:jobId/status`. */
export interface DataJobStarted { jobId: string }
export type DataJobStatus = 'INITIALIZED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';
export interface DataJobStatusResponse { status: DataJobStatus; successCount: number }

// ---- Indexes (`/wix-data/v2/indexes`, owner calls)

export type DataIndexStatus = 'BUILDING' | 'ACTIVE' | 'FAILED';
export interface DataIndex {
  id: string;
  name: string;
  fields: { path: string; order: 'ASC' | 'DESC' }[];
  unique: boolean;
  caseInsensitive: boolean;
  status: DataIndexStatus;
  source: 'USER';
  failure?: { code: string; description: string };
}
export interface DataIndexResponse { index: DataIndex }
export interface ListDataIndexesResponse { indexes: DataIndex[]; pagingMetadata: { count: number; offset: number; total: number; tooManyToCount: boolean } }
export interface AvailableDataIndexesResponse { regular1Field: number; regular3Field: number; unique1Field: number; total: number }
