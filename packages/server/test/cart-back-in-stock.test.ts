/**
 * Back-in-stock notification requests over HTTP: shoppers ask, stock returning (0 -> 5 through the
 * catalog's inventory API) mails each waiting request exactly once through the real mail outbox to a
 * real SMTP receiver, and the owner API reads, counts, marks, reports and deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

const STORES_APP = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const BASE = '/back-in-stock-service/v1/back-in-stock-notification-requests';

let t: TestServer;
let mail: Mailbox;
let visitor: string;
let member: string;

beforeAll(async () => {
  // Addresses starting with "bounce" do not exist: a permanent refusal.
  mail = await startMailbox({ refuseRecipient: (address) => (address.startsWith('bounce') ? 550 : undefined) });
  t = await startTestServer({ smtpUrl: mail.url, backInStock: { settleEveryMs: 100 } });
  visitor = (await visitorTokens(t)).accessToken;
  member = (await memberWithToken(t, { loginEmail: 'bis-member@example.com' })).token;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const owner = () => asOwner(t);
const db = () => t.server.deps.storage.db;
const mailsTo = (to: string) => mail.to(to);
const rowsOf = (productId: string) => db().selectFrom('back_in_stock_requests').select(['id', 'email', 'status']).where('catalog_item_id', '=', productId).orderBy('email').execute();

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A V1 product tracking stock, out of stock; answers its id and its (default) variant's id. */
async function soldOutProduct(name: string): Promise<{ productId: string; variantId: string }> {
  const res = await call(t.url, '/stores/v1/products', { ...owner(), body: { product: { name, priceData: { price: 12 }, stock: { trackInventory: true, quantity: 0 } } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variants[0].id };
}

const setStock = (p: { productId: string; variantId: string }, quantity: number) => call(t.url, `/stores/v2/inventoryItems/product/${p.productId}`, {
  method: 'PATCH', ...owner(), body: { inventoryItem: { trackQuantity: true, variants: [{ variantId: p.variantId, quantity }] } },
});

function ask(auth: string | undefined, p: { productId: string; variantId: string }, email: string, extra: Record<string, unknown> = {}) {
  return call(t.url, BASE, {
    ...(auth ? { auth } : owner()),
    body: { request: { catalogReference: { catalogItemId: p.productId, appId: STORES_APP, options: { variantId: p.variantId } }, email, ...extra }, itemDetails: { name: 'Blue Kettle', price: '$12.00' } },
  });
}

describe('back-in-stock: asking', () => {
  it('creates one open request per e-mail and item; asking again looks the same and stores nothing', async () => {
    const p = await soldOutProduct('Ask Kettle');
    const first = await ask(visitor, p, 'Ann@Example.com', { itemUrl: '/product-page/ask-kettle' });
    expect(first.status).toBe(200);
    expect(first.body.request).toEqual({
      id: expect.any(String), catalogReference: { catalogItemId: p.productId, appId: STORES_APP, options: { variantId: p.variantId } },
      email: 'ann@example.com', contactId: null, status: 'RECEIVED', autoNotified: true, createdDate: expect.any(String),
      itemUrl: `${t.url}/product-page/ask-kettle`,
    });
    // Someone else (a member) asks with the same address: an answer of the same shape, nothing stored.
    const again = await ask(member, p, 'ann@example.com', { itemUrl: '/product-page/ask-kettle' });
    expect(again.status).toBe(200);
    expect(Object.keys(again.body.request).sort()).toEqual(Object.keys(first.body.request).sort());
    expect({ ...again.body.request, id: 'x', createdDate: 'x' }).toEqual({ ...first.body.request, id: 'x', createdDate: 'x' });
    expect(again.body.request.id).not.toBe(first.body.request.id);
    expect((await call(t.url, `${BASE}/${again.body.request.id}`, owner())).status).toBe(404);
    expect(await rowsOf(p.productId)).toEqual([{ id: first.body.request.id, email: 'ann@example.com', status: 'RECEIVED' }]);
    const events = await db().selectFrom('outbox_events').select(['slug', 'entity_fqdn']).where('entity_id', '=', first.body.request.id).execute();
    expect(events).toEqual([{ slug: 'created', entity_fqdn: 'wix.ecom.v1.back_in_stock_notification_request' }]);
  });

  it('refuses bad input with 400s and stores nothing', async () => {
    const p = await soldOutProduct('Bad Input Kettle');
    const badEmail = await ask(visitor, p, 'ann@example.com, eve@example.com');
    expect([badEmail.status, badEmail.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'request.email']);
    const elsewhere = await ask(visitor, p, 'ann@example.com', { itemUrl: 'https://phish.example/kettle' });
    expect([elsewhere.status, elsewhere.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'request.itemUrl']);
    const noDetails = await call(t.url, BASE, { auth: visitor, body: { request: { catalogReference: { catalogItemId: p.productId, appId: STORES_APP }, email: 'a@example.com' } } });
    expect([noDetails.status, noDetails.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'itemDetails']);
    const longName = await call(t.url, BASE, { auth: visitor, body: { request: { catalogReference: { catalogItemId: p.productId, appId: STORES_APP }, email: 'a@example.com' }, itemDetails: { name: 'x'.repeat(201) } } });
    expect([longName.status, longName.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'itemDetails.name']);
    const report = await call(t.url, `${BASE}/report-items-back-in-stock`, { ...owner(), body: { itemDetails: {} } });
    expect([report.status, report.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'catalogReference']);
    expect(await rowsOf(p.productId)).toEqual([]);
  });

  it('is owner-only except asking', async () => {
    for (const auth of [visitor, member]) {
      expect((await call(t.url, BASE, { auth, query: { 'query.paging.limit': '1' } })).status).toBe(403);
      expect((await call(t.url, `${BASE}/${randomUUID()}`, { auth })).status).toBe(403);
      expect((await call(t.url, `${BASE}/${randomUUID()}/mark-as-notification-sent`, { auth, method: 'PUT', body: {} })).status).toBe(403);
    }
    expect((await call(t.url, BASE, { body: {} })).status).toBe(401);
  });
});

describe('back-in-stock: stock returns', () => {
  it('mails each waiting request exactly once when stock goes 0 -> 5, and never again on later changes', async () => {
    const kettle = await soldOutProduct('Blue Kettle');
    const other = await soldOutProduct('Red Kettle');
    expect((await ask(visitor, kettle, 'kim@example.com', { itemUrl: '/product-page/blue-kettle' })).status).toBe(200);
    expect((await ask(member, kettle, 'lee@example.com')).status).toBe(200);
    expect((await ask(visitor, other, 'kim@example.com')).status).toBe(200);

    expect((await setStock(kettle, 5)).status).toBe(200);
    const rows = await until('both requests settled', () => rowsOf(kettle.productId), (r) => r.every((x) => x.status === 'NOTIFICATION_SENT'));
    expect(rows.map((r) => r.status)).toEqual(['NOTIFICATION_SENT', 'NOTIFICATION_SENT']);
    const kim = mailsTo('kim@example.com');
    expect(kim.map((m) => m.subject)).toEqual(['Back in stock: Blue Kettle']);
    expect(kim[0]!.raw).toContain(`${t.url}/product-page/blue-kettle`);
    expect(kim[0]!.raw).toContain('$12.00');
    expect(mailsTo('lee@example.com').map((m) => m.subject)).toEqual(['Back in stock: Blue Kettle']);
    expect(mailsTo('lee@example.com')[0]!.raw).toContain(`${t.url}/`);

    // Later stock changes (down, up, sold out and back) mail nobody again; the other item still waits.
    expect((await setStock(kettle, 4)).status).toBe(200);
    expect((await setStock(kettle, 9)).status).toBe(200);
    expect((await setStock(kettle, 0)).status).toBe(200);
    expect((await setStock(kettle, 3)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(mailsTo('kim@example.com')).toHaveLength(1);
    expect(mailsTo('lee@example.com')).toHaveLength(1);
    expect(await rowsOf(other.productId)).toEqual([{ id: expect.any(String), email: 'kim@example.com', status: 'RECEIVED' }]);

    const id = rows[0]!.id;
    const slugs = (await db().selectFrom('outbox_events').select('slug').where('entity_id', '=', id).orderBy('sequence').execute()).map((e) => e.slug);
    expect(slugs).toEqual(['created', 'updated', 'updated']);

    // Settled, the same person may ask again for the next time it runs out.
    expect((await setStock(kettle, 0)).status).toBe(200);
    expect((await ask(visitor, kettle, 'kim@example.com')).status).toBe(200);
    expect((await rowsOf(kettle.productId)).map((r) => r.status).sort()).toEqual(['NOTIFICATION_SENT', 'NOTIFICATION_SENT', 'RECEIVED']);
  });

  it('the owner reports items back: waiting requests are mailed; a refused address ends FAILED', async () => {
    const p = await soldOutProduct('Report Kettle');
    const ok = (await ask(visitor, p, 'rae@example.com')).body.request.id as string;
    const bounce = (await ask(visitor, p, 'bounce@example.com')).body.request.id as string;
    const report = await call(t.url, `${BASE}/report-items-back-in-stock`, {
      ...owner(), body: { catalogReference: { catalogItemId: p.productId, appId: STORES_APP }, itemDetails: { name: 'Report Kettle, now back', price: '9.99' } },
    });
    expect([report.status, report.body]).toEqual([200, {}]);
    const get = (id: string) => call(t.url, `${BASE}/${id}`, owner()).then((r) => r.body.request.status as string);
    await until('settled', async () => [await get(ok), await get(bounce)], (s) => s.every((x) => x === 'NOTIFICATION_SENT' || x === 'FAILED'));
    expect([await get(ok), await get(bounce)]).toEqual(['NOTIFICATION_SENT', 'FAILED']);
    expect(mailsTo('rae@example.com').map((m) => m.subject)).toEqual(['Back in stock: Report Kettle, now back']);
    expect(mailsTo('bounce@example.com')).toEqual([]);
  });
});

describe('back-in-stock: owner API', () => {
  let p: { productId: string; variantId: string };
  let ids: string[];
  beforeAll(async () => {
    p = await soldOutProduct('Owner Kettle');
    ids = [];
    for (const email of ['o1@example.com', 'o2@example.com', 'o3@example.com']) ids.push((await ask(undefined, p, email)).body.request.id);
  });

  it('queries with filters, sort and paging (offset and cursor)', async () => {
    const q = (query: unknown) => call(t.url, BASE, { ...owner(), dotR: { query } });
    const page = await q({ filter: { 'catalogReference.catalogItemId': p.productId }, sort: [{ fieldName: 'email', order: 'DESC' }], paging: { limit: 2, offset: 0 } });
    expect(page.status).toBe(200);
    expect(page.body.requests.map((r: { email: string }) => r.email)).toEqual(['o3@example.com', 'o2@example.com']);
    expect(page.body.metadata).toEqual({ count: 2, offset: 0, total: 3, tooManyToCount: false });
    const first = await q({ filter: { 'catalogReference.catalogItemId': p.productId, status: 'RECEIVED' }, sort: [{ fieldName: 'email' }], cursorPaging: { limit: 2 } });
    expect(first.body.requests.map((r: { email: string }) => r.email)).toEqual(['o1@example.com', 'o2@example.com']);
    const next = await q({ cursorPaging: { cursor: first.body.metadata.cursors.next } });
    expect(next.body.requests.map((r: { email: string }) => r.email)).toEqual(['o3@example.com']);
    expect(next.body.metadata.cursors.next).toBeNull();
    const bad = await q({ filter: { itemName: 'x' } });
    expect([bad.status, bad.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'query.filter.itemName']);
  });

  it('counts waiting requests per catalog reference, marks one sent, and deletes one', async () => {
    const refs = [{ catalogItemId: p.productId, appId: STORES_APP }, { catalogItemId: p.productId, appId: STORES_APP, options: { variantId: p.variantId } }, { catalogItemId: randomUUID(), appId: STORES_APP }];
    const count = () => call(t.url, `${BASE}/count-by-catalog-reference`, { ...owner(), dotR: { catalogReferences: refs } });
    const before = await count();
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ countsPerCatalogReference: [{ catalogReference: refs[0], count: 3 }, { catalogReference: refs[1], count: 3 }, { catalogReference: refs[2], count: 0 }] });

    const marked = await call(t.url, `${BASE}/${ids[0]}/mark-as-notification-sent`, { ...owner(), method: 'PUT', body: {} });
    expect([marked.status, marked.body.request.status]).toEqual([200, 'NOTIFICATION_SENT']);
    const deleted = await call(t.url, `${BASE}/${ids[1]}`, { ...owner(), method: 'DELETE' });
    expect([deleted.status, deleted.body]).toEqual([200, {}]);
    const gone = await call(t.url, `${BASE}/${ids[1]}`, owner());
    expect([gone.status, gone.body.details.applicationError.code]).toEqual([404, 'BACK_IN_STOCK_REQUEST_NOT_FOUND']);
    expect((await count()).body.countsPerCatalogReference.map((c: { count: number }) => c.count)).toEqual([1, 1, 0]);
    const slugs = (await db().selectFrom('outbox_events').select('slug').where('entity_id', '=', ids[1]!).orderBy('sequence').execute()).map((e) => e.slug);
    expect(slugs).toEqual(['created', 'deleted']);
    // Marked by hand, the request is not mailed when the item comes back.
    expect((await setStock(p, 2)).status).toBe(200);
    await until('o3 mailed', async () => mailsTo('o3@example.com').length, (n) => n === 1);
    expect(mailsTo('o1@example.com')).toEqual([]);
  });

  it('an owner of another site sees, counts and changes none of this site\'s requests', async () => {
    const site = await createSite(db(), { slug: 'bis-other', name: 'Other' });
    const other = { auth: (await createApiKey(db(), { siteId: site.id, name: 'other owner' })).apiKey, siteId: site.id };
    const id = ids[2]!;
    for (const [path, method] of [[`${BASE}/${id}`, 'GET'], [`${BASE}/${id}`, 'DELETE'], [`${BASE}/${id}/mark-as-notification-sent`, 'PUT']] as const) {
      const res = await call(t.url, path, { ...other, method, ...(method === 'PUT' ? { body: {} } : {}) });
      expect([res.status, res.body.details.applicationError.code]).toEqual([404, 'BACK_IN_STOCK_REQUEST_NOT_FOUND']);
    }
    const listed = await call(t.url, BASE, { ...other, dotR: { query: { filter: { 'catalogReference.catalogItemId': p.productId } } } });
    expect(listed.body.requests).toEqual([]);
    const counted = await call(t.url, `${BASE}/count-by-catalog-reference`, { ...other, dotR: { catalogReferences: [{ catalogItemId: p.productId, appId: STORES_APP }] } });
    expect(counted.body.countsPerCatalogReference[0].count).toBe(0);
    expect((await call(t.url, `${BASE}/${id}`, owner())).status).toBe(200);
  });

  it('bounds how many requests one client address creates per hour (owners are not bounded)', async () => {
    const p2 = await soldOutProduct('Rate Kettle');
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await ask(visitor, p2, `rate${i}@example.com`)).status);
    const firstRefused = statuses.indexOf(429);
    expect(firstRefused).toBeGreaterThan(-1);
    expect(statuses.slice(firstRefused)).toEqual(Array(25 - firstRefused).fill(429));
    const created = (await rowsOf(p2.productId)).length;
    expect(created).toBe(firstRefused);
    expect((await ask(undefined, p2, 'owner-made@example.com')).status).toBe(200);
  });
});
