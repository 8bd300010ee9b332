import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createCollection, d, dataCall, expectAppError, expectViolation, ok, ownerAuth, type Auth } from './data-support.js';
import { eventsOf } from './member-tokens.js';
import { JSON_DEPTH_MAX } from '../src/http/wire.js';
import { MAX_ITEM_DEPTH } from '../src/domains/data/values.js';

let t: TestServer;
let owner: Auth;
let visitor: Auth;

beforeAll(async () => {
  t = await startTestServer();
  owner = ownerAuth(t);
  visitor = { auth: (await visitorTokens(t)).accessToken };
  await createCollection(t, 'books', {
    fields: [
      { key: 'title', type: 'TEXT' }, { key: 'pages', type: 'NUMBER' }, { key: 'published', type: 'DATETIME' },
      { key: 'inPrint', type: 'BOOLEAN' }, { key: 'tags', type: 'ARRAY_STRING' },
    ],
  });
});
afterAll(() => t?.close());

const count = async (collection: string, filter?: unknown) => (await ok(t, owner, '/items/count', { dataCollectionId: collection, filter })).totalCount as number;

describe('collections', () => {
  it('creates, reads, lists, changes, deletes and restores a collection', async () => {
    const created = await ok(t, owner, '/collections', { collection: { id: 'notes', fields: [{ key: 'body', type: 'RICH_TEXT' }], permissions: { read: 'SITE_MEMBER', insert: 'SITE_MEMBER_AUTHOR' } } });
    expect(created.collection).toMatchObject({
      id: 'notes', collectionType: 'NATIVE', displayName: 'notes', revision: '1', maxPageSize: 1000,
      permissions: { read: 'SITE_MEMBER', insert: 'SITE_MEMBER_AUTHOR', update: 'ADMIN', remove: 'ADMIN' },
    });
    expect(created.collection.fields.map((f: { key: string }) => f.key)).toEqual(['_id', '_createdDate', '_updatedDate', '_owner', 'body']);
    expectAppError(await dataCall(t, owner, '/collections', { collection: { id: 'notes' } }), 409, 'COLLECTION_ALREADY_EXISTS');
    expectViolation(await dataCall(t, owner, '/collections', { collection: { id: "x'; drop" } }), 'collection.id');
    expectViolation(await dataCall(t, owner, '/collections', { collection: { id: 'bad', fields: [{ key: 'a.b', type: 'TEXT' }] } }), 'collection.fields[0].key');
    expectViolation(await dataCall(t, owner, '/collections', { collection: { id: 'bad', fields: [{ key: 'a', type: 'BLOB' }] } }), 'collection.fields[0].type');
    expectAppError(await dataCall(t, visitor, '/collections', { collection: { id: 'nope' } }), 403, 'ELEVATED_REQUIRED');

    const got = await ok(t, owner, '/collections/notes', undefined, 'GET');
    expect(got.collection.id).toBe('notes');
    const listed = await ok(t, owner, '/collections', undefined, 'GET');
    expect(listed.collections.map((c: { id: string }) => c.id)).toEqual(['books', 'notes']);
    expect(listed.pagingMetadata).toEqual({ count: 2, offset: 0, total: 2, tooManyToCount: false });

    const patched = await ok(t, owner, '/collections/notes', { dataCollection: { permissions: { read: 'ANYONE' } } }, 'PATCH');
    expect(patched.dataCollection.permissions.read).toBe('ANYONE');
    expect(patched.dataCollection.revision).toBe('2');
    const stale = await dataCall(t, owner, '/collections', { collection: { id: 'notes', revision: '1', fields: [] } }, 'PUT');
    expectAppError(stale, 409, 'REVISION_MISMATCH');
    const withField = await ok(t, owner, '/collections/create-field', { dataCollectionId: 'notes', field: { key: 'rating', type: 'NUMBER' } });
    expect(withField.dataCollection.fields.map((f: { key: string }) => f.key)).toContain('rating');
    const without = await ok(t, owner, '/collections/delete-field', { dataCollectionId: 'notes', fieldKey: 'rating' });
    expect(without.dataCollection.fields.map((f: { key: string }) => f.key)).not.toContain('rating');

    await ok(t, owner, '/items', { dataCollectionId: 'notes', dataItem: { id: 'n1', data: { body: 'hi' } } });
    await ok(t, owner, '/collections/notes', undefined, 'DELETE');
    expectAppError(await dataCall(t, owner, '/items/count', { dataCollectionId: 'notes' }), 404, 'WDE0025');
    expectAppError(await dataCall(t, owner, '/collections/notes', undefined, 'GET'), 404, 'WDE0025');
    await ok(t, owner, '/collections/restore/notes', {});
    expect(await count('notes')).toBe(1);
    expectAppError(await dataCall(t, owner, '/collections/add-publish-plugin', { dataCollectionId: 'notes' }), 400, 'NOT_SUPPORTED');
  });
});

