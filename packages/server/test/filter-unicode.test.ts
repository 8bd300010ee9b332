import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { createCollection, ok, ownerAuth } from './data-support.js';
import { matches } from '../src/domains/data/evaluate.js';
import { parseFilter } from '../src/storage/filter.js';

/**
 * Case-insensitive text matching ($startsWith / $endsWith / $contains, search expressions) gives the
 * same rows on SQLite and PostgreSQL, for non-ASCII and ASCII patterns alike (storage/dialect.ts
 * `ilike`). Every run checks SQLite; with DATABASE_URL set it checks PostgreSQL too and compares the
 * two servers' answers. Expected sets come from a reference fold written here (PostgreSQL's lower():
 * each code point to its simple lowercase) and a few are spelled out literally.
 */

const KELVIN = '\u212a';
const NAMES = [
  'Émile', 'ÉCLAIR', 'éclair', 'plain Emile', 'straße', 'STRASSE', 'Ωmega', 'ωMEGA', 'ΟΔΟΣ', 'İstanbul', 'istanbul',
  `${KELVIN}elvin`, 'kilo', 'Zoë', 'ZOË', '100% pure', '100 pure', 'a_b', 'axb', 'back\\slash', 'backslash', 'ǅungla',
];

/** PostgreSQL's lower() under a UTF-8 ctype, written independently of the server's foldCase. */
const fold = (s: string) => [...s].map((c) => (c === '\u0130' ? 'i' : c.toLowerCase())).join('');
type Op = '$startsWith' | '$endsWith' | '$contains';
const test = (op: Op, value: string, pattern: string) => {
  const v = fold(value);
  const p = fold(pattern);
  return op === '$startsWith' ? v.startsWith(p) : op === '$endsWith' ? v.endsWith(p) : v.includes(p);
};

const CASES: [Op, string][] = [
  ['$startsWith', 'é'], ['$startsWith', 'É'], ['$contains', 'ÉCL'], ['$contains', 'cLaI'], ['$endsWith', 'ÎR'],
  ['$contains', 'ß'], ['$contains', 'SS'], ['$endsWith', 'ASSE'], ['$contains', 'Ω'], ['$startsWith', 'ωm'],
  ['$endsWith', 'σ'], ['$endsWith', 'ς'], ['$endsWith', 'Σ'], ['$contains', 'ë'], ['$endsWith', 'Ë'],
  ['$startsWith', 'i'], ['$startsWith', 'İ'], ['$startsWith', 'ISTAN'], ['$startsWith', 'k'], ['$contains', 'K'], ['$startsWith', KELVIN],
  ['$contains', 'e'], ['$startsWith', 'ǆ'], ['$startsWith', 'Ǆ'],
  ['$contains', '%'], ['$contains', '0%'], ['$contains', '_'], ['$contains', 'a_'], ['$contains', '\\'], ['$contains', 'k\\s'],
  ['$contains', '%é'], ['$contains', '_ë'], ['$contains', 'x'],
];

interface Side { name: string; t: TestServer; marker: string; ids: Map<string, string> }
const sides: Side[] = [];
const QUERY = '/stores-reader/v1/products/query-platformized';

async function setUp(name: string, t: TestServer): Promise<Side> {
  const own = asOwner(t);
  const marker = (await call(t.url, '/stores/v1/collections', { ...own, body: { collection: { name: 'unicode marker' } } })).body.collection.id as string;
  const ids = new Map<string, string>();
  for (const [i, productName] of NAMES.entries()) {
    // Own slugs: several names reduce to the same generated one ('ÉCLAIR' / 'éclair').
    const res = await call(t.url, '/stores/v1/products', { ...own, body: { product: { name: productName, slug: `unicode-${i}`, priceData: { price: 1 }, collectionIds: [marker] } } });
    expect(res.status, productName).toBe(200);
    ids.set(res.body.product.id, productName);
  }
  await createCollection(t, 'uni');
  await ok(t, ownerAuth(t), '/bulk/items/insert', { dataCollectionId: 'uni', dataItems: NAMES.map((title, i) => ({ id: `u${i}`, data: { title } })) });
  for (const [i, lastName] of ['Éclair', 'Dupont', 'ÉCLAT'].entries()) {
    const res = await call(t.url, '/members/v1/members', { ...own, body: { member: { loginEmail: `m${i}@unicode.test`, contact: { lastName } } } });
    expect(res.status).toBe(200);
  }
  return { name, t, marker, ids };
}

beforeAll(async () => {
  // The SQLite server always; the PostgreSQL one when the run has a DATABASE_URL.
  sides.push(await setUp('sqlite', await startTestServer({ databaseUrl: undefined, databaseSchema: undefined })));
  if (process.env.DATABASE_URL) sides.push(await setUp('postgres', await startTestServer()));
}, 120_000);
afterAll(async () => { for (const s of sides) await s.t.close(); });

