import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

let t: TestServer;
let visitor: string;
const QUERY = '/stores-reader/v1/products/query-platformized';

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

const owner = () => asOwner(t);
async function create(product: Record<string, unknown>) {
  const res = await call(t.url, '/stores/v1/products', { ...owner(), body: { product } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}
const get = async (id: string, auth: Record<string, string | undefined> = owner()) =>
  call(t.url, `/stores-reader/v1/products/${id}`, { ...auth, query: { includeMerchantSpecificData: 'true' } });

async function events(entityId: string): Promise<string[]> {
  const rows = await t.server.deps.storage.db.selectFrom('outbox_events' as never).selectAll().orderBy('created_date' as never).orderBy('sequence' as never).execute();
  return (rows as { entity_id: string; slug: string }[]).filter((r) => r.entity_id === entityId).map((r) => r.slug);
}

describe('V1 product create: derived fields', () => {
  it('derives prices, price per unit, cost and profit, variants and ranges', async () => {
    const p = await create({
      name: 'Olive Oil', priceData: { price: 20 }, discount: { type: 'PERCENT', value: 25 }, costAndProfitData: { itemCost: 6 }, sku: 'OIL-1', weight: 1.2,
      pricePerUnitData: { totalQuantity: 500, totalMeasurementUnit: 'ML', baseQuantity: 100, baseMeasurementUnit: 'ML' },
      productOptions: [{ optionType: 'drop_down', name: 'Size', choices: [{ value: 'S', description: 'Small' }, { value: 'L', description: 'Large' }] },
        { optionType: 'color', name: 'Color', choices: [{ value: '#000000', description: 'Black' }, { value: '#ffffff', description: 'White' }] }],
      customTextFields: [{ title: 'Engraving', maxLength: 20, mandatory: false }],
      additionalInfoSections: [{ title: 'Origin', description: '<p>Crete</p>' }],
      stock: { trackInventory: true, quantity: 3 },
    });
    expect(p.priceData).toEqual({ currency: 'USD', price: 20, discountedPrice: 15, pricePerUnit: 3, formatted: { price: '$20.00', discountedPrice: '$15.00', pricePerUnit: '$3.00/100ML' } });
    expect(p.costAndProfitData).toEqual({ itemCost: 6, formattedItemCost: '$6.00', profit: 9, formattedProfit: '$9.00', profitMargin: 0.6 });
    // One currency per site: the converted price is the price.
    expect(p.convertedPriceData).toEqual(p.priceData);
    expect(p.variants).toHaveLength(4);
    expect(p.variants.map((v: { choices: Record<string, string> }) => v.choices)).toEqual([
      { Size: 'S', Color: '#000000' }, { Size: 'S', Color: '#ffffff' }, { Size: 'L', Color: '#000000' }, { Size: 'L', Color: '#ffffff' }]);
    expect(p.stock).toEqual({ trackInventory: true, quantity: 12, inStock: true, inventoryStatus: 'IN_STOCK' });
    expect(p.weightRange).toEqual({ minValue: 1.2, maxValue: 1.2 });
    expect(p.priceRange).toEqual({ minValue: 20, maxValue: 20 });
    expect(p.customTextFields).toEqual([{ title: 'Engraving', maxLength: 20, mandatory: false }]);
    expect(p._src).toBeUndefined();
    expect(await events(p.id)).toEqual(['created']);
  });

  it('refuses bad writes with field violations and writes nothing', async () => {
    const before = (await call(t.url, QUERY, { ...owner(), body: {} })).body.metadata.total;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ priceData: { price: 1 } }, 'product.name', 'REQUIRED_FIELD'],
      [{ name: 'X', priceData: { price: -0.01 } }, 'product.priceData.price', 'MIN'],
      [{ name: 'X', priceData: { price: 5 }, discount: { type: 'AMOUNT', value: 6 } }, 'product.discount.value', 'MAX'],
      [{ name: 'X', priceData: { price: 5 }, collectionIds: ['nope'] }, 'product.collectionIds', 'FORMAT'],
      [{ name: 'X', priceData: { price: 5 }, productOptions: [{ name: 'A', choices: [{ value: 'a', description: 'a' }] }, { name: 'a', choices: [{ value: 'b', description: 'b' }] }] }, 'product.productOptions[1].name', 'FORMAT'],
      [{ name: 'X', priceData: { price: 5 }, pricePerUnitData: { totalQuantity: 1, totalMeasurementUnit: 'KG', baseQuantity: 1, baseMeasurementUnit: 'L' } }, 'product.pricePerUnitData.baseMeasurementUnit', 'FORMAT'],
      [{ name: 'X', priceData: { price: 5 }, sku: 'OIL-1' }, 'product.sku', 'FORMAT'],
      [{ name: 'X', priceData: { price: 5 }, productType: 'service' }, 'product.productType', 'INVALID_ENUM_VALUE'],
    ];
    for (const [product, field, rule] of cases) {
      const res = await call(t.url, '/stores/v1/products', { ...owner(), body: { product } });
      expect(res.status, JSON.stringify(product)).toBe(400);
      expect(res.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field, violatedRule: rule, data: expect.any(Object) })]);
    }
    expect((await call(t.url, QUERY, { ...owner(), body: {} })).body.metadata.total).toBe(before);
  });
});

