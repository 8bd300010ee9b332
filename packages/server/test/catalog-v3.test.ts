import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';

let t: TestServer;
let visitor: string;
const P = '/stores/v3';

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

const owner = () => asOwner(t);
const rich = (text: string) => ({ nodes: [{ type: 'PARAGRAPH', id: 'p1', nodes: [{ type: 'TEXT', id: 't1', textData: { text, decorations: [] } }] }] });

function shirt(name: string, brand: string, prices: [string, string, string, string], extra: Record<string, unknown> = {}) {
  const sizes = ['S', 'M'];
  const colors = [['Black', '#000000'], ['Sand', '#d8c8a8']] as const;
  return {
    name, productType: 'PHYSICAL', brand: { name: brand }, description: rich(`${name} in organic cotton`),
    options: [
      { name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: sizes.map((s) => ({ name: s, choiceType: 'CHOICE_TEXT' })) } },
      { name: 'Color', optionRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: colors.map(([n, c]) => ({ name: n, choiceType: 'ONE_COLOR', colorCode: c })) } },
    ],
    modifiers: [{ name: 'Print', modifierRenderType: 'FREE_TEXT', mandatory: false, freeTextSettings: { title: 'Your text', maxCharCount: 20 } }],
    variantsInfo: { variants: sizes.flatMap((s, i) => colors.map(([c], j) => ({
      choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: s } }, { optionChoiceNames: { optionName: 'Color', choiceName: c } }],
      price: { actualPrice: { amount: prices[i * 2 + j] } }, revenueDetails: { cost: { amount: '4' } },
      inventoryItem: { trackQuantity: true, quantity: i === 0 && j === 0 ? 0 : 5 },
    }))) },
    ...extra,
  };
}