async function productNames(side: Side, filter: Record<string, unknown>): Promise<string[]> {
  const res = await call(side.t.url, QUERY, { ...asOwner(side.t), body: { query: { filter: { $and: [{ 'collections.id': { $hasSome: [side.marker] } }, filter] }, paging: { limit: 100 } } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.products.map((p: { id: string }) => side.ids.get(p.id)!).sort();
}

async function itemTitles(side: Side, filter: Record<string, unknown>): Promise<string[]> {
  const body = await ok(side.t, ownerAuth(side.t), '/items/query', { dataCollectionId: 'uni', query: { filter, paging: { limit: 100 } } });
  return body.dataItems.map((i: { data: { title: string } }) => i.data.title).sort();
}

const expected = (op: Op, pattern: string) => NAMES.filter((n) => test(op, n, pattern)).sort();

describe('case-insensitive matching is the same on SQLite and PostgreSQL', () => {
  it('the reference fold gives the sets PostgreSQL gives (spelled out)', () => {
    expect(expected('$startsWith', 'é')).toEqual(['Émile', 'ÉCLAIR', 'éclair'].sort());
    expect(expected('$endsWith', 'σ')).toEqual(['ΟΔΟΣ']);
    expect(expected('$endsWith', 'ς')).toEqual([]);
    expect(expected('$startsWith', 'i')).toEqual(['istanbul', 'İstanbul'].sort());
    expect(expected('$startsWith', 'k')).toEqual([`${KELVIN}elvin`, 'kilo'].sort());
    expect(expected('$contains', 'ß')).toEqual(['straße']);
    expect(expected('$contains', '%')).toEqual(['100% pure']);
    expect(expected('$contains', '_')).toEqual(['a_b']);
    expect(expected('$contains', '\\')).toEqual(['back\\slash']);
  });

  it('V1 product filters: every operator and pattern', async () => {
    for (const side of sides) {
      for (const [op, pattern] of CASES) {
        expect(await productNames(side, { name: { [op]: pattern } }), `${side.name} ${op} ${pattern}`).toEqual(expected(op, pattern));
      }
      // Under $not the complement (no name is NULL).
      const not = await productNames(side, { $not: { name: { $startsWith: 'É' } } });
      expect(not, side.name).toEqual(NAMES.filter((n) => !test('$startsWith', n, 'É')).sort());
    }
  }, 60_000);

  it('data item filters: every operator and pattern', async () => {
    for (const [op, pattern] of CASES) {
      // The in-memory evaluation (aggregate finalFilter) folds the same way.
      expect(NAMES.filter((n) => matches(parseFilter({ title: { [op]: pattern } }), { title: n })).sort(), `evaluate ${op} ${pattern}`).toEqual(expected(op, pattern));
    }
    for (const side of sides) {
      for (const [op, pattern] of CASES) {
        expect(await itemTitles(side, { title: { [op]: pattern } }), `${side.name} ${op} ${pattern}`).toEqual(expected(op, pattern));
      }
    }
  }, 60_000);

  it('data $matches folds like PostgreSQL\'s lower() (SQL and the in-memory evaluator)', async () => {
    const SEP = ' \t\n-';
    const specs: (string | null)[][] = [['émile'], ['ÉMILE'], ['ΟΔΟΣ'], ['οδος'], ['οδοσ'], ['istanbul'], ['İSTANBUL'], ['kelvin'], ['zoë'], ['plain', null, 'EMILE'], ['straße'], ['strasse']];
    const wire = (spec: (string | null)[]) => ({ ignoreCase: true, spec: spec.map((v) => (v === null ? { type: 'anyOf', value: SEP } : { type: 'literal', value: v })) });
    const want = (spec: (string | null)[]) => {
      const target = spec.map((v) => (v === null ? '-' : fold(v).replace(/[ \t\n]/g, '-'))).join('');
      return NAMES.filter((n) => fold(n).replace(/[ \t\n]/g, '-') === target).sort();
    };
    expect(want(['ΟΔΟΣ'])).toEqual(['ΟΔΟΣ']);
    expect(want(['οδος'])).toEqual([]);
    expect(want(['İSTANBUL'])).toEqual(['istanbul', 'İstanbul'].sort());
    expect(want(['kelvin'])).toEqual([`${KELVIN}elvin`]);
    for (const spec of specs) {
      const filter = { title: { $matches: wire(spec) } };
      expect(NAMES.filter((n) => matches(parseFilter(filter), { title: n })).sort(), `evaluate ${spec.join()}`).toEqual(want(spec));
      for (const side of sides) expect(await itemTitles(side, filter), `${side.name} ${spec.join()}`).toEqual(want(spec));
    }
  }, 60_000);

  it('data search expressions and member search fold non-ASCII letters', async () => {
    for (const side of sides) {
      const search = async (expression: string) => (await ok(side.t, ownerAuth(side.t), '/items/search', { dataCollectionId: 'uni', search: { search: { expression }, paging: { limit: 100 } } }))
        .dataItems.map((i: { data: { title: string } }) => i.data.title).sort();
      expect(await search('ÉCL'), side.name).toEqual(['ÉCLAIR', 'éclair'].sort());
      expect(await search('ωmeg'), side.name).toEqual(['Ωmega', 'ωMEGA'].sort());
      expect(await search('STRAßE'), side.name).toEqual(['straße']);
      const members = await call(side.t.url, '/members/v1/members/query', { ...asOwner(side.t), body: { search: { expression: 'écl', fields: ['contact.lastName'] }, query: { filter: { loginEmail: { $endsWith: '@unicode.test' } } } } });
      expect(members.status).toBe(200);
      expect(members.body.metadata.total, side.name).toBe(2);
    }
  }, 60_000);

  it('both databases answer alike', async () => {
    if (sides.length < 2) return; // SQLite-only run: the literal expectations above are the comparison
    for (const [op, pattern] of CASES) {
      const [a, b] = await Promise.all(sides.map((s) => productNames(s, { name: { [op]: pattern } })));
      expect(a, `${op} ${pattern}`).toEqual(b);
      const [x, y] = await Promise.all(sides.map((s) => itemTitles(s, { title: { [op]: pattern } })));
      expect(x, `${op} ${pattern}`).toEqual(y);
    }
  }, 60_000);
});
