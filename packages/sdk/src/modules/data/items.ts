/**
 * Data items (`@vitrine/sdk/data` -> `items`), mirroring the public `@wix/data` items module: same
 * call names and argument order, items as plain objects with `_id`, dates as Date, get/remove of a
 * missing item resolve `null` (WDE0073), bulk insert skips existing ids (WDE0074), client-side checks
 * with the public client's WDE codes (validate.ts). Wire: `/wix-data/v2` of contracts/endpoints.md.
 */
import type * as wire from '@vitrine/types/data';
import type { ClientCore } from '../../client.js';
import { defineMethod } from '../../define.js';
import { VitrineError } from '../../errors.js';
import type { Filter } from '../../query/filter.js';
import {
  aggregateBuilder, filterBuilder, pagedResult, patchBuilder, queryBuilder,
  type AggregateState, type FieldModification, type FindOptions, type QueryState, type WixDataItem, type WixDataResult,
} from './builders.js';
import { dataRequest } from './codec.js';
import { checkCollection, checkFilter, checkIds, checkItem, checkItemId, checkItems, wde } from './validate.js';

export type { WixDataItem, WixDataResult, WixDataQuery, WixDataAggregate, WixDataFilter, PatchBuilder, FieldModification } from './builders.js';

const BASE = '/wix-data/v2';

export interface WriteOptions { suppressHooks?: boolean }
export interface ReadOptions { suppressHooks?: boolean; consistentRead?: boolean; showDrafts?: boolean }

/**
 * A wire answer as `dataRequest` hands it back: names as on the wire (data calls rename nothing), each
 * item's `data` with its `{ $date }` values decoded (the caller's item).
 */
type Decoded<T> = T extends wire.DataItem ? Omit<T, 'data'> & { data: WixDataItem }
  : T extends readonly (infer U)[] ? Decoded<U>[]
    : T extends object ? { [K in keyof T]: Decoded<T[K]> }
      : T;
type ItemAnswer = Decoded<wire.DataItemResponse>;
type BulkAnswer = Decoded<wire.BulkDataItemsResponse>;

export interface WixDataBulkError extends Error { code: string; originalIndex: number; item: unknown }
export interface WixDataBulkResult {
  inserted: number; updated: number; removed: number; skipped: number;
  errors: WixDataBulkError[];
  insertedItemIds: string[]; updatedItemIds: string[]; removedItemIds: string[];
}

function readOptions(options: ReadOptions = {}): Omit<wire.DataCallOptions, 'dataCollectionId'> {
  return {
    suppressHooks: options.suppressHooks,
    consistentRead: options.consistentRead,
    ...(options.showDrafts ? { publishPluginOptions: { includeDraftItems: true } } : {}),
  };
}

/** Resolves `fallback` when the call failed with `code` (the public client's `recover`). */
async function recover<T, F>(promise: Promise<T>, code: string, fallback: F): Promise<T | F> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof VitrineError && error.code === code) return fallback;
    throw error;
  }
}

function bulkResult(request: unknown[], res: BulkAnswer, ignore: string[]): WixDataBulkResult {
  const errors: WixDataBulkError[] = [];
  for (const r of res.results) {
    const e = r.itemMetadata.error;
    if (r.itemMetadata.success || !e || ignore.includes(e.code)) continue;
    errors.push(Object.assign(new Error(e.description), { code: e.code, originalIndex: r.itemMetadata.originalIndex, item: request[r.itemMetadata.originalIndex] }));
  }
  const ok = res.results.filter((r) => r.itemMetadata.success);
  const ids = (actions: string[]) => ok.filter((r) => actions.includes(r.action)).map((r) => r.itemMetadata.id!);
  return {
    inserted: ids(['INSERT']).length, updated: ids(['UPDATE', 'PATCH']).length, removed: ids(['DELETE']).length,
    skipped: request.length - errors.length - ok.length,
    errors, insertedItemIds: ids(['INSERT']), updatedItemIds: ids(['UPDATE', 'PATCH']), removedItemIds: ids(['DELETE']),
  };
}

