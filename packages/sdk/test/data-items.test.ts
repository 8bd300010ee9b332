import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { items } from '../src/modules/data/index.js';
import { createOpenCollection, dotR, recordingFetch } from './helpers.js';

let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
let client: ReturnType<typeof makeClient>;

function makeClient() {
  return createClient({ modules: { items }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: rec.fetch });
}
const apiCalls = () => rec.calls.filter((c) => c.url.pathname !== '/oauth2/token');

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
  client = makeClient();
  await createOpenCollection(t, 'movies', [
    { key: 'title', type: 'TEXT' }, { key: 'year', type: 'NUMBER' }, { key: 'released', type: 'DATETIME' },
    { key: 'cast', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'movies' } } },
  ]);
});
afterAll(() => t?.close());

const rejectsWith = async (promise: Promise<unknown> | (() => unknown), code: string) => {
  let caught: unknown;
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(VitrineError);
  expect((caught as VitrineError).code).toBe(code);
  return caught as VitrineError;
};

describe('items module', () => {
  it('writes and reads items with dates as Date and $date on the wire; null for missing', async () => {
    const released = new Date('1977-05-25T00:00:00Z');
    const inserted = await client.items.insert('movies', { _id: 'sw', title: 'Star Wars', year: 1977, released });
    expect(inserted).toMatchObject({ _id: 'sw', title: 'Star Wars', year: 1977, released });
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(apiCalls().at(-1)!.body).toEqual({ dataCollectionId: 'movies', dataItem: { id: 'sw', data: { _id: 'sw', title: 'Star Wars', year: 1977, released: { $date: '1977-05-25T00:00:00.000Z' } } } });
    expect((await client.items.get('movies', 'sw'))?.released).toEqual(released);
    expect(await client.items.get('movies', 'nope')).toBeNull();
    expect(await client.items.remove('movies', 'nope')).toBeNull();
    await rejectsWith(client.items.insert('movies', { _id: 'sw' }), 'WDE0074');
    const saved = await client.items.save('movies', { _id: 'esb', title: 'Empire', year: 1980 });
    expect(saved.year).toBe(1980);
    const patched = await client.items.patch('movies', 'esb').incrementField('year', 1).setField('tagline', 'x').run();
    expect(patched).toMatchObject({ year: 1981, tagline: 'x' });
    expect(await client.items.patch('movies', 'nope').removeField('x').run()).toBeNull();
    const updated = await client.items.update('movies', { _id: 'esb', title: 'Empire', year: 1980 });
    expect(updated.tagline).toBeUndefined();
  });

  it('checks arguments on the client with the public WDE codes', async () => {
    await rejectsWith(() => client.items.get(5 as unknown as string, 'x'), 'WDE0001');
    await rejectsWith(() => client.items.get('movies', 5 as unknown as string), 'WDE0002');
    await rejectsWith(() => client.items.bulkInsert('movies', ['x'] as unknown as Record<string, unknown>[]), 'WDE0005');
    await rejectsWith(() => client.items.bulkInsert('movies', Array.from({ length: 1001 }, () => ({}))), 'WDE0006');
    await rejectsWith(() => client.items.bulkRemove('movies', Array.from({ length: 1001 }, (_, i) => `i${i}`)), 'WDE0069');
    await rejectsWith(() => client.items.query('movies').eq('title', { $regex: 'S' }).find(), 'WDE0070');
    await rejectsWith(() => client.items.update('movies', { title: 'no id' }), 'WDE0007');
    const before = apiCalls().length;
    await rejectsWith(() => client.items.query('movies').limit(0), 'WDE0033');
    expect(apiCalls().length).toBe(before);
    const big = await rejectsWith(client.items.insert('movies', { blob: 'x'.repeat(600 * 1024) }), 'WDE0109');
    expect(big.status).toBe(413);
  });

  it('bulk calls and the query builder (GET .r up to 2048 characters, POST beyond), paging, count, distinct', async () => {
    const res = await client.items.bulkInsert('movies', [...Array.from({ length: 8 }, (_, i) => ({ _id: `m${i}`, title: `Movie ${i}`, year: 2000 + i })), { _id: 'sw' }]);
    expect({ inserted: res.inserted, skipped: res.skipped, errors: res.errors.length }).toEqual({ inserted: 8, skipped: 1, errors: 0 });
    const page = await client.items.query('movies').ge('year', 2000).descending('year').limit(3).find({ returnTotalCount: true });
    const get = apiCalls().at(-1)!;
    expect(get.method).toBe('GET');
    expect(dotR(get)).toMatchObject({ dataCollectionId: 'movies', query: { filter: { year: { $gte: 2000 } }, sort: [{ fieldName: 'year', order: 'DESC' }], paging: { limit: 3, offset: 0 } } });
    expect(page.items.map((i) => i._id)).toEqual(['m7', 'm6', 'm5']);
    expect(page.totalCount).toBe(8);
    const second = await page.next();
    expect(second.items.map((i) => i._id)).toEqual(['m4', 'm3', 'm2']);
    const last = await (await second.next()).prev();
    expect(last.items.map((i) => i._id)).toEqual(['m4', 'm3', 'm2']);
    const end = await client.items.query('movies').ge('year', 2006).find();
    await rejectsWith(() => end.next(), 'WDE0165');
    await rejectsWith(() => end.prev(), 'WDE0159');
    const long = await client.items.query('movies').in('_id', Array.from({ length: 400 }, (_, i) => `m${i}`)).find();
    expect(apiCalls().at(-1)!.method).toBe('POST');
    expect(long.items).toHaveLength(8);
    expect(await client.items.query('movies').startsWith('title', 'movie').count()).toBe(8);
    expect(await client.items.count('movies', { year: { $lt: 2002 } })).toBe(4);
    expect((await client.items.query('movies').lt('year', 2003).ascending('year').distinct('year')).items).toEqual([1977, 1980, 2000, 2001, 2002]);
    const upd = await client.items.bulkUpdate('movies', [{ _id: 'm0', title: 'Zero', year: 2000 }, { _id: 'ghost' }]);
    expect({ updated: upd.updated, skipped: upd.skipped }).toEqual({ updated: 1, skipped: 1 });
    const bp = await client.items.bulkPatch('movies', ['m1', 'm2']).incrementField('year', 100).run();
    expect(bp.updatedItemIds).toEqual(['m1', 'm2']);
    const rem = await client.items.bulkRemove('movies', ['m7', 'ghost']);
    expect(rem.removedItemIds).toEqual(['m7']);
  });

  it('aggregates and references', async () => {
    const agg = await client.items.aggregate('movies').filter(client.items.filter().ge('year', 2000)).group('title').count().max('year', 'latest').descending('latest').limit(2).run();
    expect(agg.items).toEqual([{ _id: 'Movie 2', title: 'Movie 2', count: 1, latest: 2102 }, { _id: 'Movie 1', title: 'Movie 1', count: 1, latest: 2101 }]);
    await client.items.insertReference('movies', 'cast', 'sw', ['m3', 'm4']);
    expect(await client.items.isReferenced('movies', 'cast', { _id: 'sw' }, 'm3')).toBe(true);
    expect((await client.items.queryReferenced('movies', 'sw', 'cast')).items.map((i) => i._id)).toEqual(['m3', 'm4']);
    await client.items.replaceReferences('movies', 'cast', 'sw', ['m5']);
    await client.items.removeReference('movies', 'cast', 'sw', 'm5');
    expect((await client.items.queryReferenced('movies', 'sw', 'cast')).items).toEqual([]);
    const owner = createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
    const job = await owner.items.asyncRemoveByFilter('movies', { year: { $gte: 2100 } });
    let status = await owner.items.getAsyncJobStatus(job.jobId);
    for (let i = 0; i < 100 && status.status !== 'SUCCEEDED'; i++) status = await owner.items.getAsyncJobStatus(job.jobId);
    expect(status).toEqual({ status: 'SUCCEEDED', successCount: 2 });
  });
});
