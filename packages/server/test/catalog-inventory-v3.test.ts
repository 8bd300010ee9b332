/**
 * V3 inventory items at several locations (docs/catalog-inventory.md): create / delete / search / bulk
 * create, upsert, delete / by variant and location / by-filter jobs, over real HTTP on SQLite and
 * PostgreSQL. Second-location stock never changes what the storefront sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';
import { decrementStock, incrementStock } from '../src/domains/catalog/inventory.js';
import { serviceContext } from './member-tokens.js';

let t: TestServer;
let visitor: string;
let member: string;
const P = '/stores/v3';
const B = `${P}/bulk/inventory-items`;
const DEFAULT = '00000000-0000-0000-0000-000000000000';
const LOC1 = '11111111-1111-4111-8111-111111111111';
const LOC2 = '22222222-2222-4222-8222-222222222222';
const LOC3 = '33333333-3333-4333-8333-333333333333';
const owner = () => asOwner(t);

interface Item { id: string; revision: string; productId: string; variantId: string; locationId: string; quantity?: number; inStock: boolean; trackQuantity: boolean; availabilityStatus: string; preorderInfo: { counter: number } }
interface Product { id: string; revision: string; name: string; inventory: { availabilityStatus: string }; variantsInfo: { variants: { id: string; sku?: string; choices: { optionChoiceNames: { choiceName: string } }[]; inventoryStatus: { inStock: boolean } }[] } }

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  member = (await memberWithToken(t, { loginEmail: 'stock@inventory.test', profile: { nickname: 'Stock' } })).token;
});
afterAll(() => t?.close());

/** A V3 product with sizes S (quantity `s`) and M (quantity `m`) at the default location, SKUs `<sku>-S` / `<sku>-M`. */
async function product(name: string, sku: string, s: number, m: number, visible = true): Promise<Product> {
  const res = await call(t.url, `${P}/products`, { ...owner(), body: { product: {
    name, productType: 'PHYSICAL', visible,
    options: [{ name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [{ name: 'S', choiceType: 'CHOICE_TEXT' }, { name: 'M', choiceType: 'CHOICE_TEXT' }] } }],
    variantsInfo: { variants: [['S', s], ['M', m]].map(([c, q]) => ({
      choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: c } }], sku: `${sku}-${c}`,
      price: { actualPrice: { amount: '10' } }, inventoryItem: { trackQuantity: true, quantity: q },
    })) },
  } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}
const variant = (p: Product, size: string) => p.variantsInfo.variants.find((v) => v.choices[0]!.optionChoiceNames.choiceName === size)!.id;
const storefront = async (id: string): Promise<Product> => (await call(t.url, `${P}/products/${id}`, { auth: visitor })).body.product;
const itemsOf = async (productId: string): Promise<Item[]> =>
  (await call(t.url, `${P}/inventory-items/query`, { ...owner(), body: { query: { filter: { productId }, cursorPaging: { limit: 100 } } } })).body.inventoryItems;
const getItem = async (id: string) => call(t.url, `${P}/inventory-items/${id}`, owner());
const create = (inventoryItem: Record<string, unknown>, auth = owner()) => call(t.url, `${P}/inventory-items`, { ...auth, body: { inventoryItem } });
async function events(entityId: string): Promise<string[]> {
  const rows = await t.server.deps.storage.db.selectFrom('outbox_events').select(['slug', 'entity_fqdn']).where('entity_id', '=', entityId).orderBy('sequence').execute();
  return rows.filter((r) => r.entity_fqdn === 'wix.stores.inventory.v3.inventory_item').map((r) => r.slug);
}
const codes = (body: { results: { itemMetadata: { success: boolean; error?: { code: string } } }[] }) => body.results.map((r) => (r.itemMetadata.success ? 'OK' : r.itemMetadata.error!.code));