const toWire = (item: Record<string, unknown>): wire.DataItemInput => (typeof item._id === 'string' ? { id: item._id, data: item } : { data: item });

/** items.get(collection, itemId) -> the item, or null when it does not exist (or is not readable). */
export const get = defineMethod(async (client, dataCollectionId: string, itemId: string, options: ReadOptions & { fields?: string[] } = {}): Promise<WixDataItem | null> => {
  checkCollection(dataCollectionId);
  checkItemId(itemId);
  const res = await recover(dataRequest<ItemAnswer>(client, 'GET', `${BASE}/items/${encodeURIComponent(itemId)}`, { dataCollectionId, dataItemId: itemId, fields: options.fields, ...readOptions(options) } satisfies wire.DataItemIdRequest), 'WDE0073', undefined);
  return res ? res.dataItem.data : null;
});

export const insert = defineMethod(async (client, dataCollectionId: string, item: Record<string, unknown>, options: WriteOptions = {}): Promise<WixDataItem> => {
  checkCollection(dataCollectionId);
  checkItem(item, dataCollectionId);
  const res = await dataRequest<ItemAnswer>(client, 'POST', `${BASE}/items`, { dataCollectionId, dataItem: toWire(item), suppressHooks: options.suppressHooks } satisfies wire.DataItemRequest);
  return res.dataItem.data;
});

export const update = defineMethod(async (client, dataCollectionId: string, item: Record<string, unknown>, options: WriteOptions = {}): Promise<WixDataItem> => {
  checkCollection(dataCollectionId);
  checkItem(item, dataCollectionId);
  if (typeof item._id !== 'string') throw wde('WDE0007', 'Invalid update. Updated object must have a string _id property.');
  const res = await dataRequest<ItemAnswer>(client, 'POST', `${BASE}/items/update`, { dataCollectionId, dataItem: toWire(item), suppressHooks: options.suppressHooks } satisfies wire.DataItemRequest);
  return res.dataItem.data;
});

export const save = defineMethod(async (client, dataCollectionId: string, item: Record<string, unknown>, options: WriteOptions = {}): Promise<WixDataItem> => {
  checkCollection(dataCollectionId);
  checkItem(item, dataCollectionId);
  const res = await dataRequest<Decoded<wire.SaveDataItemResponse>>(client, 'POST', `${BASE}/items/save`, { dataCollectionId, dataItem: toWire(item), suppressHooks: options.suppressHooks } satisfies wire.DataItemRequest);
  return res.dataItem.data;
});

/** items.remove(collection, itemId) -> the removed item, or null when there was none. */
export const remove = defineMethod(async (client, dataCollectionId: string, itemId: string, options: WriteOptions = {}): Promise<WixDataItem | null> => {
  checkCollection(dataCollectionId);
  checkItemId(itemId);
  const res = await recover(dataRequest<ItemAnswer>(client, 'POST', `${BASE}/items/remove`, { dataCollectionId, dataItemId: itemId, suppressHooks: options.suppressHooks } satisfies wire.DataItemIdRequest), 'WDE0073', undefined);
  return res ? res.dataItem.data : null;
});

/** Elevated: removes every item of a collection. */
export const truncate = defineMethod(async (client, dataCollectionId: string): Promise<void> => {
  checkCollection(dataCollectionId);
  await dataRequest(client, 'POST', `${BASE}/items/truncate`, { dataCollectionId });
});

function bulkWrite(kind: 'insert' | 'update' | 'save', ignore: string[]) {
  return defineMethod(async (client, dataCollectionId: string, items: Record<string, unknown>[], options: WriteOptions = {}): Promise<WixDataBulkResult> => {
    checkCollection(dataCollectionId);
    checkItems(items, dataCollectionId);
    const res = await dataRequest<BulkAnswer>(client, 'POST', `${BASE}/bulk/items/${kind}`, { dataCollectionId, dataItems: items.map(toWire), suppressHooks: options.suppressHooks } satisfies wire.BulkDataItemsRequest);
    return bulkResult(items, res, ignore);
  });
}

