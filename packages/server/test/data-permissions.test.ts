import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { dataCall, expectAppError, ok, ownerAuth, type Auth } from './data-support.js';
import { memberToken } from './member-tokens.js';

/** Object-level authorization of data items (SECURITY.md 8.2.2, 8.2.3): SITE_MEMBER_AUTHOR collections. */

let t: TestServer;
let owner: Auth;
let visitor: Auth;
let a: Auth;
let b: Auth;
const A = 'member-a-0000';
const B = 'member-b-0000';

beforeAll(async () => {
  t = await startTestServer();
  owner = ownerAuth(t);
  visitor = { auth: (await visitorTokens(t)).accessToken };
  a = { auth: await memberToken(t, A) };
  b = { auth: await memberToken(t, B) };
  const author = 'SITE_MEMBER_AUTHOR';
  await ok(t, owner, '/collections', { collection: {
    id: 'diary',
    permissions: { read: author, insert: author, update: author, remove: author },
    fields: [
      { key: 'text', type: 'TEXT' },
      { key: 'friend', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'diary' } } },
      { key: 'links', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'diary' } } },
    ],
  } });
  await ok(t, owner, '/collections', { collection: { id: 'club', permissions: { read: 'SITE_MEMBER', insert: 'SITE_MEMBER', update: 'ADMIN', remove: 'ADMIN' } } });
  await ok(t, a, '/items', { dataCollectionId: 'diary', dataItem: { id: 'a1', data: { text: 'A secret', _owner: B } } });
  await ok(t, b, '/items', { dataCollectionId: 'diary', dataItem: { id: 'b1', data: { text: 'B secret' } } });
});
afterAll(() => t?.close());

const getAs = (auth: Auth, id: string) => call(t.url, `/wix-data/v2/items/${id}`, { ...auth, query: { dataCollectionId: 'diary' } });
const textOf = async (id: string) => (await getAs(owner, id)).body.dataItem?.data.text;