describe('create and delete at a location', () => {
  it('creates a second-location item that leaves the storefront as it was, and refuses duplicates and bad input', async () => {
    const p = await product('Loc Tee', 'LOC-TEE', 5, 0);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    const before = await storefront(p.id);
    expect(before.variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([true, false]);

    const created = await create({ productId: p.id, variantId: m, locationId: LOC1, quantity: 9 });
    expect(created.status).toBe(200);
    expect(created.body.inventoryItem).toMatchObject({ productId: p.id, variantId: m, locationId: LOC1, trackQuantity: true, quantity: 9, inStock: true, availabilityStatus: 'IN_STOCK', revision: '1' });
    expect(await events(created.body.inventoryItem.id)).toEqual(['created']);
    // M has 9 at LOC1 but none at the default location: still sold out on the storefront.
    const after = await storefront(p.id);
    expect(after.variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([true, false]);
    expect(after.inventory).toEqual(before.inventory);
    expect(after.revision).toBe(before.revision);

    const untracked = await create({ productId: p.id, variantId: s, locationId: LOC1, inStock: true });
    expect(untracked.body.inventoryItem).toMatchObject({ locationId: LOC1, trackQuantity: false, inStock: true, availabilityStatus: 'IN_STOCK' });
    expect(untracked.body.inventoryItem.quantity).toBeUndefined();

    const dup = await create({ productId: p.id, variantId: m, locationId: LOC1, quantity: 1 });
    expect(dup.status).toBe(409);
    expect(dup.body.details.applicationError).toMatchObject({ code: 'ITEM_ALREADY_EXISTS', data: { inventoryItemId: created.body.inventoryItem.id, locationId: LOC1 } });
    const atDefault = await create({ productId: p.id, variantId: m, quantity: 1 });
    expect(atDefault.status).toBe(409);

    const noProduct = await create({ productId: 'missing', variantId: m, locationId: LOC2, quantity: 1 });
    expect(noProduct.status).toBe(404);
    expect(noProduct.body.details.applicationError.code).toBe('PRODUCT_NOT_FOUND');
    const noVariant = await create({ productId: p.id, variantId: '99999999-9999-4999-8999-999999999999', locationId: LOC2, quantity: 1 });
    expect(noVariant.status).toBe(400);
    expect(noVariant.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['inventoryItem.variantId']);
    const badLocation = await create({ productId: p.id, variantId: m, locationId: 'warehouse', quantity: 1 });
    expect(badLocation.status).toBe(400);
    expect(badLocation.body.details.validationError.fieldViolations[0].field).toBe('inventoryItem.locationId');
    const negative = await create({ productId: p.id, variantId: m, locationId: LOC2, quantity: -1 });
    expect(negative.status).toBe(400);
    const both = await create({ productId: p.id, variantId: m, locationId: LOC2, quantity: 1, inStock: true });
    expect(both.status).toBe(400);
    expect(both.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: 'inventoryItem.inStock', violatedRule: 'ONE_OF_ALIGNMENT' })]);
    const untrackedLimit = await create({ productId: p.id, variantId: m, locationId: LOC2, inStock: true, preorderInfo: { enabled: true, limit: 3 } });
    expect(untrackedLimit.status).toBe(400);
    expect(untrackedLimit.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'inventoryItem.preorderInfo.limit', data: { ruleName: 'PREORDER_LIMIT_NOT_SUPPORTED_FOR_UNTRACKED_INVENTORY' } });
    for (const auth of [{ auth: visitor }, { auth: member }]) {
      const refused = await create({ productId: p.id, variantId: m, locationId: LOC2, quantity: 1 }, auth);
      expect(refused.status).toBe(403);
    }
    // Nothing refused was written: the default items plus the two created ones.
    expect((await itemsOf(p.id)).map((i) => `${i.variantId === s ? 'S' : 'M'}@${i.locationId}`).sort()).toEqual([`M@${DEFAULT}`, `M@${LOC1}`, `S@${DEFAULT}`, `S@${LOC1}`].sort());
  });

  it('keeps SKU uniqueness per variant: other locations carry the SKU without tripping the check', async () => {
    const p = await product('Sku Mug', 'SKU-MUG', 3, 3);
    const item = (await create({ productId: p.id, variantId: variant(p, 'S'), locationId: LOC1, quantity: 2 })).body.inventoryItem;
    expect(item.locationId).toBe(LOC1);
    const renamed = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: p.revision, name: 'Sku Mug 2' } } });
    expect(renamed.status).toBe(200);
    const other = await call(t.url, `${P}/products`, { ...owner(), body: { product: { name: 'Sku Thief', productType: 'PHYSICAL', variantsInfo: { variants: [{ sku: 'SKU-MUG-S', price: { actualPrice: { amount: '1' } } }] } } } });
    expect(other.status).toBe(400);
    const search = await call(t.url, `${P}/inventory-items/search`, { ...owner(), body: { search: { filter: { 'product.variantSku': 'SKU-MUG-S' } } } });
    expect(search.body.inventoryItems.map((i: Item) => i.locationId).sort()).toEqual([DEFAULT, LOC1].sort());
  });

  it('deletes a second-location item; the default-location item is refused and availability stays', async () => {
    const p = await product('Del Cap', 'DEL-CAP', 4, 4);
    const s = variant(p, 'S');
    const item = (await create({ productId: p.id, variantId: s, locationId: LOC1, quantity: 2 })).body.inventoryItem;
    const del = await call(t.url, `${P}/inventory-items/${item.id}`, { ...owner(), method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await getItem(item.id)).status).toBe(404);
    expect(await events(item.id)).toEqual(['created', 'deleted']);
    expect((await call(t.url, `${P}/inventory-items/${item.id}`, { ...owner(), method: 'DELETE' })).body.details.applicationError.code).toBe('INVENTORY_ITEM_NOT_FOUND');

    const defaultItem = (await itemsOf(p.id)).find((i) => i.variantId === s && i.locationId === DEFAULT)!;
    const refused = await call(t.url, `${P}/inventory-items/${defaultItem.id}`, { ...owner(), method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body.details.applicationError.code).toBe('DEFAULT_LOCATION_ITEM');
    expect((await getItem(defaultItem.id)).body.inventoryItem).toMatchObject({ quantity: 4, availabilityStatus: 'IN_STOCK' });
    expect((await storefront(p.id)).variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([true, true]);
    expect((await call(t.url, `${P}/inventory-items/${defaultItem.id}`, { auth: visitor, method: 'DELETE' })).status).toBe(403);
  });
});

