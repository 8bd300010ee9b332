import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { collections } from '../src/modules/data/index.js';
import { dotR, recordingFetch } from './helpers.js';

/** `@vitrine/sdk/data` -> `collections` (owner calls on data collection definitions) over real HTTP. */
let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
const admin = () => createClient({ modules: { collections }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: rec.fetch });
const ANYONE = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
});
afterAll(() => t?.close());

describe('data collections', () => {
  it('creates, lists with paging, gets and deletes collections', async () => {
    const a = admin();
    const created = await a.collections.createDataCollection({ _id: 'recipes', displayName: 'Recipes', fields: [{ key: 'title', type: 'TEXT' }, { key: 'minutes', type: 'NUMBER' }], permissions: ANYONE });
    expect(rec.calls.at(-1)!.body).toMatchObject({ collection: { id: 'recipes', displayName: 'Recipes' } });
    expect(created).toMatchObject({ _id: 'recipes', displayName: 'Recipes', permissions: ANYONE });
    expect(created.fields.filter((f) => !f.systemField).map((f) => [f.key, f.type])).toEqual([['title', 'TEXT'], ['minutes', 'NUMBER']]);
    await a.collections.createDataCollection({ _id: 'notes', fields: [{ key: 'text', type: 'TEXT' }], permissions: ANYONE });

    const first = await a.collections.listDataCollections({ paging: { limit: 1, offset: 0 } });
    expect(dotR(rec.calls.at(-1)!)).toEqual({ paging: { limit: 1, offset: 0 } });
    expect(first.collections).toHaveLength(1);
    expect(first.pagingMetadata).toMatchObject({ count: 1, offset: 0, total: 2 });
    const all = await a.collections.listDataCollections();
    expect(all.collections.map((c) => c._id).sort()).toEqual(['notes', 'recipes']);

    const got = await a.collections.getDataCollection('recipes');
    expect(got).toMatchObject({ _id: 'recipes', displayName: 'Recipes' });

    await a.collections.deleteDataCollection('notes');
    expect(rec.calls.at(-1)!.method).toBe('DELETE');
    expect((await a.collections.listDataCollections()).collections.map((c) => c._id)).toEqual(['recipes']);
    const gone = await a.collections.getDataCollection('notes').catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VitrineError);
    expect(gone).toMatchObject({ status: 404 });
    expect((gone as Error).message).toMatch(/notes/);
  });

  it('refuses a visitor and a bad page size', async () => {
    const visitor = createClient({ modules: { collections }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
    const refused = await visitor.collections.listDataCollections().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VitrineError);
    expect((refused as VitrineError).status).toBe(403);
    const bad = await admin().collections.listDataCollections({ paging: { limit: 0 } }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'validation', code: 'INVALID_ARGUMENT', status: 400 });
  });
});
