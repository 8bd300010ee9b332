import type { z } from 'zod';
import { route, type Access, type Method, type RouteDef } from '../../http/route.js';
import type { RequestContext } from '../../http/context.js';
import { aggregate, countItems, distinct, queryItems, searchItems } from './query.js';
import { getItem, insertItem, patchItem, removeItem, saveItem, setDraft, truncate, updateItem } from './items.js';
import { bulkPatch, bulkRemove, bulkWrite, jobStatus, startJob } from './bulk.js';
import { changeReferences, isReferenced, queryReferenced, replaceReferences } from './references.js';
import {
  availableIndexes, createCollection, createIndex, deleteCollection, dropIndex, fieldChange, getCollection, listAllCollections, listIndexes,
  patchCollection, pluginCall, restoreCollection, updateWholeCollection,
} from './collections.js';
import { bulkResponse, dataRequest, itemResponse, itemsResponse, listRequest } from './schema.js';
import { notSupported } from './errors.js';
import {
  aggregateAnswer, availableIndexesAnswer, bulkAnswer, collectionAnswer, collectionsAnswer, countAnswer, dataCollectionAnswer, distinctAnswer, indexAnswer,
  indexesAnswer, isReferencedAnswer, itemAnswer, itemsPageAnswer, jobStartedAnswer, jobStatusAnswer, referencedAnswer, referencesAnswer, saveAnswer,
} from './present.js';

// Each service checks its own input shape (see schema.ts); the route hands over the parsed object as is.
type Input = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- services validate their own fields

/** Item calls are open to every caller of the site; the collection's permissions decide inside. */
function data(method: Method, path: string, summary: string, handler: (ctx: RequestContext, input: Input) => Promise<unknown>, extra: { access?: Exclude<Access, 'public'>; postTwin?: boolean; response?: z.ZodType; request?: z.ZodType; idempotent?: true } = {}): RouteDef {
  return route({
    method,
    path: `/wix-data/v2${path}`,
    access: extra.access ?? 'visitor',
    summary,
    tag: 'data',
    request: extra.request ?? dataRequest,
    ...(extra.response ? { response: extra.response } : {}),
    ...(extra.postTwin ? { postTwin: true } : {}),
    ...(extra.idempotent ? { idempotent: true as const } : {}),
    handler: (ctx, input) => handler(ctx, input),
  });
}

const owner = { access: 'elevated' as const };

const PLUGIN_CALLS = [
  'add-catalog-plugin', 'add-cms-plugin', 'add-plugin', 'add-draft-items-plugin', 'add-multilingual-plugin', 'add-publish-plugin', 'add-urlized-plugin',
  'delete-catalog-plugin', 'delete-cms-plugin', 'delete-plugin', 'delete-draft-items-plugin', 'delete-multilingual-plugin', 'delete-publish-plugin', 'delete-urlized-plugin',
];

