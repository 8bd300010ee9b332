import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';

let t: TestServer;
let visitor: string;

beforeAll(async () => {
  // A small body limit: a body of several socket buffers would be cut off mid-send once the server answers 413.
  t = await startTestServer({ bodyLimitBytes: 16 * 1024 });
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

const QUERY = '/stores-reader/v1/products/query-platformized';

describe('wire basics', () => {
  it('answers health with the dialect and a request id', async () => {
    const res = await call(t.url, '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'sqlite' });
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives unknown routes a 404 application error', async () => {
    const res = await call(t.url, '/nope/v1/things');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: 'No route for GET /nope/v1/things',
      details: { applicationError: { code: 'NOT_FOUND', description: 'No route for GET /nope/v1/things', data: {} } },
    });
    expect(res.headers.get('x-wix-request-id')).toBeTruthy();
  });

  it('answers CORS preflight with the contract headers and no credentials', async () => {
    const res = await fetch(new URL(QUERY, t.url), {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,wix-site-id,x-wix-consistent' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('wix-site-id');
    const simple = await fetch(new URL('/healthz', t.url), { headers: { origin: 'https://shop.example' } });
    expect(simple.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-wix-request-id');
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await call(t.url, QUERY, { method: 'POST', auth: visitor, rawBody: JSON.stringify({ pad: 'x'.repeat(t.config.bodyLimitBytes + 10) }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.details.applicationError.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses malformed JSON and non-object bodies with a field violation', async () => {
    const bad = await call(t.url, QUERY, { method: 'POST', auth: visitor, rawBody: '{"query":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'INVALID_ARGUMENT', details: { validationError: { fieldViolations: [{ field: '$body', description: 'must be valid JSON', violatedRule: 'FORMAT', data: {} }] } } });
    const arr = await call(t.url, QUERY, { method: 'POST', auth: visitor, body: [1, 2] });
    expect(arr.status).toBe(400);
    expect(arr.body.details.validationError.fieldViolations[0].field).toBe('$body');
  });

  it('ignores __proto__ keys in bodies', async () => {
    const res = await call(t.url, QUERY, { method: 'POST', auth: visitor, rawBody: '{"__proto__":{"polluted":true},"query":{"paging":{"limit":1}}}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.products).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('serves the OpenAPI document and the reference page', async () => {
    const doc = await call(t.url, '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toContain('/stores-reader/v1/products/{id}');
    expect(doc.body.paths['/stores-reader/v1/products/query-platformized'].post['x-access']).toBe('visitor');
    const page = await fetch(new URL('/docs', t.url));
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Vitrine API reference');
  });
});

describe('OAuth tokens', () => {
  it('issues anonymous tokens in the exact wire shape', async () => {
    const res = await call(t.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'anonymous' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.body.expires_in).toBe(t.config.accessTokenTtlSeconds);
    expect(res.body.token_type).toBe('Bearer');
    expect(res.body.access_token.split('.')).toHaveLength(3);
    expect(res.body.refresh_token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
  });

  it('refreshes without rotating the refresh token, and refuses a bad one', async () => {
    const { refreshToken } = await visitorTokens(t);
    const res = await call(t.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'refresh_token', refreshToken } });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBe(refreshToken);
    const again = await call(t.url, QUERY, { auth: res.body.access_token, dotR: { query: { paging: { limit: 1 } } } });
    expect(again.status).toBe(200);
    const bad = await call(t.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'refresh_token', refreshToken: 'rt_forged' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.applicationError.code).toBe('INVALID_GRANT');
  });

  it('refuses unknown clients and grants', async () => {
    const unknownClient = await call(t.url, '/oauth2/token', { body: { clientId: 'nope', grantType: 'anonymous' } });
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.body.details.applicationError.code).toBe('INVALID_CLIENT');
    const password = await call(t.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'password' } });
    expect(password.status).toBe(400);
    expect(password.body.details.applicationError.code).toBe('UNSUPPORTED_GRANT_TYPE');
  });

  it('publishes the verification keys', async () => {
    const res = await call(t.url, '/oauth2/jwks');
    expect(res.status).toBe(200);
    expect(res.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(res.body.keys[0].d).toBeUndefined();
  });

  it('refuses a tampered, unsigned or missing token', async () => {
    const [h, p] = visitor.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    for (const token of [`${h}.${p}.AAAA`, none]) {
      const res = await call(t.url, QUERY, { auth: token });
      expect(res.status).toBe(401);
      expect(res.body.details.applicationError.code).toBe('UNAUTHENTICATED');
    }
    const missing = await call(t.url, QUERY);
    expect(missing.status).toBe(401);
  });
});

describe('catalog slice', () => {
  it('lists the demo products with offset paging and totals', async () => {
    const res = await call(t.url, QUERY, { auth: visitor, dotR: { query: { paging: { limit: 10, offset: 5 } } } });
    expect(res.status).toBe(200);
    expect(res.body.products).toHaveLength(10);
    expect(res.body.metadata).toEqual({ count: 10, offset: 5, total: 26, tooManyToCount: false });
    const first = res.body.products[0];
    expect(first.media.mainMedia.image.url).toMatch(new RegExp(`^${t.url}/media/[0-9a-f]{32}/`));
    expect(first.costAndProfitData).toBeUndefined();
  });

  it('filters and sorts, through the GET .r form and the POST twin alike', async () => {
    const query = { filter: { 'priceData.price': { $gt: 40 } }, sort: [{ fieldName: 'price', order: 'DESC' }] };
    const viaGet = await call(t.url, QUERY, { auth: visitor, dotR: { query } });
    const viaPost = await call(t.url, QUERY, { auth: visitor, body: { query } });
    expect(viaGet.status).toBe(200);
    const names = viaGet.body.products.map((p: { name: string }) => p.name);
    expect(names).toEqual(['Hand Grinder', 'Gooseneck Kettle', 'Roaster Hoodie', 'Gift Card', 'Tasting Gift Box', 'Digital Scale']);
    expect(viaPost.body.products.map((p: { name: string }) => p.name)).toEqual(names);
  });

  it('supports string operators with LIKE metacharacters taken literally', async () => {
    const starts = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { name: { $startsWith: 'ro' } }, sort: [{ fieldName: 'name' }] } } });
    expect(starts.body.products.map((p: { name: string }) => p.name)).toEqual(['Roaster Hoodie', 'Rooibos Vanilla']);
    const percent = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { name: { $contains: '%' } } } } });
    expect(percent.body.metadata.total).toBe(0);
    const under = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { name: { $contains: '_' } } } } });
    expect(under.body.metadata.total).toBe(0);
  });

  it('filters by collection and combines $or / $not', async () => {
    const all = await call(t.url, QUERY, { auth: visitor, body: { query: { paging: { limit: 100 } } } });
    const teaId = all.body.products.find((p: { name: string }) => p.name === 'Sencha Kagoshima').collectionIds[0];
    const tea = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'collections.id': { $hasSome: [teaId] } } } } });
    expect(tea.body.metadata.total).toBe(6);
    const combo = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { $and: [{ 'collections.id': { $hasSome: [teaId] } }, { $not: { $or: [{ name: 'Matcha Ceremonial' }, { 'priceData.price': { $lt: 11 } }] } }] }, sort: [{ fieldName: 'name', order: 'ASC' }] } } });
    expect(combo.body.products.map((p: { name: string }) => p.name)).toEqual(['Darjeeling First Flush', 'Jasmine Pearls', 'Sencha Kagoshima']);
  });

  it('gets one product and 404s an unknown id', async () => {
    const list = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { slug: 'hand-grinder' } } } });
    const id = list.body.products[0].id;
    const res = await call(t.url, `/stores-reader/v1/products/${id}`, { auth: visitor, query: { id, includeMerchantSpecificData: 'true' } });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ id, name: 'Hand Grinder', slug: 'hand-grinder', price: { price: 89, currency: 'USD', formatted: { price: '$89.00' } }, stock: { trackInventory: true, quantity: 12, inStock: true } });
    expect(res.body.product.costAndProfitData).toBeUndefined(); // merchant data needs an elevated caller
    const owner = await call(t.url, `/stores-reader/v1/products/${id}`, { ...asOwner(t), query: { includeMerchantSpecificData: 'true' } });
    expect(owner.body.product.costAndProfitData).toMatchObject({ itemCost: 40, profit: 49 });
    const missing = await call(t.url, '/stores-reader/v1/products/00000000-0000-0000-0000-00000000abcd', { auth: visitor });
    expect(missing.status).toBe(404);
    expect(missing.body.details.applicationError.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('serves product images', async () => {
    const list = await call(t.url, QUERY, { auth: visitor, body: { query: { paging: { limit: 1 } } } });
    const res = await fetch(list.body.products[0].media.mainMedia.image.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toContain('<svg');
  });
});