describe('V1 updates, variants and stock status', () => {
  it('updates partially and re-derives; slug conflicts are 409', async () => {
    const p = await create({ name: 'Tin Mug', priceData: { price: 10 }, costAndProfitData: { itemCost: 4 } });
    const res = await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { priceData: { price: 12 }, discount: { type: 'AMOUNT', value: 2 }, ribbon: 'Hot', brand: 'Tinco' } } });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ name: 'Tin Mug', ribbon: 'Hot', ribbons: [{ text: 'Hot' }], brand: 'Tinco', priceData: { price: 12, discountedPrice: 10 }, costAndProfitData: { itemCost: 4, profit: 6 } });
    const conflict = await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { slug: 'hand-grinder' } } });
    expect(conflict.status).toBe(409);
    await call(t.url, `/stores/v1/products/${p.id}/remove-ribbon`, { ...owner(), body: {} });
    await call(t.url, `/stores/v1/products/${p.id}/remove-brand`, { ...owner(), body: {} });
    const after = (await get(p.id)).body.product;
    expect(after.ribbon).toBeUndefined();
    expect(after.brand).toBeUndefined();
    expect(after.ribbons).toEqual([]);
    expect(await events(p.id)).toEqual(['created', 'changed', 'variants_changed', 'changed', 'changed']);
    const missing = await call(t.url, '/stores/v1/products/nope', { ...owner(), method: 'PATCH', body: { product: { name: 'x' } } });
    expect(missing.status).toBe(404);
  });

  it('edits variants by choices and ids, resets them, and reports PARTIALLY_OUT_OF_STOCK', async () => {
    const p = await create({
      name: 'Linen Shirt', priceData: { price: 40 }, sku: 'LIN',
      productOptions: [{ name: 'Size', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M' }] }],
      stock: { trackInventory: true, quantity: 2 },
    });
    const [s, m] = p.variants;
    const res = await call(t.url, `/stores/v1/products/${p.id}/variants`, { ...owner(), method: 'PATCH', body: { variants: [{ choices: { Size: 'M' }, price: 45, sku: 'LIN-M' }, { variantIds: [s.id], weight: 0.3, visible: false }] } });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.variants.map((v: { id: string }) => [v.id, v]));
    expect(byId[m.id].variant).toMatchObject({ priceData: { price: 45 }, sku: 'LIN-M', visible: true });
    expect(byId[s.id].variant).toMatchObject({ priceData: { price: 40 }, sku: 'LIN', weight: 0.3, visible: false });
    const full = (await get(p.id)).body.product;
    expect(full.priceRange).toEqual({ minValue: 40, maxValue: 45 });
    expect(full.manageVariants).toBe(true);
    // Stock: S sold out -> partially out of stock.
    const upd = await call(t.url, `/stores/v2/inventoryItems/product/${p.id}`, { ...owner(), method: 'PATCH', body: { inventoryItem: { variants: [{ variantId: s.id, quantity: 0 }] } } });
    expect(upd.status).toBe(200);
    const partial = (await get(p.id)).body.product;
    expect(partial.stock).toEqual({ trackInventory: true, quantity: 2, inStock: true, inventoryStatus: 'PARTIALLY_OUT_OF_STOCK' });
    const bad = await call(t.url, `/stores/v1/products/${p.id}/variants`, { ...owner(), method: 'PATCH', body: { variants: [{ choices: { Size: 'XL' }, price: 1 }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'variants[0].choices', violatedRule: 'FORMAT' });
    const reset = await call(t.url, `/stores/v1/products/${p.id}/variants/resetToDefault`, { ...owner(), body: {} });
    expect(reset.status).toBe(200);
    const after = (await get(p.id)).body.product;
    expect(after.variants.map((v: { variant: { priceData: { price: number }; sku: string } }) => [v.variant.priceData.price, v.variant.sku])).toEqual([[40, 'LIN'], [40, 'LIN']]);
    expect(after.manageVariants).toBe(false);
    expect(await events(p.id)).toContain('variants_changed');
  });

  it('deletes options down to one default variant, and deletes products', async () => {
    const p = await create({ name: 'Cap', priceData: { price: 9 }, productOptions: [{ name: 'Size', choices: [{ value: 'S', description: 'S' }, { value: 'L', description: 'L' }] }] });
    expect((await call(t.url, `/stores/v1/products/${p.id}/options`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    const after = (await get(p.id)).body.product;
    expect(after.productOptions).toEqual([]);
    expect(after.variants.map((v: { id: string }) => v.id)).toEqual(['00000000-0000-0000-0000-000000000000']);
    expect((await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    expect((await get(p.id)).status).toBe(404);
    expect((await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'DELETE' })).status).toBe(404);
    expect((await events(p.id)).at(-1)).toBe('deleted');
  });
});

describe('stock decrements', () => {
  it('never sells the last unit twice under concurrent decrements, and rolls back multi-line shortfalls', async () => {
    const p = await create({ name: 'Last Units', priceData: { price: 3 }, stock: { trackInventory: true, quantity: 5 } });
    const q = await create({ name: 'Other Units', priceData: { price: 3 }, stock: { trackInventory: true, quantity: 1 } });
    const vid = p.variants[0].id;
    const results = await Promise.all(Array.from({ length: 12 }, () => call(t.url, '/stores/v2/inventoryItems/decrement', { ...owner(), body: { decrementData: [{ productId: p.id, variantId: vid, decrementBy: 1 }] } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.details.applicationError.code)).toEqual(Array(7).fill('INSUFFICIENT_STOCK'));
    const after = (await get(p.id)).body.product;
    expect(after.stock).toEqual({ trackInventory: true, quantity: 0, inStock: false, inventoryStatus: 'OUT_OF_STOCK' });
    await call(t.url, '/stores/v2/inventoryItems/increment', { ...owner(), body: { incrementData: [{ productId: p.id, variantId: vid, incrementBy: 2 }] } });
    // Two lines, the second short: neither is taken.
    const both = await call(t.url, '/stores/v2/inventoryItems/decrement', { ...owner(), body: { decrementData: [{ productId: p.id, variantId: vid, decrementBy: 2 }, { productId: q.id, variantId: q.variants[0].id, decrementBy: 2 }] } });
    expect(both.status).toBe(409);
    expect(both.body.details.applicationError.data).toEqual({ productId: q.id, variantId: q.variants[0].id, requested: 2 });
    expect((await get(p.id)).body.product.stock.quantity).toBe(2);
    expect((await get(q.id)).body.product.stock.quantity).toBe(1);
  });

  it('sells a sold-out product on preorder up to the preorder limit', async () => {
    const p = await create({ name: 'Preorder Mug', priceData: { price: 9 }, stock: { trackInventory: true, quantity: 0 } });
    const vid = p.variants[0].id;
    expect(p.stock).toEqual({ trackInventory: true, quantity: 0, inStock: false, inventoryStatus: 'OUT_OF_STOCK' });
    const patch = await call(t.url, `/stores/v2/inventoryItems/product/${p.id}`, { method: 'PATCH', ...owner(), body: { inventoryItem: { trackQuantity: true, variants: [{ variantId: vid, quantity: 0 }], preorderInfo: { enabled: true, message: 'Ships in May', limit: 5 } } } });
    expect(patch.status).toBe(200);
    const asVisitor = (await call(t.url, `/stores-reader/v1/products/${p.id}`, { auth: visitor })).body.product;
    expect(asVisitor.stock).toEqual({ trackInventory: true, quantity: 0, inStock: true, inventoryStatus: 'IN_STOCK' });
    const take = (n: number) => call(t.url, '/stores/v2/inventoryItems/decrement', { ...owner(), body: { decrementData: [{ productId: p.id, variantId: vid, decrementBy: n }] } });
    expect((await take(3)).status).toBe(200);
    const beyond = await take(3);
    expect(beyond.status).toBe(409);
    expect(beyond.body.details.applicationError.code).toBe('INSUFFICIENT_STOCK');
    const inventory = await call(t.url, '/stores-reader/v2/inventoryItems/query', { auth: visitor, body: { query: { filter: { productId: p.id } } } });
    expect(inventory.body.inventoryItems[0].variants).toEqual([{ variantId: vid, inStock: true, quantity: -3, availableForPreorder: true }]);
    expect(inventory.body.inventoryItems[0].preorderInfo).toEqual({ enabled: true, message: 'Ships in May', limit: 5 });
  });
});

describe('V1 bulk update and adjust', () => {
  it('answers per item and rounds', async () => {
    const a = await create({ name: 'Bulk A', priceData: { price: 10 }, costAndProfitData: { itemCost: 3 }, weight: 1 });
    const b = await create({ name: 'Bulk B', priceData: { price: 3.33 }, discount: { type: 'AMOUNT', value: 3 } });
    const set = await call(t.url, '/stores/v1/bulk/products/update', { ...owner(), body: { ids: [a.id, 'missing', b.id], set: { price: 2 } } });
    expect(set.status).toBe(200);
    expect(set.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 });
    expect(set.body.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } } }) => [r.itemMetadata.success, r.itemMetadata.error?.code])).toEqual([[true, undefined], [false, 'PRODUCT_NOT_FOUND'], [false, 'INVALID_VALUE']]);
    expect((await get(a.id)).body.product.priceData.price).toBe(2);
    expect((await get(b.id)).body.product.priceData.price).toBe(3.33);
    const pct = await call(t.url, '/stores/v1/bulk/products/adjust-properties', { ...owner(), body: { ids: [a.id, b.id], adjust: { price: { percentage: { rate: 10.5 } } } } });
    expect(pct.body.bulkActionMetadata.totalSuccesses).toBe(2);
    expect((await get(a.id)).body.product.priceData.price).toBe(2.21);
    expect((await get(b.id)).body.product.priceData.price).toBe(3.68);
    await call(t.url, '/stores/v1/bulk/products/adjust-properties', { ...owner(), body: { ids: [a.id], adjust: { weight: { percentage: { rate: 50, roundToInt: true } } } } });
    expect((await get(a.id)).body.product.weight).toBe(2);
    const neg = await call(t.url, '/stores/v1/bulk/products/adjust-properties', { ...owner(), body: { ids: [a.id], adjust: { cost: { amount: -5 } } } });
    expect(neg.body.results[0].itemMetadata).toMatchObject({ success: false, error: { code: 'INVALID_VALUE' } });
    const two = await call(t.url, '/stores/v1/bulk/products/update', { ...owner(), body: { ids: [a.id], set: { price: 1, cost: 1 } } });
    expect(two.status).toBe(400);
    expect(two.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'set', violatedRule: 'REQUIRED_ONE_OF_FIELD' });
  });
});