describe('by variant and location', () => {
  it('decrements and increments per item, refuses going below zero when restricted, and leaves the storefront alone', async () => {
    const p = await product('Var Sock', 'VAR-SOCK', 5, 0);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    await create({ productId: p.id, variantId: s, locationId: LOC1, quantity: 7 });
    await create({ productId: p.id, variantId: m, locationId: LOC1, inStock: true });
    const at = (variantId: string, locationId?: string) => itemsOf(p.id).then((items) => items.find((i) => i.variantId === variantId && i.locationId === (locationId ?? DEFAULT))!);

    const dec = await call(t.url, `${B}/decrement-by-variant-and-location`, { ...owner(), body: { returnEntity: true, decrementData: [
      { variantId: s, locationId: LOC1, decrementBy: 3 },
      { variantId: s, locationId: LOC1, decrementBy: 10 },
      { variantId: m, locationId: LOC1, decrementBy: 1 },
      { variantId: s, locationId: LOC2, decrementBy: 1 },
      { variantId: s, decrementBy: 1 },
    ] } });
    expect(dec.status).toBe(200);
    expect(codes(dec.body)).toEqual(['OK', 'INSUFFICIENT_INVENTORY', 'INVENTORY_QUANTITY_NOT_TRACKED', 'NOT_FOUND', 'OK']);
    expect(dec.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 3, undetailedFailures: 0 });
    expect(dec.body.results[0].item).toMatchObject({ locationId: LOC1, quantity: 4 });
    expect(dec.body.results[1].itemMetadata.error.data).toMatchObject({ available: 4, requested: 10 });
    expect((await at(s, LOC1)).quantity).toBe(4);
    expect((await at(s)).quantity).toBe(4);

    const unrestricted = await call(t.url, `${B}/decrement-by-variant-and-location`, { ...owner(), body: { restrictInventory: false, decrementData: [{ variantId: s, locationId: LOC1, decrementBy: 6 }] } });
    expect(codes(unrestricted.body)).toEqual(['OK']);
    expect(await at(s, LOC1)).toMatchObject({ quantity: -2, inStock: false, availabilityStatus: 'OUT_OF_STOCK' });

    const inc = await call(t.url, `${B}/increment-by-variant-and-location`, { ...owner(), body: { returnEntity: true, incrementData: [
      { variantId: s, locationId: LOC1, incrementBy: 12 },
      { variantId: s, locationId: LOC1, incrementBy: 99_999_999 },
      { variantId: m, locationId: LOC3, incrementBy: 1 },
    ] } });
    expect(codes(inc.body)).toEqual(['OK', 'MAX_QUANTITY_LIMIT_REACHED', 'NOT_FOUND']);
    expect(inc.body.results[0].item).toMatchObject({ quantity: 10, availabilityStatus: 'IN_STOCK' });
    // One event per applied change, none for refused ones.
    expect(await events(dec.body.results[0].item.id)).toEqual(['created', 'updated', 'updated', 'updated']);

    // Default-location stock of S went 5 -> 4; the second location never reached the storefront.
    const shown = await storefront(p.id);
    expect(shown.variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([true, false]);
    expect((await call(t.url, `${B}/decrement-by-variant-and-location`, { auth: member, body: { decrementData: [{ variantId: s, decrementBy: 1 }] } })).status).toBe(403);
    const bad = await call(t.url, `${B}/decrement-by-variant-and-location`, { ...owner(), body: { decrementData: [{ variantId: s, decrementBy: 0 }] } });
    expect(bad.status).toBe(400);
    expect((await at(s)).quantity).toBe(4);
  });

  it('counts preorders without touching the quantity, and the by-id decrement changes only its own location', async () => {
    const p = await product('Pre Hat', 'PRE-HAT', 0, 2);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    const item = (await create({ productId: p.id, variantId: s, locationId: LOC1, quantity: 0, preorderInfo: { enabled: true, limit: 3 } })).body.inventoryItem;
    expect(item.availabilityStatus).toBe('PREORDER');
    const pre = await call(t.url, `${B}/decrement-by-variant-and-location`, { ...owner(), body: { returnEntity: true, decrementData: [
      { variantId: s, locationId: LOC1, decrementBy: 2, preorderRequest: true },
      { variantId: s, locationId: LOC1, decrementBy: 2, preorderRequest: true },
    ] } });
    expect(codes(pre.body)).toEqual(['OK', 'INSUFFICIENT_INVENTORY']);
    expect(pre.body.results[0].item).toMatchObject({ quantity: 0, preorderInfo: { counter: 2, limit: 3 } });

    const mAt1 = (await create({ productId: p.id, variantId: m, locationId: LOC1, quantity: 3 })).body.inventoryItem;
    const byId = await call(t.url, `${B}/decrement`, { ...owner(), body: { decrementData: [{ inventoryItemId: mAt1.id, decrementBy: 3 }] } });
    expect(byId.status).toBe(200);
    expect((await getItem(mAt1.id)).body.inventoryItem.quantity).toBe(0);
    const mDefault = (await itemsOf(p.id)).find((i) => i.variantId === m && i.locationId === DEFAULT)!;
    expect(mDefault.quantity).toBe(2);
    const short = await call(t.url, `${B}/decrement`, { ...owner(), body: { decrementData: [{ inventoryItemId: mDefault.id, decrementBy: 1 }, { inventoryItemId: mAt1.id, decrementBy: 1 }] } });
    expect(short.status).toBe(409);
    expect((await getItem(mDefault.id)).body.inventoryItem.quantity).toBe(2);
  });
});