describe('items', () => {
  it('inserts with server-owned system fields and dates as $date both ways', async () => {
    const res = await ok(t, visitor, '/items', {
      dataCollectionId: 'books',
      dataItem: { id: 'b1', data: { title: 'Dune', pages: 412, published: { $date: '1965-08-01T00:00:00Z' }, _owner: 'someone-else', _createdDate: { $date: '2000-01-01T00:00:00Z' }, nested: { at: { $date: '2020-01-01T10:00:00+02:00' } } } },
    });
    const data = res.dataItem.data;
    expect(res.dataItem.id).toBe('b1');
    expect(res.dataItem.dataCollectionId).toBe('books');
    expect(data.published).toEqual({ $date: '1965-08-01T00:00:00.000Z' });
    expect(data.nested).toEqual({ at: { $date: '2020-01-01T08:00:00.000Z' } });
    expect(data._owner).not.toBe('someone-else');
    expect(data._createdDate.$date).not.toBe('2000-01-01T00:00:00.000Z');
    expect(Date.now() - Date.parse(data._createdDate.$date)).toBeLessThan(60_000);
    expect(data._updatedDate).toEqual(data._createdDate);
    const got = await ok(t, visitor, '/items/b1', undefined, 'GET').catch(() => undefined);
    expect(got).toBeUndefined(); // GET needs the collection id
    const fetched = await call(t.url, '/wix-data/v2/items/b1', { ...visitor, query: { dataCollectionId: 'books' } });
    expect(fetched.status).toBe(200);
    expect(fetched.body.dataItem.data).toEqual(data);
    const viaDotR = await call(t.url, '/wix-data/v2/items/b1', { ...visitor, dotR: { dataCollectionId: 'books', fields: ['title'] } });
    expect(viaDotR.body.dataItem.data).toEqual({ _id: 'b1', title: 'Dune' });
  });

  it('refuses bad values and changes nothing', async () => {
    const before = await count('books');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { pages: 2 ** 53 } } }), 'dataItem.data.pages');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { other: { deep: -(2 ** 53) } } } }), 'dataItem.data.other.deep');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { pages: 'many' } } }), 'dataItem.data.pages');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { inPrint: 1 } } }), 'dataItem.data.inPrint');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { $where: 1 } } }), 'dataItem.data.$where');
    expectViolation(await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { when: { $date: 'not a date' } } } }), 'dataItem.data.when');
    expect(await count('books')).toBe(before);
    const ok53 = await ok(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { pages: 2 ** 53 - 1 } } });
    expect(ok53.dataItem.data.pages).toBe(9007199254740991);
    await ok(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: ok53.dataItem.id });
  });

  it(`refuses JSON nested deeper than ${JSON_DEPTH_MAX} levels anywhere in a request, and stores nothing`, async () => {
    const before = await count('books');
    // The body, dataItem and data are three levels; the arrays make up the rest.
    const body = (arrays: number, extra = '') =>
      `{"dataCollectionId":"books","dataItem":{"id":"deep","data":{${extra}"nest":${'['.repeat(arrays)}${']'.repeat(arrays)}}}}`;
    const send = (text: string) => call(t.url, '/wix-data/v2/items', { ...owner, method: 'POST', rawBody: text, headers: { 'content-type': 'application/json' } });
    const tooDeep = { field: '$body', description: `must not nest objects and arrays more than ${JSON_DEPTH_MAX} levels deep`, violatedRule: 'MAX', data: {} };
    for (const text of [body(JSON_DEPTH_MAX - 2), body(5_000), body(JSON_DEPTH_MAX - 2, '"note":"\\u0041",')]) {
      const res = await send(text);
      expect([res.status, res.body.details.validationError.fieldViolations]).toEqual([400, [tooDeep]]);
    }
    expect(await count('books')).toBe(before);
    // At the bound the wire passes it on, and the data layer's own, smaller bound answers.
    const atBound = await send(body(JSON_DEPTH_MAX - 3));
    expect([atBound.status, atBound.body.details.validationError.fieldViolations[0].description]).toEqual([400, `is nested deeper than ${MAX_ITEM_DEPTH} levels`]);
    const stored = await send(body(MAX_ITEM_DEPTH));
    expect(stored.status).toBe(200);
    const nested = (n: number): unknown[] => (n === 0 ? [] : [nested(n - 1)]);
    expect(stored.body.dataItem.data.nest).toEqual(nested(MAX_ITEM_DEPTH - 1));
    await ok(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: 'deep' });
  });

  it('answers every WDE code of the spec with the exact error', async () => {
    expect((await dataCall(t, owner, '/items/count', { dataCollectionId: 5 })).body.details.applicationError).toEqual({ code: 'WDE0001', description: 'Collection name must be a string.', data: {} });
    expect((await dataCall(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: 5 })).body.details.applicationError).toEqual({ code: 'WDE0002', description: 'ItemId must be a string.', data: {} });
    const wde5 = await dataCall(t, owner, '/bulk/items/insert', { dataCollectionId: 'books', dataItems: [{ data: {} }, 'x'] });
    expectAppError(wde5, 400, 'WDE0005');
    expect(wde5.body.message).toBe('Failed to bulk save items into [books]. Items must be an array of JavaScript objects and itemIds must be strings if present.');
    const wde6 = await dataCall(t, owner, '/bulk/items/insert', { dataCollectionId: 'books', dataItems: Array.from({ length: 1001 }, () => ({ data: {} })) });
    expectAppError(wde6, 400, 'WDE0006');
    expect(wde6.body.message).toBe('Failed to bulk save items into [books]. Cannot insert more than 1000 items in one request');
    const wde69 = await dataCall(t, owner, '/bulk/items/remove', { dataCollectionId: 'books', dataItemIds: Array.from({ length: 1001 }, (_, i) => `x${i}`) });
    expectAppError(wde69, 400, 'WDE0069');
    expect(wde69.body.message).toBe('Failed to remove items from [books]. Cannot remove more than 1000 items in one request');
    const wde70 = await dataCall(t, owner, '/items/query', { dataCollectionId: 'books', query: { filter: { title: { $regex: '.*' } } } });
    expectAppError(wde70, 400, 'WDE0070');
    const missing = await call(t.url, '/wix-data/v2/items/nope', { ...owner, query: { dataCollectionId: 'books' } });
    expect(missing.status).toBe(404);
    expect(missing.body.details.applicationError).toEqual({ code: 'WDE0073', description: 'Item [nope] does not exist in collection [books].', data: { itemId: 'nope', collectionId: 'books' } });
    expectAppError(await dataCall(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: 'nope' }), 404, 'WDE0073');
    expectAppError(await dataCall(t, owner, '/items/update', { dataCollectionId: 'books', dataItem: { id: 'nope', data: {} } }), 404, 'WDE0073');
    const dup = await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { id: 'b1', data: {} } });
    expectAppError(dup, 409, 'WDE0074');
    const first = await ok(t, owner, '/items/query', { dataCollectionId: 'books', query: { paging: { limit: 1 } } });
    const wde80 = await dataCall(t, owner, '/items/query', { dataCollectionId: 'books', query: { paging: { offset: 3 }, cursorPaging: { cursor: first.pagingMetadata.cursors.next ?? 'x.y' } } });
    expectAppError(wde80, 400, 'WDE0080');
    const huge = await dataCall(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { blob: 'x'.repeat(600 * 1024) } } });
    expectAppError(huge, 413, 'WDE0109');
    expectAppError(await dataCall(t, owner, '/items/count', { dataCollectionId: 'ghost' }), 404, 'WDE0025');
    expectAppError(await dataCall(t, visitor, '/items/truncate', { dataCollectionId: 'books' }), 403, 'WDE0027');
  });

  it('updates, saves, patches and removes, with conditions', async () => {
    const saved = await ok(t, owner, '/items/save', { dataCollectionId: 'books', dataItem: { id: 'b2', data: { title: 'Emma', pages: 100, tags: ['a'] } } });
    expect(saved.action).toBe('INSERT');
    const again = await ok(t, owner, '/items/save', { dataCollectionId: 'books', dataItem: { id: 'b2', data: { title: 'Emma', pages: 120, tags: ['a'] } } });
    expect(again.action).toBe('UPDATE');
    expect(again.dataItem.data._createdDate).toEqual(saved.dataItem.data._createdDate);
    expectAppError(await dataCall(t, owner, '/items/update', { dataCollectionId: 'books', dataItem: { id: 'b2', data: { title: 'X' } }, condition: { filter: { pages: { $lt: 50 } } } }), 404, 'WDE0073');
    const updated = await ok(t, owner, '/items/update', { dataCollectionId: 'books', dataItem: { id: 'b2', data: { title: 'Emma', pages: 130, tags: ['a', 'b'] } }, condition: { filter: { pages: 120 } } });
    expect(updated.dataItem.data.pages).toBe(130);
    const patched = await ok(t, owner, '/items/patch', {
      dataCollectionId: 'books',
      patch: {
        dataItemId: 'b2',
        fieldModifications: [
          { action: 'INCREMENT_FIELD', fieldPath: 'pages', incrementFieldOptions: { value: -30 } },
          { action: 'SET_FIELD', fieldPath: 'meta.shelf', setFieldOptions: { value: 'B4' } },
          { action: 'APPEND_TO_ARRAY', fieldPath: 'tags', appendToArrayOptions: { value: 'c' } },
          { action: 'REMOVE_FROM_ARRAY', fieldPath: 'tags', removeFromArrayOptions: { value: 'a' } },
          { action: 'REMOVE_FIELD', fieldPath: 'title' },
        ],
      },
    });
    const { _createdDate: _c, _updatedDate: _u, _owner: _o, ...rest } = patched.dataItem.data;
    expect(rest).toEqual({ _id: 'b2', pages: 100, meta: { shelf: 'B4' }, tags: ['b', 'c'] });
    expectViolation(await dataCall(t, owner, '/items/patch', { dataCollectionId: 'books', patch: { dataItemId: 'b2', fieldModifications: [{ action: 'SET_FIELD', fieldPath: '_owner', setFieldOptions: { value: 'x' } }] } }), 'patch.fieldModifications[0].fieldPath');
    expectViolation(await dataCall(t, owner, '/items/patch', { dataCollectionId: 'books', patch: { dataItemId: 'b2', fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'meta', incrementFieldOptions: { value: 1 } }] } }), 'patch.fieldModifications[0].fieldPath');
    const removed = await ok(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: 'b2' });
    expect(removed.dataItem.data.pages).toBe(100);
    expectAppError(await dataCall(t, owner, '/items/remove', { dataCollectionId: 'books', dataItemId: 'b2' }), 404, 'WDE0073');
  });

  it('records item events in the write transaction; suppressHooks only for the owner', async () => {
    await ok(t, visitor, '/items', { dataCollectionId: 'books', dataItem: { id: 'ev1', data: { title: 'E' } } });
    await ok(t, visitor, '/items/update', { dataCollectionId: 'books', dataItem: { id: 'ev1', data: { title: 'F' } } });
    await ok(t, visitor, '/items/remove', { dataCollectionId: 'books', dataItemId: 'ev1' });
    const events = await eventsOf(t, 'ev1');
    expect(events.map((e) => `${e.entityFqdn} ${e.slug}`)).toEqual(['wix.data.v2.data_item created', 'wix.data.v2.data_item updated', 'wix.data.v2.data_item deleted']);
    expect((events[1]!.payload as { entity: { data: { title: string } } }).entity.data.title).toBe('F');
    await ok(t, owner, '/items', { dataCollectionId: 'books', dataItem: { id: 'ev2', data: {} }, suppressHooks: true });
    expect(await eventsOf(t, 'ev2')).toEqual([]);
    await ok(t, visitor, '/items', { dataCollectionId: 'books', dataItem: { id: 'ev3', data: {} }, suppressHooks: true });
    expect((await eventsOf(t, 'ev3')).map((e) => e.slug)).toEqual(['created']);
    // A failed write records nothing.
    await dataCall(t, visitor, '/items', { dataCollectionId: 'books', dataItem: { id: 'ev3', data: {} } });
    expect((await eventsOf(t, 'ev3')).map((e) => e.slug)).toEqual(['created']);
  });
});