describe('V1 media', () => {
  it('adds uploaded media (data URL), assigns it to choices, removes it', async () => {
    const p = await create({ name: 'Poster', priceData: { price: 15 }, productOptions: [{ name: 'Frame', choices: [{ value: 'Oak', description: 'Oak' }, { value: 'None', description: 'None' }] }] });
    const pngBytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#888888' } }).png().toBuffer();
    const png = `data:image/png;base64,${pngBytes.toString('base64')}`;
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF').toString('base64')}`;
    const add = await call(t.url, `/stores/v1/products/${p.id}/media`, { ...owner(), body: { media: [{ url: png, choice: { option: 'Frame', choice: 'Oak' } }, { url: pdf }] } });
    expect(add.status).toBe(200);
    const after = (await get(p.id, { auth: visitor })).body.product;
    expect(after.media.items.map((m: { mediaType: string }) => m.mediaType)).toEqual(['image', 'document']);
    expect(after.media.mainMedia.image.url).toMatch(new RegExp(`^${t.url}/media/[0-9a-f]{32}/`));
    const bytes = await fetch(after.media.mainMedia.image.url);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(pngBytes)).toBe(true);
    expect(after.productOptions[0].choices[0].media.items).toHaveLength(1);
    const imageId = after.media.items[0].id;
    const docId = after.media.items[1].id;
    // Reuse an uploaded file by its wix: URI on the None choice.
    const assign = await call(t.url, `/stores/v1/products/${p.id}/choices/media`, { ...owner(), method: 'PATCH', body: { media: [{ option: 'Frame', choice: 'None', mediaIds: [imageId] }] } });
    expect(assign.status).toBe(200);
    const avail = await call(t.url, `/stores-reader/v1/products/${p.id}/productOptionsAvailability`, { auth: visitor, body: { options: { Frame: 'None' } } });
    expect(avail.body.media.items.map((m: { id: string }) => m.id)).toEqual([imageId]);
    expect(avail.body.availableForPurchase).toBe(true);
    expect(avail.body.selectedVariant).toMatchObject({ price: { price: 15 }, inStock: true, visible: true });
    const rm = await call(t.url, `/stores/v1/products/${p.id}/media/delete`, { ...owner(), body: { mediaIds: [imageId] } });
    expect(rm.status).toBe(200);
    const final = (await get(p.id)).body.product;
    expect(final.media.items.map((m: { id: string }) => m.id)).toEqual([docId]);
    expect(final.productOptions[0].choices.every((c: { media?: { items: unknown[] } }) => (c.media?.items.length ?? 0) === 0)).toBe(true);
    const bad = await call(t.url, `/stores/v1/products/${p.id}/media`, { ...owner(), body: { media: [{ url: 'http://169.254.169.254/latest' }] } });
    expect(bad.status).toBe(400);
    const unknown = await call(t.url, `/stores/v1/products/${p.id}/media`, { ...owner(), body: { media: [{ mediaId: 'f'.repeat(32) }] } });
    expect(unknown.status).toBe(400);
  });
});

