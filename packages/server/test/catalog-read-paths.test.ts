import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { findProduct } from '../src/domains/catalog/store.js';
import { absoluteUrlsInJson, presentProduct } from '../src/domains/catalog/present.js';
import type { RequestContext } from '../src/http/context.js';
import { inTransaction } from '../src/storage/transaction.js';
import { cachedListingPage, LISTING_PAGE_CACHE_BYTES, LISTING_PAGE_MAX_BYTES, listingChanged } from '../src/domains/catalog/store-listing.js';
import type { Executor } from '../src/storage/database.js';

/**
 * Visitor reads send the stored visitor document (`products.public_doc`) instead of presenting the
 * parsed product: the bytes must decode to exactly what `presentProduct` gives for a visitor, after
 * every kind of write that changes a product.
 */
let t: TestServer;
let visitor: string;
const png = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='}`;

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

async function expectedVisitorView(id: string) {
  const product = await findProduct(t.server.deps.storage.db, t.site.id, id);
  const ctx = { caller: { kind: 'visitor' }, origin: t.url } as unknown as RequestContext;
  return JSON.parse(JSON.stringify(presentProduct(ctx, product!, false)));
}

async function visitorGet(id: string) {
  const res = await call(t.url, `/stores-reader/v1/products/${id}`, { auth: visitor });
  expect(res.status).toBe(200);
  return res.body.product;
}

/** A V3 product of one variant, stock tracked (1 unit), under `brand`; fails the test unless created. */
async function createV3Kettle(name: string, brand: string) {
  const made = await call(t.url, '/stores/v3/products-with-inventory', { ...asOwner(t), body: { product: {
    name, productType: 'PHYSICAL', brand: { name: brand },
    variantsInfo: { variants: [{ price: { actualPrice: { amount: '30' } }, inventoryItem: { trackQuantity: true, quantity: 1 } }] },
  } } });
  expect(made.status).toBe(200);
  return made.body.product;
}

describe('stored visitor document', () => {
  it('answers what presentProduct gives a visitor, through creates, media, variants, collections and stock changes', async () => {
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: {
      name: 'Public Doc Mug', priceData: { price: 12 }, costAndProfitData: { itemCost: 4 }, sku: 'PD-1',
      seoData: { tags: [{ type: 'link', props: { rel: 'image_src', url: '/media/seo.png' } }] },
      productOptions: [{ optionType: 'color', name: 'Color', choices: [{ value: '#000000', description: 'Black' }, { value: '#ffffff', description: 'White' }] }],
      stock: { trackInventory: true, quantity: 5 },
    } } });
    expect(created.status).toBe(200);
    const id: string = created.body.product.id;
    expect(await visitorGet(id)).toEqual(await expectedVisitorView(id));

    const media = await call(t.url, `/stores/v1/products/${id}/media`, { ...asOwner(t), body: { media: [
      { url: png }, { url: png, choice: { option: 'Color', choice: 'Black' } }, { url: 'https://cdn.example.com/a/poster.jpg' },
    ] } });
    expect(media.status).toBe(200);
    const afterMedia = await visitorGet(id);
    expect(afterMedia).toEqual(await expectedVisitorView(id));
    expect(afterMedia.media.mainMedia.image.url.startsWith(`${t.url}/media/`)).toBe(true);
    expect(afterMedia.media.items[2].image.url).toBe('https://cdn.example.com/a/poster.jpg');
    expect(afterMedia.costAndProfitData).toBeUndefined();
    expect(afterMedia.seoData.tags[0].props.url).toBe(`${t.url}/media/seo.png`);
    expect(afterMedia.variants.every((v: { variant: Record<string, unknown> }) => !('costAndProfitData' in v.variant))).toBe(true);

    const variantId = afterMedia.variants[0].id;
    expect((await call(t.url, `/stores/v1/products/${id}/variants`, { method: 'PATCH', ...asOwner(t), body: { variants: [{ variantIds: [variantId], price: 15, cost: 5 }] } })).status).toBe(200);
    const col = await call(t.url, '/stores/v1/collections', { ...asOwner(t), body: { collection: { name: 'Public Doc Mugs' } } });
    expect((await call(t.url, `/stores/v1/collections/${col.body.collection.id}/productIds`, { ...asOwner(t), body: { productIds: [id] } })).status).toBe(200);
    expect((await call(t.url, '/stores/v2/inventoryItems/product/' + id, { method: 'PATCH', ...asOwner(t), body: { inventoryItem: { trackQuantity: true, variants: [{ variantId, quantity: 0 }] } } })).status).toBe(200);

    const final = await visitorGet(id);
    expect(final).toEqual(await expectedVisitorView(id));
    expect(final.collectionIds).toEqual([col.body.collection.id]);
    expect(final.variants.find((v: { id: string }) => v.id === variantId).stock.inStock).toBe(false);

    const page = await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { filter: { id: { $eq: id } } } } });
    expect(page.body.products).toEqual([final]);
    expect(page.body.metadata).toEqual({ count: 1, offset: 0, total: 1, tooManyToCount: false });
  });

  it('makes exactly the url values that are paths absolute, escaping the origin as JSON', () => {
    const doc = JSON.stringify({ a: { url: '/media/x/y.png' }, b: { url: 'https://e.com/z' }, text: '"url":"/media/ in text', title: '/media/not-a-url' });
    expect(JSON.parse(absoluteUrlsInJson(doc, 'http://h"q:1'))).toEqual({ a: { url: 'http://h"q:1/media/x/y.png' }, b: { url: 'https://e.com/z' }, text: '"url":"/media/ in text', title: '/media/not-a-url' });
  });
});

