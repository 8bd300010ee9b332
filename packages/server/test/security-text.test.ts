import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type CallOptions, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { as, STRONG_PASSWORD, uniqueEmail, visitor, type Actor } from './identity-helpers.js';
import { memberTokenPair, ownerCreateMember } from './member-tokens.js';
import { IDENTIFIER_MESSAGE } from '../src/http/wire-schemas.js';

/**
 * The text rules at the edge (docs/security.md "Text"): NUL and unpaired surrogates are refused in any
 * request value (body, query, `.r`, path) by the wire layer; control, bidi and invisible format
 * characters are refused in identifiers by the schemas. Each case gets a 400 naming the exact field and
 * changes no row; clean Unicode (emoji, CJK, combining marks, paired surrogates) is stored exactly.
 */

let t: TestServer;
let v: Actor;
let member: { id: string; token: string };
let productId: string;
let variantId: string;
const COLLECTION = 'textNotes';

/** Tables whose rows a refused request must leave as they were (rate_limits counts attempts by design). */
const TABLES = [
  'products', 'products_v3', 'products_v3_choices', 'catalog_entities', 'collections', 'product_collections', 'inventory_items',
  'data_collections', 'data_items', 'identities', 'identity_sessions', 'members', 'member_abouts', 'refresh_tokens',
  'webhook_subscriptions', 'redirect_sessions', 'outbox_events', 'oauth_codes', 'notification_mails',
];

