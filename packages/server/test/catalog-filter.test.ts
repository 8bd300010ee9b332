import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { evalFilter, evalOperator, nestedFilterArb, type Filter, type Kind, type V } from './filter-property.js';

/**
 * Every filter operator of the V1 product query, proven against an in-memory evaluation of the same
 * filter over the same products: fast-check generates filters (all operators, $and/$or/$not nesting),
 * the server answers over HTTP, and the id sets must be equal. The evaluator follows SQL's
 * three-valued logic, since comparisons with a missing value are neither true nor false.
 */

let t: TestServer;
const QUERY = '/stores-reader/v1/products/query-platformized';
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'zeta'];
const BRANDS = ['acme', 'brewline', 'vitrine'];
const N = 30;

interface Row { id: string; name: string; sku: string | null; brand: string | null; ribbon: string | null; price: number; discountedPrice: number; visible: boolean; inStock: boolean; productType: string; collectionIds: string[] }
let rows: Row[] = [];
let marker = '';
let collections: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const own = asOwner(t);
  const mk = async (name: string) => (await call(t.url, '/stores/v1/collections', { ...own, body: { collection: { name } } })).body.collection.id as string;
  marker = await mk('pbt marker');
  collections = [await mk('pbt one'), await mk('pbt two'), await mk('pbt three')];
  // Deterministic pseudo-random catalog (the filters, not the data, are what fast-check explores).
  let seed = 7;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < N; i++) {
    const name = `${WORDS[rnd(WORDS.length)]}${WORDS[rnd(WORDS.length)]}${i}`;
    const price = [0, 1, 5, 9.99, 10, 25.5, 100][rnd(7)]!;
    const product: Record<string, unknown> = {
      name, priceData: { price }, visible: rnd(4) !== 0, productType: rnd(3) === 0 ? 'digital' : 'physical',
      collectionIds: [marker, ...collections.filter(() => rnd(2) === 0)],
      stock: { inStock: rnd(3) !== 0 },
    };
    if (rnd(3) !== 0) product.sku = `sku${i}${WORDS[rnd(WORDS.length)]}`;
    if (rnd(3) !== 0) product.brand = BRANDS[rnd(BRANDS.length)];
    if (rnd(4) === 0) product.ribbon = 'sale';
    if (rnd(3) === 0) product.discount = { type: 'PERCENT', value: 10 };
    const res = await call(t.url, '/stores/v1/products', { ...own, body: { product } });
    expect(res.status).toBe(200);
  }
  const all = await call(t.url, QUERY, { ...own, body: { query: { filter: { 'collections.id': { $hasSome: [marker] } }, paging: { limit: 100 } } } });
  rows = all.body.products.map((p: Record<string, any>) => ({ // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    id: p.id, name: p.name, sku: p.sku ?? null, brand: p.brand ?? null, ribbon: p.ribbon ?? null, price: p.priceData.price,
    discountedPrice: p.priceData.discountedPrice, visible: p.visible, inStock: p.stock.inStock, productType: p.productType, collectionIds: p.collectionIds,
  }));
  expect(rows).toHaveLength(N);
}, 60_000);
afterAll(() => t?.close());


const FIELDS: Record<string, { kind: Kind; get: (r: Row) => unknown }> = {
  name: { kind: 'string', get: (r) => r.name },
  sku: { kind: 'string', get: (r) => r.sku },
  brand: { kind: 'string', get: (r) => r.brand },
  ribbon: { kind: 'string', get: (r) => r.ribbon },
  productType: { kind: 'string', get: (r) => r.productType },
  'priceData.price': { kind: 'number', get: (r) => r.price },
  'price.discountedPrice': { kind: 'number', get: (r) => r.discountedPrice },
  visible: { kind: 'boolean', get: (r) => r.visible },
  'stock.inStock': { kind: 'boolean', get: (r) => r.inStock },
  'collections.id': { kind: 'set', get: (r) => r.collectionIds },
};

const evalRow = (r: Row, filter: Filter): V => evalFilter(filter, (path, op, value) => {
  const f = FIELDS[path]!;
  return evalOperator(f.kind, f.get(r), op, value);
});

