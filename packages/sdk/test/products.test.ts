import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, CONSISTENT_HEADER, GET_QUERY_MAX_CHARS } from '../src/index.js';
import { products } from '../src/modules/stores/index.js';
import { dotR, recordingFetch } from './helpers.js';

let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
let client: ReturnType<typeof makeClient>;

function makeClient() {
  return createClient({ modules: { products }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: rec.fetch });
}

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
  client = makeClient();
});
afterAll(() => t?.close());

const names = (items: { name: string }[]) => items.map((p) => p.name);
const lastApiCall = () => rec.calls.filter((c) => c.url.pathname !== '/oauth2/token').at(-1)!;

describe('queryProducts builder', () => {
  it('lists with defaults: one page of 50 holding all 26', async () => {
    const res = await client.products.queryProducts().find();
    expect(res).toMatchObject({ totalCount: 26, pageSize: 50, currentPage: 0, totalPages: 1, length: 26 });
    expect(res.hasNext()).toBe(false);
    expect(res.hasPrev()).toBe(false);
    await expect(res.next()).rejects.toThrow(new Error('No next page to fetch'));
    await expect(res.prev()).rejects.toThrow(new Error('No previous page to fetch'));
    const call = lastApiCall();
    expect(call.method).toBe('GET');
    expect(call.url.pathname).toBe('/stores-reader/v1/products/query-platformized');
    expect([...call.url.searchParams.keys()]).toEqual(['.r']);
    expect(dotR(call)).toEqual({ query: { filter: {}, paging: { limit: 50, offset: 0 } } });
  });

  it('pages forward and back with next() and prev()', async () => {
    const all = names((await client.products.queryProducts().limit(100).find()).items);
    const p0 = await client.products.queryProducts().limit(10).find();
    expect(p0).toMatchObject({ totalCount: 26, pageSize: 10, currentPage: 0, totalPages: 3, length: 10 });
    expect(p0.hasNext()).toBe(true);
    const p1 = await p0.next();
    const p2 = await p1.next();
    expect(p2).toMatchObject({ currentPage: 2, length: 6 });
    expect(p2.hasNext()).toBe(false);
    expect(p2.hasPrev()).toBe(true);
    await expect(p2.next()).rejects.toThrow('No next page to fetch');
    const back = await p2.prev();
    expect(names(back.items)).toEqual(names(p1.items));
    expect([...names(p0.items), ...names(p1.items), ...names(p2.items)]).toEqual(all);
    const skipped = await client.products.queryProducts().limit(5).skip(20).find();
    expect(skipped).toMatchObject({ currentPage: 4, totalPages: 6, length: 5 });
    expect(names(skipped.items)).toEqual(all.slice(20, 25));
    expect(dotR(lastApiCall())).toMatchObject({ query: { paging: { limit: 5, offset: 20 } } });
  });

  it('filters and sorts', async () => {
    const expensive = await client.products.queryProducts().gt('priceData.price', 40).descending('price').find();
    expect(names(expensive.items)).toEqual(['Hand Grinder', 'Gooseneck Kettle', 'Roaster Hoodie', 'Gift Card', 'Tasting Gift Box', 'Digital Scale']);
    expect(dotR(lastApiCall())).toEqual({ query: { filter: { 'priceData.price': { $gt: 40 } }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 50, offset: 0 } } });

    const q = () => client.products.queryProducts();
    expect(names((await q().startsWith('name', 'ro').ascending('name').find()).items)).toEqual(['Roaster Hoodie', 'Rooibos Vanilla']);
    expect(names((await q().ge('priceData.price', 45).le('priceData.price', 55).ascending('priceData.price').find()).items)).toEqual(['Digital Scale', 'Tasting Gift Box', 'Gift Card', 'Roaster Hoodie']);
    expect(names((await q().lt('priceData.price', 10).ascending('name').find()).items)).toEqual(['Paper Filters (100)', 'Rooibos Vanilla']);
    expect(names((await q().endsWith('name', 'press').find()).items)).toEqual(['French Press']);
    expect(names((await q().contains('name', 'gift').ascending('name').find()).items)).toEqual(['Gift Card', 'Tasting Gift Box']);
    expect(names((await q().in('slug', ['ceramic-mug', 'knit-beanie']).ascending('name').find()).items)).toEqual(['Ceramic Mug', 'Knit Beanie']);
    expect(names((await q().eq('ribbon', 'Sale').ne('brand', 'Leaf & Co').ascending('name').find()).items)).toEqual(['Gooseneck Kettle', 'Kenya Nyeri AA', 'Knit Beanie']);
    expect((await q().exists('brand', false).find()).totalCount).toBe(1);
    expect((await q().isEmpty('brand').find()).totalCount).toBe(1);
    expect((await q().isNotEmpty('ribbon').find()).totalCount).toBe(7);
    expect(names((await q().eq('brand', 'Leaf & Co').not(q().eq('name', 'Matcha Ceremonial').or(q().lt('priceData.price', 11))).ascending('name').find()).items))
      .toEqual(['Darjeeling First Flush', 'Jasmine Pearls', 'Sencha Kagoshima']);
    expect(names((await q().eq('name', 'Ceramic Mug').or(q().eq('name', 'Gift Card')).and(q().lt('priceData.price', 20)).find()).items)).toEqual(['Ceramic Mug']);
  });

  it('filters by collection with hasSome and by _id (renamed on the wire)', async () => {
    const sencha = (await client.products.queryProducts().eq('slug', 'sencha-kagoshima').find()).items[0]!;
    const tea = await client.products.queryProducts().hasSome('collections.id', sencha.collectionIds[0]).find();
    expect(tea.totalCount).toBe(6);
    const byId = await client.products.queryProducts().eq('_id', sencha._id).find();
    expect(names(byId.items)).toEqual(['Sencha Kagoshima']);
    expect(dotR(lastApiCall())).toMatchObject({ query: { filter: { id: sencha._id } } });
    const sorted = await client.products.queryProducts().ascending('_createdDate', 'name').limit(2).find();
    expect(sorted.length).toBe(2);
    expect(dotR(lastApiCall())).toMatchObject({ query: { sort: [{ fieldName: 'createdDate', order: 'ASC' }, { fieldName: 'name', order: 'ASC' }] } });
  });

  it('sends Date values as ISO text', async () => {
    const until = new Date(Date.now() + 60_000);
    const res = await client.products.queryProducts().lt('_createdDate', until).find();
    expect(res.totalCount).toBe(26);
    expect(dotR(lastApiCall())).toMatchObject({ query: { filter: { createdDate: { $lt: until.toISOString() } } } });
  });

  it('falls back to POST when the GET query string passes 4000 characters', async () => {
    const slugs = Array.from({ length: 80 }, (_, i) => `no-such-product-with-a-long-slug-${i}`);
    const res = await client.products.queryProducts().in('slug', [...slugs, 'hand-grinder']).find();
    expect(names(res.items)).toEqual(['Hand Grinder']);
    const call = lastApiCall();
    expect(call.method).toBe('POST');
    expect(call.url.search).toBe('');
    expect(call.body).toMatchObject({ query: { filter: { slug: { $in: [...slugs, 'hand-grinder'] } } } });
    expect(Buffer.from(JSON.stringify(call.body)).toString('base64url').length).toBeGreaterThan(GET_QUERY_MAX_CHARS);
  });
});