describe('bad requests change nothing and get the exact wire error', () => {
  const expectViolation = (body: any, field: string, violatedRule: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    expect(body.message).toBe('INVALID_ARGUMENT');
    expect(body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field, violatedRule, data: expect.any(Object) })]);
  };

  it('limit 1001 is a 400 MAX', async () => {
    const res = await call(t.url, QUERY, { auth: visitor, dotR: { query: { paging: { limit: 1001 } } } });
    expect(res.status).toBe(400);
    expectViolation(res.body, 'query.paging.limit', 'MAX');
  });

  it('an unknown filter operator or field is a 400', async () => {
    const op = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { name: { $like: 'x' } } } } });
    expect(op.status).toBe(400);
    expectViolation(op.body, 'query.filter.name', 'FIELD_NOT_ALLOWED');
    const field = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'doc.secret': 1 } } } });
    expect(field.status).toBe(400);
    expectViolation(field.body, 'query.filter.doc.secret', 'FIELD_NOT_ALLOWED');
    const regex = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { name: { $regex: '.*' } } } } });
    expect(regex.status).toBe(400);
  });

  it('filters deeper than 10 levels or with a mistyped value are a 400', async () => {
    let deep: Record<string, unknown> = { name: 'x' };
    for (let i = 0; i < 11; i++) deep = { $and: [deep] };
    const res = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: deep } } });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations[0].violatedRule).toBe('MAX');
    const typed = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { 'priceData.price': { $gt: '5' } } } } });
    expect(typed.status).toBe(400);
    expectViolation(typed.body, 'query.filter.priceData.price', 'FORMAT');
  });

  it('a malformed .r is a 400', async () => {
    const res = await call(t.url, QUERY, { auth: visitor, query: { '.r': '!!not-base64-json' } });
    expect(res.status).toBe(400);
    expectViolation(res.body, '.r', 'FORMAT');
  });

  it('a visitor calling an elevated route gets 403 and nothing is created', async () => {
    const product = { name: 'Sneaky', priceData: { price: 1 } };
    const res = await call(t.url, '/stores/v1/products', { auth: visitor, body: { product } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'This call needs an elevated caller (an API key of the site owner)', details: { applicationError: { code: 'ELEVATED_REQUIRED', description: 'This call needs an elevated caller (an API key of the site owner)', data: {} } } });
    const after = await call(t.url, QUERY, { ...asOwner(t), body: { query: { filter: { name: 'Sneaky' } } } });
    expect(after.body.metadata.total).toBe(0);
  });

  it('a bad create is a 400 listing every violation, sorted, and writes nothing', async () => {
    const res = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: '', priceData: { price: -1 }, discount: { type: 'PERCENT', value: 120 } } } });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations.map((v: { field: string; violatedRule: string }) => [v.field, v.violatedRule])).toEqual([
      ['product.discount', 'MAX'], ['product.name', 'MIN_LENGTH'], ['product.priceData.price', 'MIN'],
    ]);
    const total = await call(t.url, QUERY, { ...asOwner(t), body: {} });
    expect(total.body.metadata.total).toBe(26);
  });

  it('an owner creates a product that visitors then see', async () => {
    const res = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Filter Papers XL', priceData: { price: 7.5 }, discount: { type: 'PERCENT', value: 20 } } } });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ name: 'Filter Papers XL', slug: 'filter-papers-xl', priceData: { price: 7.5, discountedPrice: 6, formatted: { discountedPrice: '$6.00' } } });
    const seen = await call(t.url, QUERY, { auth: visitor, body: { query: { filter: { slug: 'filter-papers-xl' } } } });
    expect(seen.body.products.map((p: { id: string }) => p.id)).toEqual([res.body.product.id]);
    const dup = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Filter Papers XL', priceData: { price: 1 } } } });
    expect(dup.status).toBe(409);
    expect(dup.body.details.applicationError.code).toBe('SLUG_ALREADY_EXISTS');
  });
});

describe('sites and keys', () => {
  it('an API key is refused for another site id', async () => {
    const res = await call(t.url, QUERY, { auth: t.apiKey, siteId: '11111111-2222-3333-4444-555555555555', body: {} });
    expect(res.status).toBe(403);
    expect(res.body.details.applicationError.code).toBe('SITE_MISMATCH');
    const unknownKey = await call(t.url, QUERY, { auth: 'vtr_unknown', siteId: t.site.id, body: {} });
    expect(unknownKey.status).toBe(401);
  });
});
