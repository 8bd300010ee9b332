import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { findProduct } from '../src/domains/catalog/store.js';
import { absoluteMediaInJson, presentProduct } from '../src/domains/catalog/present.js';
import type { RequestContext } from '../src/http/context.js';

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

describe('stored visitor document', () => {
  it('answers what presentProduct gives a visitor, through creates, media, variants, collections and stock changes', async () => {
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: {
      name: 'Public Doc Mug', priceData: { price: 12 }, costAndProfitData: { itemCost: 4 }, sku: 'PD-1',
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
    expect(JSON.parse(absoluteMediaInJson(doc, 'http://h"q:1'))).toEqual({ a: { url: 'http://h"q:1/media/x/y.png' }, b: { url: 'https://e.com/z' }, text: '"url":"/media/ in text', title: '/media/not-a-url' });
  });
});
