import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type ApiResponse, type TestServer } from './harness.js';
import { evalFilter, evalOperator, nestedFilterArb, type Filter, type Kind, type V } from './filter-property.js';

/**
 * Every filter operator of the V3 product reads (query, search, count), proven against an in-memory
 * evaluation of the same filter over the same products, like catalog-filter.test.ts does for V1.
 * fast-check generates filters over every filterable V3 field (all operators, $and / $or / $not
 * nesting, several operators or fields in one object); the server answers over HTTP, paged with
 * cursors, and the ordered id lists and counts must be equal, for the owner (hidden products
 * included) and for a visitor (visible products only, public tags only), with random sorts and
 * search expressions. The evaluator follows SQL's three-valued logic. Invalid filters (unknown
 * operators and fields, operators that do not apply, values of the wrong type) must be a 400 on every
 * endpoint. The server bugs the comparison found keep a focused assertion ('regressions ...').
 */

let t: TestServer;
let visitor = '';
const P = '/stores/v3/products';
const ALL = '00000000-0000-0000-0000-000000000001';
const N = 40;
const SEED = 20261122;
const RUNS = 200;
const INVALID_RUNS = 60;

interface Row {
  id: string; name: string; slug: string; plainDescription: string; visible: boolean; productType: string;
  brandId: string | null; brandName: string | null; ribbonId: string | null; ribbonName: string | null;
  minPrice: number; maxPrice: number; availability: string; preorder: string; mainCategoryId: string;
  createdDate: string; updatedDate: string; allCategories: string[]; directCategories: string[];
  choiceIds: string[]; choiceNames: string[]; publicTags: string[]; privateTags: string[];
}
let rows: Row[] = [];
/** Values the generated placeholders ("@id3", "@brand1", ...) stand for, filled from the seeded data. */
const bound = new Map<string, string>();

const ADJ = ['Alpha', 'beta', 'Gamma', 'delta', 'OMEGA'];
const NOUN = ['tee', 'Mug', 'cap', 'bag'];
const BRANDS = ['Acme', 'Brewline', 'Vitrine'];
const RIBBONS = ['Sale', 'New'];
const CATS = ['cat-a', 'cat-b', 'cat-c'];
const PRICES = ['0', '0.1', '0.2', '1', '5', '9.99', '10', '10.5', '22.5', '25.5', '99.99', '100'];

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON

function toRow(p: Wire): Row {
  return {
    id: p.id, name: p.name, slug: p.slug, plainDescription: p.plainDescription, visible: p.visible, productType: p.productType,
    brandId: p.brand?.id ?? null, brandName: p.brand?.name ?? null, ribbonId: p.ribbon?.id ?? null, ribbonName: p.ribbon?.name ?? null,
    minPrice: Number(p.actualPriceRange.minValue.amount), maxPrice: Number(p.actualPriceRange.maxValue.amount),
    availability: p.inventory.availabilityStatus, preorder: p.inventory.preorderStatus, mainCategoryId: p.mainCategoryId,
    createdDate: p.createdDate, updatedDate: p.updatedDate,
    allCategories: p.allCategoriesInfo.categories.map((c: { id: string }) => c.id),
    directCategories: p.directCategoriesInfo.categories.map((c: { id: string }) => c.id),
    choiceIds: p.options.flatMap((o: Wire) => o.choicesSettings.choices.map((c: Wire) => c.choiceId)),
    choiceNames: p.options.flatMap((o: Wire) => o.choicesSettings.choices.map((c: Wire) => c.name)),
    publicTags: p.tags?.publicTags?.tagIds ?? [], privateTags: p.tags?.privateTags?.tagIds ?? [],
  };
}

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  const own = asOwner(t);
  // Deterministic pseudo-random catalog (the filters, not the data, are what fast-check explores).
  // mulberry32: the low bits of a plain LCG repeat with a short period, which skews `% n` picks.
  let seed = 11;
  const rnd = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
  const pick = <T>(xs: readonly T[]) => xs[rnd(xs.length)]!;
  const some = <T>(xs: readonly T[], chance: number) => xs.filter(() => rnd(chance) === 0);
  const richText = (text: string) => ({ nodes: [{ type: 'PARAGRAPH', id: 'p', nodes: [{ type: 'TEXT', id: 't', textData: { text, decorations: [] } }] }] });
  const products: Record<string, unknown>[] = [];
  for (let i = 0; i < N; i++) {
    // LIKE metacharacters and a backslash in some names: $contains '%' must not match everything.
    const name = i % 9 === 4 ? `Sale 50% off_${i}` : i % 11 === 7 ? `Back\\slash ${pick(NOUN)} ${i}` : `${pick(ADJ)} ${pick(NOUN)}${i}`;
    const stock = () => {
      switch (rnd(5)) {
        case 0: return undefined; // not tracked, in stock
        case 1: return { trackQuantity: true, quantity: 5 };
        case 2: return { trackQuantity: true, quantity: 0 };
        case 3: return { trackQuantity: true, quantity: 0, preorderInfo: { enabled: true } };
        default: return { trackQuantity: false, inStock: false };
      }
    };
    const variant = (choices: { optionName: string; choiceName: string }[]) => {
      const s = stock();
      return { choices: choices.map((c) => ({ optionChoiceNames: c })), price: { actualPrice: { amount: pick(PRICES) } }, ...(s ? { inventoryItem: s } : {}) };
    };
    const shape = rnd(3);
    const sizes = shape === 0 ? [] : ['S', 'M', 'L'].filter((_, j) => j === 0 || rnd(2) === 0);
    const colors = shape === 2 ? ['Red', 'Blue'].filter((_, j) => j === 0 || rnd(2) === 0) : [];
    const options = [
      ...(sizes.length ? [{ name: 'Size', choicesSettings: { choices: sizes.map((s) => ({ name: s, choiceId: `size-${s.toLowerCase()}` })) } }] : []),
      // Colour choices get server-made ids (bound to "@choiceN" placeholders below).
      ...(colors.length ? [{ name: 'Color', choicesSettings: { choices: colors.map((c) => ({ name: c })) } }] : []),
    ];
    const variants = sizes.length === 0 ? [variant([])] : sizes.flatMap((s) => (colors.length ? colors : [undefined]).map((c) => variant([
      { optionName: 'Size', choiceName: s }, ...(c ? [{ optionName: 'Color', choiceName: c }] : []),
    ])));
    const direct = [...some(CATS, 3), ...(rnd(10) === 0 ? [ALL] : [])];
    const desc = rnd(3);
    const product = {
      name, productType: rnd(3) === 0 ? 'DIGITAL' : 'PHYSICAL', visible: rnd(4) !== 0,
      ...(i % 3 === 0 ? { slug: `item-${i}-${pick(NOUN).toLowerCase()}` } : {}),
      ...(desc === 1 ? { plainDescription: `${pick(ADJ)} ${pick(NOUN)} text` } : desc === 2 ? { description: richText(`Rich ${pick(NOUN)} story`) } : {}),
      ...(rnd(4) !== 0 ? { brand: { name: pick(BRANDS) } } : {}),
      ...(rnd(3) === 0 ? { ribbon: { name: pick(RIBBONS) } } : {}),
      ...(direct.length ? { directCategoriesInfo: { categories: direct.map((id) => ({ id })) } } : {}),
      ...(rnd(2) === 0 ? { tags: { publicTags: { tagIds: some(['t1', 't2', 't3'], 2) }, privateTags: { tagIds: some(['p1', 'p2'], 2) } } } : {}),
      options, variantsInfo: { variants },
    };
    products.push(product);
  }
  // Half one by one, half in one bulk call (both write paths feed the filter columns).
  for (const product of products.slice(0, N / 2)) {
    const res = await call(t.url, P, { ...own, body: { product } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const bulk = await call(t.url, '/stores/v3/bulk/products/create', { ...own, body: { products: products.slice(N / 2) } });
  expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
  expect(bulk.body.bulkActionMetadata.totalSuccesses, JSON.stringify(bulk.body)).toBe(N / 2);
  // Later writes: updatedDate moves away from createdDate, a brand rename and a ribbon delete reach
  // the products' filter columns in the same transaction as their documents.
  const first = await call(t.url, `${P}/query`, { ...own, body: { query: { sort: [{ fieldName: 'createdDate', order: 'ASC' }], cursorPaging: { limit: 100 } } } });
  for (const p of (first.body.products as Wire[]).filter((_, i) => i % 6 === 1)) {
    const res = await call(t.url, `${P}/${p.id}`, { ...own, method: 'PATCH', body: { product: { revision: p.revision, visible: !p.visible } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const brands = await call(t.url, '/stores/v3/brands/query', { ...own, body: { query: { filter: { name: 'Brewline' } } } });
  const brand = brands.body.brands[0];
  expect((await call(t.url, `/stores/v3/brands/${brand.id}`, { ...own, method: 'PATCH', body: { brand: { name: 'Brew Line' } } })).status).toBe(200);
  const ribbon = (await call(t.url, '/stores/v3/ribbons/query', { ...own, body: { query: { filter: { name: 'New' } } } })).body.ribbons[0];
  expect((await call(t.url, `/stores/v3/ribbons/${ribbon.id}`, { ...own, method: 'DELETE' })).status).toBe(200);

  const all = await call(t.url, `${P}/query`, { ...own, body: { query: { sort: [{ fieldName: 'createdDate', order: 'ASC' }], cursorPaging: { limit: 100 } } } });
  rows = (all.body.products as Wire[]).map(toRow);
  expect(rows).toHaveLength(N);
  const distinct = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))].sort();
  rows.forEach((r, i) => {
    bound.set(`@id${i}`, r.id); bound.set(`@name${i}`, r.name); bound.set(`@slug${i}`, r.slug); bound.set(`@desc${i}`, r.plainDescription);
    bound.set(`@created${i}`, r.createdDate); bound.set(`@updated${i}`, r.updatedDate);
  });
  distinct(rows.map((r) => r.brandId)).forEach((id, i) => bound.set(`@brand${i}`, id));
  [...distinct(rows.map((r) => r.ribbonId)), ribbon.id as string].forEach((id, i) => bound.set(`@ribbon${i}`, id));
  distinct(rows.flatMap((r) => r.choiceIds)).forEach((id, i) => bound.set(`@choice${i}`, id));
}, 120_000);
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------
// In-memory evaluation (three-valued, as SQL)


type Viewer = 'owner' | 'visitor';
interface FieldSpec { kind: Kind; get: (r: Row, viewer: Viewer) => unknown; values: fc.Arbitrary<unknown> }

const ph = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `@${prefix}${i}`);
const text = (...xs: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...xs) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9 %_-]{0,3}$/) });
const names = text(...ph('name', 6), 'Alpha', 'alpha', 'beta', 'Gamma', 'OMEGA', 'omega', 'al', 'ta', 'tee', 'Tee', 'mug', '1', '2', '%', '_', '\\', '50%', 'off_', 'sale', ' ', '');
const PRICE_VALUES = [0, 0.1, 0.2, 0.3, 1, 5, 9.99, 10, 10.5, 22.5, 25.5, 99.99, 100, -1, 1000];
// V3 money is decimal text: price filters take numbers or decimal strings.
const prices = fc.oneof(fc.constantFrom(...PRICE_VALUES), fc.constantFrom(...PRICE_VALUES).map(String), fc.constantFrom('9.990', '010', '10.50'));
const dates = (prefix: string) => fc.oneof(
  fc.constantFrom(...ph(prefix, 8), '2000-01-01T00:00:00.000Z', '2999-01-01'),
  fc.constantFrom(...ph(prefix, 8)).map((d) => ({ $date: d })),
);