describe('a visitor\'s product get after changes', () => {
  it('answers what is stored now: a rename, a stock change without a new revision, hiding', async () => {
    const p = await product('Kept Mug', 'KEPT-MUG', 2, 0);
    const bySlug = async () => (await call(t.url, `${P}/products/slug/${(await storefront(p.id) as unknown as { slug: string }).slug}`, { auth: visitor })).body.product as Product;
    // Read twice (the second may come from text kept for this stored document), by id and by slug.
    expect(await storefront(p.id)).toEqual(await storefront(p.id));
    expect((await bySlug()).id).toBe(p.id);
    expect((await storefront(p.id)).inventory.availabilityStatus).toBe('PARTIALLY_OUT_OF_STOCK');

    const renamed = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: p.revision, name: 'Kept Mug 2' } } });
    expect(renamed.status).toBe(200);
    expect((await storefront(p.id)).name).toBe('Kept Mug 2');
    expect((await bySlug()).name).toBe('Kept Mug 2');

    const stock = await call(t.url, `${B}/decrement-by-variant-and-location`, { ...owner(), body: { decrementData: [{ variantId: variant(p, 'S'), decrementBy: 2 }] } });
    expect(codes(stock.body)).toEqual(['OK']);
    const after = await storefront(p.id);
    expect(after.revision).toBe(renamed.body.product.revision);
    expect(after.inventory.availabilityStatus).toBe('OUT_OF_STOCK');
    expect(after.variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([false, false]);

    const hidden = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: after.revision, visible: false } } });
    expect(hidden.status).toBe(200);
    expect((await call(t.url, `${P}/products/${p.id}`, { auth: visitor })).status).toBe(404);
  });
});