describe('queries', () => {
  beforeAll(async () => {
    await createCollection(t, 'nums', { fields: [{ key: 'n', type: 'NUMBER' }, { key: 'g', type: 'TEXT' }, { key: 'at', type: 'DATETIME' }] });
    const dataItems = Array.from({ length: 120 }, (_, i) => ({ id: `n${String(i).padStart(3, '0')}`, data: { n: i, g: ['x', 'y', 'z'][i % 3], at: d(`2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`), s: `Word${i}` } }));
    const res = await ok(t, owner, '/bulk/items/insert', { dataCollectionId: 'nums', dataItems });
    expect(res.bulkActionMetadata).toEqual({ totalSuccesses: 120, totalFailures: 0 });
  });

  it('pages: default 50, max 1000, offsets, totals, projection', async () => {
    const first = await ok(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { sort: [{ fieldName: 'n', order: 'ASC' }] }, returnTotalCount: true });
    expect(first.dataItems).toHaveLength(50);
    expect(first.pagingMetadata).toMatchObject({ count: 50, offset: 0, total: 120, hasNext: true, tooManyToCount: false });
    expectViolation(await dataCall(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { paging: { limit: 1001 } } }), 'query.paging.limit');
    expectViolation(await dataCall(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { paging: { offset: -1 } } }), 'query.paging.offset');
    const last = await ok(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { sort: [{ fieldName: 'n', order: 'DESC' }], paging: { limit: 30, offset: 100 }, fields: ['n'] } });
    expect(last.dataItems.map((i: { data: { n: number } }) => i.data.n)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
    expect(last.dataItems[0].data).toEqual({ _id: 'n019', n: 19 });
    expect(last.pagingMetadata.hasNext).toBe(false);
  });

  it('walks every item with signed, site-bound cursors', async () => {
    const seen: number[] = [];
    let body = await ok(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { filter: { g: 'x' }, sort: [{ fieldName: 'n', order: 'ASC' }], cursorPaging: { limit: 7 } } });
    for (;;) {
      seen.push(...body.dataItems.map((i: { data: { n: number } }) => i.data.n));
      if (!body.pagingMetadata.hasNext) break;
      body = await ok(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { cursorPaging: { cursor: body.pagingMetadata.cursors.next } } });
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i * 3));
    const start = await ok(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { cursorPaging: { limit: 5 } } });
    const cursor: string = start.pagingMetadata.cursors.next;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), q: { o: 0, l: 1000, s: { filter: {}, sort: [], total: false, drafts: true } } })).toString('base64url');
    expectAppError(await dataCall(t, visitor, '/items/query', { dataCollectionId: 'nums', query: { cursorPaging: { cursor: `${forged}.${mac}` } } }), 400, 'INVALID_CURSOR');
    expectAppError(await dataCall(t, visitor, '/items/query', { dataCollectionId: 'books', query: { cursorPaging: { cursor } } }), 400, 'INVALID_CURSOR');
    const other = await createSite(t.server.deps.storage.db, { slug: 'other-data', name: 'Other' });
    const otherKey = await createApiKey(t.server.deps.storage.db, { siteId: other.id, name: 'k' });
    const otherAuth = { auth: otherKey.apiKey, siteId: other.id };
    expectAppError(await dataCall(t, otherAuth, '/items/count', { dataCollectionId: 'nums' }), 404, 'WDE0025');
    await ok(t, otherAuth, '/collections', { collection: { id: 'nums', permissions: { read: 'ANYONE' } } });
    expectAppError(await dataCall(t, otherAuth, '/items/query', { dataCollectionId: 'nums', query: { cursorPaging: { cursor } } }), 400, 'INVALID_CURSOR');
    expect((await ok(t, otherAuth, '/items/count', { dataCollectionId: 'nums' })).totalCount).toBe(0);
  });

  it('answers GET .r and its POST twin the same', async () => {
    const payload = { dataCollectionId: 'nums', query: { filter: { n: { $in: [1, 2, 3] } }, sort: [{ fieldName: 'n', order: 'DESC' }] } };
    const viaGet = await call(t.url, '/wix-data/v2/items/query', { ...visitor, dotR: payload });
    const viaPost = await dataCall(t, visitor, '/items/query', payload);
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.dataItems.map((i: { id: string }) => i.id)).toEqual(['n003', 'n002', 'n001']);
    expect(viaPost.body.dataItems).toEqual(viaGet.body.dataItems);
  });

  it('counts, distinct values, aggregates and searches', async () => {
    expect(await count('nums', { $and: [{ n: { $gte: 10 } }, { n: { $lt: 20 } }] })).toBe(10);
    expect(await count('nums', { at: { $gt: { $date: '2024-01-01T00:00:58Z' } } })).toBe(2);
    const distinct = await ok(t, visitor, '/items/query-distinct-values', { dataCollectionId: 'nums', fieldName: 'g', order: 'DESC', returnTotalCount: true });
    expect(distinct.distinctValues).toEqual(['z', 'y', 'x']);
    expect(distinct.pagingMetadata.total).toBe(3);
    const agg = await ok(t, visitor, '/items/aggregate', {
      dataCollectionId: 'nums',
      initialFilter: { n: { $lt: 9 } },
      aggregation: { groupingFields: ['g'], operations: [
        { resultFieldName: 'total', sum: { itemFieldName: 'n' } }, { resultFieldName: 'avg', average: { itemFieldName: 'n' } },
        { resultFieldName: 'lo', min: { itemFieldName: 'n' } }, { resultFieldName: 'hi', max: { itemFieldName: 'n' } }, { resultFieldName: 'count', itemCount: {} },
      ] },
      finalFilter: { total: { $gt: 9 } },
      sort: [{ fieldName: 'total', order: 'DESC' }],
    });
    expect(agg.results).toEqual([
      { _id: { g: 'z' }, g: 'z', total: 15, avg: 5, lo: 2, hi: 8, count: 3 },
      { _id: { g: 'y' }, g: 'y', total: 12, avg: 4, lo: 1, hi: 7, count: 3 },
    ]);
    const all = await ok(t, visitor, '/items/aggregate', { dataCollectionId: 'nums', aggregation: { operations: [{ resultFieldName: 'c', itemCount: {} }, { resultFieldName: 'm', max: { itemFieldName: 'n' } }] } });
    expect(all.results).toEqual([{ _id: null, c: 120, m: 119 }]);
    const found = await ok(t, visitor, '/items/search', { dataCollectionId: 'nums', search: { search: { expression: 'word11' }, sort: [{ fieldName: 'n', order: 'ASC' }] } });
    expect(found.dataItems.map((i: { data: { n: number } }) => i.data.n)).toEqual([11, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
    const either = await ok(t, visitor, '/items/search', { dataCollectionId: 'nums', search: { search: { expression: 'word7 WORD99', mode: 'OR' }, filter: { n: { $lt: 80 } }, sort: [{ fieldName: 'n', order: 'ASC' }] } });
    expect(either.dataItems.map((i: { data: { n: number } }) => i.data.n)).toEqual([7, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]);
    const both = await ok(t, visitor, '/items/search', { dataCollectionId: 'nums', search: { search: { expression: 'word7 y' } } });
    expect(both.dataItems.map((i: { data: { n: number } }) => i.data.n).sort((a: number, b: number) => a - b)).toEqual([7, 70, 73, 76, 79]);
    // System dates filter as dates: every item was created before now and none after.
    expect(await count('nums', { _createdDate: { $lt: { $date: new Date(Date.now() + 60_000).toISOString() } } })).toBe(120);
    expect(await count('nums', { _createdDate: { $gt: { $date: new Date(Date.now() + 60_000).toISOString() } } })).toBe(0);
  });
});