const FIELDS: Record<string, FieldSpec> = {
  id: { kind: 'string', get: (r) => r.id, values: fc.constantFrom(...ph('id', 6), 'nope', '') },
  name: { kind: 'string', get: (r) => r.name, values: names },
  slug: { kind: 'string', get: (r) => r.slug, values: text(...ph('slug', 6), 'item-', 'alpha', '-tee', 'sale-50', 'off') },
  plainDescription: { kind: 'string', get: (r) => r.plainDescription, values: text(...ph('desc', 6), '', 'Rich', 'rich', 'text', 'story', 'mug') },
  visible: { kind: 'boolean', get: (r) => r.visible, values: fc.boolean() },
  productType: { kind: 'string', get: (r) => r.productType, values: fc.constantFrom('PHYSICAL', 'DIGITAL', 'physical', 'PHYS', 'AL') },
  'brand.id': { kind: 'string', get: (r) => r.brandId, values: fc.constantFrom(...ph('brand', 3), 'nope') },
  'brand.name': { kind: 'string', get: (r) => r.brandName, values: text('Acme', 'acme', 'Brewline', 'Brew Line', 'Vitrine', 'Ac', 'line') },
  'ribbon.id': { kind: 'string', get: (r) => r.ribbonId, values: fc.constantFrom(...ph('ribbon', 2), 'nope') },
  'ribbon.name': { kind: 'string', get: (r) => r.ribbonName, values: text('Sale', 'sale', 'New', 'Sa', 'le') },
  'actualPriceRange.minValue.amount': { kind: 'number', get: (r) => r.minPrice, values: prices },
  'actualPriceRange.maxValue.amount': { kind: 'number', get: (r) => r.maxPrice, values: prices },
  'inventory.availabilityStatus': { kind: 'string', get: (r) => r.availability, values: fc.constantFrom('IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK', 'PREORDER', 'in_stock', 'STOCK') },
  'inventory.preorderStatus': { kind: 'string', get: (r) => r.preorder, values: fc.constantFrom('ENABLED', 'DISABLED', 'PARTIALLY_ENABLED', 'enabled', 'ABLED') },
  mainCategoryId: { kind: 'string', get: (r) => r.mainCategoryId, values: fc.constantFrom(...CATS, 'cat-z', ALL, 'cat') },
  createdDate: { kind: 'date', get: (r) => r.createdDate, values: dates('created') },
  updatedDate: { kind: 'date', get: (r) => r.updatedDate, values: dates('updated') },
  'allCategoriesInfo.categories': { kind: 'set', get: (r) => r.allCategories, values: fc.constantFrom(...CATS, 'cat-z', ALL) },
  'allCategoriesInfo.categories.id': { kind: 'set', get: (r) => r.allCategories, values: fc.constantFrom(...CATS, 'cat-z', ALL) },
  'directCategoriesInfo.categories.id': { kind: 'set', get: (r) => r.directCategories, values: fc.constantFrom(...CATS, 'cat-z', ALL) },
  'options.choicesSettings.choices.choiceId': { kind: 'set', get: (r) => r.choiceIds, values: fc.constantFrom(...ph('choice', 4), 'size-s', 'size-l', 'nope') },
  'options.choicesSettings.choices.name': { kind: 'set', get: (r) => r.choiceNames, values: fc.constantFrom('S', 'M', 'L', 'Red', 'Blue', 's', 'XL') },
  'tags.publicTags.tagIds': { kind: 'set', get: (r) => r.publicTags, values: fc.constantFrom('t1', 't2', 't3', 'tx', 'p1') },
  'tags.privateTags.tagIds': { kind: 'set', get: (r) => r.privateTags, values: fc.constantFrom('p1', 'p2', 'px', 't1') },
  // `tags` is either list for elevated callers, the public list for everyone else.
  tags: { kind: 'set', get: (r, viewer) => (viewer === 'owner' ? [...r.publicTags, ...r.privateTags] : r.publicTags), values: fc.constantFrom('t1', 't2', 'p1', 'p2', 'tx') },
};