describe('bulk create, upsert, delete', () => {
  it('bounds the locations of one variant', async () => {
    const p = await product('Many Locs', 'MANY-LOCS', 1, 1);
    const s = variant(p, 'S');
    const loc = (n: number) => `${String(n).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`;
    // The default location plus 49 others is the bound (INVENTORY_V3_LIMITS.locationsPerVariant = 50).
    const filled = await call(t.url, `${B}/create`, { ...owner(), body: { inventoryItems: Array.from({ length: 49 }, (_, n) => ({ productId: p.id, variantId: s, locationId: loc(n + 1), quantity: 1 })) } });
    expect(filled.body.bulkActionMetadata).toEqual({ totalSuccesses: 49, totalFailures: 0, undetailedFailures: 0 });
    const over = await create({ productId: p.id, variantId: s, locationId: loc(50), quantity: 1 });
    expect(over.status).toBe(400);
    expect(over.body.details.applicationError).toMatchObject({ code: 'TOO_MANY_LOCATIONS', data: { max: 50 } });
    expect((await itemsOf(p.id)).filter((i) => i.variantId === s)).toHaveLength(50);
  });

  it('answers per item and writes only the good ones', async () => {
    const p = await product('Bulk Bag', 'BULK-BAG', 1, 1);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    const created = await call(t.url, `${B}/create`, { ...owner(), body: { returnEntity: true, inventoryItems: [
      { productId: p.id, variantId: s, locationId: LOC2, quantity: 6 },
      { productId: p.id, variantId: s, locationId: LOC2, quantity: 1 },
      { productId: 'nope', variantId: s, locationId: LOC2, quantity: 1 },
      { productId: p.id, variantId: 'not-a-variant', locationId: LOC2, quantity: 1 },
    ] } });
    expect(created.status).toBe(200);
    expect(codes(created.body)).toEqual(['OK', 'ITEM_ALREADY_EXISTS', 'PRODUCT_NOT_FOUND', 'INVALID_ARGUMENT']);
    expect(created.body.results[3].itemMetadata.error.data.fieldViolations[0].field).toBe('inventoryItems[3].variantId');
    expect(created.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 3, undetailedFailures: 0 });
    const sAt2 = created.body.results[0].item as Item;
    expect(sAt2).toMatchObject({ locationId: LOC2, quantity: 6 });

    const upsert = await call(t.url, `${B}/upsert`, { ...owner(), body: { returnEntity: true, inventoryItems: [
      { inventoryItem: { productId: p.id, variantId: s, locationId: LOC2, quantity: 8 } },
      { inventoryItem: { productId: p.id, variantId: m, locationId: LOC2, quantity: 2 } },
      { inventoryItem: { id: sAt2.id, revision: '1', quantity: 1 } },
      { inventoryItem: { id: '44444444-4444-4444-8444-444444444444', quantity: 1 } },
    ] } });
    expect(codes(upsert.body)).toEqual(['OK', 'OK', 'REVISION_MISMATCH', 'INVENTORY_ITEM_NOT_FOUND']);
    expect(upsert.body.results[0].item).toMatchObject({ id: sAt2.id, quantity: 8, revision: '2' });
    expect(upsert.body.results[1].item).toMatchObject({ locationId: LOC2, variantId: m, quantity: 2, revision: '1' });
    expect(await events(sAt2.id)).toEqual(['created', 'updated']);

    const dupKeys = await call(t.url, `${B}/upsert`, { ...owner(), body: { inventoryItems: [
      { inventoryItem: { productId: p.id, variantId: s, locationId: LOC2, quantity: 50 } },
      { inventoryItem: { productId: p.id, variantId: s, locationId: LOC2, quantity: 51 } },
    ] } });
    expect(dupKeys.status).toBe(400);
    expect(dupKeys.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'inventoryItems[1].inventoryItem', data: { ruleName: 'DUPLICATE_BULK_UPSERT_KEY' } });
    expect((await getItem(sAt2.id)).body.inventoryItem.quantity).toBe(8);

    const defaultS = (await itemsOf(p.id)).find((i) => i.variantId === s && i.locationId === DEFAULT)!;
    const deleted = await call(t.url, `${B}/delete`, { ...owner(), body: { inventoryItemIds: [sAt2.id, defaultS.id, 'gone'] } });
    expect(codes(deleted.body)).toEqual(['OK', 'DEFAULT_LOCATION_ITEM', 'INVENTORY_ITEM_NOT_FOUND']);
    expect((await itemsOf(p.id)).length).toBe(3);
    expect((await call(t.url, `${B}/create`, { auth: visitor, body: { inventoryItems: [{ productId: p.id, variantId: s, locationId: LOC3 }] } })).status).toBe(403);
  });
});

