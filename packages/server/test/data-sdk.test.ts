import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { collections, indexes, items } from '@wix/data';
import { usePublicClientServer } from './public-client.js';

/**
 * The public `@wix/data` client against our server (docs/conformance.md): its API hosts are
 * rewritten to the test server by wrapping the global fetch.
 */
const f = usePublicClientServer();

const ownerClient = () => createClient({ modules: { items, collections, indexes }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });
const visitorClient = () => createClient({ modules: { items }, auth: OAuthStrategy({ clientId: f.t.clientId }) });

describe('@wix/data against our server', () => {
  it('manages collections and indexes', async () => {
    const c = ownerClient();
    const created = await c.collections.createDataCollection({
      _id: 'sdk_books',
      displayName: 'Books',
      fields: [
        { key: 'title', type: 'TEXT' }, { key: 'pages', type: 'NUMBER' }, { key: 'genre', type: 'TEXT' }, { key: 'published', type: 'DATETIME' },
        { key: 'related', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'sdk_books' } } },
      ],
      permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' },
    });
    expect(created._id).toBe('sdk_books');
    expect(created._createdDate).toBeInstanceOf(Date);
    const got = await c.collections.getDataCollection('sdk_books');
    expect(got.fields?.map((f) => f.key)).toEqual(['_id', '_createdDate', '_updatedDate', '_owner', 'title', 'pages', 'genre', 'published', 'related']);
    const index = await c.indexes.createIndex('sdk_books', { name: 'by_pages', fields: [{ path: 'pages', order: 'ASC' }] });
    expect(index.status).toBe('ACTIVE');
    const listed = await c.indexes.listIndexes('sdk_books');
    expect(listed.indexes?.map((i) => i.name)).toEqual(['by_pages']);
  });

  it('inserts, gets, saves, updates, patches and removes; dates come back as Date', async () => {
    const c = visitorClient();
    const inserted = await c.items.insert('sdk_books', { _id: 'dune', title: 'Dune', pages: 412, genre: 'scifi', published: new Date('1965-08-01T00:00:00Z') });
    expect(inserted._id).toBe('dune');
    expect(inserted.published).toEqual(new Date('1965-08-01T00:00:00Z'));
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(await c.items.get('sdk_books', 'missing')).toBeNull();
    expect(await c.items.remove('sdk_books', 'missing')).toBeNull();
    const got = await c.items.get('sdk_books', 'dune');
    expect(got?.title).toBe('Dune');
    await expect(c.items.insert('sdk_books', { _id: 'dune' })).rejects.toMatchObject({ details: { applicationError: { code: 'WDE0074' } } });
    const saved = await c.items.save('sdk_books', { _id: 'emma', title: 'Emma', pages: 200, genre: 'classic' });
    expect(saved.title).toBe('Emma');
    const updated = await c.items.update('sdk_books', { _id: 'emma', title: 'Emma', pages: 210, genre: 'classic' });
    expect(updated.pages).toBe(210);
    const patched = await c.items.patch('sdk_books', 'emma').incrementField('pages', 5).appendToArray('tags', 'novel').run();
    expect(patched?.pages).toBe(215);
    expect(patched?.tags).toEqual(['novel']);
    const removed = await c.items.remove('sdk_books', 'emma');
    expect(removed?._id).toBe('emma');
    await expect(c.items.query('sdk_books').eq('title', { $regex: 'x' } as never).find()).rejects.toThrow();
  });

  it('bulk calls report per item; WDE0074 is skipped by bulk insert', async () => {
    const c = visitorClient();
    const books = Array.from({ length: 12 }, (_, i) => ({ _id: `b${String(i).padStart(2, '0')}`, title: `Book ${i}`, pages: 100 + i * 10, genre: i % 2 ? 'scifi' : 'classic' }));
    const res = await c.items.bulkInsert('sdk_books', [...books, { _id: 'dune' }]);
    expect({ inserted: res.inserted, skipped: res.skipped, errors: res.errors.length }).toEqual({ inserted: 12, skipped: 1, errors: 0 });
    const upd = await c.items.bulkUpdate('sdk_books', [{ ...books[0]!, pages: 999 } as { _id: string }, { _id: 'ghost' }]);
    expect({ updated: upd.updated, skipped: upd.skipped }).toEqual({ updated: 1, skipped: 1 });
    const rem = await c.items.bulkRemove('sdk_books', ['b11', 'ghost']);
    expect(rem.removed).toBe(1);
  });

  it('queries with the query builder, pages with next(), counts, distinct, aggregates', async () => {
    const c = visitorClient();
    const first = await c.items.query('sdk_books').eq('genre', 'scifi').gt('pages', 120).descending('pages').limit(2).find({ returnTotalCount: true });
    expect(first.items.map((i) => i._id)).toEqual(['dune', 'b09']);
    expect(first.totalCount).toBe(5);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((i) => i._id)).toEqual(['b07', 'b05']);
    expect(await c.items.query('sdk_books').startsWith('title', 'book').count()).toBe(11);
    const distinct = await c.items.query('sdk_books').ascending('genre').distinct('genre');
    expect(distinct.items).toEqual(['classic', 'scifi']);
    const agg = await c.items.aggregate('sdk_books').group('genre').count().sum('pages', 'total').run();
    const byGenre = Object.fromEntries(agg.items.map((r: Record<string, unknown>) => [r._id as string, [r.count, r.total]]));
    expect(byGenre).toEqual({ classic: [6, 100 + 120 + 140 + 160 + 180 + 200 + 899], scifi: [6, 110 + 130 + 150 + 170 + 190 + 412] });
    const projected = await c.items.query('sdk_books').eq('_id', 'dune').fields('title').find();
    expect(projected.items).toEqual([{ _id: 'dune', title: 'Dune' }]);
    // The client sent the query as GET .r (short) and everything else as POST.
    expect(f.routing.requests.map((r) => `${r.method} ${r.url.replace(f.t.url, '').split('?')[0]}${r.url.includes('?.r=') ? '?.r' : ''}`)).toContain('GET /wix-data/v2/items/query?.r');
  });

  it('references: insert, is-referenced, query-referenced, include in queries', async () => {
    const c = visitorClient();
    await c.items.insertReference('sdk_books', 'related', 'dune', ['b01', 'b03']);
    expect(await c.items.isReferenced('sdk_books', 'related', 'dune', 'b01')).toBe(true);
    expect(await c.items.isReferenced('sdk_books', 'related', 'dune', 'b02')).toBe(false);
    const refs = await c.items.queryReferenced('sdk_books', 'dune', 'related');
    expect(refs.items.map((i) => i._id)).toEqual(['b01', 'b03']);
    const withRefs = await c.items.query('sdk_books').eq('_id', 'dune').include('related').find();
    expect((withRefs.items[0]!.related as { _id: string }[]).map((r) => r._id)).toEqual(['b01', 'b03']);
    await c.items.replaceReferences('sdk_books', 'related', 'dune', ['b05']);
    expect((await c.items.queryReferenced('sdk_books', 'dune', 'related')).items.map((i) => i._id)).toEqual(['b05']);
    await c.items.removeReference('sdk_books', 'related', 'dune', 'b05');
    expect((await c.items.queryReferenced('sdk_books', 'dune', 'related')).items).toEqual([]);
  });
});