describe('bulk and jobs', () => {
  it('answers per item, in order, and writes the good ones', async () => {
    await createCollection(t, 'bulk', { fields: [{ key: 'n', type: 'NUMBER' }] });
    await ok(t, owner, '/items', { dataCollectionId: 'bulk', dataItem: { id: 'exists', data: { n: 0 } } });
    const res = await ok(t, owner, '/bulk/items/insert', {
      dataCollectionId: 'bulk',
      dataItems: [{ id: 'a', data: { n: 1 } }, { id: 'exists', data: { n: 2 } }, { id: 'b', data: { n: 'bad' } }, { id: 'c', data: { n: 2 ** 60 } }, { id: 'd', data: { n: 4 } }, { id: 'a', data: { n: 5 } }],
    });
    expect(res.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 4 });
    expect(res.results.map((r: { itemMetadata: { id: string; originalIndex: number; success: boolean; error?: { code: string } } }) => [r.itemMetadata.originalIndex, r.itemMetadata.id, r.itemMetadata.success, r.itemMetadata.error?.code ?? null]))
      .toEqual([[0, 'a', true, null], [1, 'exists', false, 'WDE0074'], [2, 'b', false, 'INVALID_ARGUMENT'], [3, 'c', false, 'INVALID_ARGUMENT'], [4, 'd', true, null], [5, 'a', false, 'WDE0074']]);
    expect(res.results[0].action).toBe('INSERT');
    expect(await count('bulk')).toBe(3);

    const upd = await ok(t, owner, '/bulk/items/update', { dataCollectionId: 'bulk', dataItems: [{ id: 'a', data: { n: 10 } }, { id: 'zz', data: { n: 1 } }] });
    expect(upd.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } } }) => r.itemMetadata.error?.code ?? 'ok')).toEqual(['ok', 'WDE0073']);
    const save = await ok(t, owner, '/bulk/items/save', { dataCollectionId: 'bulk', dataItems: [{ id: 'a', data: { n: 11 } }, { id: 'new', data: { n: 12 } }] });
    expect(save.results.map((r: { action: string }) => r.action)).toEqual(['UPDATE', 'INSERT']);
    const patch = await ok(t, owner, '/bulk/items/patch', { dataCollectionId: 'bulk', patches: [
      { dataItemId: 'a', fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'n', incrementFieldOptions: { value: 1 } }] },
      { dataItemId: 'ghost', fieldModifications: [{ action: 'REMOVE_FIELD', fieldPath: 'n' }] },
    ] });
    expect(patch.results.map((r: { dataItem?: { data: { n: number } }; itemMetadata: { error?: { code: string } } }) => r.dataItem?.data.n ?? r.itemMetadata.error?.code)).toEqual([12, 'WDE0073']);
    const rem = await ok(t, owner, '/bulk/items/remove', { dataCollectionId: 'bulk', dataItemIds: ['a', 'ghost', 'd'] });
    expect(rem.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1 });
    expect(await count('bulk')).toBe(2);
  });

  it('runs patch and remove by filter as background jobs with a status', async () => {
    await createCollection(t, 'jobs', { fields: [{ key: 'n', type: 'NUMBER' }] });
    await ok(t, owner, '/bulk/items/insert', { dataCollectionId: 'jobs', dataItems: Array.from({ length: 30 }, (_, i) => ({ data: { n: i } })) });
    const waitFor = async (jobId: string) => {
      for (let i = 0; i < 100; i++) {
        const s = await ok(t, owner, `/async-jobs/${jobId}/status`, undefined, 'GET');
        if (s.status === 'SUCCEEDED' || s.status === 'FAILED') return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('job did not finish');
    };
    const patchJob = await ok(t, owner, '/bulk/items/async-patch-by-filter', { dataCollectionId: 'jobs', filter: { n: { $lt: 10 } }, fieldModifications: [{ action: 'SET_FIELD', fieldPath: 'low', setFieldOptions: { value: true } }] });
    expect(await waitFor(patchJob.jobId)).toEqual({ status: 'SUCCEEDED', successCount: 10 });
    expect(await count('jobs', { low: true })).toBe(10);
    const removeJob = await ok(t, owner, '/bulk/items/async-remove-by-filter', { dataCollectionId: 'jobs', filter: { low: true } });
    expect(await waitFor(removeJob.jobId)).toEqual({ status: 'SUCCEEDED', successCount: 10 });
    expect(await count('jobs')).toBe(20);
    expectAppError(await dataCall(t, owner, '/async-jobs/00000000-0000-4000-8000-000000000000/status', undefined, 'GET'), 404, 'JOB_NOT_FOUND');
  });
});

