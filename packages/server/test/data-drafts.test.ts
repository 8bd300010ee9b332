import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createCollection, dataCall, expectAppError, ok, ownerAuth, type Auth } from './data-support.js';
import { eventsOf, memberToken } from './member-tokens.js';

/**
 * Draft calls (`create-draft`, `publish-draft`, `unpublish`) over real HTTP: each move is an item
 * update (`_updatedDate` in the document equal to the `updated_date` column, one `updated` event);
 * refused calls change neither the item nor the outbox.
 */

let t: TestServer;
let owner: Auth;
let visitor: Auth;
let memberA: Auth;
let memberB: Auth;
const A = 'member-a-drafts';
const B = 'member-b-drafts';
const FQDN = 'wix.data.v2.data_item';

beforeAll(async () => {
  t = await startTestServer();
  owner = ownerAuth(t);
  visitor = { auth: (await visitorTokens(t)).accessToken };
  memberA = { auth: await memberToken(t, A) };
  memberB = { auth: await memberToken(t, B) };
  // `posts`: only the owner updates. `open`: anyone updates. `notes`: members update their own items.
  await createCollection(t, 'posts', { permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
  await createCollection(t, 'open');
  await createCollection(t, 'notes', { permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'SITE_MEMBER_AUTHOR' } });
});
afterAll(() => t?.close());

type Stored = { draft: boolean; data: Record<string, unknown>; updatedDate: string };

/** The row as stored (read straight from the database, drafts included). */
async function stored(collection: string, id: string): Promise<Stored> {
  const row = await t.server.deps.storage.db.selectFrom('data_items' as never)
    .select(['draft', 'data', 'updated_date'] as never[])
    .where('site_id' as never, '=', t.site.id as never).where('collection_id' as never, '=', collection as never).where('id' as never, '=', id as never)
    .executeTakeFirstOrThrow() as unknown as { draft: number; data: unknown; updated_date: string };
  return { draft: Number(row.draft) === 1, data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data as Record<string, unknown>, updatedDate: row.updated_date };
}

/** Every outbox row of the site, in insertion order (entity, slug). */
async function outbox(): Promise<string[]> {
  const rows = await t.server.deps.storage.db.selectFrom('outbox_events').select(['entity_fqdn', 'entity_id', 'slug'])
    .where('site_id', '=', t.site.id).orderBy('created_date').orderBy('sequence').execute();
  return rows.map((r) => `${r.entity_fqdn} ${r.entity_id} ${r.slug}`);
}

const stampOf = (data: Record<string, unknown>) => (data._updatedDate as { $date: string }).$date;

/** Items of `collection` as the owner sees them (drafts included), by a filter and sort. */
async function ownerQuery(collection: string, query: Record<string, unknown>): Promise<{ id: string; data: Record<string, unknown> }[]> {
  return (await ok(t, owner, '/items/query', { dataCollectionId: collection, query, publishPluginOptions: { includeDraftItems: true } })).dataItems;
}

describe('draft calls update the item like an update does', () => {
  it('sets _updatedDate (document = column, strictly later), sorts and filters by it, and records one updated event per call', async () => {
    await ok(t, owner, '/items', { dataCollectionId: 'posts', dataItem: { id: 'p1', data: { title: 'One' } } });
    await ok(t, owner, '/items', { dataCollectionId: 'posts', dataItem: { id: 'p2', data: { title: 'Two' } } });
    const outboxBefore = await outbox();
    const steps: { path: string; draft: boolean }[] = [
      { path: '/items/create-draft', draft: true },
      { path: '/items/publish-draft', draft: false },
      { path: '/items/unpublish', draft: true },
      { path: '/items/publish-draft', draft: false },
    ];
    for (const [n, step] of steps.entries()) {
      // p2 changes last before each call, so p1 comes first by _updatedDate only through the draft call.
      await ok(t, owner, '/items/update', { dataCollectionId: 'posts', dataItem: { id: 'p2', data: { title: `Two ${n}` } } });
      const before = await stored('posts', 'p1');
      const p2Stamp = stampOf((await stored('posts', 'p2')).data);
      expect((await ownerQuery('posts', { sort: [{ fieldName: '_updatedDate', order: 'DESC' }], paging: { limit: 1 } }))[0]!.id).toBe('p2');

      const res = await ok(t, owner, step.path, { dataCollectionId: 'posts', dataItemId: 'p1' });
      const after = await stored('posts', 'p1');
      const stamp = after.updatedDate;
      expect(after.draft).toBe(step.draft);
      // The document's _updatedDate is the column, and what the call answered.
      expect(after.data._updatedDate).toEqual({ $date: stamp });
      expect(res.dataItem).toEqual({ id: 'p1', dataCollectionId: 'posts', data: { ...after.data, _id: 'p1' } });
      // Strictly later than before the call and than p2's last update; nothing else in the item changed.
      expect(Date.parse(stamp)).toBeGreaterThan(Date.parse(before.updatedDate));
      expect(Date.parse(stamp)).toBeGreaterThan(Date.parse(p2Stamp));
      expect({ ...after.data, _updatedDate: null }).toEqual({ ...before.data, _updatedDate: null });
      expect(after.data).toEqual({ _id: 'p1', _owner: expect.any(String), _createdDate: before.data._createdDate, _updatedDate: { $date: stamp }, title: 'One' });

      // Sorted by _updatedDate descending, p1 is first with exactly that value.
      const first = (await ownerQuery('posts', { sort: [{ fieldName: '_updatedDate', order: 'DESC' }], paging: { limit: 1 } }))[0]!;
      expect({ id: first.id, _updatedDate: first.data._updatedDate }).toEqual({ id: 'p1', _updatedDate: { $date: stamp } });
      // A filter on _updatedDate finds it: equality, and "later than before".
      expect((await ownerQuery('posts', { filter: { _updatedDate: { $eq: { $date: stamp } } } })).map((i) => i.id)).toEqual(['p1']);
      expect((await ownerQuery('posts', { filter: { _updatedDate: { $gt: { $date: p2Stamp } } } })).map((i) => i.id)).toEqual(['p1']);
      expect((await ok(t, owner, '/items/count', { dataCollectionId: 'posts', filter: { _updatedDate: { $gte: { $date: stamp } } }, publishPluginOptions: { includeDraftItems: true } })).totalCount).toBe(1);
      // Visitors see p1 only while it is published.
      const visible = (await ok(t, visitor, '/items/query', { dataCollectionId: 'posts', query: { sort: [{ fieldName: '_id', order: 'ASC' }] } })).dataItems.map((i: { id: string }) => i.id);
      expect(visible).toEqual(step.draft ? ['p2'] : ['p1', 'p2']);

      // The last event of p1 is an `updated` event carrying the item as answered.
      const events = await eventsOf(t, 'p1');
      expect(events.length).toBe(n + 2);
      const last = events[events.length - 1]!;
      expect({ fqdn: last.entityFqdn, slug: last.slug }).toEqual({ fqdn: FQDN, slug: 'updated' });
      expect((last.payload as { entity: unknown }).entity).toEqual(res.dataItem);
    }
    expect((await eventsOf(t, 'p1')).map((e) => `${e.entityFqdn} ${e.slug}`)).toEqual([
      `${FQDN} created`, `${FQDN} updated`, `${FQDN} updated`, `${FQDN} updated`, `${FQDN} updated`,
    ]);
    // Per step exactly two new outbox rows: p2's update, then p1's draft move.
    const added = (await outbox()).slice(outboxBefore.length);
    expect(added).toEqual(steps.flatMap(() => [`${FQDN} p2 updated`, `${FQDN} p1 updated`]));
  });

  it('honours suppressHooks for the owner only, like an update', async () => {
    await ok(t, owner, '/items', { dataCollectionId: 'open', dataItem: { id: 's1', data: {} } });
    const before = await stored('open', 's1');
    const res = await ok(t, owner, '/items/create-draft', { dataCollectionId: 'open', dataItemId: 's1', suppressHooks: true });
    const after = await stored('open', 's1');
    expect(after.draft).toBe(true);
    expect(res.dataItem.data._updatedDate).toEqual({ $date: after.updatedDate });
    expect(Date.parse(after.updatedDate)).toBeGreaterThan(Date.parse(before.updatedDate));
    expect((await eventsOf(t, 's1')).map((e) => e.slug)).toEqual(['created']);
    // A visitor's suppressHooks is ignored: the event is written.
    await ok(t, visitor, '/items/publish-draft', { dataCollectionId: 'open', dataItemId: 's1', suppressHooks: true });
    expect((await eventsOf(t, 's1')).map((e) => e.slug)).toEqual(['created', 'updated']);
    expect((await stored('open', 's1')).draft).toBe(false);
  });

  it('lets a member move their own item', async () => {
    const inserted = await ok(t, memberA, '/items', { dataCollectionId: 'notes', dataItem: { id: 'n1', data: { body: 'mine' } } });
    expect(inserted.dataItem.data._owner).toBe(A);
    const res = await ok(t, memberA, '/items/unpublish', { dataCollectionId: 'notes', dataItemId: 'n1' });
    const after = await stored('notes', 'n1');
    expect(res.dataItem.data).toEqual({ ...after.data, _id: 'n1' });
    expect(after.data._updatedDate).toEqual({ $date: after.updatedDate });
    expect((await eventsOf(t, 'n1')).map((e) => e.slug)).toEqual(['created', 'updated']);
  });

  it('lets exactly one of two concurrent publish calls move a draft', async () => {
    await ok(t, owner, '/items', { dataCollectionId: 'open', dataItem: { id: 'c1', data: {} } });
    await ok(t, owner, '/items/create-draft', { dataCollectionId: 'open', dataItemId: 'c1' });
    const results = await Promise.all([1, 2, 3].map(() => dataCall(t, owner, '/items/publish-draft', { dataCollectionId: 'open', dataItemId: 'c1' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectAppError(r, 409, 'ITEM_NOT_DRAFT');
    const winner = results.find((r) => r.status === 200)!;
    const after = await stored('open', 'c1');
    expect(winner.body.dataItem.data._updatedDate).toEqual({ $date: after.updatedDate });
    expect((await eventsOf(t, 'c1')).map((e) => e.slug)).toEqual(['created', 'updated', 'updated']);
  });
});

describe('refused draft calls change nothing', () => {
  it('leaves the item and the outbox as they were for bad ids, refused callers and wrong states', async () => {
    await ok(t, owner, '/items', { dataCollectionId: 'posts', dataItem: { id: 'r1', data: { title: 'Published' } } });
    await ok(t, owner, '/items', { dataCollectionId: 'posts', dataItem: { id: 'r2', data: { title: 'Draft' } } });
    await ok(t, owner, '/items/create-draft', { dataCollectionId: 'posts', dataItemId: 'r2' });
    await ok(t, memberA, '/items', { dataCollectionId: 'notes', dataItem: { id: 'rn', data: { body: 'a' } } });
    // The outbox as a set: rows written in the same millisecond have no order of their own (PostgreSQL
    // may return such ties either way), and "changes nothing" means the same rows.
    const snapshot = async () => ({
      r1: await stored('posts', 'r1'), r2: await stored('posts', 'r2'), rn: await stored('notes', 'rn'), outbox: (await outbox()).sort(),
    });
    const initial = await snapshot();
    expect((await outbox()).slice(-4)).toEqual([`${FQDN} r1 created`, `${FQDN} r2 created`, `${FQDN} r2 updated`, `${FQDN} rn created`]);
    const paths = ['/items/create-draft', '/items/publish-draft', '/items/unpublish'];
    const refusals: { auth: Auth; body: Record<string, unknown>; status: number; code: string; only?: string[] }[] = [
      // bad ids and input
      { auth: owner, body: { dataCollectionId: 'posts' }, status: 400, code: 'WDE0002' },
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: 7 }, status: 400, code: 'WDE0002' },
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: '' }, status: 400, code: 'WDE0002' },
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: 'missing' }, status: 404, code: 'WDE0073' },
      { auth: owner, body: { dataItemId: 'r1' }, status: 400, code: 'WDE0001' },
      { auth: owner, body: { dataCollectionId: 'nope', dataItemId: 'r1' }, status: 404, code: 'WDE0025' },
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: 'r1', suppressHooks: 'yes' }, status: 400, code: 'WDE0018' },
      // not allowed: visitors and members may not update `posts`; B's view of A's note is empty
      { auth: visitor, body: { dataCollectionId: 'posts', dataItemId: 'r1' }, status: 403, code: 'WDE0027' },
      { auth: visitor, body: { dataCollectionId: 'posts', dataItemId: 'r2' }, status: 403, code: 'WDE0027' },
      { auth: memberB, body: { dataCollectionId: 'posts', dataItemId: 'r1' }, status: 403, code: 'WDE0027' },
      { auth: visitor, body: { dataCollectionId: 'notes', dataItemId: 'rn' }, status: 403, code: 'WDE0027' },
      { auth: memberB, body: { dataCollectionId: 'notes', dataItemId: 'rn' }, status: 404, code: 'WDE0073' },
      // wrong state: r1 is published, r2 is a draft
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: 'r1' }, status: 409, code: 'ITEM_NOT_DRAFT', only: ['/items/publish-draft'] },
      { auth: owner, body: { dataCollectionId: 'posts', dataItemId: 'r2' }, status: 409, code: 'ITEM_ALREADY_DRAFT', only: ['/items/create-draft', '/items/unpublish'] },
      { auth: memberA, body: { dataCollectionId: 'notes', dataItemId: 'rn' }, status: 409, code: 'ITEM_NOT_DRAFT', only: ['/items/publish-draft'] },
    ];
    let checked = 0;
    for (const refusal of refusals) {
      for (const path of refusal.only ?? paths) {
        const res = await dataCall(t, refusal.auth, path, refusal.body);
        expectAppError(res, refusal.status, refusal.code);
        expect(await snapshot()).toEqual(initial);
        checked += 1;
      }
    }
    expect(checked).toBe(12 * 3 + 1 + 2 + 1);
    // Without credentials the route refuses before the service.
    const anonymous = await call(t.url, '/wix-data/v2/items/create-draft', { siteId: t.site.id, body: { dataCollectionId: 'posts', dataItemId: 'r1' } });
    expect(anonymous.status).toBe(401);
    expect(await snapshot()).toEqual(initial);
  });
});
