import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type ApiResponse, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { createCollection, ok, ownerAuth } from './data-support.js';
import { FILTER_LIMITS } from '../src/storage/filter.js';

/**
 * SECURITY.md V1 / V2 / V4 (1.2.4, 1.2.9, 1.5.x, 4.3.1) across every filterable domain: catalog V1,
 * catalog V3, members and data items. Field names, sort field names and JSON paths that are not on the
 * allowlist answer 400 and change nothing; LIKE metacharacters match literally; caps answer 400 fast;
 * bodies over the limit answer 413; `__proto__`, `constructor` and duplicate keys are harmless.
 */

let t: TestServer;
let visitor: string;

/** One filterable domain: how to query it and how many rows it holds for the owner. */
interface Domain {
  name: string;
  /** Sends a query with the given filter / sort / paging. */
  query(q: { filter?: unknown; sort?: unknown; limit?: number }): Promise<ApiResponse>;
  /** Rows in the domain as the owner sees them (to prove nothing changed). */
  count(): Promise<number>;
  /** A string field holding the LIKE fixtures. */
  field: string;
  /** The values of `field` in a query answer. */
  values(res: ApiResponse): string[];
  pageMax: number;
}

const INJECTIONS = [
  "a'); DROP TABLE x;--",
  'name; DROP TABLE products',
  'name" OR 1=1 --',
  "data->>'x'",
  '$.a',
  'a\u0000b',
];
/**
 * Names inherited from Object.prototype. Catalog sorts and member filters/sorts look these up in plain
 * object maps and answer 500 (see docs/security.md, open findings); only data items are checked here
 * until those are fixed.
 */
const PROTOTYPE_NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
const LIKE_VALUES = ['sec%ret', 'sec_ret', 'secXret', 'sec\\ret', 'secret'];

const domains: Domain[] = [];

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  const owner = asOwner(t);

  // catalog V1
  for (const [i, name] of LIKE_VALUES.entries()) {
    const res = await call(t.url, '/stores/v1/products', { ...owner, body: { product: { name: `v1 ${name}`, slug: `like-v1-${i}`, productType: 'physical', priceData: { price: 1 } } } });
    if (res.status !== 200) throw new Error(`v1 create ${res.status} ${JSON.stringify(res.body)}`);
  }
  const v1Count = async () => (await call(t.url, '/stores-reader/v1/products/query-platformized', { ...owner, body: { query: { paging: { limit: 1 } } } })).body.metadata.total as number;
  domains.push({
    name: 'catalog V1', field: 'name', pageMax: 100,
    query: ({ filter, sort, limit }) => call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { filter, sort, paging: limit === undefined ? undefined : { limit } } } }),
    count: v1Count,
    values: (res) => (res.body.products as { name: string }[]).map((p) => p.name.replace(/^v1 /, '')),
  });

  // catalog V3
  for (const [i, name] of LIKE_VALUES.entries()) {
    const res = await call(t.url, '/stores/v3/products', { ...owner, body: { product: { name: `v3 ${name}`, slug: `like-v3-${i}`, productType: 'DIGITAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } } } });
    if (res.status !== 200) throw new Error(`v3 create ${res.status} ${JSON.stringify(res.body)}`);
  }
  domains.push({
    name: 'catalog V3', field: 'name', pageMax: 100,
    query: ({ filter, sort, limit }) => call(t.url, '/stores/v3/products/query', { auth: visitor, body: { query: { filter, sort, cursorPaging: limit === undefined ? undefined : { limit } } } }),
    count: async () => (await call(t.url, '/stores/v3/products/count', { ...owner, body: { returnNonVisibleProducts: true } })).body.count as number,
    values: (res) => (res.body.products as { name: string }[]).map((p) => p.name.replace(/^v3 /, '')),
  });

  // members (nickname is a public, filterable field)
  for (const [i, name] of LIKE_VALUES.entries()) {
    const res = await call(t.url, '/members/v1/members', { ...owner, body: { member: { loginEmail: `like${i}@example.com`, profile: { nickname: `mb ${name}` }, privacyStatus: 'PUBLIC' } } });
    if (res.status !== 200) throw new Error(`member create ${res.status} ${JSON.stringify(res.body)}`);
  }
  domains.push({
    name: 'members', field: 'profile.nickname', pageMax: 1000,
    query: ({ filter, sort, limit }) => call(t.url, '/members/v1/members/query', { ...owner, body: { query: { filter, sort, paging: limit === undefined ? undefined : { limit } } } }),
    count: async () => (await call(t.url, '/members/v1/members/query', { ...owner, body: { query: { paging: { limit: 1 } } } })).body.metadata.total as number,
    values: (res) => (res.body.members as { profile: { nickname: string } }[]).map((m) => m.profile.nickname.replace(/^mb /, '')),
  });

  // data items
  await createCollection(t, 'notes');
  for (const name of LIKE_VALUES) await ok(t, ownerAuth(t), '/items', { dataCollectionId: 'notes', dataItem: { data: { title: `dt ${name}` } } });
  domains.push({
    name: 'data items', field: 'title', pageMax: 1000,
    query: ({ filter, sort, limit }) => call(t.url, '/wix-data/v2/items/query', { auth: visitor, body: { dataCollectionId: 'notes', query: { filter, sort, paging: limit === undefined ? undefined : { limit } } } }),
    count: async () => (await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'notes' })).totalCount as number,
    values: (res) => (res.body.dataItems as { data: { title: string } }[]).map((i) => i.data.title.replace(/^dt /, '')),
  });
}, SLOW_START_MS);
afterAll(() => t?.close());

