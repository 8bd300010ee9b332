import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { eventsOf, memberWithToken, serviceContext } from './member-tokens.js';
import { startCatalogJob } from '../src/domains/catalog/jobs.js';
import { PRODUCT_JOB } from '../src/domains/catalog/v3/bulk-products.js';

/** V3 bulk calls: per-id info sections / tags / with inventory, by-filter jobs, entity bulk updates. */
let t: TestServer;
let visitor: string;
let member: string;
const P = '/stores/v3';
const B = '/stores/v3/bulk';
const owner = () => asOwner(t);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  member = (await memberWithToken(t, { loginEmail: 'bulk-member@v3.test' })).token;
});
afterAll(() => t?.close());

function item(name: string, brand: string, prices: string[], extra: Json = {}): Json {
  const sizes = prices.map((_p, i) => `S${i}`);
  return {
    name, productType: 'PHYSICAL', brand: { name: brand },
    ...(prices.length > 1 ? { options: [{ name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: sizes.map((s) => ({ name: s, choiceType: 'CHOICE_TEXT' })) } }] } : {}),
    variantsInfo: { variants: prices.map((amount, i) => ({
      ...(prices.length > 1 ? { choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: sizes[i] } }] } : {}),
      price: { actualPrice: { amount } }, revenueDetails: { cost: { amount: '2' } },
    })) },
    ...extra,
  };
}