/** The server's reading of a value: decimal text for prices, ISO text for dates. */
function norm(kind: Kind, x: unknown): unknown {
  if (kind === 'number' && typeof x === 'string') return Number(x);
  if (kind === 'date') return new Date(typeof x === 'object' && x !== null ? (x as { $date: string }).$date : (x as string)).toISOString();
  return x;
}

const evalRow = (r: Row, viewer: Viewer, filter: Filter): V => evalFilter(filter, (path, op, value) => {
  const f = FIELDS[path]!;
  return evalOperator(f.kind, f.get(r, viewer), op, value, (x) => norm(f.kind, x));
});

// ---------------------------------------------------------------------------------------------
// Arbitraries

const SCALAR_OPS = {
  eqNe: ['$eq', '$ne'], list: ['$in', '$hasSome', '$hasAll'], range: ['$gt', '$gte', '$lt', '$lte'], text: ['$startsWith', '$endsWith', '$contains'],
  empty: ['$exists', '$isEmpty', '$isNotEmpty'],
} as const;

/** One operator and operand that applies to the field. */
function opArb(path: string): fc.Arbitrary<[string, unknown]> {
  const f = FIELDS[path]!;
  const val = f.values;
  const pair = (ops: readonly string[], v: fc.Arbitrary<unknown>) => fc.tuple(fc.constantFrom(...ops), v) as fc.Arbitrary<[string, unknown]>;
  if (f.kind === 'set') {
    return fc.oneof(
      pair(['$hasSome', '$hasAll', '$in'], fc.array(val, { maxLength: 3 })),
      pair(['$eq', '$ne'], val),
      pair(SCALAR_OPS.empty, fc.boolean()),
    );
  }
  const ops = [
    pair(SCALAR_OPS.eqNe, fc.oneof(val, fc.constant(null))),
    pair(SCALAR_OPS.list, fc.array(val, { maxLength: 3 })),
    pair(SCALAR_OPS.range, val),
    pair(SCALAR_OPS.empty, fc.boolean()),
  ];
  if (f.kind === 'string') ops.push(pair(SCALAR_OPS.text, val.filter((x): x is string => typeof x === 'string' && !x.startsWith('@'))));
  return fc.oneof(...ops);
}

const fieldArb = fc.constantFrom(...Object.keys(FIELDS));
/** A condition: implicit $eq, one operator, or two operators on the same field. */
const condArb: fc.Arbitrary<Filter> = fieldArb.chain((path) => fc.oneof(
  FIELDS[path]!.values.map((v) => ({ [path]: v })),
  opArb(path).map(([op, v]) => ({ [path]: { [op]: v } })),
  fc.tuple(opArb(path), opArb(path)).map(([[a, x], [b, y]]) => ({ [path]: a === b ? { [a]: x } : { [a]: x, [b]: y } })),
));
/** Conditions on different fields in one object are ANDed, like $and. */
const leafArb: fc.Arbitrary<Filter> = fc.oneof(
  { weight: 3, arbitrary: condArb },
  { weight: 1, arbitrary: fc.tuple(condArb, condArb).map(([a, b]) => (Object.keys(a)[0] === Object.keys(b)[0] ? { $and: [a, b] } : { ...a, ...b })) },
);
const filterArb = nestedFilterArb(leafArb, 4);

/** Placeholders become the seeded values (arbitraries are built before the server exists). */
function bind(f: unknown): unknown {
  if (Array.isArray(f)) return f.map(bind);
  if (typeof f === 'string' && f.startsWith('@')) {
    const v = bound.get(f);
    if (v === undefined) throw new Error(`no value bound to ${f}`);
    return v;
  }
  if (typeof f !== 'object' || f === null) return f;
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, bind(v)]));
}