describe('indexes', () => {
  it('creates real database indexes with statuses, enforces unique ones, drops them', async () => {
    await createCollection(t, 'idx', { fields: [{ key: 'sku', type: 'TEXT' }, { key: 'price', type: 'NUMBER' }, { key: 'at', type: 'DATETIME' }] });
    await ok(t, owner, '/bulk/items/insert', { dataCollectionId: 'idx', dataItems: [{ data: { sku: 'A', price: 1 } }, { data: { sku: 'A', price: 2 } }] });
    const regular = await ok(t, owner, '/indexes', { dataCollectionId: 'idx', index: { name: 'by_price', fields: [{ path: 'price' }, { path: 'at', order: 'DESC' }] } });
    expect(regular.index).toMatchObject({ name: 'by_price', status: 'ACTIVE', unique: false });
    const failed = await ok(t, owner, '/indexes', { dataCollectionId: 'idx', index: { name: 'sku_unique', fields: [{ path: 'sku' }], unique: true } });
    expect(failed.index).toMatchObject({ status: 'FAILED', failure: { code: 'DUPLICATE_KEY_ERROR' } });
    const del = await call(t.url, '/wix-data/v2/indexes', { ...owner, method: 'DELETE', query: { dataCollectionId: 'idx', indexName: 'sku_unique' } });
    expect(del.status).toBe(200);
    await ok(t, owner, '/items/remove', { dataCollectionId: 'idx', dataItemId: (await ok(t, owner, '/items/query', { dataCollectionId: 'idx', query: { filter: { price: 2 } } })).dataItems[0].id });
    const unique = await ok(t, owner, '/indexes', { dataCollectionId: 'idx', index: { name: 'sku_unique', fields: [{ path: 'sku' }], unique: true } });
    expect(unique.index.status).toBe('ACTIVE');
    expectAppError(await dataCall(t, owner, '/items', { dataCollectionId: 'idx', dataItem: { data: { sku: 'A' } } }), 409, 'UNIQUE_INDEX_VIOLATION');
    const bulk = await ok(t, owner, '/bulk/items/insert', { dataCollectionId: 'idx', dataItems: [{ data: { sku: 'B' } }, { data: { sku: 'A' } }] });
    expect(bulk.results.map((r: { itemMetadata: { success: boolean } }) => r.itemMetadata.success)).toEqual([true, false]);
    // Another collection may hold the same sku: the unique index is per collection.
    await ok(t, owner, '/items', { dataCollectionId: 'books', dataItem: { data: { sku: 'A' } } });

    const sqlNames = async () => {
      const db = t.server.deps.storage;
      const rows = db.dialect === 'postgres'
        // Only this test's schema: other test files' schemas run at the same time on one database.
        ? await db.db.selectFrom('pg_indexes' as never).select('indexname' as never).where('schemaname' as never, '=', sql<string>`current_schema()` as never).execute() as unknown as { indexname: string }[]
        : await db.db.selectFrom('sqlite_master' as never).select('name as indexname' as never).where('type' as never, '=', 'index' as never).execute() as unknown as { indexname: string }[];
      return rows.map((r) => r.indexname).filter((n) => n.startsWith('dx_'));
    };
    expect((await sqlNames()).sort()).toEqual([regular.index.id, unique.index.id].sort());
    const listed = await call(t.url, '/wix-data/v2/indexes', { ...owner, query: { dataCollectionId: 'idx' } });
    expect(listed.body.indexes.map((i: { name: string; status: string }) => `${i.name}:${i.status}`)).toEqual(['by_price:ACTIVE', 'sku_unique:ACTIVE']);
    const avail = await call(t.url, '/wix-data/v2/indexes/available', { ...owner, query: { dataCollectionId: 'idx' } });
    expect(avail.body).toEqual({ regular1Field: 9, regular3Field: 9, unique1Field: 4, total: 13 });
    expectViolation(await dataCall(t, owner, '/indexes', { dataCollectionId: 'idx', index: { name: 'bad', fields: [{ path: "price') --" }] } }), 'index.fields[0].path');
    await call(t.url, '/wix-data/v2/indexes', { ...owner, method: 'DELETE', query: { dataCollectionId: 'idx', indexName: 'by_price' } });
    expect(await sqlNames()).toEqual([unique.index.id]);
  });
});

