import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { items as wixItems } from '@wix/data';
import { startTestServer, visitorTokens, type TestServer } from './harness.js';
import { dataCall, expectAppError, ok, ownerAuth, type Auth } from './data-support.js';
import { memberTokenPair, memberWithToken } from './member-tokens.js';
import { routePublicClientTo, type PublicClientRouting } from './public-client.js';

/**
 * query-distinct-values (and grouping) over the system fields, per caller, on a SITE_MEMBER_AUTHOR
 * collection (security audit: `_owner` answered [] to a member who owns items). Exact values for the
 * owner, for each member (only their own) and never another owner's id in a member's answer.
 */

let t: TestServer;
let routing: PublicClientRouting;
let owner: Auth;
let a: Auth;
let b: Auth;
let aId: string;
let bId: string;
let ownerKeyId: string;
/** The id the server generated for A's bulk item without one. */
let bulkId: string;
const C = 'journal';
const SYSTEM = ['_owner', '_id', '_createdDate', '_updatedDate'] as const;

type Item = { id: string; data: Record<string, unknown> };
const all: Item[] = [];

const distinctOf = async (auth: Auth, fieldName: string, extra: Record<string, unknown> = {}) =>
  (await ok(t, auth, '/items/query-distinct-values', { dataCollectionId: C, fieldName, ...extra })).distinctValues as unknown[];