function usesField(f: unknown, path: string): boolean {
  if (Array.isArray(f)) return f.some((x) => usesField(x, path));
  if (typeof f !== 'object' || f === null) return false;
  return Object.entries(f).some(([k, v]) => k === path || (k.startsWith('$') && usesField(v, path)));
}

/**
 * Full-text search as the engines do it here (FTS5 unicode61 / PostgreSQL 'simple'): words of name,
 * brand and description (the seeded variants have no SKU); every term of the expression must be the
 * prefix of one of them. Ranked results have no comparable order, so the test sorts or compares sets.
 */
const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
function matchesSearch(r: Row, expression: string | undefined): boolean {
  if (expression === undefined) return true;
  const have = words(`${r.name} ${r.brandName ?? ''} ${r.plainDescription}`);
  return words(expression).every((term) => have.some((w) => w.startsWith(term)));
}
const expressionArb = fc.option(fc.constantFrom('alpha', 'Tee', 'acme', 'rich', 'ga', 'brew line', 'line', 'sale 50', 'cap story', 'off', 'zzz', 'omega mug'), { nil: undefined, freq: 2 });

// ---------------------------------------------------------------------------------------------
// Server calls

const SORTS: Record<string, (r: Row) => string | number> = {
  id: (r) => r.id, name: (r) => r.name, slug: (r) => r.slug, createdDate: (r) => r.createdDate, updatedDate: (r) => r.updatedDate,
  'actualPriceRange.minValue.amount': (r) => r.minPrice, 'actualPriceRange.maxValue.amount': (r) => r.maxPrice,
  // Products without a brand sort as the empty name, on both databases.
  'brand.name': (r) => r.brandName ?? '',
};
type Sort = { fieldName: string; order: 'ASC' | 'DESC' } | undefined;
const sortArb: fc.Arbitrary<Sort> = fc.option(fc.record({ fieldName: fc.constantFrom(...Object.keys(SORTS)), order: fc.constantFrom('ASC' as const, 'DESC' as const) }), { nil: undefined });
type Endpoint = 'query' | 'query GET' | 'search';
const endpointArb = fc.constantFrom<Endpoint>('query', 'query GET', 'search');

/** Expected order: the sort field, then id ascending; no sort: newest first. */
function expectedOrder(selected: Row[], sort: Sort): string[] {
  const key = sort ? SORTS[sort.fieldName]! : (r: Row) => r.createdDate;
  const dir = sort ? (sort.order === 'ASC' ? 1 : -1) : -1;
  return [...selected].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x !== y) return (x < y ? -1 : 1) * dir;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }).map((r) => r.id);
}

interface Auth { auth: string; siteId?: string }
function requestArg(endpoint: Endpoint): 'query' | 'search' { return endpoint === 'search' ? 'search' : 'query'; }
async function send(endpoint: Endpoint, auth: Auth, spec: Record<string, unknown>): Promise<ApiResponse> {
  const arg = requestArg(endpoint);
  const path = `${P}/${arg}`;
  return endpoint === 'query GET' ? call(t.url, path, { ...auth, dotR: { [arg]: spec } }) : call(t.url, path, { ...auth, body: { [arg]: spec } });
}

/** Every page of a query or search, following `cursors.next`; the ids in the order served. */
async function pages(endpoint: Endpoint, auth: Auth, filter: Filter, sort: Sort, limit: number, expression?: string): Promise<string[]> {
  const ids: string[] = [];
  let res = await send(endpoint, auth, { filter, ...(sort ? { sort: [sort] } : {}), ...(expression ? { search: { expression } } : {}), cursorPaging: { limit } });
  for (let page = 0; ; page++) {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = (res.body.products as Wire[]).map((p) => p.id as string);
    ids.push(...got);
    const next = res.body.pagingMetadata.cursors.next as string | null;
    expect(res.body.pagingMetadata.hasNext).toBe(next !== null);
    expect(res.body.pagingMetadata.count).toBe(got.length);
    if (!next) break;
    expect(got).toHaveLength(limit);
    expect(page).toBeLessThan(N);
    res = await send(endpoint, auth, { cursorPaging: { cursor: next, limit } });
  }
  return ids;
}

async function count(auth: Auth, filter: Filter, returnNonVisibleProducts?: boolean, expression?: string): Promise<ApiResponse> {
  return call(t.url, `${P}/count`, { ...auth, body: { filter, ...(returnNonVisibleProducts === undefined ? {} : { returnNonVisibleProducts }), ...(expression ? { search: { expression } } : {}) } });
}

/** The server's ids, in the order served, against the expected ordered ids (no duplicates across pages). */
function expectSameOrder(got: string[], want: string[], sort: Sort, filter: Filter, expression?: string) {
  const msg = JSON.stringify({ filter, sort, expression });
  expect(new Set(got).size, msg).toBe(got.length);
  // Unsorted search results are ranked: the order is the engine's, the set is ours.
  if (expression && !sort) expect([...got].sort(), msg).toEqual([...want].sort());
  else expect(got, msg).toEqual(want);
}

