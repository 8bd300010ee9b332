import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { createClient, cursorQuery, OAuthStrategy, type ClientCore, type CursorQuery, type CursorRequest } from '../src/index.js';

/**
 * The cursor builder over real HTTP. No cursor-paged endpoint exists yet (catalog V3 comes later), so
 * this adapter pages the V1 product query with cursors that bind filter, sort and offset, the way the
 * server's cursors bind them; what it checks is the builder: request shapes, next/prev, errors.
 */
let t: TestServer;
let client: ClientCore;
const sent: CursorRequest[] = [];

interface Bound { filter: CursorQuery['filter']; sort?: CursorQuery['sort']; offset: number }
const pack = (b: Bound) => Buffer.from(JSON.stringify(b)).toString('base64url');
const unpack = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Bound;

function queryNames() {
  return cursorQuery<{ name: string }, 'name' | 'brand' | 'priceData.price'>(async (request) => {
    sent.push(request);
    const limit = request.cursorPaging.limit;
    const bound: Bound = 'filter' in request ? { filter: request.filter, sort: request.sort, offset: 0 } : unpack(request.cursorPaging.cursor);
    const res = await client.request<{ products: { name: string }[]; metadata: { total: number } }>({
      method: 'GET', path: '/stores-reader/v1/products/query-platformized', postTwin: true,
      payload: { query: { filter: bound.filter, sort: bound.sort, paging: { limit, offset: bound.offset } } },
    });
    const nextOffset = bound.offset + limit;
    return {
      items: res.products,
      cursors: { next: nextOffset < res.metadata.total ? pack({ ...bound, offset: nextOffset }) : null, prev: bound.offset > 0 ? pack({ ...bound, offset: Math.max(0, bound.offset - limit) }) : null },
      hasNext: nextOffset < res.metadata.total,
    };
  });
}

beforeAll(async () => {
  t = await startTestServer();
  client = createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
});
afterAll(() => t?.close());

describe('cursorQuery builder', () => {
  it('sends the full query first, then only cursorPaging, and pages both ways', async () => {
    const first = await queryNames().eq('brand', 'Leaf & Co').ascending('name').limit(4).find();
    expect(sent.at(-1)).toEqual({ filter: { brand: 'Leaf & Co' }, sort: [{ fieldName: 'name', order: 'ASC' }], cursorPaging: { limit: 4 } });
    expect(first.items.map((p) => p.name)).toEqual(['Darjeeling First Flush', 'Earl Grey Supreme', 'Jasmine Pearls', 'Matcha Ceremonial']);
    expect(first).toMatchObject({ length: 4, pageSize: 4, cursors: { prev: undefined } });
    expect(first.hasNext()).toBe(true);
    expect(first.hasPrev()).toBe(false);
    await expect(first.prev()).rejects.toThrow('No previous page to fetch');

    const second = await first.next();
    expect(sent.at(-1)).toEqual({ cursorPaging: { limit: 4, cursor: first.cursors.next } });
    expect(second.items.map((p) => p.name)).toEqual(['Rooibos Vanilla', 'Sencha Kagoshima']);
    expect(second.hasNext()).toBe(false);
    await expect(second.next()).rejects.toThrow('No next page to fetch');

    const back = await second.prev();
    expect(back.items.map((p) => p.name)).toEqual(first.items.map((p) => p.name));
    const resumed = await queryNames().limit(4).skipTo(first.cursors.next!).find();
    expect(resumed.items.map((p) => p.name)).toEqual(['Rooibos Vanilla', 'Sencha Kagoshima']);
  });
});

describe('client extras', () => {
  it('fetchWithAuth resolves a path against the host and adds auth', async () => {
    const res = await client.fetchWithAuth('/stores-reader/v1/products/query-platformized', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":{"paging":{"limit":2}}}' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { products: unknown[] }).products).toHaveLength(2);
  });

  it('setHeaders adds headers to later calls', async () => {
    const seen: Headers[] = [];
    const c = createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, headers: { 'x-a': '1' }, fetch: (input, init) => { seen.push(new Headers(init?.headers)); return fetch(input, init); } });
    c.setHeaders({ 'x-b': '2' });
    await c.request({ method: 'GET', path: '/healthz' });
    const last = seen.at(-1)!;
    expect([last.get('x-a'), last.get('x-b')]).toEqual(['1', '2']);
    expect(last.get('authorization')).toBeTruthy();
  });
});