/** Existing ids are skipped (WDE0074), not errors. */
export const bulkInsert = bulkWrite('insert', ['WDE0074']);
/** Missing ids are skipped (WDE0073), not errors. */
export const bulkUpdate = bulkWrite('update', ['WDE0073']);
export const bulkSave = bulkWrite('save', []);

export const bulkRemove = defineMethod(async (client, dataCollectionId: string, itemIds: string[], options: WriteOptions = {}): Promise<WixDataBulkResult> => {
  checkCollection(dataCollectionId);
  checkIds(itemIds, dataCollectionId);
  const res = await dataRequest<BulkAnswer>(client, 'POST', `${BASE}/bulk/items/remove`, { dataCollectionId, dataItemIds: itemIds, suppressHooks: options.suppressHooks } satisfies wire.BulkRemoveDataItemsRequest);
  return bulkResult(itemIds, res, ['WDE0073']);
});

/** items.patch(collection, itemId).incrementField('n', 1).run() -> the item, or null when absent. */
export const patch = defineMethod((client, dataCollectionId: string, itemId: string) => {
  checkCollection(dataCollectionId);
  checkItemId(itemId);
  return patchBuilder(async (fieldModifications, options) => {
    const res = await recover(dataRequest<ItemAnswer>(client, 'POST', `${BASE}/items/patch`, { dataCollectionId, patch: { dataItemId: itemId, fieldModifications }, suppressHooks: options.suppressHooks }), 'WDE0073', undefined);
    return res ? res.dataItem.data : null;
  });
});

/** items.bulkPatch(collection, itemIds).setField(...).run() -> bulk result (missing ids skipped). */
export const bulkPatch = defineMethod((client, dataCollectionId: string, itemIds: string[]) => {
  checkCollection(dataCollectionId);
  checkIds(itemIds, dataCollectionId);
  return patchBuilder(async (fieldModifications: FieldModification[], options) => {
    const res = await dataRequest<BulkAnswer>(client, 'POST', `${BASE}/bulk/items/patch`, { dataCollectionId, patches: itemIds.map((dataItemId) => ({ dataItemId, fieldModifications })), suppressHooks: options.suppressHooks });
    return bulkResult(itemIds, res, ['WDE0073']);
  });
});

function queryPayload(dataCollectionId: string, state: QueryState, skip: number, options: FindOptions) {
  return {
    dataCollectionId,
    query: { filter: state.filter, sort: state.sort, fields: state.fields, paging: { limit: state.limit, offset: skip } },
    includeReferences: state.include.length ? state.include : undefined,
    returnTotalCount: options.returnTotalCount,
    ...readOptions(options),
  };
}

/** items.query(collection).eq(...).find(): a GET `?.r=` while the URL fits 2048 characters, else POST. */
export const query = defineMethod((client, dataCollectionId: string) => {
  checkCollection(dataCollectionId);
  const find = async (state: QueryState, options: FindOptions, skip = state.skip): Promise<WixDataResult<WixDataItem>> => {
    const res = await dataRequest<Decoded<wire.QueryDataItemsResponse>>(client, 'GET', `${BASE}/items/query`, queryPayload(dataCollectionId, state, skip, options), true);
    return pagedResult(res.dataItems.map((i) => i.data), res.pagingMetadata, state.limit, skip, (s) => find(state, options, s));
  };
  return queryBuilder<WixDataItem>({
    find: (state, options) => find(state, options),
    count: async (state, options) => (await dataRequest<wire.CountDataItemsResponse>(client, 'POST', `${BASE}/items/count`, { dataCollectionId, filter: state.filter, ...readOptions(options) })).totalCount,
    distinct: async (state, fieldName, options) => {
      const order = state.sort?.find((s) => s.fieldName === fieldName)?.order;
      const fetchPage = async (skip: number): Promise<WixDataResult<unknown>> => {
        const res = await dataRequest<wire.DistinctValuesResponse>(client, 'POST', `${BASE}/items/query-distinct-values`, {
          dataCollectionId, fieldName, filter: state.filter, order, paging: { limit: state.limit, offset: skip }, returnTotalCount: options.returnTotalCount, ...readOptions(options),
        });
        return pagedResult(res.distinctValues, res.pagingMetadata, state.limit, skip, fetchPage);
      };
      return fetchPage(state.skip);
    },
  });
});