/** A digest of every row per table; the outbox's `dispatched` flag is the background worker's, not the request's. */
async function snapshot(): Promise<Record<string, string>> {
  const db = t.server.deps.storage.db;
  const digests: Record<string, string> = {};
  for (const table of TABLES) {
    const rows = (await db.selectFrom(table as never).selectAll().execute()) as Record<string, unknown>[];
    const lines = rows.map(({ dispatched: _dispatched, ...row }) => JSON.stringify(row)).sort();
    digests[table] = `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return digests;
}

beforeAll(async () => {
  t = await startTestServer();
  v = await visitor(t);
  const m = await ownerCreateMember(t, { loginEmail: uniqueEmail('text'), profile: { nickname: 'Text Member' } });
  member = { id: m.id, token: (await memberTokenPair(t, m.id)).accessToken };
  const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Text Mug', productType: 'physical', priceData: { price: 10 } } } });
  expect(created.status).toBe(200);
  productId = created.body.product.id;
  variantId = created.body.product.variants[0].id;
  const coll = await call(t.url, '/wix-data/v2/collections', {
    ...asOwner(t),
    body: { collection: { id: COLLECTION, displayName: 'Notes', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } },
  });
  expect(coll.status).toBe(200);
}, SLOW_START_MS);
afterAll(() => t?.close());

const NUL = '\u0000';
const LONE = '\uD800';
const BEL = '\u0007';
const RLO = '\u202E';

type Kind = 'NUL' | 'LONE' | 'IDENT';
const violationOf = (field: string, kind: Kind, character = 'U+202E') => ({
  field,
  description: kind === 'NUL' ? 'must not contain a NUL character (U+0000)' : kind === 'LONE' ? 'must not contain an unpaired UTF-16 surrogate' : IDENTIFIER_MESSAGE,
  violatedRule: 'FORMAT',
  data: kind === 'IDENT' ? { reason: 'FORBIDDEN_CHARACTER', character } : { reason: kind === 'NUL' ? 'NUL_CHARACTER' : 'UNPAIRED_SURROGATE' },
});

interface Case {
  domain: string;
  where: 'body' | 'query' | '.r' | 'path' | 'identifier';
  path: () => string;
  options: () => CallOptions;
  /** The one field violation expected. */
  expect: () => Record<string, unknown>;
}

const owner = () => asOwner(t);
const vis = (o: CallOptions = {}) => ({ ...as(v), ...o });
const webhook = (extra: Record<string, unknown>) => ({ subscription: { url: 'http://127.0.0.1:9/hook', eventTypes: [{ entityFqdn: 'wix.stores.catalog.v1.product', slug: 'created' }], ...extra } });

const CASES: Case[] = [
  // identity
  { domain: 'identity', where: 'body', path: () => '/_api/iam/authentication/v2/register', options: () => vis({ body: { loginId: { email: `a${NUL}b@example.com` }, password: STRONG_PASSWORD } }), expect: () => violationOf('loginId.email', 'NUL') },
  { domain: 'identity', where: 'body', path: () => '/_api/iam/authentication/v2/login', options: () => vis({ body: { loginId: { email: 'x@example.com' }, password: `pass${LONE}word 123` } }), expect: () => violationOf('password', 'LONE') },
  { domain: 'identity', where: 'body', path: () => '/oauth2/token', options: () => ({ body: { clientId: `demo${NUL}`, grantType: 'anonymous' } }), expect: () => violationOf('clientId', 'NUL') },
  {
    domain: 'identity', where: 'identifier', path: () => '/_api/iam/authentication/v2/register',
    options: () => vis({ body: { loginId: { email: `evil${RLO}moc.example@example.com` }, password: STRONG_PASSWORD } }),
    expect: () => ({ field: 'loginId.email', description: 'must be a valid e-mail address', violatedRule: 'FORMAT', data: { type: 'EMAIL' } }),
  },
  { domain: 'identity', where: 'identifier', path: () => '/oauth2/token', options: () => ({ body: { clientId: `demo${BEL}`, grantType: 'anonymous' } }), expect: () => violationOf('clientId', 'IDENT', 'U+0007') },
  // members
  { domain: 'members', where: 'body', path: () => `/members/v1/members/${member.id}`, options: () => ({ method: 'PATCH', auth: member.token, body: { member: { profile: { nickname: `Nick${NUL}` } } } }), expect: () => violationOf('member.profile.nickname', 'NUL') },
  { domain: 'members', where: 'body', path: () => '/members/v1/members/query', options: () => ({ auth: member.token, body: { search: { expression: `x${LONE}` } } }), expect: () => violationOf('search.expression', 'LONE') },
  { domain: 'members', where: 'query', path: () => '/members/v1/members', options: () => ({ auth: member.token, query: { fieldsets: `PUBLIC${NUL}` } }), expect: () => violationOf('fieldsets', 'NUL') },
  { domain: 'members', where: 'path', path: () => '/members/v1/members/xa%00b', options: () => ({ auth: member.token }), expect: () => violationOf('id', 'NUL') },
  { domain: 'members', where: 'identifier', path: () => '/members/v1/members/my/slug', options: () => ({ auth: member.token, body: { slug: `my${RLO}slug` } }), expect: () => violationOf('slug', 'IDENT') },
  { domain: 'members', where: 'identifier', path: () => '/members/v1/members', options: () => ({ ...owner(), body: { member: { loginEmail: `bell${BEL}@example.com` } } }), expect: () => violationOf('member.loginEmail', 'IDENT', 'U+0007') },
  // catalog V1
  { domain: 'catalog V1', where: 'body', path: () => '/stores/v1/products', options: () => ({ ...owner(), body: { product: { name: `Mug${NUL}`, productType: 'physical', priceData: { price: 1 } } } }), expect: () => violationOf('product.name', 'NUL') },
  { domain: 'catalog V1', where: 'path', path: () => '/stores-reader/v1/products/xa%00b', options: () => vis(), expect: () => violationOf('id', 'NUL') },
  // V1 filters are JSON carried in a string: the escape decodes only inside the schema.
  { domain: 'catalog V1', where: 'body', path: () => '/stores-reader/v1/products/query-platformized', options: () => vis({ body: { query: { filter: JSON.stringify({ name: `a${NUL}` }) } } }), expect: () => violationOf('query.filter.name', 'NUL') },
  { domain: 'catalog V1', where: '.r', path: () => '/stores-reader/v1/products/query-platformized', options: () => vis({ dotR: { query: { filter: JSON.stringify({ name: `a${LONE}` }) } } }), expect: () => violationOf('query.filter.name', 'LONE') },
  { domain: 'catalog V1', where: 'identifier', path: () => `/stores-reader/v1/products/${productId}${encodeURIComponent(RLO)}`, options: () => vis(), expect: () => violationOf('id', 'IDENT') },
  // catalog V3
  { domain: 'catalog V3', where: 'body', path: () => '/stores/v3/products', options: () => ({ ...owner(), body: { product: { name: `Shirt${LONE}`, productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } } } }), expect: () => violationOf('product.name', 'LONE') },
  { domain: 'catalog V3', where: '.r', path: () => '/stores/v3/products/query', options: () => vis({ dotR: { query: { filter: { name: `a${NUL}` } } } }), expect: () => violationOf('query.filter.name', 'NUL') },
  { domain: 'catalog V3', where: 'identifier', path: () => '/stores/v3/products', options: () => ({ ...owner(), body: { product: { name: 'Shirt', productType: 'PHYSICAL', brand: { id: `b${BEL}` }, variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } } } }), expect: () => violationOf('product.brand.id', 'IDENT', 'U+0007') },
  // collections
  { domain: 'collections', where: 'body', path: () => '/stores/v1/collections', options: () => ({ ...owner(), body: { collection: { name: `Summer${NUL}` } } }), expect: () => violationOf('collection.name', 'NUL') },
  { domain: 'collections', where: 'path', path: () => '/stores-reader/v1/collections/slug/a%00b', options: () => vis(), expect: () => violationOf('slug', 'NUL') },
  { domain: 'collections', where: 'identifier', path: () => '/stores/v1/collections', options: () => ({ ...owner(), body: { collection: { name: 'Summer', id: `c${RLO}` } } }), expect: () => violationOf('collection.id', 'IDENT') },
  // inventory
  { domain: 'inventory', where: 'identifier', path: () => `/stores/v2/inventoryItems/product/${productId}`, options: () => ({ ...owner(), method: 'PATCH', body: { inventoryItem: { variants: [{ variantId: `${variantId}${BEL}`, quantity: 3 }] } } }), expect: () => violationOf('inventoryItem.variants[0].variantId', 'IDENT', 'U+0007') },
  { domain: 'inventory', where: 'body', path: () => '/stores/v3/inventory-items/query', options: () => ({ ...owner(), body: { query: { filter: { productId: { $eq: `p${NUL}` } } } } }), expect: () => violationOf('query.filter.productId.$eq', 'NUL') },
  { domain: 'inventory', where: 'path', path: () => '/stores/v3/inventory-items/xa%00b', options: () => owner(), expect: () => violationOf('inventoryItemId', 'NUL') },
  // data items and filters
  { domain: 'data', where: 'body', path: () => '/wix-data/v2/items', options: () => vis({ body: { dataCollectionId: COLLECTION, dataItem: { data: { title: `x${NUL}y` } } } }), expect: () => violationOf('dataItem.data.title', 'NUL') },
  { domain: 'data', where: 'body', path: () => '/wix-data/v2/bulk/items/insert', options: () => vis({ body: { dataCollectionId: COLLECTION, dataItems: [{ data: { title: 'ok' } }, { data: { title: `x${LONE}` } }] } }), expect: () => violationOf('dataItems[1].data.title', 'LONE') },
  { domain: 'data', where: 'body', path: () => '/wix-data/v2/items/query', options: () => vis({ body: { dataCollectionId: COLLECTION, query: { filter: { title: { $eq: `a${LONE}` } } } } }), expect: () => violationOf('query.filter.title.$eq', 'LONE') },
  { domain: 'data', where: '.r', path: () => '/wix-data/v2/items/query', options: () => vis({ dotR: { dataCollectionId: COLLECTION, query: { filter: { [`ti${NUL}tle`]: 1 } } } }), expect: () => violationOf('query.filter.ti\\u0000tle', 'NUL') },
  { domain: 'data', where: 'path', path: () => '/wix-data/v2/items/xa%00b', options: () => vis({ query: { dataCollectionId: COLLECTION } }), expect: () => violationOf('dataItemId', 'NUL') },
  { domain: 'data', where: 'identifier', path: () => '/wix-data/v2/items/query', options: () => vis({ body: { dataCollectionId: `${COLLECTION}${RLO}`, query: {} } }), expect: () => violationOf('dataCollectionId', 'IDENT') },
  { domain: 'data', where: 'identifier', path: () => '/wix-data/v2/items', options: () => vis({ body: { dataCollectionId: COLLECTION, dataItem: { data: { [`ti${BEL}tle`]: 'x' } } } }), expect: () => violationOf(`dataItem.data.ti${BEL}tle`, 'IDENT', 'U+0007') },
  { domain: 'data', where: 'identifier', path: () => '/wix-data/v2/collections', options: () => ({ ...owner(), body: { collection: { id: `notes${RLO}`, displayName: 'x', fields: [] } } }), expect: () => violationOf('collection.id', 'IDENT') },
  // events / webhooks
  { domain: 'events', where: 'body', path: () => '/webhooks/v1/subscriptions', options: () => ({ ...owner(), body: webhook({ description: `d${NUL}` }) }), expect: () => violationOf('subscription.description', 'NUL') },
  { domain: 'events', where: 'path', path: () => '/webhooks/v1/subscriptions/xa%00b', options: () => owner(), expect: () => violationOf('id', 'NUL') },
  { domain: 'events', where: 'identifier', path: () => '/webhooks/v1/subscriptions', options: () => ({ ...owner(), body: webhook({ alertEmail: `ops${RLO}@example.com` }) }), expect: () => violationOf('subscription.alertEmail', 'IDENT') },
  // redirects
  { domain: 'redirects', where: 'body', path: () => '/_api/redirects-api/v1/redirect-session', options: () => vis({ body: { login: {}, callbacks: { postFlowUrl: `http://localhost:5173/${NUL}` } } }), expect: () => violationOf('callbacks.postFlowUrl', 'NUL') },
  { domain: 'redirects', where: 'body', path: () => '/_api/redirects-api/v1/redirect-session', options: () => ({ auth: member.token, body: { logout: { clientId: `demo${LONE}` }, callbacks: { postFlowUrl: 'http://localhost:5173/' } } }), expect: () => violationOf('logout.clientId', 'LONE') },
];

describe('hostile text at the edge: 400 with the exact field, nothing written', () => {
  it('covers every domain with body, path and identifier cases, and query and .r somewhere', () => {
    const domains = new Set(CASES.map((c) => c.domain));
    expect([...domains].sort()).toEqual(['catalog V1', 'catalog V3', 'collections', 'data', 'events', 'identity', 'inventory', 'members', 'redirects']);
    expect(new Set(CASES.map((c) => c.where))).toEqual(new Set(['body', 'query', '.r', 'path', 'identifier']));
  });

  it.each(CASES.map((c, i) => [`${c.domain} ${c.where} #${i}`, c] as const))('%s', async (_name, c) => {
    const before = await snapshot();
    const res = await call(t.url, c.path(), c.options());
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { message: 'INVALID_ARGUMENT', details: { validationError: { fieldViolations: [c.expect()] } } },
    });
    expect(await snapshot()).toEqual(before);
  });
});