// Arbitraries: values drawn from the data so conditions are often true, sometimes false.
const str = fc.oneof(fc.constantFrom(...WORDS, ...BRANDS, 'sale', 'digital', 'physical', 'sku1', 'a', ''), fc.stringMatching(/^[a-z0-9]{0,4}$/));
const num = fc.constantFrom(0, 1, 5, 9.99, 10, 25.5, 100, 9, 22.95, -1);
const bool = fc.boolean();
function condArb(): fc.Arbitrary<Filter> {
  const scalarField = (path: string, kind: Kind) => {
    const val: fc.Arbitrary<unknown> = kind === 'number' ? num : kind === 'boolean' ? bool : str;
    const ops: fc.Arbitrary<Filter>[] = [
      val.map((v) => ({ [path]: v })),
      fc.record({ op: fc.constantFrom('$eq', '$ne'), v: fc.oneof(val, fc.constant(null)) }).map(({ op, v }) => ({ [path]: { [op]: v } })),
      fc.record({ op: fc.constantFrom('$in', '$hasSome', '$hasAll'), v: fc.array(val, { maxLength: 3 }) }).map(({ op, v }) => ({ [path]: { [op]: v } })),
      fc.record({ op: fc.constantFrom('$exists'), v: bool }).map(({ op, v }) => ({ [path]: { [op]: v } })),
      fc.constantFrom('$isEmpty', '$isNotEmpty').map((op) => ({ [path]: { [op]: true } })),
    ];
    if (kind !== 'boolean') ops.push(fc.record({ op: fc.constantFrom('$gt', '$gte', '$lt', '$lte'), v: val }).map(({ op, v }) => ({ [path]: { [op]: v } })));
    if (kind === 'string') ops.push(fc.record({ op: fc.constantFrom('$startsWith', '$endsWith', '$contains'), v: str }).map(({ op, v }) => ({ [path]: { [op]: v } })));
    return fc.oneof(...ops);
  };
  const setField = fc.oneof(
    fc.record({ op: fc.constantFrom('$hasSome', '$hasAll', '$in'), v: fc.subarray(['c0', 'c1', 'c2', 'nope']) }).map(({ op, v }) => ({ 'collections.id': { [op]: v } })),
    fc.constantFrom('c0', 'c1', 'c2').map((v) => ({ 'collections.id': v })),
    fc.constantFrom('c0', 'c1').map((v) => ({ 'collections.id': { $ne: v } })),
  );
  return fc.oneof(...Object.entries(FIELDS).filter(([, f]) => f.kind !== 'set').map(([p, f]) => scalarField(p, f.kind)), setField);
}
const filterArb = nestedFilterArb(condArb());

/** Collection placeholders c0..c2 become the real ids (arbitraries are built before the server exists). */
function bind(f: unknown): unknown {
  if (Array.isArray(f)) return f.map(bind);
  if (typeof f === 'string' && /^c[0-2]$/.test(f)) return collections[Number(f[1])];
  if (typeof f !== 'object' || f === null) return f;
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, k === 'collections.id' || k.startsWith('$') ? bind(v) : v]));
}

describe('V1 filter operators against an in-memory evaluation', () => {
  it('returns exactly the products the filter selects', async () => {
    await fc.assert(fc.asyncProperty(filterArb, async (generated) => {
      const filter = bind(generated) as Filter;
      const res = await call(t.url, QUERY, { ...asOwner(t), body: { query: { filter: { $and: [{ 'collections.id': { $hasSome: [marker] } }, filter] }, sort: [{ fieldName: 'id', order: 'ASC' }], paging: { limit: 100 } } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const got = res.body.products.map((p: { id: string }) => p.id);
      const want = rows.filter((r) => evalRow(r, filter) === true).map((r) => r.id).sort();
      expect(got).toEqual(want);
      expect(res.body.metadata.total).toBe(want.length);
    }), { numRuns: 300, seed: 20261122 });
  }, 120_000);

  it('covers every operator in the generated runs', () => {
    const seen = new Set<string>();
    const walk = (f: unknown) => {
      if (Array.isArray(f)) { f.forEach(walk); return; }
      if (typeof f !== 'object' || f === null) return;
      for (const [k, v] of Object.entries(f)) { if (k.startsWith('$')) seen.add(k); walk(v); }
    };
    fc.sample(filterArb, { numRuns: 300, seed: 20261122 }).forEach(walk);
    expect([...seen].sort()).toEqual(['$and', '$contains', '$endsWith', '$eq', '$exists', '$gt', '$gte', '$hasAll', '$hasSome', '$in', '$isEmpty', '$isNotEmpty', '$lt', '$lte', '$ne', '$not', '$or', '$startsWith']);
  });
});