async function create(product: Record<string, unknown>) {
  const res = await call(t.url, `${P}/products`, { ...owner(), body: { product } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}

describe('V3 products', () => {
  let tee: { id: string; revision: string; variantsInfo: { variants: { id: string }[] } };

  it('creates with options, modifiers, variants, brand, ribbon, info sections and stock', async () => {
    const section = await call(t.url, `${P}/info-sections`, { ...owner(), body: { infoSection: { uniqueName: 'care', title: 'Care', description: rich('Wash cold') } } });
    expect(section.status).toBe(200);
    tee = await create(shirt('Organic Tee', 'Loomwell', ['20', '20', '22.5', '22.5'], {
      ribbon: { name: 'New' }, infoSections: [{ id: section.body.infoSection.id }], directCategoriesInfo: { categories: [{ id: 'cat-shirts' }] },
      subscriptionDetails: { subscriptions: [{ title: 'Monthly', frequency: 'MONTH', interval: 1, discount: { type: 'PERCENT', percentOff: 10 } }], allowOneTimePurchases: true },
    }));
    const p = tee as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    expect(p.revision).toBe('1');
    expect(p.brand.name).toBe('Loomwell');
    expect(p.ribbon.name).toBe('New');
    expect(p.infoSections[0]).toMatchObject({ uniqueName: 'care', title: 'Care', plainDescription: 'Wash cold' });
    expect(p.plainDescription).toBe('Organic Tee in organic cotton');
    expect(p.actualPriceRange).toEqual({ minValue: { amount: '20', formattedAmount: '$20.00' }, maxValue: { amount: '22.5', formattedAmount: '$22.50' } });
    expect(p.inventory).toEqual({ availabilityStatus: 'PARTIALLY_OUT_OF_STOCK', preorderStatus: 'DISABLED', preorderAvailability: 'NO_VARIANTS' });
    expect(p.variantSummary).toEqual({ variantCount: 4 });
    expect(p.variantsInfo.variants[0].inventoryStatus).toEqual({ inStock: false, preorderEnabled: false });
    expect(p.variantsInfo.variants[0].revenueDetails).toEqual({ cost: { amount: '4', formattedAmount: '$4.00' }, profit: { amount: '16', formattedAmount: '$16.00' }, profitMargin: 0.8 });
    expect(p.variantsInfo.variants[0].subscriptionPricesInfo.subscriptionPrices[0].price).toEqual({ amount: '18', formattedAmount: '$18.00' });
    expect(p.allCategoriesInfo.categories.map((c: { id: string }) => c.id)).toEqual(['cat-shirts', '00000000-0000-0000-0000-000000000001']);
    expect(p.options[1].choicesSettings.choices[0]).toMatchObject({ name: 'Black', choiceType: 'ONE_COLOR', colorCode: '#000000', inStock: true });
    expect(p.modifiers[0]).toMatchObject({ modifierRenderType: 'FREE_TEXT', freeTextSettings: { title: 'Your text', maxCharCount: 20, minCharCount: 0 } });
    // Visitors get no merchant data.
    const seen = await call(t.url, `${P}/products/${tee.id}`, { auth: visitor, query: { fields: 'MERCHANT_DATA' } });
    expect(seen.body.product.variantsInfo.variants[0].revenueDetails).toBeUndefined();
    const bySlug = await call(t.url, `${P}/products/slug/organic-tee`, { auth: visitor });
    expect(bySlug.body.product.id).toBe(tee.id);
  });

  it('refuses inconsistent options and variants, bad money, duplicate SKUs', async () => {
    const base = shirt('Bad Tee', 'Loomwell', ['1', '1', '1', '1']);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, variantsInfo: { variants: [{ choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'XL' } }], price: { actualPrice: { amount: '1' } } }] } }, 'product.variantsInfo.variants[0].choices[0]', 'FORMAT'],
      [{ ...base, variantsInfo: { variants: [{ choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'S' } }], price: { actualPrice: { amount: '1' } } }] } }, 'product.variantsInfo.variants[0].choices', 'FORMAT'],
      [{ name: 'X', productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '-1' } } }] } }, 'product.variantsInfo.variants[0].price.actualPrice.amount', 'FORMAT'],
      [{ name: 'X', productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }, { price: { actualPrice: { amount: '2' } } }] } }, 'product.variantsInfo.variants', 'EXACT_SIZE'],
      [{ name: 'X', productType: 'PHYSICAL' }, 'product.variantsInfo', 'REQUIRED_FIELD'],
      [{ name: 'X', productType: 'PHYSICAL', options: [{ name: 'C', optionRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: [{ name: 'Red', choiceType: 'ONE_COLOR' }] } }], variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } }, 'product.options[0].choicesSettings.choices[0].colorCode', 'REQUIRED_FIELD'],
      [{ name: 'X', productType: 'PHYSICAL', brand: { id: 'nope' }, variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } }, 'product.brand.id', 'FORMAT'],
    ];
    for (const [product, field, rule] of cases) {
      const res = await call(t.url, `${P}/products`, { ...owner(), body: { product } });
      expect(res.status, field).toBe(400);
      expect(res.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field, violatedRule: rule })]);
    }
    await create({ name: 'Sku One', productType: 'DIGITAL', variantsInfo: { variants: [{ sku: 'DUP-1', price: { actualPrice: { amount: '1' } } }] } });
    const dup = await call(t.url, `${P}/products`, { ...owner(), body: { product: { name: 'Sku Two', productType: 'DIGITAL', variantsInfo: { variants: [{ sku: 'DUP-1', price: { actualPrice: { amount: '1' } } }] } } } });
    expect(dup.status).toBe(400);
    const count = await call(t.url, `${P}/products/count`, { ...owner(), body: { returnNonVisibleProducts: true } });
    expect(count.body.count).toBe(2);
  });

  it('stores multiple-colour and image choices and swatch modifiers, and requires their data', async () => {
    const image = { id: 'img-1', url: 'https://cdn.example.com/linen.jpg', width: 40, height: 30 };
    const p = await create({
      name: 'Swatch Scarf', productType: 'PHYSICAL',
      options: [
        { name: 'Pattern', optionRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: [
          { name: 'Stripes', choiceType: 'MULTIPLE_COLORS', multipleColors: { colorCodes: ['#000000', '#ffffff'] } },
          { name: 'Linen', choiceType: 'IMAGE', image },
        ] } },
      ],
      modifiers: [{ name: 'Wrap', modifierRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: [{ name: 'Red paper', choiceType: 'ONE_COLOR', colorCode: '#aa0000', addedPrice: '2.5' }] } }],
      variantsInfo: { variants: ['Stripes', 'Linen'].map((c) => ({ choices: [{ optionChoiceNames: { optionName: 'Pattern', choiceName: c } }], price: { actualPrice: { amount: '12' } } })) },
    });
    const [stripes, linen] = p.options[0].choicesSettings.choices;
    expect(stripes).toMatchObject({ name: 'Stripes', choiceType: 'MULTIPLE_COLORS', multipleColors: { colorCodes: ['#000000', '#ffffff'] } });
    expect(linen).toMatchObject({ name: 'Linen', choiceType: 'IMAGE', image });
    expect(p.modifiers[0].choicesSettings.choices[0]).toMatchObject({ name: 'Red paper', choiceType: 'ONE_COLOR', colorCode: '#aa0000', addedPrice: '2.5' });
    const missing = (choice: Record<string, unknown>) => ({ name: 'X', productType: 'PHYSICAL',
      options: [{ name: 'P', optionRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: [choice] } }],
      variantsInfo: { variants: [{ choices: [{ optionChoiceNames: { optionName: 'P', choiceName: 'A' } }], price: { actualPrice: { amount: '1' } } }] } });
    for (const [choice, field] of [
      [{ name: 'A', choiceType: 'MULTIPLE_COLORS' }, 'product.options[0].choicesSettings.choices[0].multipleColors'],
      [{ name: 'A', choiceType: 'IMAGE' }, 'product.options[0].choicesSettings.choices[0].image'],
    ] as const) {
      const res = await call(t.url, `${P}/products`, { ...owner(), body: { product: missing(choice) } });
      expect(res.status, field).toBe(400);
      expect(res.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field, violatedRule: 'REQUIRED_FIELD' })]);
    }
    // The later tests count this file's products.
    expect((await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
  });

  it('updates with optimistic concurrency and keeps ids of surviving options and variants', async () => {
    const stale = await call(t.url, `${P}/products/${tee.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: '7', name: 'X' } } });
    expect(stale.status).toBe(409);
    expect(stale.body.details.applicationError.code).toBe('REVISION_MISMATCH');
    const res = await call(t.url, `${P}/products/${tee.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: tee.revision, name: 'Organic Tee II', ribbon: null } } });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ name: 'Organic Tee II', revision: '2', slug: 'organic-tee' });
    expect(res.body.product.ribbon).toBeUndefined();
    expect(res.body.product.variantsInfo.variants.map((v: { id: string }) => v.id)).toEqual(tee.variantsInfo.variants.map((v) => v.id));
    tee = res.body.product;
  });

  it('refuses one variant id twice, and never gives a new variant the id another variant of the update keeps', async () => {
    const p = await create({
      name: 'Id Keeper', productType: 'PHYSICAL',
      options: [{ name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: ['S', 'M', 'L'].map((n) => ({ name: n, choiceType: 'CHOICE_TEXT' })) } }],
      variantsInfo: { variants: ['S', 'M'].map((n) => ({ choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: n } }], price: { actualPrice: { amount: '10' } } })) },
    });
    const [s, m] = p.variantsInfo.variants as { id: string }[];
    const pick = (n: string) => [{ optionChoiceNames: { optionName: 'Size', choiceName: n } }];
    const update = (variants: unknown[]) => call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: p.revision, variantsInfo: { variants } } } });

    const twice = await update([{ id: s!.id, choices: pick('S'), price: { actualPrice: { amount: '10' } } }, { id: s!.id, choices: pick('M'), price: { actualPrice: { amount: '10' } } }]);
    expect(twice.status).toBe(400);
    expect(twice.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: 'product.variantsInfo.variants[1].id', description: 'is also the id of product.variantsInfo.variants[0].id' })]);
    expect((await call(t.url, `${P}/products/${p.id}`, owner())).body.product.revision).toBe(p.revision);

    // S's variant moves to L; a new variant without an id takes S: it gets a new id, not S's.
    const moved = await update([{ choices: pick('S'), price: { actualPrice: { amount: '11' } } }, { id: s!.id, choices: pick('L'), price: { actualPrice: { amount: '12' } } }, { id: m!.id, choices: pick('M'), price: { actualPrice: { amount: '10' } } }]);
    expect(moved.status).toBe(200);
    const ids = (moved.body.product.variantsInfo.variants as { id: string }[]).map((v) => v.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.slice(1)).toEqual([s!.id, m!.id]);
    expect(ids[0]).not.toBe(s!.id);

    // Size is renamed Fit (given its id) and a new option takes the name Size: it gets its own id.
    const now = moved.body.product;
    const size = now.options[0];
    const renamed = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: now.revision,
      options: [
        { id: size.id, name: 'Fit', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: size.choicesSettings.choices.map((c: { choiceId: string; name: string }) => ({ choiceId: c.choiceId, name: c.name, choiceType: 'CHOICE_TEXT' })) } },
        { name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [{ name: 'One', choiceType: 'CHOICE_TEXT' }] } },
      ],
      variantsInfo: { variants: ['S', 'M', 'L'].map((n) => ({ choices: [{ optionChoiceNames: { optionName: 'Fit', choiceName: n } }, { optionChoiceNames: { optionName: 'Size', choiceName: 'One' } }], price: { actualPrice: { amount: '10' } } })) },
    } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.product.options.map((o: { name: string }) => o.name)).toEqual(['Fit', 'Size']);
    expect(renamed.body.product.options[0].id).toBe(size.id);
    expect(renamed.body.product.options[1].id).not.toBe(size.id);
    const twiceOption = await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: renamed.body.product.revision,
      options: renamed.body.product.options.map((o: { name: string }) => ({ id: size.id, name: o.name, optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [{ name: 'X', choiceType: 'CHOICE_TEXT' }] } })),
    } } });
    expect(twiceOption.status).toBe(400);
    expect(twiceOption.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: 'product.options[1].id', description: 'is also the id of product.options[0].id' })]);
    // The listing tests below count this file's products.
    expect((await call(t.url, `${P}/products/${p.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
  });

  it('keeps search-engine tags through other changes, replaces them, clears them with null, and bounds them', async () => {
    const tags = [{ type: 'title', children: 'Organic cotton tee' }, { type: 'meta', props: { name: 'description', content: 'Soft and fair' } }];
    const patch = (product: Record<string, unknown>) => call(t.url, `${P}/products/${tee.id}`, { ...owner(), method: 'PATCH', body: { product: { revision: tee.revision, ...product } } });
    let res = await patch({ seoData: { tags } });
    expect(res.body.product.seoData).toEqual({ tags });
    tee = res.body.product;
    res = await patch({ visibleInPos: false });
    expect([res.body.product.visibleInPos, res.body.product.seoData]).toEqual([false, { tags }]);
    tee = res.body.product;
    expect((await call(t.url, `${P}/products/${tee.id}`, { auth: visitor })).body.product.seoData).toEqual({ tags });
    const tooMany = await patch({ seoData: { tags: Array.from({ length: 51 }, () => ({ type: 'meta' })) } });
    expect([tooMany.status, tooMany.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'product.seoData.tags']);
    expect((await call(t.url, `${P}/products/${tee.id}`, owner())).body.product.revision).toBe(tee.revision);
    res = await patch({ seoData: null });
    expect(res.body.product.seoData).toBeUndefined();
    tee = res.body.product;
  });

  it('pages with cursors, searches with ranking and aggregates facets', async () => {
    await create(shirt('Linen Tee', 'Loomwell', ['30', '30', '30', '30']));
    await create(shirt('Wool Sweater', 'Knitco', ['80', '85', '90', '95']));
    await create({ name: 'Sock Pack', productType: 'PHYSICAL', brand: { name: 'Knitco' }, variantsInfo: { variants: [{ price: { actualPrice: { amount: '12' } } }] } });
    const first = await call(t.url, `${P}/products/query`, { auth: visitor, dotR: { query: { sort: [{ fieldName: 'name', order: 'ASC' }], cursorPaging: { limit: 2 } } } });
    expect(first.status).toBe(200);
    expect(first.body.pagingMetadata).toMatchObject({ count: 2, hasNext: true });
    const names: string[] = first.body.products.map((p: { name: string }) => p.name);
    let cursor = first.body.pagingMetadata.cursors.next;
    while (cursor) {
      const page = await call(t.url, `${P}/products/query`, { auth: visitor, dotR: { query: { cursorPaging: { cursor, limit: 2 } } } });
      names.push(...page.body.products.map((p: { name: string }) => p.name));
      cursor = page.body.pagingMetadata.cursors.next;
    }
    expect(names).toEqual(['Linen Tee', 'Organic Tee II', 'Sku One', 'Sock Pack', 'Wool Sweater']);

    const search = await call(t.url, `${P}/products/search`, { auth: visitor, body: { search: {
      search: { expression: 'tee' },
      aggregations: [
        { name: 'brands', type: 'VALUE', fieldPath: 'brand.name' },
        { name: 'colors', type: 'VALUE', fieldPath: 'options.choicesSettings.choices.name', value: { sortType: 'VALUE', sortDirection: 'ASC' } },
        { name: 'prices', type: 'RANGE', fieldPath: 'actualPriceRange.minValue.amount', range: { buckets: [{ to: 25 }, { from: 25, to: 50 }, { from: 50 }] } },
        { name: 'max', type: 'SCALAR', fieldPath: 'actualPriceRange.maxValue.amount', scalar: { type: 'MAX' } },
      ],
    } } });
    expect(search.status).toBe(200);
    expect(search.body.products.map((p: { name: string }) => p.name).sort()).toEqual(['Linen Tee', 'Organic Tee II']);
    const agg = Object.fromEntries(search.body.aggregationData.results.map((r: { name: string }) => [r.name, r]));
    expect(agg.brands.values.results).toEqual([{ value: 'Loomwell', count: 2 }]);
    expect(agg.colors.values.results).toEqual([{ value: 'Black', count: 2 }, { value: 'M', count: 2 }, { value: 'S', count: 2 }, { value: 'Sand', count: 2 }]);
    expect(agg.prices.ranges.results).toEqual([{ to: 25, count: 1 }, { from: 25, to: 50, count: 1 }, { from: 50, count: 0 }]);
    expect(agg.max.scalar).toEqual({ type: 'MAX', value: 30 });

    const all = await call(t.url, `${P}/products/search`, { auth: visitor, body: { search: { filter: { 'actualPriceRange.minValue.amount': { $gte: '20' } }, aggregations: [{ name: 'b', fieldPath: 'brand.name' }] } } });
    expect(all.body.aggregationData.results[0].values.results).toEqual([{ value: 'Loomwell', count: 2 }, { value: 'Knitco', count: 1 }]);
    const knit = await call(t.url, `${P}/products/count`, { auth: visitor, body: { filter: { 'brand.name': 'Knitco' } } });
    expect(knit.body.count).toBe(2);
    const bad = await call(t.url, `${P}/products/search`, { auth: visitor, body: { search: { aggregations: [{ fieldPath: 'doc' }] } } });
    expect(bad.status).toBe(400);
  });

  it('renames brands into products and deletes products', async () => {
    const brand = (await call(t.url, `${P}/brands/query`, { ...owner(), body: { query: { filter: { name: 'Knitco' } } } })).body.brands[0];
    const upd = await call(t.url, `${P}/brands/${brand.id}`, { ...owner(), method: 'PATCH', body: { brand: { name: 'Knit & Co', revision: brand.revision } } });
    expect(upd.status).toBe(200);
    const socks = await call(t.url, `${P}/products/slug/sock-pack`, { auth: visitor });
    expect(socks.body.product.brand).toEqual({ id: brand.id, name: 'Knit & Co' });
    const found = await call(t.url, `${P}/products/search`, { auth: visitor, body: { search: { search: { expression: 'knit' } } } });
    expect(found.body.products.length).toBe(2);
    expect((await call(t.url, `${P}/products/${socks.body.product.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `${P}/products/${socks.body.product.id}`, { auth: visitor })).status).toBe(404);
  });
});