describe('getProduct', () => {
  it('renames id fields, decodes dates, sends the id as a query field too', async () => {
    const { items } = await client.products.queryProducts().eq('slug', 'hand-grinder').find();
    const id = items[0]!._id;
    const { product } = await client.products.getProduct(id, { includeMerchantSpecificData: true });
    expect(product).toMatchObject({ _id: id, name: 'Hand Grinder', price: { price: 89, currency: 'USD', formatted: { price: '$89.00' } } });
    expect(product).not.toHaveProperty('id');
    expect(product).not.toHaveProperty('createdDate');
    expect(product._createdDate).toBeInstanceOf(Date);
    expect(product.lastUpdated).toBeInstanceOf(Date);
    expect(product._createdDate.getTime()).toBeLessThanOrEqual(Date.now());
    expect(product.media.items[0]!._id).toMatch(/^[0-9a-f]{32}$/);
    expect(product.costAndProfitData).toBeUndefined(); // visitors never get merchant data
    const call = lastApiCall();
    expect(call.url.pathname).toBe(`/stores-reader/v1/products/${id}`);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ id, includeMerchantSpecificData: 'true' });
    expect(items[0]!._createdDate).toBeInstanceOf(Date);
  });
});

describe('X-Wix-Consistent', () => {
  it('echoes the header of a write on later calls of the same client', async () => {
    const owner = recordingFetch();
    const admin = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: owner.fetch });
    await admin.products.queryProducts().limit(1).find();
    expect(owner.calls[0]!.headers.get(CONSISTENT_HEADER)).toBeNull();
    const { product } = await admin.products.createProduct({ name: 'Consistency Cup', priceData: { price: 12.5 } });
    expect(product).toMatchObject({ name: 'Consistency Cup', slug: 'consistency-cup', priceData: { price: 12.5 } });
    expect(product._createdDate).toBeInstanceOf(Date);
    const after = await admin.products.getProduct(product._id);
    expect(after.product.name).toBe('Consistency Cup');
    const echoed = owner.calls.at(-1)!.headers.get(CONSISTENT_HEADER);
    expect(echoed).toMatch(/^\d+$/);
    // A client that never wrote sends nothing.
    const fresh = makeClient();
    await fresh.products.getProduct(product._id);
    expect(lastApiCall().headers.get(CONSISTENT_HEADER)).toBeNull();
  });
});