async function create(product: Json): Promise<Json> {
  const res = await call(t.url, `${P}/products`, { ...owner(), body: { product } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}
const get = async (id: string): Promise<Json> => (await call(t.url, `${P}/products/${id}`, { ...owner(), query: { fields: 'MERCHANT_DATA' } })).body.product;
const prices = (p: Json) => p.variantsInfo.variants.map((v: Json) => v.price.actualPrice.amount);
const jobCount = async () => Number((await t.server.deps.storage.db.selectFrom('catalog_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);

/** Starts a by-filter job, waits for the worker, returns the job as the status route answers it. */
async function runJob(path: string, body: Json): Promise<Json> {
  const res = await call(t.url, `${B}/products/${path}`, { ...owner(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  await t.server.jobs.whenIdle();
  const job = await call(t.url, `${B}/jobs/${res.body.jobId}`, owner());
  expect(job.status).toBe(200);
  return job.body.job;
}

/** Five products, three of brand `${tag}-in` and two of `${tag}-out`. */
async function five(tag: string, price = ['10']) {
  const inside = [await create(item(`${tag} one`, `${tag}-in`, price)), await create(item(`${tag} two`, `${tag}-in`, price)), await create(item(`${tag} three`, `${tag}-in`, price))];
  const outside = [await create(item(`${tag} four`, `${tag}-out`, price)), await create(item(`${tag} five`, `${tag}-out`, price))];
  return { inside, outside, filter: { 'brand.name': `${tag}-in` } };
}

async function expectUntouched(before: Json[]) {
  for (const p of before) {
    const now = await get(p.id);
    expect(now.revision).toBe(p.revision);
    expect(now.updatedDate).toBe(p.updatedDate);
    expect((await eventsOf(t, p.id)).map((e) => e.slug)).toEqual(['created']);
  }
}

describe('update-by-filter', () => {
  it('applies the partial product to the 3 matching products only, with events', async () => {
    const { inside, outside, filter } = await five('upd');
    const job = await runJob('update-by-filter', { filter, product: { visible: false, ribbon: { name: 'Clearance' } } });
    expect(job).toMatchObject({ type: 'PRODUCTS_UPDATE', status: 'FINISHED', total: 3, processed: 3, succeeded: 3, failed: 0, errors: [] });
    for (const p of inside) {
      const now = await get(p.id);
      expect(now).toMatchObject({ visible: false, ribbon: { name: 'Clearance' }, revision: '2', name: p.name, slug: p.slug });
      const events = await eventsOf(t, p.id);
      expect(events.map((e) => [e.entityFqdn, e.slug])).toEqual([['wix.stores.catalog.v3.product', 'created'], ['wix.stores.catalog.v3.product', 'updated']]);
    }
    await expectUntouched(outside);
  });

  it('refuses fields that cannot be the same on every product, and empty patches (400, no job)', async () => {
    const before = await jobCount();
    const slug = await call(t.url, `${B}/products/update-by-filter`, { ...owner(), body: { filter: {}, product: { slug: 'same-for-all' } } });
    expect(slug.status).toBe(400);
    expect(slug.body.details.validationError.fieldViolations[0].field).toBe('product.slug');
    const empty = await call(t.url, `${B}/products/update-by-filter`, { ...owner(), body: { filter: {}, product: {} } });
    expect(empty.status).toBe(400);
    expect(empty.body.details.validationError.fieldViolations).toEqual([{ field: 'product', description: 'give at least one field to set', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
    expect(await jobCount()).toBe(before);
  });

  it('freezes the matching ids at start: a product created afterwards is not touched; a vanished one fails PRODUCT_NOT_FOUND', async () => {
    const first = await create(item('frz one', 'frz', ['1']));
    const res = await call(t.url, `${B}/products/update-by-filter`, { ...owner(), body: { filter: { 'brand.name': 'frz' }, product: { plainDescription: 'frozen' } } });
    const late = await create(item('frz late', 'frz', ['1']));
    await t.server.jobs.whenIdle();
    expect((await call(t.url, `${B}/jobs/${res.body.jobId}`, owner())).body.job).toMatchObject({ total: 1, succeeded: 1 });
    expect((await get(first.id)).plainDescription).toBe('frozen');
    await expectUntouched([late]);

    const gone = '00000000-0000-0000-0000-0000000000aa';
    const { jobId } = await startCatalogJob(serviceContext(t), PRODUCT_JOB.update, [gone, late.id], { product: { visible: false } });
    await t.server.jobs.whenIdle();
    const job = (await call(t.url, `${B}/jobs/${jobId}`, owner())).body.job;
    expect(job).toMatchObject({ total: 2, succeeded: 1, failed: 1, errors: [{ itemId: gone, code: 'PRODUCT_NOT_FOUND', description: `Product ${gone} not found` }] });
    expect((await get(late.id)).visible).toBe(false);
  });

  it('search narrows the filter, as in searchProducts', async () => {
    const a = await create(item('Searchable Lantern', 'srch', ['5']));
    const b = await create(item('Searchable Kettle', 'srch', ['5']));
    const job = await runJob('update-by-filter', { filter: { 'brand.name': 'srch' }, search: { expression: 'lantern' }, product: { plainDescription: 'lit' } });
    expect(job).toMatchObject({ total: 1, succeeded: 1 });
    expect((await get(a.id)).plainDescription).toBe('lit');
    await expectUntouched([b]);
  });
});

describe('adjust-variants-by-filter', () => {
  it('lowers prices by an amount; a product whose price would go negative fails with INVALID_VALUE, others succeed', async () => {
    const cheap = await create(item('adj cheap', 'adj-in', ['10', '30']));
    const mid = await create(item('adj mid', 'adj-in', ['20']));
    const dear = await create(item('adj dear', 'adj-in', ['40']));
    const other = await create(item('adj other', 'adj-out', ['40']));
    const job = await runJob('adjust-variants-by-filter', { filter: { 'brand.name': 'adj-in' }, actualPrice: { amount: '-15' } });
    expect(job).toMatchObject({ type: 'PRODUCTS_ADJUST_VARIANTS', status: 'FINISHED', total: 3, processed: 3, succeeded: 2, failed: 1 });
    expect(job.errors).toEqual([{ itemId: cheap.id, code: 'INVALID_VALUE', description: expect.stringContaining('actualPrice') }]);
    expect(prices(await get(cheap.id))).toEqual(['10', '30']);
    expect((await get(cheap.id)).revision).toBe(cheap.revision);
    expect(prices(await get(mid.id))).toEqual(['5']);
    expect(prices(await get(dear.id))).toEqual(['25']);
    expect((await get(mid.id)).actualPriceRange.minValue).toEqual({ amount: '5', formattedAmount: '$5.00' });
    await expectUntouched([other]);
  });

  it('percentages with rounding, cost, and compare-at discounts', async () => {
    const a = await create(item('pct a', 'pct', ['9.99', '19.99']));
    const job = await runJob('adjust-variants-by-filter', { filter: { id: a.id }, actualPrice: { percentage: 10 }, cost: { percentage: -50 }, rounding: 'NEAREST_WHOLE_NUMBER' });
    expect(job).toMatchObject({ total: 1, succeeded: 1 });
    const after = await get(a.id);
    expect(prices(after)).toEqual(['11', '22']);
    expect(after.variantsInfo.variants.map((v: Json) => v.revenueDetails.cost.amount)).toEqual(['1', '1']);

    const b = await create(item('disc b', 'disc', ['95', '50'], {}));
    const withCompare = await call(t.url, `${P}/products/${b.id}`, { method: 'PATCH', ...owner(), body: { product: { revision: b.revision, variantsInfo: { variants: [
      { id: b.variantsInfo.variants[0].id, choices: [{ optionChoiceIds: b.variantsInfo.variants[0].choices[0].optionChoiceIds }], price: { actualPrice: { amount: '95' }, compareAtPrice: { amount: '100' } } },
      { id: b.variantsInfo.variants[1].id, choices: [{ optionChoiceIds: b.variantsInfo.variants[1].choices[0].optionChoiceIds }], price: { actualPrice: { amount: '50' } } },
    ] } } } });
    expect(withCompare.status, JSON.stringify(withCompare.body)).toBe(200);
    const job2 = await runJob('adjust-variants-by-filter', { filter: { 'brand.name': 'disc' }, compareAtPriceDiscount: { percentage: 10 } });
    expect(job2).toMatchObject({ total: 1, succeeded: 1 });
    const disc = await get(b.id);
    expect(disc.variantsInfo.variants.map((v: Json) => [v.price.actualPrice.amount, v.price.compareAtPrice?.amount])).toEqual([['90', '100'], ['45', '50']]);
  });

  it('refuses requests without an adjustment, with two values in one, or actualPrice with a discount', async () => {
    const before = await jobCount();
    const none = await call(t.url, `${B}/products/adjust-variants-by-filter`, { ...owner(), body: { filter: {} } });
    expect(none.status).toBe(400);
    const both = await call(t.url, `${B}/products/adjust-variants-by-filter`, { ...owner(), body: { filter: {}, actualPrice: { amount: '1', percentage: 2 } } });
    expect(both.status).toBe(400);
    expect(both.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'actualPrice', violatedRule: 'ONE_OF_ALIGNMENT' });
    const clash = await call(t.url, `${B}/products/adjust-variants-by-filter`, { ...owner(), body: { filter: {}, actualPrice: { amount: '1' }, compareAtPriceDiscount: { amount: '1' } } });
    expect(clash.status).toBe(400);
    expect(clash.body.details.validationError.fieldViolations[0].field).toBe('compareAtPriceDiscount');
    expect(await jobCount()).toBe(before);
  });
});

describe('update-variants-by-filter', () => {
  it('sets the given fields on every variant of the matching products', async () => {
    const { inside, outside, filter } = await five('var', ['10', '12']);
    const job = await runJob('update-variants-by-filter', { filter, variant: { visible: false, price: { compareAtPrice: { amount: '99' } }, physicalProperties: { weight: 1.5 } } });
    expect(job).toMatchObject({ type: 'PRODUCTS_UPDATE_VARIANTS', total: 3, succeeded: 3, failed: 0 });
    for (const p of inside) {
      const now = await get(p.id);
      expect(now.variantsInfo.variants.map((v: Json) => [v.visible, v.price.actualPrice.amount, v.price.compareAtPrice.amount, v.physicalProperties.weight])).toEqual([[false, '10', '99', 1.5], [false, '12', '99', 1.5]]);
      expect(now.compareAtPriceRange.maxValue.amount).toBe('99');
    }
    await expectUntouched(outside);
  });

  it('refuses a SKU for every variant (400, no job)', async () => {
    const before = await jobCount();
    const res = await call(t.url, `${B}/products/update-variants-by-filter`, { ...owner(), body: { filter: {}, variant: { sku: 'X-1' } } });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations[0].field).toBe('variant.sku');
    expect(await jobCount()).toBe(before);
  });
});

describe('info sections', () => {
  it('adds and removes by id with revisions: a stale revision fails that item only', async () => {
    const care = (await call(t.url, `${P}/info-sections`, { ...owner(), body: { infoSection: { uniqueName: 'bulk-care', title: 'Care' } } })).body.infoSection;
    const size = (await call(t.url, `${P}/info-sections`, { ...owner(), body: { infoSection: { uniqueName: 'bulk-size', title: 'Size guide' } } })).body.infoSection;
    const a = await create(item('is a', 'is', ['3']));
    const b = await create(item('is b', 'is', ['3']));
    const res = await call(t.url, `${B}/products/add-info-sections`, { ...owner(), body: {
      products: [{ productId: a.id, revision: a.revision }, { productId: b.id, revision: '7' }], infoSectionIds: [care.id, size.id], returnEntity: true,
    } });
    expect(res.status).toBe(200);
    expect(res.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(res.body.results[0].itemMetadata).toEqual({ id: a.id, originalIndex: 0, success: true });
    expect(res.body.results[0].item.infoSections.map((s: Json) => s.uniqueName)).toEqual(['bulk-care', 'bulk-size']);
    expect(res.body.results[1]).toEqual({ itemMetadata: { id: b.id, originalIndex: 1, success: false, error: { code: 'REVISION_MISMATCH', description: `Product ${b.id} is at revision 1`, data: { currentRevision: '1' } } } });
    expect((await get(b.id)).infoSections).toEqual([]);

    const removed = await call(t.url, `${B}/products/remove-info-sections`, { ...owner(), body: { products: [{ productId: a.id, revision: '2' }], infoSectionIds: [care.id] } });
    expect(removed.body.results).toEqual([{ itemMetadata: { id: a.id, originalIndex: 0, success: true } }]);
    expect((await get(a.id)).infoSections.map((s: Json) => s.uniqueName)).toEqual(['bulk-size']);
  });

  it('adds / removes by filter; unknown info section ids are a 400 and start nothing', async () => {
    const sec = (await call(t.url, `${P}/info-sections`, { ...owner(), body: { infoSection: { uniqueName: 'bulk-filter-sec' } } })).body.infoSection;
    const { inside, outside, filter } = await five('isf');
    const added = await runJob('add-info-sections-by-filter', { filter, infoSectionIds: [sec.id] });
    expect(added).toMatchObject({ type: 'PRODUCTS_ADD_INFO_SECTIONS', total: 3, succeeded: 3 });
    for (const p of inside) expect((await get(p.id)).infoSections.map((s: Json) => s.id)).toEqual([sec.id]);
    await expectUntouched(outside);
    const removed = await runJob('remove-info-sections-by-filter', { filter: { 'brand.name': { $in: ['isf-in', 'isf-out'] } }, infoSectionIds: [sec.id] });
    // The two outside products had nothing to remove: counted as done, not written.
    expect(removed).toMatchObject({ total: 5, succeeded: 5 });
    for (const p of inside) expect(await get(p.id)).toMatchObject({ infoSections: [], revision: '3' });
    await expectUntouched(outside);

    const before = await jobCount();
    const bad = await call(t.url, `${B}/products/add-info-sections-by-filter`, { ...owner(), body: { filter, infoSectionIds: ['00000000-0000-0000-0000-00000000dead'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations).toEqual([{ field: 'infoSectionIds[0]', description: 'unknown info section 00000000-0000-0000-0000-00000000dead', violatedRule: 'FORMAT', data: { id: '00000000-0000-0000-0000-00000000dead' } }]);
    expect(await jobCount()).toBe(before);
  });
});

describe('categories by filter', () => {
  it('adds the matching products to categories and removes them again', async () => {
    const { inside, outside, filter } = await five('cat');
    const job = await runJob('add-to-categories-by-filter', { filter, categoryIds: ['cat-summer', 'cat-sale'] });
    expect(job).toMatchObject({ type: 'PRODUCTS_ADD_TO_CATEGORIES', total: 3, succeeded: 3 });
    const q = await call(t.url, `${P}/products/query`, { ...owner(), body: { query: { filter: { 'allCategoriesInfo.categories': { $hasSome: ['cat-sale'] } } } } });
    expect(q.body.products.map((p: Json) => p.id).sort()).toEqual(inside.map((p) => p.id).sort());
    expect((await get(inside[0]!.id)).directCategoriesInfo.categories).toEqual([{ id: 'cat-summer', index: 0 }, { id: 'cat-sale', index: 1 }]);
    await expectUntouched(outside);
    const removed = await runJob('remove-from-categories-by-filter', { filter, categoryIds: ['cat-summer'] });
    expect(removed).toMatchObject({ total: 3, succeeded: 3 });
    expect((await get(inside[1]!.id)).directCategoriesInfo.categories).toEqual([{ id: 'cat-sale', index: 0 }]);
  });
});

describe('tags', () => {
  it('assigns and unassigns by id; public tags filterable by anyone, private tags only by elevated callers', async () => {
    const a = await create(item('tag a', 'tag', ['1']));
    const b = await create(item('tag b', 'tag', ['1']));
    const res = await call(t.url, `${B}/products/update-tags`, { ...owner(), body: {
      productIds: [a.id, b.id, '00000000-0000-0000-0000-00000000beef'], assignTags: { publicTags: { tagIds: ['eco', 'new'] }, privateTags: { tagIds: ['margin-low'] } },
    } });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: Json) => [r.itemMetadata.success, r.itemMetadata.error?.code])).toEqual([[true, undefined], [true, undefined], [false, 'PRODUCT_NOT_FOUND']]);
    expect((await get(a.id)).tags).toEqual({ publicTags: { tagIds: ['eco', 'new'] }, privateTags: { tagIds: ['margin-low'] } });
    const unassign = await call(t.url, `${B}/products/update-tags`, { ...owner(), body: { productIds: [b.id], unassignTags: { publicTags: { tagIds: ['new'] } }, assignTags: { publicTags: { tagIds: ['sale'] } } } });
    expect(unassign.body.bulkActionMetadata.totalSuccesses).toBe(1);
    expect((await get(b.id)).tags).toEqual({ publicTags: { tagIds: ['eco', 'sale'] }, privateTags: { tagIds: ['margin-low'] } });

    const pub = await call(t.url, `${P}/products/query`, { auth: visitor, siteId: t.site.id, body: { query: { filter: { 'tags.publicTags.tagIds': { $hasSome: ['sale'] } } } } });
    expect(pub.status).toBe(200);
    expect(pub.body.products.map((p: Json) => p.id)).toEqual([b.id]);
    expect(pub.body.products[0].tags).toEqual({ publicTags: { tagIds: ['eco', 'sale'] } });
    const priv = await call(t.url, `${P}/products/query`, { auth: visitor, siteId: t.site.id, body: { query: { filter: { 'tags.privateTags.tagIds': { $hasSome: ['margin-low'] } } } } });
    expect(priv.status).toBe(400);
    const owned = await call(t.url, `${P}/products/query`, { ...owner(), body: { query: { filter: { 'tags.privateTags.tagIds': { $hasSome: ['margin-low'] } } } } });
    expect(owned.body.products.map((p: Json) => p.id).sort()).toEqual([a.id, b.id].sort());

    const none = await call(t.url, `${B}/products/update-tags`, { ...owner(), body: { productIds: [a.id] } });
    expect(none.status).toBe(400);
  });

  it('updates tags by filter', async () => {
    const { inside, outside, filter } = await five('tgf');
    const job = await runJob('update-tags-by-filter', { filter, assignTags: { publicTags: { tagIds: ['bulk'] } } });
    expect(job).toMatchObject({ type: 'PRODUCTS_UPDATE_TAGS', total: 3, succeeded: 3 });
    for (const p of inside) expect((await get(p.id)).tags).toEqual({ publicTags: { tagIds: ['bulk'] } });
    await expectUntouched(outside);
  });
});

describe('delete-by-filter', () => {
  it('deletes the matching products with deleted events; the others stay', async () => {
    const { inside, outside, filter } = await five('del');
    const job = await runJob('delete-by-filter', { filter });
    expect(job).toMatchObject({ type: 'PRODUCTS_DELETE', total: 3, succeeded: 3, failed: 0 });
    for (const p of inside) {
      expect((await call(t.url, `${P}/products/${p.id}`, owner())).status).toBe(404);
      expect((await eventsOf(t, p.id)).map((e) => [e.entityFqdn, e.slug])).toEqual([['wix.stores.catalog.v3.product', 'created'], ['wix.stores.catalog.v3.product', 'deleted']]);
    }
    await expectUntouched(outside);
  });
});

describe('by-filter refusals', () => {
  it('a bad filter is the same 400 as queryProducts and starts no job', async () => {
    const before = await jobCount();
    const query = await call(t.url, `${P}/products/count`, { ...owner(), body: { filter: { nope: 'x' } } });
    const res = await call(t.url, `${B}/products/delete-by-filter`, { ...owner(), body: { filter: { nope: 'x' } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(query.body);
    const op = await call(t.url, `${B}/products/update-tags-by-filter`, { ...owner(), body: { filter: { name: { $regex: 'x' } }, assignTags: { publicTags: { tagIds: ['a'] } } } });
    expect(op.status).toBe(400);
    const missing = await call(t.url, `${B}/products/delete-by-filter`, { ...owner(), body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details.validationError.fieldViolations[0].field).toBe('filter');
    expect(await jobCount()).toBe(before);
  });

  it('visitors and members are refused every bulk route', async () => {
    const before = await jobCount();
    for (const auth of [visitor, member]) {
      for (const path of ['products/delete-by-filter', 'products/update-tags', 'products/add-info-sections', 'ribbons/update']) {
        const res = await call(t.url, `${B}/${path}`, { auth, siteId: t.site.id, body: { filter: {} } });
        expect(res.status, path).toBe(403);
      }
    }
    expect(await jobCount()).toBe(before);
  });
});

describe('products with inventory', () => {
  it('creates and updates in bulk with productResults and inventoryResults', async () => {
    const res = await call(t.url, `${B}/products-with-inventory/create`, { ...owner(), body: { returnEntity: true, products: [
      item('inv one', 'inv', ['4', '5'], { variantsInfo: { variants: [
        { choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'S0' } }], price: { actualPrice: { amount: '4' } }, inventoryItem: { trackQuantity: true, quantity: 3 } },
        { choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'S1' } }], price: { actualPrice: { amount: '5' } }, inventoryItem: { trackQuantity: true, quantity: 0 } },
      ] } }),
      item('inv bad', 'inv', ['1', '2'], { variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }, { price: { actualPrice: { amount: '1' } } }] } }),
    ] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = res.body.productResults.results[0];
    expect(made.itemMetadata).toEqual({ id: expect.any(String), originalIndex: 0, success: true });
    expect(made.item.inventory.availabilityStatus).toBe('PARTIALLY_OUT_OF_STOCK');
    expect(res.body.productResults.results[1].itemMetadata).toMatchObject({ originalIndex: 1, success: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(res.body.productResults.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(res.body.inventoryResults.bulkActionMetadata.totalSuccesses).toBe(2);
    expect(res.body.inventoryResults.results.map((r: Json) => [r.itemMetadata.originalIndex, r.item.productId, r.item.quantity])).toEqual([[0, made.itemMetadata.id, 3], [1, made.itemMetadata.id, 0]]);

    const upd = await call(t.url, `${B}/products-with-inventory/update`, { ...owner(), body: { products: [
      { product: { id: made.itemMetadata.id, revision: made.item.revision, name: 'inv one renamed' } },
      { product: { id: made.itemMetadata.id, revision: '99', name: 'stale' } },
    ] } });
    expect(upd.status).toBe(200);
    expect(upd.body.productResults.results.map((r: Json) => [r.itemMetadata.success, r.itemMetadata.error?.code, r.item])).toEqual([[true, undefined, undefined], [false, 'REVISION_MISMATCH', undefined]]);
    expect(upd.body.inventoryResults.results.map((r: Json) => r.item)).toEqual([undefined, undefined]);
    expect(upd.body.inventoryResults.results).toHaveLength(2);
    expect((await get(made.itemMetadata.id)).name).toBe('inv one renamed');
  });

  it('creates and updates one product with its inventory items, in variant order', async () => {
    const variants = [
      { choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'S0' } }], price: { actualPrice: { amount: '4' } }, inventoryItem: { trackQuantity: true, quantity: 7 } },
      { choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'S1' } }], price: { actualPrice: { amount: '5' } }, inventoryItem: { trackQuantity: true, quantity: 2 } },
    ];
    const res = await call(t.url, '/stores/v3/products-with-inventory', { ...owner(), body: { product: item('inv single', 'inv', ['4', '5'], { variantsInfo: { variants } }) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.product;
    const byVariant = (results: Json[]) => results.map((r: Json) => [r.itemMetadata.originalIndex, r.item.variantId, r.item.quantity]);
    expect(byVariant(res.body.inventoryResults.results)).toEqual([[0, p.variantsInfo.variants[0].id, 7], [1, p.variantsInfo.variants[1].id, 2]]);
    expect(res.body.inventoryResults.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 0, undetailedFailures: 0 });

    const upd = await call(t.url, `/stores/v3/products-with-inventory/${p.id}`, { method: 'PATCH', ...owner(), body: { product: { revision: p.revision, name: 'inv single renamed' } } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.product.name).toBe('inv single renamed');
    expect(byVariant(upd.body.inventoryResults.results)).toEqual([[0, p.variantsInfo.variants[0].id, 7], [1, p.variantsInfo.variants[1].id, 2]]);
  });
});

describe('bulk update of ribbons, brands, info sections', () => {
  it('updates each with its revision; renames reach the products; a stale revision fails that item', async () => {
    const p = await create(item('ent p', 'Ent Brand', ['2'], { ribbon: { name: 'Ent Ribbon' } }));
    const brand = p.brand;
    const ribbon = p.ribbon;
    const other = (await call(t.url, `${P}/brands`, { ...owner(), body: { brand: { name: 'Ent Other' } } })).body.brand;
    const res = await call(t.url, `${B}/brands/update`, { ...owner(), body: { returnEntity: true, brands: [
      { brand: { id: brand.id, revision: '1', name: 'Ent Brand Renamed' } },
      { brand: { id: other.id, revision: '5', name: 'Nope' } },
    ] } });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ itemMetadata: { id: brand.id, originalIndex: 0, success: true }, item: { id: brand.id, name: 'Ent Brand Renamed', revision: '2' } });
    expect(res.body.results[1].itemMetadata).toMatchObject({ id: other.id, success: false, error: { code: 'REVISION_MISMATCH' } });
    expect((await get(p.id)).brand).toEqual({ id: brand.id, name: 'Ent Brand Renamed' });
    expect((await eventsOf(t, p.id)).map((e) => e.slug)).toEqual(['created', 'updated']);
    expect((await eventsOf(t, brand.id)).map((e) => [e.entityFqdn, e.slug])).toEqual([['wix.stores.catalog.v3.brand', 'created'], ['wix.stores.catalog.v3.brand', 'updated']]);

    const rib = await call(t.url, `${B}/ribbons/update`, { ...owner(), body: { ribbons: [{ ribbon: { id: ribbon.id, revision: '1', name: 'Ent Ribbon 2' } }] } });
    expect(rib.body).toEqual({ results: [{ itemMetadata: { id: ribbon.id, originalIndex: 0, success: true } }], bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 } });
    expect((await get(p.id)).ribbon.name).toBe('Ent Ribbon 2');

    const sec = (await call(t.url, `${P}/info-sections`, { ...owner(), body: { infoSection: { uniqueName: 'ent-sec', title: 'Old title' } } })).body.infoSection;
    await call(t.url, `${B}/products/add-info-sections`, { ...owner(), body: { products: [{ productId: p.id, revision: (await get(p.id)).revision }], infoSectionIds: [sec.id] } });
    const is = await call(t.url, `${B}/info-sections/update`, { ...owner(), body: { infoSections: [{ infoSection: { id: sec.id, revision: '1', title: 'New title' } }], returnEntity: true } });
    expect(is.body.results[0].item).toMatchObject({ uniqueName: 'ent-sec', title: 'New title', revision: '2' });
    expect((await get(p.id)).infoSections).toEqual([expect.objectContaining({ id: sec.id, title: 'New title' })]);

    const missingRevision = await call(t.url, `${B}/ribbons/update`, { ...owner(), body: { ribbons: [{ ribbon: { id: ribbon.id, name: 'x' } }] } });
    expect(missingRevision.status).toBe(400);
  });
});