// ---------------------------------------------------------------------------------------------
// Invalid filters: each must be a 400 (field violation under the request's filter) on every endpoint.

const SCALAR_PATHS = Object.keys(FIELDS).filter((p) => FIELDS[p]!.kind !== 'set');
const SET_PATHS = Object.keys(FIELDS).filter((p) => FIELDS[p]!.kind === 'set');
const NON_TEXT_PATHS = SCALAR_PATHS.filter((p) => FIELDS[p]!.kind !== 'string');
const TEXT_PATHS = SCALAR_PATHS.filter((p) => FIELDS[p]!.kind === 'string');
/** Operators the V3 filter does not take (Wix has some of them; we answer 400 rather than guess). */
const UNSUPPORTED_OPS = ['$nin', '$regex', '$matchItems', '$size', '$like', '$elemMatch', '$all', '$not', '$nor', '$between'];
const invalidCondArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.tuple(fc.constantFrom(...Object.keys(FIELDS)), fc.constantFrom(...UNSUPPORTED_OPS)).map(([f, op]) => ({ [f]: { [op]: ['a'] } })),
  fc.constantFrom<Filter>({ $nor: [{ name: 'a' }] }, { $where: 'true' }, { $text: { $search: 'a' } }, { $nin: [] }),
  // $matches is parsed (Wix Data uses it) but applies to no V3 field.
  fc.constantFrom(...TEXT_PATHS).map((f) => ({ [f]: { $matches: { ignoreCase: true, spec: [{ type: 'literal', value: 'a' }] } } })),
  // Range and text operators do not apply to multi-valued fields.
  fc.tuple(fc.constantFrom(...SET_PATHS), fc.constantFrom('$gt', '$gte', '$lt', '$lte', '$startsWith', '$endsWith', '$contains')).map(([f, op]) => ({ [f]: { [op]: 'a' } })),
  // Text operators apply to text fields only (numbers, booleans and dates are not text).
  fc.tuple(fc.constantFrom(...NON_TEXT_PATHS), fc.constantFrom('$startsWith', '$endsWith', '$contains')).map(([f, op]) => ({ [f]: { [op]: '1' } })),
  fc.constantFrom('sku', 'price', 'brand', 'toString', 'constructor', 'options.name', 'variantsInfo.variants.sku', 'tags.publicTags', 'a..b', 'name ').map((f) => ({ [f]: 'a' })),
  // Values of the wrong type.
  fc.constantFrom<Filter>(
    { name: 5 }, { name: true }, { name: ['a'] }, { name: {} }, { name: { $in: 'a' } }, { name: { $in: [null] } }, { name: { $startsWith: 5 } },
    { name: { $exists: 'yes' } }, { name: { $isEmpty: 'yes' } }, { slug: { $isNotEmpty: 1 } }, { visible: 'true' }, { visible: { $in: [1] } },
    { 'actualPriceRange.minValue.amount': 'abc' }, { 'actualPriceRange.minValue.amount': '10.' }, { 'actualPriceRange.maxValue.amount': { $gt: '1e3' } },
    { 'actualPriceRange.maxValue.amount': { $in: [true] } }, { createdDate: 'yesterday' }, { updatedDate: { $gt: 5 } }, { createdDate: { $date: 'soon' } },
    { tags: { $hasSome: 't1' } }, { tags: { $hasSome: [5] } }, { 'allCategoriesInfo.categories': { $hasAll: [{}] } }, { 'options.choicesSettings.choices.name': null },
    { 'tags.publicTags.tagIds': { $isEmpty: 'no' } }, { $and: {} }, { $or: 'a' }, { $not: [] },
  ),
);
/** An invalid condition somewhere inside an otherwise valid filter. */
const invalidFilterArb: fc.Arbitrary<Filter> = fc.tuple(invalidCondArb, filterArb, fc.constantFrom(0, 1, 2, 3, 4)).map(([bad, good, where]) => [
  bad, { $and: [good, bad] }, { $or: [bad, good] }, { $not: { $or: [good, { $and: [bad] }] } }, { ...good, $and: [bad] },
][where]!);

function expectFilterViolation(res: ApiResponse, argument: string, filter: unknown) {
  const msg = JSON.stringify({ argument, filter, body: res.body });
  expect(res.status, msg).toBe(400);
  const violations = res.body.details.validationError.fieldViolations as { field: string; violatedRule: string }[];
  expect(violations, msg).toHaveLength(1);
  expect(violations[0]!.field.startsWith(argument), msg).toBe(true);
  expect(['FIELD_NOT_ALLOWED', 'FORMAT'], msg).toContain(violations[0]!.violatedRule);
}

