import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../src/http/routes.js';
import { directLaneOf } from '../src/http/app.js';
import type { DirectLane } from '../src/http/direct-lane.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { call, startTestServer, visitorTokens, type CallOptions, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';

/**
 * The direct lane (http/direct-lane.ts) answers path-only GETs, GETs whose input is a `.r` query
 * parameter, and JSON-body calls without the Hono app. Its answers must be the app's: every GET site route, and every body route with bodies it must
 * refuse, for each kind of caller, is asked once by its plain path (the lane) and once with an empty
 * query string (`?`, which the lane leaves to the app), and the two answers must agree in status,
 * body and headers; so are the storefront's hot POSTs with the bodies they take. The server under test counts which of the two
 * answered, so the comparison cannot pass by both going through the app.
 */

const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
/** Headers that differ between any two answers by nature. */
const PER_ANSWER = new Set(['x-wix-request-id', 'date']);

let t: TestServer;
let lanes: { served: number; passed: number };
let url: string;
let front: http.Server;
const callers: Record<string, CallOptions> = {};
const realIds: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  const lane: DirectLane = directLaneOf(t.server.app)!;
  const viaApp = getRequestListener(t.server.app.fetch);
  lanes = { served: 0, passed: 0 };
  front = http.createServer((req, res) => {
    if (lane(req, res)) lanes.served += 1;
    else {
      lanes.passed += 1;
      void viaApp(req, res);
    }
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const visitor = (await visitorTokens(t)).accessToken;
  const member = await memberWithToken(t, { loginEmail: 'lane@direct-lane.test', profile: { nickname: 'Lane' } });
  const other = await createSite(t.server.deps.storage.db, { slug: 'lane-other', name: 'Other site' });
  const otherKey = (await createApiKey(t.server.deps.storage.db, { siteId: other.id, name: 'other' })).apiKey;
  Object.assign(callers, {
    anonymous: {},
    visitor: { auth: visitor },
    member: { auth: member.token },
    owner: { auth: t.apiKey, siteId: t.site.id },
    'bad token': { auth: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln' },
    'other site key': { auth: otherKey, siteId: t.site.id },
    'cross-origin visitor': { auth: visitor, headers: { origin: 'https://shop.example' } },
  });
  const owner = callers.owner!;
  const products = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...owner, body: { query: { paging: { limit: 1 } } } });
  realIds.product = products.body.products[0].id;
  const v3 = await call(t.url, '/stores/v3/products', { ...owner, body: { product: { name: 'Lane print', productType: 'PHYSICAL', physicalProperties: {}, variantsInfo: { variants: [{ price: { actualPrice: { amount: '10' } } }] } } } });
  realIds.productV3 = v3.body.product.id;
  realIds.member = member.id;
});

afterAll(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await t?.close();
});

/** Every GET site route (the lane's candidates) with placeholder ids, plus real objects that answer 200. */
function paths(): string[] {
  // Logout is a GET that revokes the caller's tokens: asked twice, the second answer is rightly a 401.
  const routes = allRoutes().filter((r) => r.method === 'GET' && r.access !== 'public' && !r.raw && r.path !== '/_api/iam/authentication/v1/logout');
  return [
    ...routes.map((r) => r.path.replace(/:[A-Za-z0-9_]+/g, PLACEHOLDER)),
    `/stores-reader/v1/products/${realIds.product}`,
    `/stores/v3/products/${realIds.productV3}`,
    `/members/v1/members/${realIds.member}`,
  ];
}

/**
 * One request with the request target sent exactly as given (fetch and URL-based clients normalize dot
 * segments and drop an empty query string), with `options`' credentials and headers, and `body` as is.
 */
function rawRequest(method: string, path: string, options: CallOptions, body?: string): Promise<{ status: number; body: unknown; headers: http.IncomingHttpHeaders }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth) headers.authorization = options.auth;
  if (options.siteId) headers['wix-site-id'] = options.siteId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const { port } = front.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, body: res.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const rawGet = (path: string, options: CallOptions) => rawRequest('GET', path, options);

/** Paging cursors carry the time they were signed at: two answers' cursors differ by nature. */
function withoutCursorStamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCursorStamps);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key === 'cursors' && v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).map(([name, cursor]) => [name, typeof cursor === 'string' ? 'a signed cursor' : cursor]))
    : withoutCursorStamps(v)]));
}

async function answer(path: string, options: CallOptions, method = 'GET', body?: string): Promise<{ status: number; body: unknown; headers: [string, unknown][] }> {
  const res = await rawRequest(method, path, options, body);
  // A write's consistency token is the time it answered at: present on both, equal only by chance.
  const headers = Object.entries(res.headers).filter(([name]) => !PER_ANSWER.has(name))
    .map(([name, value]): [string, unknown] => [name, name === 'x-wix-consistent' && /^\d+$/.test(String(value)) ? 'a time' : value])
    .sort(([a], [b]) => a.localeCompare(b));
  return { status: res.status, body: withoutCursorStamps(res.body), headers };
}