describe('SITE_MEMBER_AUTHOR collections', () => {
  it('sets _owner from the caller and never from the payload', async () => {
    expect((await getAs(owner, 'a1')).body.dataItem.data._owner).toBe(A);
    const patched = await dataCall(t, a, '/items/patch', { dataCollectionId: 'diary', patch: { dataItemId: 'a1', fieldModifications: [{ action: 'SET_FIELD', fieldPath: '_owner', setFieldOptions: { value: B } }] } });
    expect(patched.status).toBe(400);
    await ok(t, a, '/items/update', { dataCollectionId: 'diary', dataItem: { id: 'a1', data: { text: 'A secret', _owner: B, _createdDate: { $date: '2000-01-01T00:00:00Z' } } } });
    const after = (await getAs(owner, 'a1')).body.dataItem.data;
    expect(after._owner).toBe(A);
    expect(after._createdDate.$date.startsWith('2000')).toBe(false);
  });

  it('keeps member B away from A\'s items directly', async () => {
    expect((await getAs(a, 'a1')).body.dataItem.data.text).toBe('A secret');
    expectAppError(await getAs(b, 'a1'), 404, 'WDE0073');
    const q = await ok(t, b, '/items/query', { dataCollectionId: 'diary', query: {} });
    expect(q.dataItems.map((i: { id: string }) => i.id)).toEqual(['b1']);
    expect((await ok(t, b, '/items/count', { dataCollectionId: 'diary' })).totalCount).toBe(1);
    expect((await ok(t, b, '/items/query-distinct-values', { dataCollectionId: 'diary', fieldName: 'text' })).distinctValues).toEqual(['B secret']);
    expect((await ok(t, b, '/items/aggregate', { dataCollectionId: 'diary', aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] } })).results).toEqual([{ _id: null, n: 1 }]);
    expect((await ok(t, b, '/items/search', { dataCollectionId: 'diary', search: { search: { expression: 'secret' } } })).dataItems.map((i: { id: string }) => i.id)).toEqual(['b1']);
    expectAppError(await dataCall(t, b, '/items/update', { dataCollectionId: 'diary', dataItem: { id: 'a1', data: { text: 'pwned' } } }), 404, 'WDE0073');
    expectAppError(await dataCall(t, b, '/items/patch', { dataCollectionId: 'diary', patch: { dataItemId: 'a1', fieldModifications: [{ action: 'SET_FIELD', fieldPath: 'text', setFieldOptions: { value: 'pwned' } }] } }), 404, 'WDE0073');
    expectAppError(await dataCall(t, b, '/items/save', { dataCollectionId: 'diary', dataItem: { id: 'a1', data: { text: 'pwned' } } }), 403, 'WDE0027');
    expectAppError(await dataCall(t, b, '/items/remove', { dataCollectionId: 'diary', dataItemId: 'a1' }), 404, 'WDE0073');
    expectAppError(await dataCall(t, b, '/items', { dataCollectionId: 'diary', dataItem: { id: 'a1', data: { text: 'pwned' } } }), 409, 'WDE0074');
    expectAppError(await dataCall(t, b, '/items/truncate', { dataCollectionId: 'diary' }), 403, 'WDE0027');
    expect(await textOf('a1')).toBe('A secret');
  });

  it('keeps member B away from A\'s items in bulk and in jobs', async () => {
    const upd = await ok(t, b, '/bulk/items/update', { dataCollectionId: 'diary', dataItems: [{ id: 'a1', data: { text: 'pwned' } }, { id: 'b1', data: { text: 'B2' } }] });
    expect(upd.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } } }) => r.itemMetadata.error?.code ?? 'ok')).toEqual(['WDE0073', 'ok']);
    const save = await ok(t, b, '/bulk/items/save', { dataCollectionId: 'diary', dataItems: [{ id: 'a1', data: { text: 'pwned' } }] });
    expect(save.results[0].itemMetadata.error.code).toBe('WDE0027');
    const patch = await ok(t, b, '/bulk/items/patch', { dataCollectionId: 'diary', patches: [{ dataItemId: 'a1', fieldModifications: [{ action: 'REMOVE_FIELD', fieldPath: 'text' }] }] });
    expect(patch.results[0].itemMetadata.error.code).toBe('WDE0073');
    const rem = await ok(t, b, '/bulk/items/remove', { dataCollectionId: 'diary', dataItemIds: ['a1'] });
    expect(rem.bulkActionMetadata).toEqual({ totalSuccesses: 0, totalFailures: 1 });
    const job = await ok(t, b, '/bulk/items/async-patch-by-filter', { dataCollectionId: 'diary', filter: {}, fieldModifications: [{ action: 'SET_FIELD', fieldPath: 'text', setFieldOptions: { value: 'job' } }] });
    for (let i = 0; i < 100 && (await ok(t, b, `/async-jobs/${job.jobId}/status`, undefined, 'GET')).status !== 'SUCCEEDED'; i++) await new Promise((r) => setTimeout(r, 30));
    expect(await ok(t, b, `/async-jobs/${job.jobId}/status`, undefined, 'GET')).toEqual({ status: 'SUCCEEDED', successCount: 1 });
    expectAppError(await dataCall(t, a, `/async-jobs/${job.jobId}/status`, undefined, 'GET'), 404, 'JOB_NOT_FOUND');
    expect((await ok(t, owner, `/async-jobs/${job.jobId}/status`, undefined, 'GET')).status).toBe('SUCCEEDED');
    expect(await textOf('a1')).toBe('A secret');
    expect(await textOf('b1')).toBe('job');
  });

  it('keeps member B away from A\'s items through references', async () => {
    await ok(t, a, '/items', { dataCollectionId: 'diary', dataItem: { id: 'a2', data: { text: 'A two', friend: 'b1' } } });
    await ok(t, b, '/items', { dataCollectionId: 'diary', dataItem: { id: 'b2', data: { text: 'B two', friend: 'a1', links: ['a1', 'b1'] } } });
    // B's own item points at A's: including references never reveals A's data.
    const bq = await ok(t, b, '/items/query', { dataCollectionId: 'diary', query: { filter: { _id: 'b2' } }, includeReferences: [{ field: 'friend' }, { field: 'links' }] });
    expect(bq.dataItems[0].data.friend).toBe('a1');
    expect(bq.dataItems[0].data.links.map((l: { _id: string }) => l._id)).toEqual(['b1']);
    const bRefs = await ok(t, b, '/items/query-referenced', { dataCollectionId: 'diary', referringItemId: 'b2', referringItemFieldName: 'links' });
    expect(bRefs.results).toEqual([
      { referringItemId: 'b2', unresolvedReference: { referringItemId: 'b2', referringItemFieldName: 'links' } },
      { referringItemId: 'b2', dataItem: expect.objectContaining({ id: 'b1' }) },
    ]);
    // A's own view resolves A's items.
    const aq = await call(t.url, '/wix-data/v2/items/a2', { ...a, dotR: { dataCollectionId: 'diary', includeReferences: [{ field: 'friend' }] } });
    expect(aq.body.dataItem.data.friend).toBe('b1');
    // B cannot touch or read A's references.
    expectAppError(await dataCall(t, b, '/bulk/items/insert-references', { dataCollectionId: 'diary', dataItemReferences: [{ referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'b1' }] }), 404, 'WDE0073');
    expectAppError(await dataCall(t, b, '/items/replace-references', { dataCollectionId: 'diary', referringItemFieldName: 'links', referringItemId: 'a1', newReferencedItemIds: [] }), 404, 'WDE0073');
    expectAppError(await dataCall(t, b, '/items/is-referenced', { dataCollectionId: 'diary', referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'a2' }), 404, 'WDE0073');
    await ok(t, a, '/bulk/items/insert-references', { dataCollectionId: 'diary', dataItemReferences: [{ referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'a2' }] });
    expect((await ok(t, a, '/items/is-referenced', { dataCollectionId: 'diary', referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'a2' })).isReferenced).toBe(true);
    expect((await ok(t, b, '/items/query-referenced', { dataCollectionId: 'diary', referringItemIds: ['a1'], referringItemFieldName: 'links' })).results).toEqual([]);
    expectAppError(await dataCall(t, a, '/bulk/items/insert-references', { dataCollectionId: 'diary', dataItemReferences: [{ referringItemFieldName: 'text', referringItemId: 'a1', referencedItemId: 'a2' }] }), 400, 'WDE0020');
    await ok(t, a, '/items/replace-references', { dataCollectionId: 'diary', referringItemFieldName: 'links', referringItemId: 'a1', newReferencedItemIds: ['a2', 'b2'] });
    const aRefs = await ok(t, a, '/items/query-referenced', { dataCollectionId: 'diary', referringItemId: 'a1', referringItemFieldName: 'links', returnTotalCount: true });
    expect(aRefs.results.map((r: { dataItem?: { id: string } }) => r.dataItem?.id ?? 'unresolved')).toEqual(['a2', 'unresolved']);
    expect(aRefs.pagingMetadata.total).toBe(2);
    await ok(t, a, '/bulk/items/remove-references', { dataCollectionId: 'diary', dataItemReferences: [{ referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'a2' }] });
    expect((await ok(t, a, '/items/is-referenced', { dataCollectionId: 'diary', referringItemFieldName: 'links', referringItemId: 'a1', referencedItemId: 'a2' })).isReferenced).toBe(false);
  });

  it('lets the owner see and change every item; visitors nothing', async () => {
    expect((await ok(t, owner, '/items/count', { dataCollectionId: 'diary' })).totalCount).toBe(4);
    expectAppError(await dataCall(t, visitor, '/items/query', { dataCollectionId: 'diary', query: {} }), 403, 'WDE0027');
    expectAppError(await dataCall(t, visitor, '/items', { dataCollectionId: 'diary', dataItem: { data: {} } }), 403, 'WDE0027');
  });
});

describe('SITE_MEMBER collections', () => {
  it('lets any member read and insert, visitors neither, and only the owner update', async () => {
    await ok(t, a, '/items', { dataCollectionId: 'club', dataItem: { id: 'c1', data: { x: 1 } } });
    expect((await ok(t, b, '/items/count', { dataCollectionId: 'club' })).totalCount).toBe(1);
    expectAppError(await dataCall(t, visitor, '/items/count', { dataCollectionId: 'club' }), 403, 'WDE0027');
    expectAppError(await dataCall(t, a, '/items/update', { dataCollectionId: 'club', dataItem: { id: 'c1', data: {} } }), 403, 'WDE0027');
    await ok(t, owner, '/items/update', { dataCollectionId: 'club', dataItem: { id: 'c1', data: { x: 2 } } });
  });
});