export const dataRoutes: RouteDef[] = [
  // items
  data('POST', '/items', 'Insert a data item (honours Idempotency-Key)', async (ctx, input) => itemAnswer(await insertItem(ctx, input)), { response: itemResponse, idempotent: true }),
  data('POST', '/items/update', 'Replace a data item', async (ctx, input) => itemAnswer(await updateItem(ctx, input)), { response: itemResponse }),
  data('POST', '/items/save', 'Insert or replace a data item', async (ctx, input) => saveAnswer(await saveItem(ctx, input))),
  data('POST', '/items/patch', 'Patch fields of a data item', async (ctx, input) => itemAnswer(await patchItem(ctx, input)), { response: itemResponse }),
  data('POST', '/items/remove', 'Remove a data item', async (ctx, input) => itemAnswer(await removeItem(ctx, input)), { response: itemResponse }),
  data('POST', '/items/truncate', 'Remove every item of a collection (owner)', truncate),
  data('GET', '/items/query', 'Query data items: filter, sort, projection, offset or cursor paging', async (ctx, input) => itemsPageAnswer(await queryItems(ctx, input)), { postTwin: true, response: itemsResponse }),
  // Listed after /items/query; the handler also forwards `query` itself, since the shared route sort
  // (http/route-order.ts) does not always place literal segments first.
  data('GET', '/items/:dataItemId', 'Get a data item (404 WDE0073 when absent or not readable)', async (ctx, input) => (input.dataItemId === 'query' ? itemsPageAnswer(await queryItems(ctx, input)) : itemAnswer(await getItem(ctx, input))), { response: itemResponse }),
  data('POST', '/items/count', 'Count data items matching a filter', async (ctx, input) => countAnswer(await countItems(ctx, input))),
  data('POST', '/items/query-distinct-values', 'Distinct values of a field', async (ctx, input) => distinctAnswer(await distinct(ctx, input))),
  data('POST', '/items/aggregate', 'Group and aggregate data items', async (ctx, input) => aggregateAnswer(await aggregate(ctx, input))),
  data('POST', '/items/aggregate-pipeline', 'Aggregation pipelines (not supported)', () => Promise.reject(notSupported('Aggregation pipelines'))),
  data('POST', '/items/search', 'Text search over data items', async (ctx, input) => itemsPageAnswer(await searchItems(ctx, input)), { response: itemsResponse }),
  data('POST', '/items/is-referenced', 'Whether an item references another', async (ctx, input) => isReferencedAnswer(await isReferenced(ctx, input))),
  data('POST', '/items/replace-references', 'Replace the references of a multi-reference field', async (ctx, input) => { await replaceReferences(ctx, input); return {}; }),
  data('POST', '/items/query-referenced', 'Items referenced by items', async (ctx, input) => referencedAnswer(await queryReferenced(ctx, input))),
  data('POST', '/items/create-draft', 'Mark an item as a draft', async (ctx, input) => itemAnswer(await setDraft(ctx, input, 'create-draft'))),
  data('POST', '/items/publish-draft', 'Publish a draft item', async (ctx, input) => itemAnswer(await setDraft(ctx, input, 'publish-draft'))),
  data('POST', '/items/unpublish', 'Turn a published item back into a draft', async (ctx, input) => itemAnswer(await setDraft(ctx, input, 'unpublish'))),
  // bulk
  data('POST', '/bulk/items/insert', 'Insert up to 1000 items, one result per item (honours Idempotency-Key)', async (ctx, input) => bulkAnswer(await bulkWrite(ctx, input, 'insert')), { response: bulkResponse, idempotent: true }),
  data('POST', '/bulk/items/update', 'Replace up to 1000 items, one result per item', async (ctx, input) => bulkAnswer(await bulkWrite(ctx, input, 'update')), { response: bulkResponse }),
  data('POST', '/bulk/items/save', 'Insert or replace up to 1000 items, one result per item', async (ctx, input) => bulkAnswer(await bulkWrite(ctx, input, 'save')), { response: bulkResponse }),
  data('POST', '/bulk/items/patch', 'Patch up to 1000 items, one result per item', async (ctx, input) => bulkAnswer(await bulkPatch(ctx, input)), { response: bulkResponse }),
  data('POST', '/bulk/items/remove', 'Remove up to 1000 items, one result per item', async (ctx, input) => bulkAnswer(await bulkRemove(ctx, input)), { response: bulkResponse }),
  data('POST', '/bulk/items/insert-references', 'Add multi-reference links', async (ctx, input) => referencesAnswer(await changeReferences(ctx, input, true))),
  data('POST', '/bulk/items/remove-references', 'Remove multi-reference links', async (ctx, input) => referencesAnswer(await changeReferences(ctx, input, false))),
  data('POST', '/bulk/items/async-patch-by-filter', 'Patch every matching item in a background job', async (ctx, input) => jobStartedAnswer(await startJob(ctx, input, 'patch'))),
  data('POST', '/bulk/items/async-remove-by-filter', 'Remove every matching item in a background job', async (ctx, input) => jobStartedAnswer(await startJob(ctx, input, 'remove'))),
  data('GET', '/async-jobs/:jobId/status', 'Status of a background data job', async (ctx, input) => jobStatusAnswer(await jobStatus(ctx, String(input.jobId)))),
  // collections (owner)
  data('POST', '/collections', 'Create a data collection', async (ctx, input) => collectionAnswer(await createCollection(ctx, input)), owner),
  data('GET', '/collections', 'List data collections', async (ctx, input) => collectionsAnswer(await listAllCollections(ctx, input)), { ...owner, request: listRequest }),
  data('PUT', '/collections', 'Replace a data collection definition', async (ctx, input) => collectionAnswer(await updateWholeCollection(ctx, input)), owner),
  data('GET', '/collections/:dataCollectionId', 'Get a data collection', async (ctx, input) => collectionAnswer(await getCollection(ctx, input)), owner),
  data('PATCH', '/collections/:dataCollectionId', 'Change parts of a data collection', async (ctx, input) => dataCollectionAnswer(await patchCollection(ctx, input)), owner),
  data('DELETE', '/collections/:dataCollectionId', 'Delete a data collection (restorable)', deleteCollection, owner),
  data('POST', '/collections/restore/:dataCollectionId', 'Restore a deleted data collection', async (ctx, input) => dataCollectionAnswer(await restoreCollection(ctx, input)), owner),
  data('POST', '/collections/create-field', 'Add a field', async (ctx, input) => dataCollectionAnswer(await fieldChange(ctx, input, 'create')), owner),
  data('POST', '/collections/update-field', 'Replace a field', async (ctx, input) => dataCollectionAnswer(await fieldChange(ctx, input, 'update')), owner),
  data('PATCH', '/collections/:dataCollectionId/patch-field', 'Change a field', async (ctx, input) => dataCollectionAnswer(await fieldChange(ctx, input, 'update')), owner),
  data('POST', '/collections/delete-field', 'Delete a field', async (ctx, input) => dataCollectionAnswer(await fieldChange(ctx, input, 'delete')), owner),
  ...PLUGIN_CALLS.map((name) => data('POST', `/collections/${name}`, 'Collection plugins (not supported)', pluginCall, owner)),
  // indexes (owner)
  data('POST', '/indexes', 'Create an index (a real database index on the JSON field paths)', async (ctx, input) => indexAnswer(await createIndex(ctx, input)), owner),
  data('DELETE', '/indexes', 'Drop an index', async (ctx, input) => { await dropIndex(ctx, input); return {}; }, owner),
  data('GET', '/indexes', 'List indexes with their status', async (ctx, input) => indexesAnswer(await listIndexes(ctx, input)), { ...owner, request: listRequest }),
  data('GET', '/indexes/available', 'Remaining index quota', async (ctx, input) => availableIndexesAnswer(await availableIndexes(ctx, input)), owner),
];