function expect400(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
  assertNoLeak(res, what);
}

/** Error bodies never carry stack frames, SQL text or server file paths. */
function assertNoLeak(res: ApiResponse, what: string): void {
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  expect(text, what).not.toMatch(/\bSELECT\b|\bFROM\s+"?\w|\bWHERE\b|SQLITE_|syntax error at|\n\s+at |\bat \w+ \(|\/work\/|node_modules|\.ts:\d+/);
}

const prefixOf = (d: Domain) => (d.name === 'catalog V1' ? 'v1 ' : d.name === 'catalog V3' ? 'v3 ' : d.name === 'members' ? 'mb ' : 'dt ');

describe('LIKE metacharacters are literal in startsWith / endsWith / contains (1.2.4)', () => {
  it.each(['catalog V1', 'catalog V3', 'members', 'data items'])('%s', async (name) => {
    const d = domains.find((x) => x.name === name)!;
    const p = prefixOf(d);
    const cases: [Record<string, string>, string[]][] = [
      [{ $contains: 'sec%ret' }, ['sec%ret']],
      [{ $contains: 'c_r' }, ['sec_ret']],
      [{ $contains: '%' }, ['sec%ret']],
      [{ $contains: '_' }, ['sec_ret']],
      [{ $contains: '\\' }, ['sec\\ret']],
      [{ $startsWith: `${p}sec%` }, ['sec%ret']],
      [{ $startsWith: `${p}sec_` }, ['sec_ret']],
      [{ $endsWith: '%ret' }, ['sec%ret']],
      [{ $endsWith: '_ret' }, ['sec_ret']],
      [{ $endsWith: '\\ret' }, ['sec\\ret']],
    ];
    for (const [op, expected] of cases) {
      const res = await d.query({ filter: { [d.field]: op } });
      expect(res.status, JSON.stringify(op)).toBe(200);
      expect(d.values(res).sort(), `${name} ${JSON.stringify(op)}`).toEqual(expected);
    }
  });
});

describe('field names, sort fields and JSON paths outside the allowlist are 400 and change nothing (1.2.9)', () => {
  it.each(['catalog V1', 'catalog V3', 'members', 'data items'])('%s', async (name) => {
    const d = domains.find((x) => x.name === name)!;
    const before = await d.count();
    for (const field of INJECTIONS) {
      expect400(await d.query({ filter: { [field]: 'x' } }), `${name} filter field ${field}`);
      expect400(await d.query({ filter: { [field]: { $startsWith: "'; DROP TABLE x;--" } } }), `${name} filter op field ${field}`);
      expect400(await d.query({ sort: [{ fieldName: field, order: 'ASC' }] }), `${name} sort ${field}`);
    }
    if (name !== 'data items') {
      // Names every plain object inherits are not allowed fields: 400, never a 500 from the database.
      for (const field of PROTOTYPE_NAMES) {
        expect400(await d.query({ filter: { [field]: 'x' } }), `${name} filter field ${field}`);
        expect400(await d.query({ sort: [{ fieldName: field, order: 'ASC' }] }), `${name} sort ${field}`);
      }
    }
    if (name === 'data items') {
      // Data fields are user-defined: a prototype name is just a field no item has.
      for (const field of PROTOTYPE_NAMES) {
        for (const q of [{ filter: { [field]: 'x' } }, { sort: [{ fieldName: field, order: 'ASC' }] }]) {
          const res = await d.query(q);
          expect(res.status, `${field} ${JSON.stringify(q)}`).toBe(200);
          if (q.filter) expect(d.values(res)).toEqual([]);
        }
      }
    }
    // Values are bound, never spliced: an injection in a value matches nothing and breaks nothing.
    const value = await d.query({ filter: { [d.field]: "x' OR '1'='1" } });
    expect(value.status).toBe(200);
    expect(d.values(value)).toEqual([]);
    expect(await d.count()).toBe(before);
  });

  it('catalog V3 search: an aggregation over an inherited name is a 400', async () => {
    for (const fieldPath of PROTOTYPE_NAMES) {
      for (const type of ['VALUE', 'MIN', 'COUNT_DISTINCT']) {
        const res = await call(t.url, '/stores/v3/products/search', { auth: visitor, body: { search: { aggregations: [{ name: 'a', type, fieldPath }] } } });
        expect400(res, `aggregation ${type} ${fieldPath}`);
      }
    }
  });

  it('data items: injected field names in writes, patches, distinct and aggregates are refused or stored as plain keys', async () => {
    const owner = ownerAuth(t);
    const before = (await ok(t, owner, '/items/count', { dataCollectionId: 'notes' })).totalCount as number;
    for (const field of ["a'); DROP TABLE x;--", 'a"b', 'a.b.c; --']) {
      const distinct = await call(t.url, '/wix-data/v2/items/query-distinct-values', { ...owner, body: { dataCollectionId: 'notes', fieldName: field } });
      expect([200, 400]).toContain(distinct.status);
      assertNoLeak(distinct, `distinct ${field}`);
      if (distinct.status === 200) expect(distinct.body.distinctValues).toEqual([]);
      const agg = await call(t.url, '/wix-data/v2/items/aggregate', { ...owner, body: { dataCollectionId: 'notes', aggregation: { groupingFields: [field], operations: [{ resultFieldName: 'n', itemCount: {} }] } } });
      expect([200, 400]).toContain(agg.status);
      assertNoLeak(agg, `aggregate ${field}`);
      const patch = await call(t.url, '/wix-data/v2/items/patch', { ...owner, body: { dataCollectionId: 'notes', patch: { dataItemId: 'nope', fieldModifications: [{ action: 'SET_FIELD', fieldPath: field, setFieldOptions: { value: 1 } }] } } });
      expect([400, 404]).toContain(patch.status);
      assertNoLeak(patch, `patch ${field}`);
    }
    // A key that looks like SQL is stored as a plain key and read back unchanged.
    const evil = "a'); DROP TABLE data_items;--";
    const inserted = await call(t.url, '/wix-data/v2/items', { ...owner, body: { dataCollectionId: 'notes', dataItem: { id: 'evil-key', data: { [evil]: 'v' } } } });
    if (inserted.status === 200) {
      const got = await call(t.url, '/wix-data/v2/items/evil-key', { ...owner, query: { dataCollectionId: 'notes' } });
      expect(got.body.dataItem.data[evil]).toBe('v');
      expect((await ok(t, owner, '/items/count', { dataCollectionId: 'notes' })).totalCount).toBe(before + 1);
      await ok(t, owner, '/items/remove', { dataCollectionId: 'notes', dataItemId: 'evil-key' });
    } else {
      expect400(inserted, 'insert with SQL-looking key');
    }
    expect((await ok(t, owner, '/items/count', { dataCollectionId: 'notes' })).totalCount).toBe(before);
  });
});

describe('caps answer 400 quickly, never a slow query (4.3.1)', () => {
  it.each(['catalog V1', 'catalog V3', 'members', 'data items'])('%s', async (name) => {
    const d = domains.find((x) => x.name === name)!;
    const started = Date.now();
    expect400(await d.query({ limit: d.pageMax + 1 }), `${name} page size`);
    expect((await d.query({ limit: d.pageMax })).status).toBe(200);
    const inValues = Array.from({ length: FILTER_LIMITS.maxListValues + 1 }, (_, i) => `v${i}`);
    expect400(await d.query({ filter: { [d.field]: { $in: inValues } } }), `${name} $in 1001`);
    expect((await d.query({ filter: { [d.field]: { $in: inValues.slice(0, FILTER_LIMITS.maxListValues) } } })).status).toBe(200);
    const conditions = Array.from({ length: FILTER_LIMITS.maxConditions + 1 }, (_, i) => ({ [d.field]: `c${i}` }));
    expect400(await d.query({ filter: { $or: conditions } }), `${name} 201 conditions`);
    let deep: Record<string, unknown> = { [d.field]: 'x' };
    for (let i = 0; i < FILTER_LIMITS.maxDepth + 1; i += 1) deep = { $and: [deep] };
    expect400(await d.query({ filter: deep }), `${name} depth 11`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('default page size is 50 where the domain pages by offset', async () => {
    const owner = asOwner(t);
    for (let i = 0; i < 55; i += 1) await ok(t, ownerAuth(t), '/items', { dataCollectionId: 'notes', dataItem: { data: { title: `bulk ${i}` } } });
    const data = await call(t.url, '/wix-data/v2/items/query', { ...owner, body: { dataCollectionId: 'notes', query: {} } });
    expect(data.body.dataItems).toHaveLength(50);
    const v1 = await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: {} } });
    expect(v1.body.products.length).toBe(Math.min(50, v1.body.metadata.total));
  });

  it('bulk calls take at most 1000 items', async () => {
    const owner = asOwner(t);
    const items = Array.from({ length: 1001 }, (_, i) => ({ data: { title: `b${i}` } }));
    const before = (await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'notes' })).totalCount as number;
    expect400(await call(t.url, '/wix-data/v2/bulk/items/insert', { ...owner, body: { dataCollectionId: 'notes', dataItems: items } }), 'data bulk insert 1001');
    expect400(await call(t.url, '/wix-data/v2/bulk/items/remove', { ...owner, body: { dataCollectionId: 'notes', dataItemIds: items.map((_, i) => `id${i}`) } }), 'data bulk remove 1001');
    expect((await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'notes' })).totalCount).toBe(before);
    const ids = Array.from({ length: 1001 }, (_, i) => `p${i}`);
    expect400(await call(t.url, '/stores/v1/bulk/products/update', { ...owner, body: { ids, set: { price: 1 } } }), 'catalog bulk update 1001');
  });
});