describe('drafts and truncate', () => {
  it('hides drafts unless the owner asks for them; truncate is owner-only', async () => {
    await createCollection(t, 'posts');
    await ok(t, owner, '/bulk/items/insert', { dataCollectionId: 'posts', dataItems: [{ id: 'p1', data: {} }, { id: 'p2', data: {} }] });
    await ok(t, owner, '/items/create-draft', { dataCollectionId: 'posts', dataItemId: 'p2' });
    const ids = async (auth: Auth, includeDraftItems: boolean) => (await ok(t, auth, '/items/query', { dataCollectionId: 'posts', query: { sort: [{ fieldName: '_id', order: 'ASC' }] }, publishPluginOptions: { includeDraftItems } })).dataItems.map((i: { id: string }) => i.id);
    expect(await ids(visitor, true)).toEqual(['p1']);
    expect(await ids(owner, false)).toEqual(['p1']);
    expect(await ids(owner, true)).toEqual(['p1', 'p2']);
    expectAppError(await call(t.url, '/wix-data/v2/items/p2', { ...visitor, query: { dataCollectionId: 'posts' } }), 404, 'WDE0073');
    await ok(t, owner, '/items/publish-draft', { dataCollectionId: 'posts', dataItemId: 'p2' });
    expect(await ids(visitor, false)).toEqual(['p1', 'p2']);
    await ok(t, owner, '/items/truncate', { dataCollectionId: 'posts' });
    expect(await count('posts')).toBe(0);
  });
});