describe('V1 reads: variants, availability, store variants, cursor paging, search', () => {
  it('answers availability for partial and full selections', async () => {
    const list = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { slug: 'barista-t-shirt' } } } });
    const id = list.body.products[0].id;
    const partial = await call(t.url, `/stores-reader/v1/products/${id}/productOptionsAvailability`, { auth: visitor, body: { options: { Size: 'M' } } });
    expect(partial.status).toBe(200);
    expect(partial.body.selectedVariant).toBeUndefined();
    expect(partial.body.availableForPurchase).toBe(false);
    const full = await call(t.url, `/stores-reader/v1/products/${id}/productOptionsAvailability`, { auth: visitor, body: { options: { Size: 'M', Color: 'Black' } } });
    expect(full.body.selectedVariant).toMatchObject({ price: { price: 25, formatted: { price: '$25.00' } }, inStock: true });
    expect(full.body.availableForPurchase).toBe(true);
    const variants = await call(t.url, `/stores-reader/v1/products/${id}/variants/query`, { auth: visitor, body: { choices: { Size: 'M' } } });
    expect(variants.body.totalResults).toBe(2);
    expect(variants.body.metadata).toEqual({ items: 2, offset: 0 });
    const one = variants.body.variants[0];
    const sv = await call(t.url, `/stores-reader/v1/variants/${id}-${one.id}`, { auth: visitor });
    expect(sv.status).toBe(200);
    expect(sv.body.variant).toMatchObject({ id: `${id}-${one.id}`, productId: id, variantId: one.id, productName: 'Barista T-Shirt', choices: one.choices });
    const q = await call(t.url, '/stores-reader/v1/variants/query', { auth: visitor, body: { query: { filter: { productId: id, 'stock.inStock': true }, paging: { limit: 3 } } } });
    expect(q.body.metadata).toEqual({ count: 3, offset: 0, total: 8 });
  });

  it('pages with signed, site-bound cursors that carry the filter and sort', async () => {
    const first = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'priceData.price': { $lt: 20 } }, sort: [{ fieldName: 'price', order: 'ASC' }], cursorPaging: { limit: 4 } } } });
    expect(first.status).toBe(200);
    expect(first.body.products).toHaveLength(4);
    const next = first.body.metadata.cursors.next;
    expect(typeof next).toBe('string');
    const all: string[] = first.body.products.map((p: { name: string }) => p.name);
    let cursor: string | null = next;
    while (cursor) {
      const page = await call(t.url, QUERY, { auth: visitor, dotR: { query: { cursorPaging: { cursor, limit: 4 } } } });
      expect(page.status).toBe(200);
      all.push(...page.body.products.map((p: { name: string }) => p.name));
      cursor = page.body.metadata.cursors.next;
    }
    const offset = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'priceData.price': { $lt: 20 } }, sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 100 } } } });
    expect(all).toEqual(offset.body.products.map((p: { name: string }) => p.name));
    const tampered = `${next.slice(0, -3)}abc`;
    const bad = await call(t.url, QUERY, { auth: visitor, body: { query: { cursorPaging: { cursor: tampered } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'query.cursorPaging.cursor', violatedRule: 'FORMAT' });
  });

  it('searches name, SKU, brand and description with ranking, in sync with writes', async () => {
    const search = async (expression: string) => (await call(t.url, QUERY, { auth: visitor, body: { query: { search: { expression }, paging: { limit: 50 } } } })).body.products.map((p: { name: string }) => p.name);
    expect(await search('kettle')).toEqual(['Gooseneck Kettle']);
    expect(await search('GEAR-KTL')).toEqual(['Gooseneck Kettle']);
    expect((await search('brewline')).length).toBe(7);
    const jasmine = await search('jasmine');
    expect(jasmine[0]).toBe('Jasmine Pearls');
    expect(await search('yirgach')).toEqual(['Ethiopia Yirgacheffe']);
    expect(await search('"); DROP TABLE products; --')).toEqual([]);
    expect(await search('!!! ***')).toEqual([]);
    const p = await create({ name: 'Zanzibar Clove Tea', priceData: { price: 8 }, brand: 'Spicely' });
    expect(await search('zanzibar')).toEqual(['Zanzibar Clove Tea']);
    await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { name: 'Pemba Clove Tea' } } });
    expect(await search('zanzibar')).toEqual([]);
    expect(await search('pemba')).toEqual(['Pemba Clove Tea']);
    await call(t.url, `/stores/v1/products/${p.id}`, { ...owner(), method: 'DELETE' });
    expect(await search('pemba')).toEqual([]);
  });
});