/** items.count(collection, filter?) -> number. */
export const count = defineMethod(async (client, dataCollectionId: string, filter: Filter = {}, options: ReadOptions = {}): Promise<number> => {
  checkCollection(dataCollectionId);
  checkFilter(filter);
  return (await dataRequest<wire.CountDataItemsResponse>(client, 'POST', `${BASE}/items/count`, { dataCollectionId, filter, ...readOptions(options) } satisfies wire.CountDataItemsRequest)).totalCount;
});

/** A filter builder for aggregate `.filter()` / `.having()` and query `.and()` / `.or()` / `.not()`. */
export const filter = defineMethod((_client) => filterBuilder());

/** items.aggregate(collection).group('g').sum('n').run(): rows grouped by a single field get `_id` = its value. */
export const aggregate = defineMethod((client, dataCollectionId: string) => {
  checkCollection(dataCollectionId);
  const run = async (state: AggregateState, options: FindOptions, skip = state.skip): Promise<WixDataResult<Record<string, unknown>>> => {
    const res = await dataRequest<wire.AggregateDataItemsResponse>(client, 'POST', `${BASE}/items/aggregate`, {
      dataCollectionId,
      initialFilter: state.filter,
      aggregation: {
        groupingFields: state.groupBy,
        operations: state.operations.map((o) => ({ resultFieldName: o.resultFieldName, [o.op]: o.op === 'itemCount' ? {} : { itemFieldName: o.field } })),
      },
      finalFilter: state.having,
      sort: state.sort,
      paging: { limit: state.limit, offset: skip },
      returnTotalCount: options.returnTotalCount,
      ...readOptions(options),
    });
    const rows = res.results.map((r) => {
      const id = r._id;
      if (id && typeof id === 'object' && !Array.isArray(id) && !(id instanceof Date) && Object.keys(id).length === 1) return { ...r, _id: Object.values(id)[0] };
      return r;
    });
    return pagedResult(rows, res.pagingMetadata, state.limit, skip, (s) => run(state, options, s));
  };
  return aggregateBuilder((state, options) => run(state, options));
});

const idOf = (item: unknown): string => (typeof item === 'string' ? item : (item as { _id?: unknown } | null)?._id as string);

function referenceRows(field: string, referring: unknown, referenced: unknown) {
  const ids = (Array.isArray(referenced) ? referenced : [referenced]).map(idOf);
  const referringItemId = idOf(referring);
  if (typeof referringItemId !== 'string' || !ids.every((i) => typeof i === 'string')) throw wde('WDE0019', 'Reference operation takes a string ID or an object with an ID to be connected.');
  return ids.map((referencedItemId) => ({ referringItemFieldName: field, referringItemId, referencedItemId }));
}

export const insertReference = defineMethod(async (client, dataCollectionId: string, field: string, referringItem: unknown, referencedItems: unknown, options: WriteOptions = {}): Promise<void> => {
  checkCollection(dataCollectionId);
  await dataRequest(client, 'POST', `${BASE}/bulk/items/insert-references`, { dataCollectionId, dataItemReferences: referenceRows(field, referringItem, referencedItems), suppressHooks: options.suppressHooks });
});