/**
 * POST over node:http on a fresh connection: the server answers 413 from Content-Length and closes the
 * socket without reading the body, which fetch (undici) sometimes reports as "other side closed".
 */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, t.url), { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => { if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e); });
    req.end(body);
  });
}

describe('JSON bodies (1.5.x)', () => {
  it('a body over the limit is 413 on every domain', async () => {
    const big = 'x'.repeat(t.config.bodyLimitBytes + 10);
    const targets: [string, unknown][] = [
      ['/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: big } } }],
      ['/members/v1/members', { member: { loginEmail: 'big@example.com', profile: { nickname: big } } }],
      ['/stores/v3/products', { product: { name: big } }],
      ['/stores/v1/products', { product: { name: big } }],
      ['/webhooks/v1/subscriptions', { subscription: { url: `https://example.com/${big}` } }],
      ['/oauth2/token', { clientId: t.clientId, grantType: 'anonymous', pad: big }],
      ['/_api/iam/authentication/v2/register', { loginId: { email: 'big@example.com' }, password: big }],
    ];
    for (const [path, body] of targets) {
      const res = await rawPost(path, JSON.stringify(body), { authorization: t.apiKey, 'wix-site-id': t.site.id });
      expect({ path, status: res.status, code: res.body?.details?.applicationError?.code }).toEqual({ path, status: 413, code: 'PAYLOAD_TOO_LARGE' });
    }
  });

  it('a chunked body (no Content-Length) is bounded as it is read: 413 past the limit, answered in full under it', async () => {
    const chunkedPost = (chunks: string[]) => new Promise<ApiResponse>((resolve, reject) => {
      const req = http.request(new URL('/wix-data/v2/items', t.url), {
        method: 'POST', agent: false, headers: { authorization: t.apiKey, 'wix-site-id': t.site.id, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      }, (res) => {
        const got: Buffer[] = [];
        res.on('data', (c: Buffer) => got.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: JSON.parse(Buffer.concat(got).toString() || 'null') }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => { if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e); });
      for (const c of chunks) req.write(c);
      req.end();
    });
    const before = (await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'notes' })).totalCount;
    const over = JSON.stringify({ dataCollectionId: 'notes', dataItem: { data: { title: 'x'.repeat(t.config.bodyLimitBytes) } } });
    const third = Math.ceil(over.length / 3);
    const refused = await chunkedPost([over.slice(0, third), over.slice(third, 2 * third), over.slice(2 * third)]);
    expect([refused.status, refused.body?.details?.applicationError?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const small = JSON.stringify({ dataCollectionId: 'notes', dataItem: { data: { title: 'chunked' } } });
    const stored = await chunkedPost([small.slice(0, 10), small.slice(10)]);
    expect([stored.status, stored.body.dataItem.data.title]).toEqual([200, 'chunked']);
    expect((await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'notes' })).totalCount).toBe(before + 1);
  });

  it('__proto__ and constructor keys in write bodies (data, members, catalog V1/V3, webhooks) are dropped or stored as plain data, never polluting', async () => {
    const owner = ownerAuth(t);
    const raw = '{"dataCollectionId":"notes","dataItem":{"id":"proto-1","data":{"title":"proto","__proto__":{"isAdmin":true,"_owner":"evil"},"constructor":{"prototype":{"polluted":true}}}}}';
    const res = await call(t.url, '/wix-data/v2/items', { ...owner, method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (res.status === 200) {
      const got = (await call(t.url, '/wix-data/v2/items/proto-1', { ...owner, query: { dataCollectionId: 'notes' } })).body.dataItem.data;
      expect(got.title).toBe('proto');
      expect(got._owner).not.toBe('evil');
      expect(got.isAdmin).toBeUndefined();
    }
    // Same through members, catalog and webhook writes: the key has no effect.
    const member = await call(t.url, '/members/v1/members', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"member":{"loginEmail":"proto@example.com","__proto__":{"status":"BLOCKED","id":"x"},"constructor":{"prototype":{"polluted":1}}}}' });
    // Members refuse unknown keys (`constructor`): a 400 that creates nothing; `__proto__` alone is dropped.
    expect(member.status, JSON.stringify(member.body)).toBe(400);
    expect(member.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['member.constructor']);
    const plain = await call(t.url, '/members/v1/members', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"member":{"loginEmail":"proto@example.com","__proto__":{"status":"BLOCKED","id":"x"}}}' });
    expect(plain.status).toBe(200);
    expect(plain.body.member.status).toBe('APPROVED');
    expect(plain.body.member.id).not.toBe('x');
    const product = await call(t.url, '/stores/v1/products', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"product":{"name":"Proto thing","productType":"physical","priceData":{"price":2},"__proto__":{"priceData":{"price":0}}}}' });
    expect(product.status).toBe(200);
    expect(product.body.product.priceData.price).toBe(2);
    const v3 = await call(t.url, '/stores/v3/products', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"product":{"name":"Proto v3","productType":"DIGITAL","__proto__":{"visible":false,"revision":"99"},"constructor":{"prototype":{"polluted":1}},"variantsInfo":{"variants":[{"price":{"actualPrice":{"amount":"3"}},"__proto__":{"sku":"EVIL"}}]}}}' });
    expect(v3.status).toBe(200);
    {
      expect(v3.body.product).toMatchObject({ name: 'Proto v3', visible: true, revision: '1' });
      expect(v3.body.product.variantsInfo.variants[0].sku ?? null).toBeNull();
    }
    const hook = await call(t.url, '/webhooks/v1/subscriptions', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"subscription":{"url":"https://hooks.example.com/p","eventTypes":[{"entityFqdn":"*","slug":"*"}],"__proto__":{"status":"DISABLED","siteId":"other"}}}' });
    expect(hook.status).toBe(200);
    expect(hook.body.subscription.status).toBe('ACTIVE');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).status).toBeUndefined();
    expect(({} as Record<string, unknown>).sku).toBeUndefined();
  });

  it('duplicate keys: the last one wins consistently and cannot smuggle a second value past validation', async () => {
    const owner = ownerAuth(t);
    const raw = '{"dataCollectionId":"notes","dataItem":{"id":"dup-1","data":{"title":"first","title":"second","_owner":"x","_owner":"y"}}}';
    const res = await call(t.url, '/wix-data/v2/items', { ...owner, method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const got = (await call(t.url, '/wix-data/v2/items/dup-1', { ...owner, query: { dataCollectionId: 'notes' } })).body.dataItem.data;
    expect(got.title).toBe('second');
    expect(['x', 'y']).not.toContain(got._owner);
    // A validated field given twice: the value checked is the value used.
    const limit = await call(t.url, '/wix-data/v2/items/query', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"dataCollectionId":"notes","query":{"paging":{"limit":10,"limit":5000}}}' });
    expect400(limit, 'duplicate limit');
    const okLimit = await call(t.url, '/wix-data/v2/items/query', { ...owner, method: 'POST', headers: { 'content-type': 'application/json' },
      rawBody: '{"dataCollectionId":"notes","query":{"paging":{"limit":5000,"limit":3}}}' });
    expect(okLimit.status).toBe(200);
    expect(okLimit.body.dataItems).toHaveLength(3);
  });
});

describe('errors leak nothing (V16 / CORS)', () => {
  it('error bodies of many failures carry no stack, SQL or file paths', async () => {
    const owner = asOwner(t);
    const failures: ApiResponse[] = [
      await call(t.url, '/wix-data/v2/items/query', { ...owner, body: { dataCollectionId: "x'; DROP TABLE x;--", query: {} } }),
      await call(t.url, '/wix-data/v2/items', { ...owner, body: { dataCollectionId: 'notes', dataItem: { data: { title: { $date: 'not a date' } } } } }),
      await call(t.url, '/members/v1/members/not-a-uuid', { ...owner }),
      await call(t.url, '/stores/v3/products/query', { auth: visitor, body: { query: { cursorPaging: { cursor: 'forged.cursor' } } } }),
      await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { filter: '{"name": ' } } }),
      await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, dotR: undefined, query: { '.r': '%%%' } }),
      await call(t.url, '/oauth2/token', { body: { clientId: "'; --", grantType: 'refresh_token', refreshToken: 'x' } }),
      await call(t.url, '/members/v1/members/query', { ...owner, body: { query: { filter: { 'profile.nickname': { $regex: '.*' } } } } }),
      await call(t.url, '/wix-data/v2/items/query', { ...owner, body: { dataCollectionId: 'notes', query: { filter: { title: { $gt: { nested: [1, { deeper: true }] } } } } } }),
      await call(t.url, '/webhooks/v1/subscriptions/%27%3B--', { ...owner }),
    ];
    for (const [i, res] of failures.entries()) {
      expect(res.status, `failure ${i}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `failure ${i}`).toBeLessThan(500);
      expect(typeof res.body, `failure ${i}`).toBe('object');
      assertNoLeak(res, `failure ${i}`);
    }
  });

  it('CORS never pairs a wildcard origin with credentials, on preflight and on answers', async () => {
    for (const path of ['/wix-data/v2/items/query', '/members/v1/members/query', '/oauth2/token', '/stores/v3/products/query']) {
      const pre = await fetch(new URL(path, t.url), { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
      const real = await fetch(new URL(path, t.url), { method: 'POST', headers: { origin: 'https://evil.example', cookie: 'vitrine_hs=x', 'content-type': 'application/json' }, body: '{}' });
      for (const res of [pre, real]) {
        const origin = res.headers.get('access-control-allow-origin');
        const creds = res.headers.get('access-control-allow-credentials');
        expect(origin === '*' && creds === 'true', path).toBe(false);
        if (creds === 'true') expect(origin).not.toBe('https://evil.example');
      }
    }
  });
});