/** The values `field` takes over `items`, de-duplicated and in the server's order (strings and ISO dates sort as text). */
function expected(items: Item[], field: string): unknown[] {
  const byKey = new Map<string, unknown>();
  for (const i of items) byKey.set(JSON.stringify(i.data[field]), i.data[field]);
  return [...byKey.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
}

beforeAll(async () => {
  t = await startTestServer();
  routing = routePublicClientTo(t.url);
  owner = ownerAuth(t);
  const ma = await memberWithToken(t, { loginEmail: 'distinct-a@example.com' });
  const mb = await memberWithToken(t, { loginEmail: 'distinct-b@example.com' });
  aId = ma.id;
  bId = mb.id;
  a = { auth: ma.token };
  b = { auth: mb.token };
  const author = 'SITE_MEMBER_AUTHOR';
  await ok(t, owner, '/collections', { collection: { id: C, fields: [{ key: 'text', type: 'TEXT' }], permissions: { read: author, insert: 'SITE_MEMBER', update: author, remove: author } } });
  // A writes through single, bulk and save calls, and tries to claim B as owner (ignored).
  const inserted: Item[] = [];
  inserted.push((await ok(t, a, '/items', { dataCollectionId: C, dataItem: { id: 'a1', data: { text: 'one', _owner: bId } } })).dataItem);
  await new Promise((r) => setTimeout(r, 5));
  const bulk = await ok(t, a, '/bulk/items/insert', { dataCollectionId: C, dataItems: [{ data: { text: 'two' } }, { id: 'a3', data: { text: 'three' } }] });
  inserted.push(...bulk.results.map((r: { dataItem: Item }) => r.dataItem));
  bulkId = bulk.results[0].dataItem.id;
  await new Promise((r) => setTimeout(r, 5));
  inserted.push((await ok(t, a, '/items/save', { dataCollectionId: C, dataItem: { id: 'a4', data: { text: 'four' } } })).dataItem);
  await new Promise((r) => setTimeout(r, 5));
  inserted.push((await ok(t, b, '/items', { dataCollectionId: C, dataItem: { id: 'b1', data: { text: 'bee' } } })).dataItem);
  await new Promise((r) => setTimeout(r, 5));
  inserted.push((await ok(t, owner, '/items', { dataCollectionId: C, dataItem: { id: 'o1', data: { text: 'owner' } } })).dataItem);
  ownerKeyId = inserted[inserted.length - 1]!.data._owner as string;
  // The owner edits A's item and A patches one: the owner stays A, _updatedDate moves.
  await new Promise((r) => setTimeout(r, 5));
  await ok(t, owner, '/items/update', { dataCollectionId: C, dataItem: { id: 'a1', data: { text: 'one (edited)' } } });
  await ok(t, a, '/items/patch', { dataCollectionId: C, patch: { dataItemId: 'a3', fieldModifications: [{ action: 'SET_FIELD', fieldPath: 'text', setFieldOptions: { value: 'three!' } }] } });
  const everything = await ok(t, owner, '/items/query', { dataCollectionId: C, query: { paging: { limit: 100 } } });
  all.push(...everything.dataItems);
  expect(all).toHaveLength(6);
});
afterAll(async () => {
  routing?.restore();
  await t?.close();
});

const ownedBy = (id: string) => all.filter((i) => i.data._owner === id);

describe('distinct values of system fields per caller (SITE_MEMBER_AUTHOR read)', () => {
  it('the fixture has the owners it claims', () => {
    expect(ownerKeyId).toMatch(/\S/);
    expect(new Set([aId, bId, ownerKeyId]).size).toBe(3);
    expect(ownedBy(aId).map((i) => i.id).sort()).toEqual([bulkId, 'a1', 'a3', 'a4'].sort());
    expect(ownedBy(bId).map((i) => i.id)).toEqual(['b1']);
    expect(ownedBy(ownerKeyId).map((i) => i.id)).toEqual(['o1']);
  });

  it('_owner: the owner sees every owner, each member only their own id', async () => {
    expect(await distinctOf(owner, '_owner')).toEqual([aId, bId, ownerKeyId].sort());
    expect(await distinctOf(a, '_owner')).toEqual([aId]);
    expect(await distinctOf(b, '_owner')).toEqual([bId]);
    expect(await distinctOf(a, '_owner', { order: 'DESC', returnTotalCount: true })).toEqual([aId]);
    // Asking for someone else's id by filter finds nothing; $ne does not widen the scope.
    expect(await distinctOf(a, '_owner', { filter: { _owner: bId } })).toEqual([]);
    expect(await distinctOf(a, '_owner', { filter: { _owner: { $ne: aId } } })).toEqual([]);
    expect(await distinctOf(a, '_owner', { filter: { _owner: { $in: [aId, bId, ownerKeyId] } } })).toEqual([aId]);
    expect(await distinctOf(b, '_owner', { filter: { _owner: bId } })).toEqual([bId]);
  });

  it('_id, _createdDate, _updatedDate: exactly the values of the caller\'s own items', async () => {
    for (const field of ['_id', '_createdDate', '_updatedDate']) {
      expect({ field, values: await distinctOf(owner, field) }).toEqual({ field, values: expected(all, field) });
      expect({ field, values: await distinctOf(a, field) }).toEqual({ field, values: expected(ownedBy(aId), field) });
      expect({ field, values: await distinctOf(b, field) }).toEqual({ field, values: expected(ownedBy(bId), field) });
    }
    expect(await distinctOf(a, '_id')).toEqual(ownedBy(aId).map((i) => i.id).sort());
    expect(await distinctOf(b, '_id')).toEqual(['b1']);
    // The owner's edit of a1 moved its _updatedDate past its _createdDate.
    const a1 = all.find((i) => i.id === 'a1')!;
    expect(a1.data._updatedDate).not.toEqual(a1.data._createdDate);
    expect(await distinctOf(a, '_updatedDate')).toContainEqual(a1.data._updatedDate);
  });

  it('pages through a member\'s distinct values by cursor without reaching other owners\' items', async () => {
    const first = await ok(t, a, '/items/query-distinct-values', { dataCollectionId: C, fieldName: '_id', paging: { limit: 3 }, returnTotalCount: true });
    expect(first.distinctValues).toEqual(ownedBy(aId).map((i) => i.id).sort().slice(0, 3));
    expect(first.pagingMetadata).toMatchObject({ count: 3, total: 4, hasNext: true });
    const next = await ok(t, a, '/items/query-distinct-values', { dataCollectionId: C, cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
    expect(next.distinctValues).toEqual(ownedBy(aId).map((i) => i.id).sort().slice(3));
    expect(next.pagingMetadata.hasNext).toBe(false);
    // B replaying A's cursor gets B's own scope, not A's values.
    const replay = await ok(t, b, '/items/query-distinct-values', { dataCollectionId: C, cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
    expect(replay.distinctValues).toEqual([]);
  });

  it('never reveals another owner\'s id or item to a member (distinct and grouping, every system field)', async () => {
    const foreign = (who: string) => [aId, bId, ownerKeyId].filter((id) => id !== who);
    const foreignItems = (who: string) => all.filter((i) => i.data._owner !== who).map((i) => i.id);
    for (const [who, auth] of [[aId, a], [bId, b]] as const) {
      for (const field of [...SYSTEM, 'text']) {
        const text = JSON.stringify(await distinctOf(auth, field, { paging: { limit: 1000 } }));
        for (const id of [...foreign(who), ...foreignItems(who)]) expect({ who, field, leaked: text.includes(`"${id}"`) }).toEqual({ who, field, leaked: false });
      }
      const grouped = await ok(t, auth, '/items/aggregate', { dataCollectionId: C, aggregation: { groupingFields: ['_owner'], operations: [{ resultFieldName: 'n', itemCount: {} }] } });
      expect(grouped.results).toEqual([{ _id: { _owner: who }, _owner: who, n: ownedBy(who).length }]);
    }
  });

  it('callers the collection refuses get WDE0027, and bad field names a wire error', async () => {
    const visitor: Auth = { auth: (await visitorTokens(t)).accessToken };
    expectAppError(await dataCall(t, visitor, '/items/query-distinct-values', { dataCollectionId: C, fieldName: '_owner' }), 403, 'WDE0027');
    expectAppError(await dataCall(t, a, '/items/query-distinct-values', { dataCollectionId: C, fieldName: 7 }), 400, 'WDE0003');
    const bad = await dataCall(t, a, '/items/query-distinct-values', { dataCollectionId: C, fieldName: "_owner') OR 1=1 --" });
    expect(bad.status).toBe(400);
  });

  it('the public @wix/data client with a member\'s tokens gets the same answer', async () => {
    const pair = await memberTokenPair(t, aId);
    const client = createClient({
      modules: { items: wixItems },
      auth: OAuthStrategy({ clientId: t.clientId, tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' as never } } }),
    });
    const owners = await client.items.query(C).distinct('_owner');
    expect(owners.items).toEqual([aId]);
    const ids = await client.items.query(C).ascending('_id').distinct('_id');
    expect(ids.items).toEqual(ownedBy(aId).map((i) => i.id).sort());
    expect(routing.requests.some((r) => r.url.endsWith('/wix-data/v2/items/query-distinct-values'))).toBe(true);
  });
});