export const removeReference = defineMethod(async (client, dataCollectionId: string, field: string, referringItem: unknown, referencedItems: unknown, options: WriteOptions = {}): Promise<void> => {
  checkCollection(dataCollectionId);
  await dataRequest(client, 'POST', `${BASE}/bulk/items/remove-references`, { dataCollectionId, dataItemReferences: referenceRows(field, referringItem, referencedItems), suppressHooks: options.suppressHooks });
});

export const replaceReferences = defineMethod(async (client, dataCollectionId: string, field: string, referringItem: unknown, referencedItems: unknown, options: WriteOptions = {}): Promise<void> => {
  checkCollection(dataCollectionId);
  const rows = referenceRows(field, referringItem, Array.isArray(referencedItems) && referencedItems.length === 0 ? [] : referencedItems);
  await dataRequest(client, 'POST', `${BASE}/items/replace-references`, { dataCollectionId, referringItemFieldName: field, referringItemId: idOf(referringItem), newReferencedItemIds: rows.map((r) => r.referencedItemId), suppressHooks: options.suppressHooks });
});

export const isReferenced = defineMethod(async (client, dataCollectionId: string, field: string, referringItem: unknown, referencedItem: unknown, options: ReadOptions = {}): Promise<boolean> => {
  checkCollection(dataCollectionId);
  const [row] = referenceRows(field, referringItem, referencedItem);
  return (await dataRequest<wire.IsReferencedResponse>(client, 'POST', `${BASE}/items/is-referenced`, { dataCollectionId, ...row, ...readOptions(options) })).isReferenced;
});

/** items.queryReferenced(collection, item, field) -> referenced items the caller may read, paged. */
export const queryReferenced = defineMethod(async (client, dataCollectionId: string, referringItem: unknown, field: string, options: ReadOptions & { limit?: number; skip?: number; order?: 'ASC' | 'DESC'; returnTotalCount?: boolean } = {}): Promise<WixDataResult<WixDataItem>> => {
  checkCollection(dataCollectionId);
  const referringItemId = idOf(referringItem);
  checkItemId(referringItemId);
  const limit = options.limit ?? 50;
  const fetchPage = async (skip: number): Promise<WixDataResult<WixDataItem>> => {
    const res = await dataRequest<Decoded<wire.QueryReferencedResponse>>(client, 'POST', `${BASE}/items/query-referenced`, {
      dataCollectionId, referringItemId, referringItemFieldName: field, order: options.order, paging: { limit, offset: skip }, returnTotalCount: options.returnTotalCount, ...readOptions(options),
    });
    return pagedResult(res.results.flatMap((r) => ('dataItem' in r ? [r.dataItem.data] : [])), res.pagingMetadata, limit, skip, fetchPage);
  };
  return fetchPage(options.skip ?? 0);
});

export const asyncPatchByFilter = defineMethod(async (client, dataCollectionId: string, filterTree: Filter, fieldModifications: FieldModification[]): Promise<wire.DataJobStarted> => {
  checkCollection(dataCollectionId);
  checkFilter(filterTree);
  return dataRequest(client, 'POST', `${BASE}/bulk/items/async-patch-by-filter`, { dataCollectionId, filter: filterTree, fieldModifications });
});

export const asyncRemoveByFilter = defineMethod(async (client, dataCollectionId: string, filterTree: Filter): Promise<wire.DataJobStarted> => {
  checkCollection(dataCollectionId);
  checkFilter(filterTree);
  return dataRequest(client, 'POST', `${BASE}/bulk/items/async-remove-by-filter`, { dataCollectionId, filter: filterTree });
});

export const getAsyncJobStatus = defineMethod(async (client: ClientCore, jobId: string): Promise<wire.DataJobStatusResponse> =>
  dataRequest(client, 'GET', `${BASE}/async-jobs/${encodeURIComponent(jobId)}/status`, { jobId }));