describe('cached query totals', () => {
  const total = async (filter: Record<string, unknown>) => {
    const res = await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { filter, paging: { limit: 1 } } } });
    expect(res.status).toBe(200);
    return res.body.metadata.total as number;
  };
  const version = async (db = t.server.deps.storage.db) => (await db.selectFrom('catalog_versions').select('version').where('site_id', '=', t.site.id).executeTakeFirst())?.version ?? 0;

  it('follow every committed write that changes which products match', async () => {
    const brand = { brand: 'CountCheck' };
    expect(await total(brand)).toBe(0);
    const a = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Count A', priceData: { price: 5 }, brand: 'CountCheck', stock: { trackInventory: true, quantity: 2 } } } });
    expect(await total(brand)).toBe(1);
    const b = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Count B', priceData: { price: 6 }, brand: 'CountCheck' } } });
    expect(await total(brand)).toBe(2);
    expect(await total({ ...brand, 'stock.inStock': true })).toBe(2);

    // Stock: selling out rewrites the product row, so the in-stock count drops.
    const aId: string = a.body.product.id;
    const sold = await call(t.url, '/stores/v2/inventoryItems/decrement', { ...asOwner(t), body: { decrementData: [{ productId: aId, variantId: a.body.product.variants[0].id, decrementBy: 2 }] } });
    expect(sold.status).toBe(200);
    expect(await total({ ...brand, 'stock.inStock': true })).toBe(1);

    // Collections: membership is a filter too.
    const col = await call(t.url, '/stores/v1/collections', { ...asOwner(t), body: { collection: { name: 'Count Collection' } } });
    const inCollection = { ...brand, 'collections.id': { $hasSome: [col.body.collection.id] } };
    expect(await total(inCollection)).toBe(0);
    await call(t.url, `/stores/v1/collections/${col.body.collection.id}/productIds`, { ...asOwner(t), body: { productIds: [aId, b.body.product.id] } });
    expect(await total(inCollection)).toBe(2);
    await call(t.url, `/stores/v1/collections/${col.body.collection.id}/productIds/delete`, { ...asOwner(t), body: { productIds: [aId] } });
    expect(await total(inCollection)).toBe(1);

    // Hiding and deleting.
    await call(t.url, `/stores/v1/products/${b.body.product.id}`, { method: 'PATCH', ...asOwner(t), body: { product: { visible: false } } });
    expect(await total(brand)).toBe(1);
    await call(t.url, `/stores/v1/products/${aId}`, { method: 'DELETE', ...asOwner(t) });
    expect(await total(brand)).toBe(0);
  });

  it('of a collection and of all products follow membership, visibility and deletes through a warm cache', async () => {
    const count = async (id: string, auth = visitor) => {
      const res = await call(t.url, `/stores-reader/v1/collections/${id}`, { auth });
      expect(res.status).toBe(200);
      return res.body.collection.numberOfProducts as number;
    };
    const ALL = '00000000-000000-000000-000000000001';
    const col = await call(t.url, '/stores/v1/collections', { ...asOwner(t), body: { collection: { name: 'Counted Collection' } } });
    const colId: string = col.body.collection.id;
    const allBefore = await count(ALL);
    expect(await count(colId)).toBe(0);
    const p = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Counted', priceData: { price: 3 } } } });
    expect(await count(ALL)).toBe(allBefore + 1);
    await call(t.url, `/stores/v1/collections/${colId}/productIds`, { ...asOwner(t), body: { productIds: [p.body.product.id] } });
    expect(await count(colId)).toBe(1);
    await call(t.url, `/stores/v1/products/${p.body.product.id}`, { method: 'PATCH', ...asOwner(t), body: { product: { visible: false } } });
    expect([await count(colId), await count(colId, t.apiKey), await count(ALL)]).toEqual([0, 1, allBefore]);
    const ownerAll = await count(ALL, t.apiKey);
    await call(t.url, `/stores/v1/products/${p.body.product.id}`, { method: 'DELETE', ...asOwner(t) });
    expect([await count(colId, t.apiKey), await count(ALL, t.apiKey)]).toEqual([0, ownerAll - 1]);
  });

  it('raise the listing version only when the write commits', async () => {
    const before = await version();
    await expect(inTransaction(t.server.deps.storage.db, async (trx) => {
      await listingChanged(trx, t.site.id);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await version()).toBe(before);
    await inTransaction(t.server.deps.storage.db, async (trx) => {
      await listingChanged(trx, t.site.id);
      expect(await version(trx)).toBe(before);
    });
    expect(await version()).toBe(before + 1);
  });
});