describe('search', () => {
  let shown: Product;
  let hidden: Product;
  beforeAll(async () => {
    shown = await product('Search Scarf', 'SRCH-SCARF', 2, 0);
    hidden = await product('Search Secret', 'SRCH-SECRET', 1, 1, false);
    await create({ productId: shown.id, variantId: variant(shown, 'S'), locationId: LOC3, quantity: 30 });
    await create({ productId: shown.id, variantId: variant(shown, 'M'), locationId: LOC3, quantity: 0, preorderInfo: { enabled: true } });
    await create({ productId: hidden.id, variantId: variant(hidden, 'S'), locationId: LOC3, quantity: 4 });
  });
  const search = (body: Record<string, unknown>, auth: Record<string, string | undefined> = owner()) => call(t.url, `${P}/inventory-items/search`, { ...auth, body: { search: body } });

  it('filters, sorts, matches text and aggregates availability, visitors seeing visible products only', async () => {
    const res = await search({
      filter: { locationId: LOC3 }, sort: [{ fieldName: 'quantity', order: 'DESC' }],
      aggregations: [{ name: 'status', type: 'VALUE', fieldPath: 'availabilityStatus' }, { type: 'SCALAR', fieldPath: 'quantity', scalar: { type: 'MAX' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.inventoryItems.map((i: Item) => i.quantity)).toEqual([30, 4, 0]);
    expect(res.body.aggregationData.results).toEqual([
      { name: 'status', type: 'VALUE', fieldPath: 'availabilityStatus', values: { results: [{ value: 'IN_STOCK', count: 2 }, { value: 'PREORDER', count: 1 }] } },
      { name: 'quantity', type: 'SCALAR', fieldPath: 'quantity', scalar: { type: 'MAX', value: 30 } },
    ]);
    const asVisitor = await search({ filter: { locationId: LOC3 }, sort: [{ fieldName: 'quantity', order: 'DESC' }] }, { auth: visitor });
    expect(asVisitor.body.inventoryItems.map((i: Item) => i.quantity)).toEqual([30, 0]);
    const text = await search({ search: { expression: 'scarf' }, filter: { availabilityStatus: { $in: ['IN_STOCK', 'PREORDER'] } }, sort: [{ fieldName: 'quantity', order: 'ASC' }] });
    expect(text.body.inventoryItems.map((i: Item) => `${i.locationId === LOC3 ? 'L3' : 'D'}:${i.quantity}`)).toEqual(['L3:0', 'D:2', 'L3:30']);
    const bySku = await search({ search: { expression: 'srch-secret-m' } });
    expect(bySku.body.inventoryItems.map((i: Item) => i.variantId)).toEqual([variant(hidden, 'M')]);
  });

  it('query and count take the same filters (location included); visitors count visible products only', async () => {
    const q = (auth: Record<string, string | undefined>) => call(t.url, `${P}/inventory-items/query`, { ...auth, body: { query: { filter: { locationId: LOC3, quantity: { $gt: 0 } } } } });
    expect((await q(owner())).body.inventoryItems.map((i: Item) => i.quantity).sort()).toEqual([30, 4]);
    expect((await q({ auth: visitor })).body.inventoryItems.map((i: Item) => i.quantity)).toEqual([30]);
    const count = (auth: Record<string, string | undefined>) => call(t.url, `${P}/inventory-items/count`, { ...auth, body: { filter: { locationId: LOC3 } } });
    expect((await count(owner())).body).toEqual({ count: 3 });
    expect((await count({ auth: visitor })).body).toEqual({ count: 2 });
    const sorted = await call(t.url, `${P}/inventory-items/query`, { ...owner(), body: { query: { filter: { locationId: LOC3 }, sort: [{ fieldName: 'quantity', order: 'DESC' }] } } });
    expect(sorted.body.inventoryItems.map((i: Item) => i.quantity)).toEqual([30, 4, 0]);
    const counted = await call(t.url, `${P}/inventory-items/count`, { ...owner(), body: { filter: { locationId: LOC3 }, search: { expression: 'scarf' } } });
    expect(counted.body).toEqual({ count: 2 });
    // Direct categories: the all-products category only when a product lists it directly (these do not).
    const cats = (ids: string[]) => search({ filter: { locationId: LOC3, 'product.directCategoryIds': { $hasSome: ids } } });
    expect((await cats(['00000000-0000-0000-0000-000000000001'])).body.inventoryItems).toEqual([]);
    const none = await search({ filter: { locationId: LOC3, 'product.directCategoryIds': { $isEmpty: true } } });
    expect(none.body.inventoryItems.map((i: Item) => i.quantity).sort((a: number, b: number) => a - b)).toEqual([0, 4, 30]);
    const bad = await call(t.url, `${P}/inventory-items/query`, { ...owner(), body: { query: { filter: { nope: 1 } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('query.filter.nope');
  });

  it('pages with signed cursors that keep filter and sort', async () => {
    const first = await search({ filter: { locationId: LOC3 }, sort: [{ fieldName: 'quantity', order: 'ASC' }], cursorPaging: { limit: 2 } });
    expect(first.body.inventoryItems.map((i: Item) => i.quantity)).toEqual([0, 4]);
    expect(first.body.pagingMetadata).toMatchObject({ count: 2, hasNext: true });
    const second = await search({ cursorPaging: { cursor: first.body.pagingMetadata.cursors.next } });
    expect(second.body.inventoryItems.map((i: Item) => i.quantity)).toEqual([30]);
    expect(second.body.pagingMetadata).toMatchObject({ count: 1, hasNext: false, cursors: { next: null } });
    const forged = await search({ cursorPaging: { cursor: 'x'.repeat(40) } });
    expect(forged.status).toBe(400);
  });

  it('refuses unknown filter, sort and aggregation fields with field violations', async () => {
    const badFilter = await search({ filter: { secretColumn: 1 } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.details.validationError.fieldViolations[0].field).toBe('search.filter.secretColumn');
    const badSort = await search({ sort: [{ fieldName: 'toString' }] });
    expect(badSort.status).toBe(400);
    const badAgg = await search({ aggregations: [{ type: 'VALUE', fieldPath: 'preorderInfo.message' }] });
    expect(badAgg.status).toBe(400);
    expect(badAgg.body.details.validationError.fieldViolations[0].field).toBe('search.aggregations[0].fieldPath');
    const manyTerms = await search({ search: { expression: 'a b c d e f g h i j k' } });
    expect(manyTerms.status).toBe(400);
  });
});

describe('by-filter jobs', () => {
  const jobOf = async (jobId: string) => {
    await t.server.jobs.whenIdle();
    return (await call(t.url, `${P}/bulk/jobs/${jobId}`, owner())).body.job;
  };
  const jobCount = async () => Number((await t.server.deps.storage.db.selectFrom('catalog_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const LOC4 = '55555555-5555-4555-8555-555555555555';

  it('creates items at a location for the variants a filter matches, updates, adjusts, sets and deletes them', async () => {
    const p = await product('Job Jar', 'JOB-JAR', 3, 3);
    const createJob = await call(t.url, `${B}/create-by-variant-filter`, { ...owner(), body: { filter: { productId: p.id }, locationId: LOC4, inventoryCreationData: { quantity: 4 } } });
    expect(createJob.status).toBe(200);
    expect(await jobOf(createJob.body.jobId)).toMatchObject({ status: 'FINISHED', total: 2, succeeded: 2, failed: 0 });
    const at4 = async () => (await itemsOf(p.id)).filter((i) => i.locationId === LOC4).sort((a, b) => (a.variantId < b.variantId ? -1 : 1));
    expect((await at4()).map((i) => i.quantity)).toEqual([4, 4]);
    const again = await call(t.url, `${B}/create-by-variant-filter`, { ...owner(), body: { filter: { productId: p.id }, locationId: LOC4 } });
    expect(await jobOf(again.body.jobId)).toMatchObject({ total: 2, succeeded: 0, failed: 2, errors: [expect.objectContaining({ code: 'ITEM_ALREADY_EXISTS' }), expect.objectContaining({ code: 'ITEM_ALREADY_EXISTS' })] });

    const update = await call(t.url, `${B}/update-by-filter`, { ...owner(), body: { filter: { productId: p.id, locationId: LOC4 }, inventoryItem: { quantity: 11 } } });
    expect(await jobOf(update.body.jobId)).toMatchObject({ total: 2, succeeded: 2 });
    expect((await at4()).map((i) => i.quantity)).toEqual([11, 11]);

    const tooMuch = await call(t.url, `${B}/adjust-by-filter`, { ...owner(), body: { filter: { productId: p.id, locationId: LOC4 }, adjustment: { decrementBy: 20 } } });
    expect(await jobOf(tooMuch.body.jobId)).toMatchObject({ total: 2, succeeded: 0, failed: 2, errors: [expect.objectContaining({ code: 'INSUFFICIENT_INVENTORY' }), expect.objectContaining({ code: 'INSUFFICIENT_INVENTORY' })] });
    expect((await at4()).map((i) => i.quantity)).toEqual([11, 11]);
    const adjust = await call(t.url, `${B}/adjust-by-filter`, { ...owner(), body: { filter: { productId: p.id, locationId: LOC4 }, adjustment: { decrementBy: 5 } } });
    expect(await jobOf(adjust.body.jobId)).toMatchObject({ succeeded: 2 });
    expect((await at4()).map((i) => i.quantity)).toEqual([6, 6]);

    // One untracked item: set-or-adjust starts tracking it at the increment, adjusts the tracked one.
    const [first] = await at4();
    await call(t.url, `${P}/inventory-items/${first!.id}`, { ...owner(), method: 'PATCH', body: { inventoryItem: { trackQuantity: false, inStock: true } } });
    const refuse = await call(t.url, `${B}/adjust-by-filter`, { ...owner(), body: { filter: { id: first!.id }, adjustment: { incrementBy: 1 } } });
    expect(await jobOf(refuse.body.jobId)).toMatchObject({ failed: 1, errors: [expect.objectContaining({ code: 'INVENTORY_QUANTITY_NOT_TRACKED' })] });
    const set = await call(t.url, `${B}/set-or-adjust-by-filter`, { ...owner(), body: { filter: { productId: p.id, locationId: LOC4 }, adjustedInventoryAction: { incrementBy: 2 } } });
    expect(await jobOf(set.body.jobId)).toMatchObject({ succeeded: 2 });
    expect((await at4()).map((i) => [i.trackQuantity, i.quantity])).toEqual([[true, 2], [true, 8]]);

    // The default-location items and the storefront never moved.
    expect((await itemsOf(p.id)).filter((i) => i.locationId === DEFAULT).map((i) => i.quantity)).toEqual([3, 3]);
    const del = await call(t.url, `${B}/delete-by-filter`, { ...owner(), body: { filter: { productId: p.id } } });
    expect(await jobOf(del.body.jobId)).toMatchObject({ total: 4, succeeded: 2, failed: 2, errors: [expect.objectContaining({ code: 'DEFAULT_LOCATION_ITEM' }), expect.objectContaining({ code: 'DEFAULT_LOCATION_ITEM' })] });
    expect((await itemsOf(p.id)).map((i) => i.locationId)).toEqual([DEFAULT, DEFAULT]);
  });

  it('refuses bad filters and bad input with 400 and starts no job; visitors and members are refused', async () => {
    const before = await jobCount();
    const badField = await call(t.url, `${B}/delete-by-filter`, { ...owner(), body: { filter: { nope: 1 } } });
    expect(badField.status).toBe(400);
    expect(badField.body.details.validationError.fieldViolations[0].field).toBe('filter.nope');
    const badOp = await call(t.url, `${B}/update-by-filter`, { ...owner(), body: { filter: { quantity: { $regex: '.' } }, inventoryItem: { quantity: 1 } } });
    expect(badOp.status).toBe(400);
    const both = await call(t.url, `${B}/adjust-by-filter`, { ...owner(), body: { filter: {}, adjustment: { incrementBy: 1, decrementBy: 1 } } });
    expect(both.status).toBe(400);
    const oneOf = await call(t.url, `${B}/update-by-filter`, { ...owner(), body: { filter: {}, inventoryItem: { quantity: 1, inStock: true } } });
    expect(oneOf.status).toBe(400);
    const badLocation = await call(t.url, `${B}/create-by-variant-filter`, { ...owner(), body: { filter: {}, locationId: 'shop' } });
    expect(badLocation.status).toBe(400);
    for (const auth of [visitor, member]) {
      expect((await call(t.url, `${B}/delete-by-filter`, { auth, body: { filter: {} } })).status).toBe(403);
    }
    expect(await jobCount()).toBe(before);
  });
});

describe('the default location stays the storefront\'s and checkout\'s', () => {
  it('decrementStock / incrementStock use only the default-location item', async () => {
    const p = await product('Checkout Cup', 'CHK-CUP', 1, 0);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    await create({ productId: p.id, variantId: s, locationId: LOC1, quantity: 10 });
    await create({ productId: p.id, variantId: m, locationId: LOC1, quantity: 10 });
    const ctx = serviceContext(t);
    const short = await decrementStock(ctx, [{ productId: p.id, variantId: s, quantity: 2 }]).then(() => undefined, (e: unknown) => e);
    expect((short as { code?: string }).code).toBe('INSUFFICIENT_STOCK');
    const soldOut = await decrementStock(ctx, [{ productId: p.id, variantId: m, quantity: 1 }]).then(() => undefined, (e: unknown) => e);
    expect((soldOut as { code?: string }).code).toBe('INSUFFICIENT_STOCK');
    await decrementStock(ctx, [{ productId: p.id, variantId: s, quantity: 1 }]);
    await incrementStock(ctx, [{ productId: p.id, variantId: m, quantity: 3 }]);
    const byLocation = Object.fromEntries((await itemsOf(p.id)).map((i) => [`${i.variantId === s ? 'S' : 'M'}@${i.locationId === DEFAULT ? 'D' : 'L1'}`, i.quantity]));
    expect(byLocation).toEqual({ 'S@D': 0, 'S@L1': 10, 'M@D': 3, 'M@L1': 10 });
    expect((await storefront(p.id)).variantsInfo.variants.map((v) => v.inventoryStatus.inStock)).toEqual([false, true]);
  });

  it('product writes carry SKU changes to every location, and removing a variant or the product removes its items everywhere', async () => {
    const p = await product('Sync Pan', 'SYNC-PAN', 2, 2);
    const s = variant(p, 'S');
    const m = variant(p, 'M');
    const sAt1 = (await create({ productId: p.id, variantId: s, locationId: LOC1, quantity: 5 })).body.inventoryItem;
    const mAt1 = (await create({ productId: p.id, variantId: m, locationId: LOC1, quantity: 5 })).body.inventoryItem;
    const full = (await call(t.url, `${P}/products/${p.id}`, owner())).body.product;
    const keepS = full.variantsInfo.variants.filter((v: { id: string }) => v.id === s).map((v: Record<string, unknown>) => ({ ...v, sku: 'SYNC-PAN-SMALL' }));
    const res = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: {
      revision: full.revision,
      options: [{ name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [{ name: 'S', choiceType: 'CHOICE_TEXT' }] } }],
      variantsInfo: { variants: keepS },
    } } });
    expect(res.status).toBe(200);
    const found = await call(t.url, `${P}/inventory-items/search`, { ...owner(), body: { search: { filter: { 'product.variantSku': 'SYNC-PAN-SMALL' } } } });
    expect(found.body.inventoryItems.map((i: Item) => i.locationId).sort()).toEqual([DEFAULT, LOC1].sort());
    expect((await getItem(mAt1.id)).status).toBe(404);
    expect((await getItem(sAt1.id)).body.inventoryItem.quantity).toBe(5);
    expect((await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    expect((await getItem(sAt1.id)).status).toBe(404);
  });

  it('rows written without a location (bulk seeding, rows from before 0007) are at the default location', async () => {
    const db = t.server.deps.storage.db;
    const now = new Date().toISOString();
    await db.insertInto('inventory_items').values({
      id: 'seeded-row', site_id: t.site.id, catalog: 'v1', product_id: 'seeded-product', variant_id: DEFAULT, sku: null, track_quantity: 0, quantity: null,
      in_stock: 1, preorder_enabled: 0, preorder_limit: null, preorder_counter: 0, preorder_message: null, revision: 1, created_date: now, updated_date: now,
    }).execute();
    expect((await getItem('seeded-row')).body.inventoryItem.locationId).toBe(DEFAULT);
  });
});