describe('V3 product filter operators against an in-memory evaluation', () => {
  it('owner and visitor get exactly the products the filter selects, on query, search (with and without an expression) and count', async () => {
    const owner: Auth = asOwner(t) as Auth;
    const anon: Auth = { auth: visitor };
    let selectedSome = 0;
    let searchedSome = 0;
    const args = [filterArb, sortArb, fc.constantFrom(8, 25, 100), endpointArb, endpointArb, fc.boolean(), expressionArb] as const;
    await fc.assert(fc.asyncProperty(...args, async (generated, sort, limit, ownerEndpoint, visitorEndpoint, hidden, searched) => {
      const filter = bind(generated) as Filter;
      // A search expression goes with the search endpoint (and the count of the same caller).
      const ownerExpression = ownerEndpoint === 'search' ? searched : undefined;
      const wantOwner = rows.filter((r) => evalRow(r, 'owner', filter) === true && matchesSearch(r, ownerExpression));
      if (wantOwner.length > 0 && wantOwner.length < N) selectedSome += 1;
      if (ownerExpression && wantOwner.length > 0) searchedSome += 1;
      expectSameOrder(await pages(ownerEndpoint, owner, filter, sort, limit, ownerExpression), expectedOrder(wantOwner, sort), sort, filter, ownerExpression);
      // Count without returnNonVisibleProducts counts visible products, for owners too.
      const all = await count(owner, filter, hidden || undefined, ownerExpression);
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      expect(all.body.count).toBe(hidden ? wantOwner.length : wantOwner.filter((r) => r.visible).length);

      const visitorExpression = visitorEndpoint === 'search' ? searched : undefined;
      const wantVisitor = rows.filter((r) => r.visible && evalRow(r, 'visitor', filter) === true && matchesSearch(r, visitorExpression));
      if (usesField(generated, 'tags.privateTags.tagIds')) {
        // Private tags are not filterable by visitors (they could probe them otherwise).
        expect((await send(visitorEndpoint, anon, { filter })).status).toBe(400);
        expect((await count(anon, filter, true)).status).toBe(400);
        return;
      }
      expectSameOrder(await pages(visitorEndpoint, anon, filter, sort, limit, visitorExpression), expectedOrder(wantVisitor, sort), sort, filter, visitorExpression);
      const seen = await count(anon, filter, true, visitorExpression);
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body.count).toBe(wantVisitor.length);
    }), { numRuns: RUNS, seed: SEED });
    // The data is varied enough that many filters select some products but not all.
    expect(selectedSome).toBeGreaterThan(RUNS / 4);
    expect(searchedSome).toBeGreaterThan(RUNS / 20);
  }, 120_000);

  it('answers 400 to unsupported operators, unknown fields and values of the wrong type, on every endpoint', async () => {
    const owner: Auth = asOwner(t) as Auth;
    const anon: Auth = { auth: visitor };
    await fc.assert(fc.asyncProperty(invalidFilterArb, endpointArb, fc.boolean(), async (generated, endpoint, asOwnerCaller) => {
      const filter = bind(generated) as Filter;
      const auth = asOwnerCaller ? owner : anon;
      expectFilterViolation(await send(endpoint, auth, { filter, cursorPaging: { limit: 5 } }), `${requestArg(endpoint)}.filter`, filter);
      expectFilterViolation(await count(auth, filter, true), 'filter', filter);
    }), { numRuns: INVALID_RUNS, seed: SEED });
    // Nothing was changed by the refused calls.
    expect((await count(owner, {}, true)).body.count).toBe(N);
  }, 60_000);

  it('regressions found by the comparison', async () => {
    const owner: Auth = asOwner(t) as Auth;
    const ids = async (filter: Filter) => {
      const res = await call(t.url, `${P}/query`, { ...owner, body: { query: { filter, sort: [{ fieldName: 'id', order: 'ASC' }], cursorPaging: { limit: 100 } } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.products as Wire[]).map((p) => p.id as string);
    };
    const where = (pred: (r: Row) => boolean) => rows.filter(pred).map((r) => r.id).sort();
    // 1. `$isEmpty: false` / `$isNotEmpty: false` were read as `true` on column fields (and `$isEmpty: false` on sets).
    expect(await ids({ plainDescription: { $isEmpty: false } })).toEqual(where((r) => r.plainDescription !== ''));
    expect(await ids({ 'brand.id': { $isNotEmpty: false } })).toEqual(where((r) => r.brandId === null));
    expect(await ids({ 'tags.publicTags.tagIds': { $isEmpty: false } })).toEqual(where((r) => r.publicTags.length > 0));
    // 2. Direct categories matched the all-products category of every product.
    const directAll = where((r) => r.directCategories.includes(ALL));
    expect(directAll.length).toBeGreaterThan(0);
    expect(directAll.length).toBeLessThan(N);
    expect(await ids({ 'directCategoriesInfo.categories.id': { $hasSome: [ALL] } })).toEqual(directAll);
    expect(await ids({ 'directCategoriesInfo.categories.id': { $hasSome: [ALL, 'cat-a'] } })).toEqual(where((r) => r.directCategories.includes(ALL) || r.directCategories.includes('cat-a')));
    expect(await ids({ 'directCategoriesInfo.categories.id': { $isEmpty: true } })).toEqual(where((r) => r.directCategories.length === 0));
    expect(await ids({ 'allCategoriesInfo.categories.id': { $hasSome: [ALL] } })).toHaveLength(N);
    // 3. Text operators on number / boolean / date fields: a 500 on PostgreSQL, a text match on SQLite.
    for (const filter of [{ visible: { $startsWith: '1' } }, { 'actualPriceRange.minValue.amount': { $contains: '9' } }, { createdDate: { $startsWith: '2' } }]) {
      expectFilterViolation(await send('query', owner, { filter }), 'query.filter', filter);
    }
    // 4. Products without a brand sorted first on SQLite and last on PostgreSQL (by brand.name, ascending).
    for (const order of ['ASC', 'DESC'] as const) {
      const res = await call(t.url, `${P}/query`, { ...owner, body: { query: { sort: [{ fieldName: 'brand.name', order }], cursorPaging: { limit: 100 } } } });
      expect((res.body.products as Wire[]).map((p) => p.id)).toEqual(expectedOrder(rows, { fieldName: 'brand.name', order }));
      const unbranded = (res.body.products as Wire[]).map((p) => p.brand === undefined);
      expect(unbranded).toContain(true);
      expect(order === 'ASC' ? unbranded.lastIndexOf(true) < unbranded.indexOf(false) : unbranded.indexOf(true) > unbranded.lastIndexOf(false)).toBe(true);
    }
    // 5. Set fields matched any value by its String() form ({tags: null} looked for a tag "null").
    for (const filter of [{ tags: null }, { 'allCategoriesInfo.categories': { $hasSome: [5] } }]) {
      expectFilterViolation(await count(owner, filter, true), 'filter', filter);
    }
  });

  it('every operator selects some products but not all, on every field kind', () => {
    const kinds = new Map<string, Set<boolean>>();
    for (const [path, f] of Object.entries(FIELDS)) {
      for (const op of f.kind === 'set' ? ['$hasSome', '$hasAll', '$ne', '$isEmpty'] : ['$eq', '$ne', '$gt', '$lt', '$in', '$exists', ...(f.kind === 'string' ? ['$startsWith', '$endsWith', '$contains'] : [])]) {
        const values = fc.sample(f.values, { numRuns: 40, seed: SEED }).map(bind);
        for (const v of values) {
          const operand = op === '$exists' || op === '$isEmpty' ? true : ['$in', '$hasSome', '$hasAll'].includes(op) ? [v] : v;
          if (['$startsWith', '$endsWith', '$contains'].includes(op) && typeof operand !== 'string') continue;
          const n = rows.filter((r) => evalRow(r, 'owner', { [path]: { [op]: operand } }) === true).length;
          const key = `${f.kind} ${op}`;
          if (!kinds.has(key)) kinds.set(key, new Set());
          kinds.get(key)!.add(n > 0 && n < N);
        }
      }
    }
    // $exists / $isEmpty on never-empty fields select all or nothing; every other operator splits the data somewhere.
    const splitting = [...kinds].filter(([, s]) => s.has(true)).map(([k]) => k).sort();
    expect(splitting).toEqual(expect.arrayContaining([
      'string $eq', 'string $ne', 'string $gt', 'string $lt', 'string $in', 'string $exists', 'string $startsWith', 'string $endsWith', 'string $contains',
      'number $eq', 'number $ne', 'number $gt', 'number $lt', 'number $in', 'boolean $eq', 'boolean $ne', 'boolean $in',
      'date $eq', 'date $ne', 'date $gt', 'date $lt', 'date $in', 'set $hasSome', 'set $hasAll', 'set $ne', 'set $isEmpty',
    ]));
  });

  it('covers every operator and every field in the generated runs', () => {
    const ops = new Set<string>();
    const fields = new Set<string>();
    const walk = (f: unknown) => {
      if (Array.isArray(f)) { f.forEach(walk); return; }
      if (typeof f !== 'object' || f === null) return;
      for (const [k, v] of Object.entries(f)) { if (k.startsWith('$')) ops.add(k); else if (k in FIELDS) fields.add(k); walk(v); }
    };
    fc.sample(filterArb, { numRuns: RUNS, seed: SEED }).forEach(walk);
    ops.delete('$date');
    expect([...ops].sort()).toEqual(['$and', '$contains', '$endsWith', '$eq', '$exists', '$gt', '$gte', '$hasAll', '$hasSome', '$in', '$isEmpty', '$isNotEmpty', '$lt', '$lte', '$ne', '$not', '$or', '$startsWith']);
    expect([...fields].sort()).toEqual(Object.keys(FIELDS).sort());
  });
});