describe('cached query pages', () => {
  const QUERY = '/stores-reader/v1/products/query-platformized';
  const page = async (base: string, auth: string, filter: Record<string, unknown>) => {
    const res = await call(base, QUERY, { auth, body: { query: { filter, sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 10 } } } });
    expect(res.status).toBe(200);
    return res.body as { products: { id: string; name: string; stock: { quantity?: number; inStock: boolean }; collectionIds: string[] }[]; metadata: { total: number } };
  };
  const names = (p: Awaited<ReturnType<typeof page>>) => p.products.map((x) => x.name);

  it('answer every committed change of a product on the page, in this process and in another one on the same database', async () => {
    const other = await startTestServer({ dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
    try {
      const otherVisitor = (await visitorTokens(other)).accessToken;
      const filter = { brand: 'PageCheck' };
      const made = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Page A', priceData: { price: 5 }, brand: 'PageCheck', stock: { trackInventory: true, quantity: 3 } } } });
      const aId: string = made.body.product.id;
      // Warm both processes' caches with the same query.
      expect(names(await page(t.url, visitor, filter))).toEqual(['Page A']);
      expect(names(await page(other.url, otherVisitor, filter))).toEqual(['Page A']);

      await call(t.url, `/stores/v1/products/${aId}`, { method: 'PATCH', ...asOwner(t), body: { product: { name: 'Page A renamed' } } });
      expect(names(await page(t.url, visitor, filter))).toEqual(['Page A renamed']);
      expect(names(await page(other.url, otherVisitor, filter))).toEqual(['Page A renamed']);

      await call(t.url, '/stores/v2/inventoryItems/decrement', { ...asOwner(t), body: { decrementData: [{ productId: aId, variantId: made.body.product.variants[0].id, decrementBy: 2 }] } });
      expect((await page(other.url, otherVisitor, filter)).products[0]!.stock.quantity).toBe(1);

      const col = await call(t.url, '/stores/v1/collections', { ...asOwner(t), body: { collection: { name: 'Page Collection' } } });
      await call(t.url, `/stores/v1/collections/${col.body.collection.id}/productIds`, { ...asOwner(t), body: { productIds: [aId] } });
      expect((await page(other.url, otherVisitor, filter)).products[0]!.collectionIds).toContain(col.body.collection.id);

      // Owners see hidden products on the same query; visitors do not, from a warm cache either.
      await call(t.url, `/stores/v1/products/${aId}`, { method: 'PATCH', ...asOwner(t), body: { product: { visible: false } } });
      expect(names(await page(other.url, otherVisitor, filter))).toEqual([]);
      expect(names(await page(other.url, other.apiKey, filter))).toEqual(['Page A renamed']);
      expect(names(await page(other.url, otherVisitor, filter))).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('keep at most LISTING_PAGE_CACHE_BYTES of pages per handle and never one over LISTING_PAGE_MAX_BYTES', async () => {
    const handle = {} as Executor; // only the cache's identity: cachedListingPage runs no statement itself
    let builds = 0;
    const build = (text: string) => async () => { builds++; return text; };
    const kept = async (version: number, key: string, text: string) => (await cachedListingPage(handle, 's', version, key, build(text))).json;
    // Weighed in bytes: two bytes a character here.
    const small = '\u00e9'.repeat(1000);
    expect(await kept(1, 'k', small)).toBe(small);
    expect(await kept(1, 'k', 'other')).toBe(small);
    expect(builds).toBe(1);
    // In memory of its own: a 2 KB page in a slice of Node's 8 KB buffer pool would keep the whole slab.
    const bytes = (await cachedListingPage(handle, 's', 1, 'k', build('unused'))).bytes();
    expect([bytes.byteLength, bytes.buffer.byteLength]).toEqual([2000, 2000]);
    // Another listing version is another entry.
    expect(await kept(2, 'k', 'v2')).toBe('v2');
    expect(builds).toBe(2);
    // Too big to keep: built each time (fewer characters than the bound, more bytes).
    const big = '\u00e9'.repeat(LISTING_PAGE_MAX_BYTES / 2 + 1);
    await kept(1, 'big', big);
    await kept(1, 'big', big);
    expect(builds).toBe(4);
    // Filling the budget with other pages pushes out the least recently used ones first.
    const chunk = 'z'.repeat(LISTING_PAGE_MAX_BYTES);
    for (let i = 0; i < LISTING_PAGE_CACHE_BYTES / LISTING_PAGE_MAX_BYTES; i++) await kept(1, `fill${i}`, chunk);
    builds = 0;
    expect(await kept(1, 'k', 'rebuilt')).toBe('rebuilt');
    expect(builds).toBe(1);
    expect(await kept(1, `fill${LISTING_PAGE_CACHE_BYTES / LISTING_PAGE_MAX_BYTES - 1}`, 'no')).toBe(chunk);
    expect(builds).toBe(1);
  });
});

describe('cached V3 searches', () => {
  const P = '/stores/v3';
  interface Found { products: { id: string; name: string; brand?: { name: string }; inventory: { availabilityStatus: string } }[]; aggregationData: { results: { values: { results: { value: string; count: number }[] } }[] } }
  const search = async (base: string, auth: string) => {
    const res = await call(base, `${P}/products/search`, { auth, body: { search: {
      search: { expression: 'cachekettle' }, aggregations: [{ name: 'brands', type: 'VALUE', fieldPath: 'brand.name' }],
    } } });
    expect(res.status).toBe(200);
    return res.body as Found;
  };
  const brands = (f: Found) => f.aggregationData.results[0]!.values.results;

  it('answer product edits, stock, brand renames and deletes, in this process and in another one on the same database', async () => {
    const other = await startTestServer({ dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
    try {
      const otherVisitor = (await visitorTokens(other)).accessToken;
      const p = await createV3Kettle('Cachekettle One', 'Cachebrand');
      const id: string = p.id;
      for (const [base, auth] of [[t.url, visitor], [other.url, otherVisitor]] as const) {
        const f = await search(base, auth);
        expect([f.products.map((p) => p.name), brands(f), f.products[0]!.inventory.availabilityStatus]).toEqual([['Cachekettle One'], [{ value: 'Cachebrand', count: 1 }], 'IN_STOCK']);
      }

      expect((await call(t.url, `${P}/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product: { revision: p.revision, name: 'Cachekettle Renamed' } } })).status).toBe(200);
      expect((await search(other.url, otherVisitor)).products.map((x) => x.name)).toEqual(['Cachekettle Renamed']);

      const items = await call(t.url, `${P}/inventory-items/query`, { ...asOwner(t), body: { query: { filter: { productId: id } } } });
      const item = items.body.inventoryItems[0];
      expect((await call(t.url, `${P}/inventory-items/${item.id}`, { ...asOwner(t), method: 'PATCH', body: { inventoryItem: { quantity: 0, revision: item.revision } } })).status).toBe(200);
      expect((await search(other.url, otherVisitor)).products[0]!.inventory.availabilityStatus).toBe('OUT_OF_STOCK');

      const brand = (await call(t.url, `${P}/brands/query`, { ...asOwner(t), body: { query: { filter: { name: 'Cachebrand' } } } })).body.brands[0];
      expect((await call(t.url, `${P}/brands/${brand.id}`, { ...asOwner(t), method: 'PATCH', body: { brand: { name: 'Cachebrand Two', revision: brand.revision } } })).status).toBe(200);
      const renamed = await search(other.url, otherVisitor);
      expect([renamed.products[0]!.brand, brands(renamed)]).toEqual([{ id: brand.id, name: 'Cachebrand Two' }, [{ value: 'Cachebrand Two', count: 1 }]]);

      expect((await call(t.url, `${P}/products/${id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
      const gone = await search(other.url, otherVisitor);
      expect([gone.products, brands(gone)]).toEqual([[], []]);
    } finally {
      await other.close();
    }
  });
});

describe('cart lines read at the listing version', () => {
  const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
  const CART = '/ecom/v1/carts/current';
  const cartLines = async (base: string, auth: string) => {
    const res = await call(base, CART, { auth });
    expect(res.status).toBe(200);
    return (res.body.cart.lineItems as { catalogReference: { catalogItemId: string }; productName: { original: string }; price: { amount: string } }[])
      .map((l) => [l.productName.original, l.price.amount]);
  };

  it('a warm cart shows every committed product change, made in this process or in another one on the same database', async () => {
    const other = await startTestServer({ dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
    try {
      const buyer = (await visitorTokens(other)).accessToken;
      const made = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Line Mug', priceData: { price: 10 } } } });
      const id: string = made.body.product.id;
      const add = await call(other.url, `${CART}/add-to-cart`, { auth: buyer, body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: id, appId: STORES_APP_ID } }] } });
      expect(add.status).toBe(200);
      expect(await cartLines(other.url, buyer)).toEqual([['Line Mug', '10.00']]);
      expect(await cartLines(other.url, buyer)).toEqual([['Line Mug', '10.00']]); // now kept at the current version

      // Changed through the other process: the warm process reads the new row.
      await call(t.url, `/stores/v1/products/${id}`, { method: 'PATCH', ...asOwner(t), body: { product: { name: 'Line Mug II', priceData: { price: 14 } } } });
      expect(await cartLines(other.url, buyer)).toEqual([['Line Mug II', '14.00']]);
      // Changed through this process, then hidden: a visitor's line no longer resolves to the product.
      await call(other.url, `/stores/v1/products/${id}`, { method: 'PATCH', ...asOwner(other), body: { product: { priceData: { price: 9 } } } });
      expect(await cartLines(other.url, buyer)).toEqual([['Line Mug II', '9.00']]);
      await call(t.url, `/stores/v1/products/${id}`, { method: 'PATCH', ...asOwner(t), body: { product: { visible: false } } });
      const hidden = await call(other.url, CART, { auth: buyer });
      expect(hidden.body.cart.lineItems[0].availability.status).toBe('NOT_FOUND');
    } finally {
      await other.close();
    }
  });
});

describe('kept product answers', () => {
  const V3 = '/stores/v3';
  const get = async (base: string, auth: string, path: string) => {
    const res = await call(base, path, { auth });
    return { status: res.status, product: res.body.product };
  };

  it('V1 gets answer every committed change, made in this process or in another one on the same database', async () => {
    const other = await startTestServer({ dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
    try {
      const otherVisitor = (await visitorTokens(other)).accessToken;
      const made = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Kept Mug', priceData: { price: 5 }, stock: { trackInventory: true, quantity: 3 } } } });
      const id: string = made.body.product.id;
      const path = `/stores-reader/v1/products/${id}`;
      const readers = [[t.url, visitor], [other.url, otherVisitor]] as const;
      // Twice each: the second answer comes from the kept one.
      for (const [base, auth] of readers) for (let i = 0; i < 2; i++) expect((await get(base, auth, path)).product.name).toBe('Kept Mug');

      await call(t.url, path.replace('-reader', ''), { method: 'PATCH', ...asOwner(t), body: { product: { name: 'Kept Mug II', priceData: { price: 7 } } } });
      for (const [base, auth] of readers) {
        const { product } = await get(base, auth, path);
        expect([product.name, product.price.price]).toEqual(['Kept Mug II', 7]);
        expect(product).toEqual(await expectedVisitorView(id));
      }

      await call(other.url, '/stores/v2/inventoryItems/decrement', { ...asOwner(other), body: { decrementData: [{ productId: id, variantId: made.body.product.variants[0].id, decrementBy: 2 }] } });
      for (const [base, auth] of readers) expect((await get(base, auth, path)).product.stock.quantity).toBe(1);

      const col = await call(t.url, '/stores/v1/collections', { ...asOwner(t), body: { collection: { name: 'Kept Collection' } } });
      await call(t.url, `/stores/v1/collections/${col.body.collection.id}/productIds`, { ...asOwner(t), body: { productIds: [id] } });
      for (const [base, auth] of readers) expect((await get(base, auth, path)).product.collectionIds).toEqual([col.body.collection.id]);

      // Hidden: visitors are refused from a warm cache; the owner, never answered from it, still reads it.
      await call(other.url, path.replace('-reader', ''), { method: 'PATCH', ...asOwner(other), body: { product: { visible: false } } });
      for (const [base, auth] of readers) expect((await get(base, auth, path)).status).toBe(404);
      expect((await get(other.url, other.apiKey, path)).product.visible).toBe(false);

      await call(t.url, path.replace('-reader', ''), { method: 'PATCH', ...asOwner(t), body: { product: { visible: true } } });
      for (const [base, auth] of readers) expect((await get(base, auth, path)).product.name).toBe('Kept Mug II');
      await call(t.url, path.replace('-reader', ''), { method: 'DELETE', ...asOwner(t) });
      for (const [base, auth] of readers) expect((await get(base, auth, path)).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('V3 gets by id and by slug answer edits, stock, brand renames and deletes, in this process and in another one', async () => {
    const other = await startTestServer({ dataDir: t.config.dataDir, databaseSchema: t.config.databaseSchema });
    try {
      const otherVisitor = (await visitorTokens(other)).accessToken;
      const p = await createV3Kettle('Kept Kettle', 'Keptbrand');
      const { id, slug } = p as { id: string; slug: string };
      const paths = [`${V3}/products/${id}`, `${V3}/products/slug/${slug}`];
      const reads = [[t.url, visitor], [other.url, otherVisitor]].flatMap(([base, auth]) => paths.map((path) => () => get(base!, auth!, path)));
      const all = async () => Promise.all(reads.map((read) => read()));
      for (let i = 0; i < 2; i++) expect((await all()).map((r) => r.product.name)).toEqual(Array(4).fill('Kept Kettle'));
      // An owner sees private tags, so is never answered from what visitors were sent (in either server).
      const tagged = await call(t.url, `${V3}/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product: { revision: p.revision, tags: { privateTags: { tagIds: ['margin-low'] } } } } });
      expect(tagged.status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await all()).map((r) => r.product.tags?.privateTags)).toEqual(Array(4).fill(undefined));
      for (const [base, key] of [[t.url, t.apiKey], [other.url, other.apiKey]] as const) {
        for (const path of paths) expect((await get(base, key, path)).product.tags.privateTags).toEqual({ tagIds: ['margin-low'] });
      }

      expect((await call(t.url, `${V3}/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product: { revision: tagged.body.product.revision, name: 'Kept Kettle Renamed' } } })).status).toBe(200);
      expect((await all()).map((r) => r.product.name)).toEqual(Array(4).fill('Kept Kettle Renamed'));

      const items = await call(other.url, `${V3}/inventory-items/query`, { ...asOwner(other), body: { query: { filter: { productId: id } } } });
      const item = items.body.inventoryItems[0];
      expect((await call(other.url, `${V3}/inventory-items/${item.id}`, { ...asOwner(other), method: 'PATCH', body: { inventoryItem: { quantity: 0, revision: item.revision } } })).status).toBe(200);
      expect((await all()).map((r) => r.product.inventory.availabilityStatus)).toEqual(Array(4).fill('OUT_OF_STOCK'));

      const brand = (await call(t.url, `${V3}/brands/query`, { ...asOwner(t), body: { query: { filter: { name: 'Keptbrand' } } } })).body.brands[0];
      expect((await call(t.url, `${V3}/brands/${brand.id}`, { ...asOwner(t), method: 'PATCH', body: { brand: { name: 'Keptbrand Two', revision: brand.revision } } })).status).toBe(200);
      expect((await all()).map((r) => r.product.brand)).toEqual(Array(4).fill({ id: brand.id, name: 'Keptbrand Two' }));

      expect((await call(t.url, `${V3}/products/${id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
      expect((await all()).map((r) => r.status)).toEqual([404, 404, 404, 404]);
    } finally {
      await other.close();
    }
  });
});