describe('the direct lane answers as the app does', () => {
  it('for every GET site route and every kind of caller', async () => {
    const checked: string[] = [];
    for (const path of paths()) {
      for (const [who, options] of Object.entries(callers)) {
        const before = { ...lanes };
        const direct = await answer(path, options);
        expect(lanes.served - before.served, `${who} ${path}: answered by the lane`).toBe(1);
        const viaApp = await answer(`${path}?`, options);
        expect(lanes.passed - before.passed, `${who} ${path}?: answered by the app`).toBe(1);
        expect(direct, `${who} GET ${path}`).toEqual(viaApp);
        expect(direct.status, `${who} GET ${path}`).not.toBe(500);
        checked.push(`${direct.status}`);
      }
    }
    // The comparison covered successes, rejected input, authentication and authorization failures, and missing objects.
    expect(new Set(checked)).toEqual(new Set(['200', '400', '401', '403', '404']));
  });

  /** One request through the lane (its plain path) and the same through the app (`?`): equal answers. */
  async function sameBothWays(method: string, path: string, who: string, body: string | undefined): Promise<number> {
    const options = callers[who]!;
    const before = { ...lanes };
    const direct = await answer(path, options, method, body);
    expect(lanes.served - before.served, `${who} ${method} ${path}: answered by the lane`).toBe(1);
    const viaApp = await answer(`${path}?`, options, method, body);
    expect(lanes.passed - before.passed, `${who} ${method} ${path}?: answered by the app`).toBe(1);
    expect(direct, `${who} ${method} ${path} ${body}`).toEqual(viaApp);
    expect(direct.status, `${who} ${method} ${path} ${body}`).not.toBe(500);
    return direct.status;
  }

  it('for every POST, PUT and PATCH site route and every kind of caller, given a body it must refuse', async () => {
    const routes = allRoutes().filter((r) => (r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH' || r.postTwin) && r.access !== 'public' && !r.raw && !r.rawBodyBytes);
    expect(routes.length).toBeGreaterThan(100);
    const checked = new Set<number>();
    // Bodies refused before any handler runs, so asking twice changes nothing: not JSON, not an object, a NUL inside.
    const bodies = ['{"query":', '[1]', '{"note":"a\\u0000b"}'];
    for (const r of routes) {
      const method = r.method === 'GET' ? 'POST' : r.method;
      const path = r.path.replace(/:[A-Za-z0-9_]+/g, PLACEHOLDER);
      for (const who of Object.keys(callers)) {
        for (const body of bodies) checked.add(await sameBothWays(method, path, who, body));
      }
    }
    expect(checked).toEqual(new Set([400, 401, 403]));
  });

  it("for the storefront's hot POSTs, given what they take", async () => {
    const visitorCart = { auth: callers.visitor!.auth! };
    expect((await call(t.url, '/ecom/v1/carts/current/add-to-cart', { ...visitorCart, body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: realIds.product, appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e' } }] } })).status).toBe(200);
    const reads: [string, string, string][] = [
      ['visitor', '/stores-reader/v1/products/query-platformized', JSON.stringify({ query: { paging: { limit: 5 } } })],
      ['visitor', '/stores-reader/v1/products/query-platformized', ''],
      ['visitor', '/stores/v3/products/query', JSON.stringify({ query: { cursorPaging: { limit: 5 } } })],
      ['visitor', '/ecom/v1/carts/current/estimate-totals', '{}'],
      ['member', '/ecom/v1/carts/current/estimate-totals', '{}'],
      ['owner', '/members/v1/members/query', JSON.stringify({ query: { paging: { limit: 5 } } })],
      ['cross-origin visitor', '/stores-reader/v1/products/query-platformized', JSON.stringify({ query: { paging: { limit: 1 } } })],
    ];
    const statuses = new Set<number>();
    for (const [who, path, body] of reads) statuses.add(await sameBothWays('POST', path, who, body));
    expect(statuses).toEqual(new Set([200, 404]));
    // A write through the lane: its answer is the cart a read then finds.
    const added = await rawRequest('POST', '/ecom/v1/carts/current/add-to-cart', callers.visitor!, JSON.stringify({ lineItems: [{ quantity: 2, catalogReference: { catalogItemId: realIds.product, appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e' } }] }));
    expect(added.status).toBe(200);
    expect((added.body as { cart: { lineItems: { quantity: number }[] } }).cart.lineItems.map((l) => l.quantity)).toEqual([3]);
    expect((await rawGet('/ecom/v1/carts/current', callers.visitor!)).body).toEqual(added.body);
    expect(added.headers['x-wix-consistent']).toMatch(/^\d+$/);
  });

  it('for GETs whose input is a `.r` query parameter (the public client\'s), for every GET site route and every kind of caller', async () => {
    const dotR = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    /** The same GET with `.r` through the lane, then through the app (a trailing `&` it leaves to the app; the app's input is the same). */
    async function sameBothWaysDotR(path: string, who: string, encoded: string): Promise<number> {
      const options = callers[who]!;
      const before = { ...lanes };
      const direct = await answer(`${path}?.r=${encoded}`, options);
      expect(lanes.served - before.served, `${who} ${path} .r: answered by the lane`).toBe(1);
      const viaApp = await answer(`${path}?.r=${encoded}&`, options);
      expect(lanes.passed - before.passed, `${who} ${path} .r&: answered by the app`).toBe(1);
      expect(direct, `${who} GET ${path} .r=${encoded}`).toEqual(viaApp);
      expect(direct.status, `${who} GET ${path} .r=${encoded}`).not.toBe(500);
      return direct.status;
    }
    const checked = new Set<number>();
    // An empty input, and inputs refused before any handler runs: not JSON, not an object, a NUL inside.
    const payloads = [dotR({}), dotR('not json'), dotR([1]), dotR({ note: 'a\u0000b' })];
    for (const path of paths()) {
      for (const who of Object.keys(callers)) for (const encoded of payloads) checked.add(await sameBothWaysDotR(path, who, encoded));
    }
    expect(checked).toEqual(new Set([200, 400, 401, 403, 404]));
    // The storefront's reads with what they take.
    const reads: [string, string, unknown][] = [
      ['visitor', '/stores-reader/v1/products/query-platformized', { query: { filter: { 'priceData.price': { $gt: 1 } }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 5 } } }],
      ['cross-origin visitor', '/stores-reader/v1/products/query-platformized', { query: { paging: { limit: 2 } } }],
      ['owner', '/stores-reader/v1/products/query-platformized', { query: { paging: { limit: 2 } } }],
      ['visitor', '/stores/v3/products/search', { search: { search: { expression: 'print' }, cursorPaging: { limit: 5 } } }],
      ['visitor', `/stores-reader/v1/products/${realIds.product}`, { includeMerchantSpecificData: true }],
      ['owner', `/stores-reader/v1/products/${realIds.product}`, { includeMerchantSpecificData: true }],
      // Kept for this visitor by its path-only get above, but not with these fields: not answered from the kept one.
      ['visitor', `/stores/v3/products/${realIds.productV3}`, { fields: ['URL'] }],
      ['visitor', '/stores-reader/v1/products/query-platformized', { query: { paging: { limit: 'many' } } }],
    ];
    const statuses = new Set<number>();
    for (const [who, path, input] of reads) statuses.add(await sameBothWaysDotR(path, who, dotR(input)));
    expect(statuses).toEqual(new Set([200, 400]));
  });

  it('refuses a body over the bound as the app does, and closes the connection', async () => {
    const big = JSON.stringify({ query: { filter: 'x'.repeat(t.config.bodyLimitBytes) } });
    expect(await sameBothWays('POST', '/stores-reader/v1/products/query-platformized', 'visitor', big)).toBe(413);
    const res = await rawRequest('POST', '/stores-reader/v1/products/query-platformized', callers.visitor!, big);
    expect(res.headers.connection).toBe('close');
  });

  it('answers a product get with the stored document and the frame headers', async () => {
    const res = await call(url, `/stores-reader/v1/products/${realIds.product}`, callers['cross-origin visitor']);
    expect(res.status).toBe(200);
    expect(res.body.product.id).toBe(realIds.product);
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('what the lane leaves to the app', () => {
  const product = () => `/stores-reader/v1/products/${realIds.product}`;
  it.each([
    ['a query string', () => `${product()}?includeMerchantSpecificData=true`],
    ['a `.r` beside another parameter', () => `${product()}?.r=e30&includeMerchantSpecificData=true`],
    ['a padded `.r`', () => `${product()}?.r=e30=`],
    ['a percent-escape', () => product().replace(/-/, '%2D')],
    ['a trailing slash', () => `${product()}/`],
    ['a dot segment', () => `/stores-reader/v1/products/../products/${realIds.product}`],
    ['an unknown path', () => '/no/such/route'],
    ['a path whose first matching route is raw (hosted page)', () => '/_hosted/checkout'],
  ])('%s', async (_what, path) => {
    const before = { ...lanes };
    const { status } = await rawGet(path(), callers.visitor!);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(lanes.served - before.served).toBe(0);
    expect(lanes.passed - before.passed).toBe(1);
  });

  it('other methods, and a write with an Idempotency-Key', async () => {
    const before = { ...lanes };
    expect((await call(url, '/ecom/v1/carts/current', { ...callers.visitor, method: 'DELETE' })).status).toBeGreaterThanOrEqual(200);
    const keyed = await rawRequest('POST', '/stores-reader/v1/products/query-platformized', { ...callers.visitor!, headers: { 'idempotency-key': 'lane-key-1' } }, '{}');
    expect(keyed.status).toBe(200);
    const postWithDotR = await rawRequest('POST', '/stores-reader/v1/products/query-platformized?.r=e30', callers.visitor!, '{}');
    expect(postWithDotR.status).toBe(200);
    expect(lanes.served - before.served).toBe(0);
    expect(lanes.passed - before.passed).toBe(3);
  });
});