describe('V3 inventory items', () => {
  it('reads, updates with preorder, and decrements all-or-nothing', async () => {
    const tee = (await call(t.url, `${P}/products/slug/linen-tee`, { ...owner() })).body.product;
    const items = await call(t.url, `${P}/inventory-items/query`, { auth: visitor, body: { query: { filter: { productId: tee.id } } } });
    expect(items.status).toBe(200);
    expect(items.body.inventoryItems).toHaveLength(4);
    const soldOut = items.body.inventoryItems.find((i: { quantity: number }) => i.quantity === 0);
    const inStock = items.body.inventoryItems.find((i: { quantity: number }) => i.quantity === 5);
    expect(soldOut).toMatchObject({ trackQuantity: true, inStock: false, availabilityStatus: 'OUT_OF_STOCK', productId: tee.id });
    const pre = await call(t.url, `${P}/inventory-items/${soldOut.id}`, { ...owner(), method: 'PATCH', body: { inventoryItem: { revision: soldOut.revision, preorderInfo: { enabled: true, limit: 2 } } } });
    expect(pre.status).toBe(200);
    expect(pre.body.inventoryItem).toMatchObject({ availabilityStatus: 'PREORDER', preorderInfo: { enabled: true, limit: 2, counter: 0 } });
    const product = (await call(t.url, `${P}/products/${tee.id}`, { auth: visitor })).body.product;
    expect(product.inventory).toEqual({ availabilityStatus: 'IN_STOCK', preorderStatus: 'PARTIALLY_ENABLED', preorderAvailability: 'SOME_VARIANTS' });

    const tooMuch = await call(t.url, `${P}/bulk/inventory-items/decrement`, { ...owner(), body: { decrementData: [{ inventoryItemId: inStock.id, decrementBy: 2 }, { inventoryItemId: soldOut.id, decrementBy: 3 }] } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.details.applicationError.code).toBe('INSUFFICIENT_STOCK');
    expect((await call(t.url, `${P}/inventory-items/${inStock.id}`, { auth: visitor })).body.inventoryItem.quantity).toBe(5);
    const ok = await call(t.url, `${P}/bulk/inventory-items/decrement`, { ...owner(), body: { decrementData: [{ inventoryItemId: inStock.id, decrementBy: 5 }, { inventoryItemId: soldOut.id, decrementBy: 2 }], returnEntity: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 0, undetailedFailures: 0 });
    expect(ok.body.results[1].item).toMatchObject({ quantity: -2, availabilityStatus: 'PREORDER', preorderInfo: { counter: 2, quantity: 2 } });
    expect((await call(t.url, `${P}/inventory-items/${inStock.id}`, { auth: visitor })).body.inventoryItem).toMatchObject({ quantity: 0, inStock: false, availabilityStatus: 'OUT_OF_STOCK' });
  });
});

describe('V3 bulk calls', () => {
  it('bulk-updates products with revisions, counts and bulk-updates inventory items, bulk get-or-creates brands', async () => {
    const a = (await call(t.url, `${P}/products/slug/linen-tee`, { ...owner() })).body.product;
    const upd = await call(t.url, `${P}/bulk/products/update`, { ...owner(), body: { products: [{ product: { id: a.id, revision: a.revision, name: 'Linen Tee Bulk' } }, { product: { id: a.id, revision: '1', name: 'Stale' } }], returnEntity: true } });
    expect(upd.status).toBe(200);
    expect(upd.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(upd.body.results[0].item.name).toBe('Linen Tee Bulk');
    expect(upd.body.results[1].itemMetadata.error.code).toBe('REVISION_MISMATCH');
    const count = await call(t.url, `${P}/inventory-items/count`, { auth: visitor, body: { filter: { productId: a.id } } });
    expect(count.body).toEqual({ count: 4 });
    const items = (await call(t.url, `${P}/inventory-items/query`, { ...owner(), body: { query: { filter: { productId: a.id } } } })).body.inventoryItems;
    const bu = await call(t.url, `${P}/bulk/inventory-items/update`, { ...owner(), body: { inventoryItems: [{ inventoryItem: { id: items[0].id, quantity: 9 } }], returnEntity: true } });
    expect(bu.body.results[0].item).toMatchObject({ quantity: 9, inStock: true, availabilityStatus: 'IN_STOCK' });
    const goc = await call(t.url, `${P}/bulk/brands/get-or-create`, { ...owner(), body: { brandNames: ['Loomwell', 'Brand New'] } });
    expect(goc.body.bulkActionMetadata.totalSuccesses).toBe(2);
    expect(goc.body.results.map((r: { item: { name: string } }) => r.item.name)).toEqual(['Loomwell', 'Brand New']);
  });
});

describe('ribbons, brands and info sections', () => {
  it('creates, gets, counts, get-or-creates and deletes; names are unique', async () => {
    const r = await call(t.url, `${P}/ribbons`, { ...owner(), body: { ribbon: { name: 'Limited' } } });
    expect(r.status).toBe(200);
    expect(r.body.ribbon).toMatchObject({ name: 'Limited', revision: '1' });
    expect((await call(t.url, `${P}/ribbons`, { ...owner(), body: { ribbon: { name: 'Limited' } } })).status).toBe(409);
    const same = await call(t.url, `${P}/ribbons/get-or-create`, { ...owner(), body: { ribbonName: 'Limited' } });
    expect(same.body.ribbon.id).toBe(r.body.ribbon.id);
    const got = await call(t.url, `${P}/ribbons/${r.body.ribbon.id}`, { auth: visitor });
    expect(got.body.ribbon.name).toBe('Limited');
    const count = await call(t.url, `${P}/ribbons/count`, { auth: visitor, body: {} });
    expect(count.body.count).toBe(2);
    const bulk = await call(t.url, `${P}/bulk/brands/create`, { ...owner(), body: { brands: [{ name: 'A1' }, { name: 'Loomwell' }], returnEntity: true } });
    expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(bulk.body.results[1].itemMetadata.error.code).toBe('BRAND_ALREADY_EXISTS');
    expect((await call(t.url, `${P}/ribbons/${r.body.ribbon.id}`, { ...owner(), method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `${P}/ribbons/${r.body.ribbon.id}`, { auth: visitor })).status).toBe(404);
    const cat = await call(t.url, `${P}/all-products-category`, { auth: visitor });
    expect(cat.body.categoryId).toBe('00000000-0000-0000-0000-000000000001');
  });
});