describe('collections', () => {
  it('creates, adds and removes products, gets by slug on both path families, deletes', async () => {
    const c = await call(t.url, '/stores/v1/collections', { ...owner(), body: { collection: { name: 'Summer Picks', description: 'Cold drinks' } } });
    expect(c.status).toBe(200);
    expect(c.body.collection).toMatchObject({ name: 'Summer Picks', slug: 'summer-picks', visible: true, numberOfProducts: 0 });
    const id = c.body.collection.id;
    const all = await call(t.url, QUERY, { auth: visitor, body: { query: { paging: { limit: 3 } } } });
    const ids = all.body.products.map((p: { id: string }) => p.id);
    expect((await call(t.url, `/stores/v1/collections/${id}/productIds`, { ...owner(), body: { productIds: ids } })).status).toBe(200);
    const bySlug = await call(t.url, '/v2/collections/slug/summer-picks', { auth: visitor });
    expect(bySlug.body.collection).toMatchObject({ id, numberOfProducts: 3 });
    const reader = await call(t.url, '/stores-reader/v1/collections/slug/summer-picks', { auth: visitor });
    expect(reader.body.collection.id).toBe(id);
    const inIt = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'collections.id': { $hasSome: [id] } } } } });
    expect(inIt.body.metadata.total).toBe(3);
    await call(t.url, `/stores/v1/collections/${id}/productIds/delete`, { ...owner(), body: { productIds: [ids[0]] } });
    expect((await call(t.url, `/v2/collections/${id}`, { auth: visitor })).body.collection.numberOfProducts).toBe(2);
    const unknown = await call(t.url, `/stores/v1/collections/${id}/productIds`, { ...owner(), body: { productIds: ['nope'] } });
    expect(unknown.status).toBe(400);
    const upd = await call(t.url, `/stores/v1/collections/${id}`, { ...owner(), method: 'PATCH', body: { collection: { name: 'Summer', visible: false } } });
    expect(upd.body.collection).toMatchObject({ name: 'Summer', slug: 'summer-picks', visible: false });
    expect((await call(t.url, `/v2/collections/${id}`, { auth: visitor })).status).toBe(404);
    const dup = await call(t.url, '/stores/v1/collections', { ...owner(), body: { collection: { name: 'Coffee' } } });
    expect(dup.status).toBe(409);
    expect((await call(t.url, `/stores/v1/collections/${id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `/v2/collections/${id}`, { ...owner() })).status).toBe(404);
    expect(await events(id)).toEqual(['created', 'changed', 'changed', 'changed', 'deleted']);
  });

  it('has the all-products collection and queries collections', async () => {
    const q = await call(t.url, '/v2/collections/query', { auth: visitor, dotR: { query: { paging: { limit: 10 } } } });
    expect(q.status).toBe(200);
    expect(q.body.collections[0]).toMatchObject({ id: '00000000-000000-000000-000000000001', slug: 'all-products' });
    expect(q.body.collections.map((c: { slug: string }) => c.slug)).toEqual(expect.arrayContaining(['coffee', 'tea', 'gifts']));
    const tea = await call(t.url, '/v2/collections/query', { auth: visitor, body: { query: { filter: { slug: 'tea' } } } });
    expect(tea.body.collections).toHaveLength(1);
    expect(tea.body.collections[0].numberOfProducts).toBe(6);
    const allByFilter = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'collections.id': { $hasSome: ['00000000-000000-000000-000000000001'] } } } } });
    const total = await call(t.url, QUERY, { auth: visitor, body: {} });
    expect(allByFilter.body.metadata.total).toBe(total.body.metadata.total);
  });
});

describe('site isolation', () => {
  it('a key of one site reaches no product, collection, stock or cursor of another', async () => {
    const db = t.server.deps.storage.db;
    const other = await createSite(db, { slug: `other-${Date.now()}`, name: 'Other', currency: 'EUR' });
    const { apiKey } = await createApiKey(db, { siteId: other.id, name: 'other' });
    const them = { auth: apiKey, siteId: other.id };
    const mine = await create({ name: 'Mine Only', priceData: { price: 4 }, sku: 'ISO-1', stock: { trackInventory: true, quantity: 3 } });
    const theirs = await call(t.url, '/stores/v1/products', { ...them, body: { product: { name: 'Mine Only', priceData: { price: 4 }, sku: 'ISO-1' } } });
    expect(theirs.status).toBe(200); // same slug and SKU are fine on another site
    expect(theirs.body.product.priceData.formatted.price).toBe('€4.00');
    expect((await call(t.url, `/stores-reader/v1/products/${mine.id}`, them)).status).toBe(404);
    expect((await call(t.url, `/stores/v1/products/${mine.id}`, { ...them, method: 'PATCH', body: { product: { name: 'x' } } })).status).toBe(404);
    expect((await call(t.url, `/stores/v1/products/${mine.id}`, { ...them, method: 'DELETE' })).status).toBe(404);
    const dec = await call(t.url, '/stores/v2/inventoryItems/decrement', { ...them, body: { decrementData: [{ productId: mine.id, variantId: mine.variants[0].id, decrementBy: 1 }] } });
    expect(dec.status).toBe(404);
    expect((await get(mine.id)).body.product.stock.quantity).toBe(3);
    const list = await call(t.url, QUERY, { ...them, body: { query: { paging: { limit: 100 } } } });
    expect(list.body.products.map((p: { name: string }) => p.name)).toEqual(['Mine Only']);
    const tea = (await call(t.url, '/v2/collections/slug/tea', { auth: visitor })).body.collection.id;
    expect((await call(t.url, `/v2/collections/${tea}`, them)).status).toBe(404);
    const add = await call(t.url, `/stores/v1/collections/${tea}/productIds`, { ...them, body: { productIds: [theirs.body.product.id] } });
    expect(add.status).toBe(404);
    const first = await call(t.url, QUERY, { auth: visitor, body: { query: { cursorPaging: { limit: 2 } } } });
    const replay = await call(t.url, QUERY, { ...them, body: { query: { cursorPaging: { cursor: first.body.metadata.cursors.next } } } });
    expect(replay.status).toBe(400);
    expect(replay.body.details.validationError.fieldViolations[0].field).toBe('query.cursorPaging.cursor');
  });
});