/** A raw HTTP/1.1 request, for header bytes fetch would refuse to send; answers status line and body. */
async function rawRequest(lines: string[], body = ''): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(t.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      // write, not end: a half-closed socket may be dropped before a slower handler answers.
      socket.write(Buffer.from(`${lines.join('\r\n')}\r\nHost: ${hostname}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, 'latin1'));
    });
    let data = '';
    socket.on('data', (chunk: Buffer) => { data += chunk.toString('utf8'); });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

describe('header-borne identifiers (wix-site-id)', () => {
  it('a C1 control reaching the app is a wire 400 naming the header; NUL and C0 never reach it (the HTTP parser answers 400)', async () => {
    const before = await snapshot();
    const c1 = await rawRequest(['POST /stores/v1/collections HTTP/1.1', `Authorization: ${t.apiKey}`, `wix-site-id: ${t.site.id}\u0085`, 'Content-Type: application/json'], JSON.stringify({ collection: { name: 'Header' } }));
    expect({ status: c1.status, body: JSON.parse(c1.body) }).toEqual({
      status: 400,
      body: { message: 'INVALID_ARGUMENT', details: { validationError: { fieldViolations: [violationOf('wix-site-id', 'IDENT', 'U+0085')] } } },
    });
    for (const bad of [NUL, BEL]) {
      const res = await rawRequest(['POST /stores/v1/collections HTTP/1.1', `Authorization: ${t.apiKey}`, `wix-site-id: ${t.site.id}${bad}`, 'Content-Type: application/json'], JSON.stringify({ collection: { name: 'Header' } }));
      expect(res.status).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    // Control: the same raw request with a clean header is served.
    const clean = await rawRequest(['GET /stores-reader/v1/collections/query HTTP/1.1', `Authorization: ${t.apiKey}`, `wix-site-id: ${t.site.id}`]);
    expect(clean.status, clean.body.slice(0, 300)).toBe(200);
  });
});

describe('clean Unicode is accepted and stored exactly', () => {
  // Emoji (paired surrogates, with ZWJ and skin tone), CJK, combining marks (NFD "é"), a symbol outside the BMP.
  const FANCY = 'Café ☕ 😀 👩🏽‍💻 東京 e\u0301 𝄞 한국어';
  /** JSON with every non-ASCII character as a \u escape (surrogates in pairs), as some clients send it. */
  const escapedJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

  it('catalog V1 and V3 names, raw and \\u-escaped', async () => {
    const v1 = await call(t.url, '/stores/v1/products', { ...owner(), body: { product: { name: FANCY, productType: 'physical', priceData: { price: 3 }, description: `<p>${FANCY}</p>\n<p>tab\there</p>` } } });
    expect(v1.status).toBe(200);
    const read = await call(t.url, `/stores-reader/v1/products/${v1.body.product.id}`, vis());
    expect([read.body.product.name, read.body.product.description]).toEqual([FANCY, `<p>${FANCY}</p>\n<p>tab\there</p>`]);
    const v3 = await call(t.url, '/stores/v3/products', {
      ...owner(),
      headers: { 'content-type': 'application/json' },
      rawBody: escapedJson({ product: { name: `${FANCY} V3`, productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } } }),
    });
    expect(v3.status).toBe(200);
    const got = await call(t.url, `/stores/v3/products/${v3.body.product.id}`, vis());
    expect(got.body.product.name).toBe(`${FANCY} V3`);
    // Filtering by the same text finds it (the .r path decodes the same way).
    const found = await call(t.url, '/stores/v3/products/query', vis({ dotR: { query: { filter: { name: `${FANCY} V3` } } } }));
    expect(found.body.products.map((p: { id: string }) => p.id)).toEqual([v3.body.product.id]);
  });

  it('data items, member nicknames, webhook descriptions and registration e-mails', async () => {
    const item = await call(t.url, '/wix-data/v2/items', vis({ body: { dataCollectionId: COLLECTION, dataItem: { data: { title: FANCY, [`名前`]: `line 1\nline 2\t${FANCY}` } } } }));
    expect(item.status).toBe(200);
    const back = await call(t.url, `/wix-data/v2/items/${item.body.dataItem.id}`, vis({ query: { dataCollectionId: COLLECTION } }));
    expect([back.body.dataItem.data.title, back.body.dataItem.data['名前']]).toEqual([FANCY, `line 1\nline 2\t${FANCY}`]);
    const byFilter = await call(t.url, '/wix-data/v2/items/query', vis({ body: { dataCollectionId: COLLECTION, query: { filter: { title: FANCY } } } }));
    expect(byFilter.body.dataItems.map((i: { id: string }) => i.id)).toEqual([item.body.dataItem.id]);

    const nick = await call(t.url, `/members/v1/members/${member.id}`, { method: 'PATCH', auth: member.token, body: { member: { profile: { nickname: FANCY } } } });
    expect(nick.status).toBe(200);
    expect((await call(t.url, '/members/v1/members/my', { auth: member.token })).body.member.profile.nickname).toBe(FANCY);

    const hook = await call(t.url, '/webhooks/v1/subscriptions', { ...owner(), body: webhook({ description: FANCY }) });
    expect(hook.status).toBe(200);
    expect((await call(t.url, `/webhooks/v1/subscriptions/${hook.body.subscription.id}`, owner())).body.subscription.description).toBe(FANCY);

    // An internationalised local part is not an identifier problem (only controls, bidi and invisibles are).
    const email = uniqueEmail('ünï');
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', vis({ body: { loginId: { email }, password: STRONG_PASSWORD } }));
    expect({ status: reg.status, email: reg.body.identity?.email?.address }).toEqual({ status: 200, email });
  });
});
