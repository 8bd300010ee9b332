import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type ApiResponse, type TestServer } from './harness.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey, createOAuthClient, issueTokenPair } from '../src/domains/identity/service.js';
import { ok, ownerAuth, type Auth } from './data-support.js';
import { memberToken, ownerCreateMember, serviceContext } from './member-tokens.js';
import { FAST_EVENTS, Receiver, SLOW_START_MS, waitFor } from './events-support.js';

/**
 * SECURITY.md 8.4.1: a key or token of site B reaches nothing of site A, in every domain. Site A is the
 * demo site; site B is made with the services. Other tests cover the catalog V1 reads (sites.test.ts),
 * members (members-isolation.test.ts) and subscription get/list (events-subscriptions.test.ts); this
 * file covers data items, catalog V3, inventory, webhook deliveries and mailbox, and tokens of B.
 */

let t: TestServer;
let receiver: Receiver;
let ownerA: Auth;
let ownerB: Auth;
let visitorB: string;
let memberB: string;
let clientB: string;
let subscriptionA: string;
let deliveryA: string;
let productV3A: { id: string; revision: string };

beforeAll(async () => {
  t = await startTestServer({ smtpUrl: undefined, events: FAST_EVENTS });
  receiver = await new Receiver(() => 200).start();
  const db = t.server.deps.storage.db;
  const site = await createSite(db, { slug: 'site-b', name: 'Site B' });
  const client = await createOAuthClient(db, { siteId: site.id, name: 'b storefront' });
  clientB = client.id;
  ownerA = ownerAuth(t);
  ownerB = { auth: (await createApiKey(db, { siteId: site.id, name: 'b owner' })).apiKey, siteId: site.id };
  visitorB = (await call(t.url, '/oauth2/token', { body: { clientId: client.id, grantType: 'anonymous' } })).body.access_token;
  const memberOfB = await call(t.url, '/members/v1/members', { ...ownerB, body: { member: { loginEmail: 'b@site-b.test' } } });
  memberB = (await issueTokenPair(serviceContext(t), { siteId: site.id, clientId: client.id, role: 'member', subjectId: memberOfB.body.member.id })).access_token;

  // Site A: a data collection with items, a V3 product, a webhook with a delivery, a mail.
  await ok(t, ownerA, '/collections', { collection: { id: 'secrets', permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' },
    fields: [{ key: 'text', type: 'TEXT' }, { key: 'ref', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'secrets' } } }] } });
  await ok(t, ownerA, '/items', { dataCollectionId: 'secrets', dataItem: { id: 's1', data: { text: 'site A secret' } } });
  await ok(t, ownerA, '/items', { dataCollectionId: 'secrets', dataItem: { id: 's2', data: { text: 'other', ref: 's1' } } });
  const p = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: { name: 'A only', productType: 'DIGITAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '5' } } }] } } } });
  productV3A = { id: p.body.product.id, revision: p.body.product.revision };
  const sub = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: '*', slug: '*' }] } } });
  subscriptionA = sub.body.subscription.id;
  receiver.secret = sub.body.secret;
  await ownerCreateMember(t, { loginEmail: 'welcome@site-a.test' });
  await waitFor(async () => (await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}/deliveries`, asOwner(t))).body.deliveries?.length > 0, 15_000, 'a delivery');
  deliveryA = (await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}/deliveries`, asOwner(t))).body.deliveries[0].id;
  await waitFor(async () => (await call(t.url, '/notifications/v1/mails', asOwner(t))).body.mails?.length > 0, 15_000, 'a mail');
}, SLOW_START_MS);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const code = (res: ApiResponse) => res.body?.details?.applicationError?.code as string | undefined;
/** A domain's own 404 (never the router's NOT_FOUND, which would mean the test hit no route). */
function expectHidden(res: ApiResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(code(res)).toBeDefined();
  expect(code(res)).not.toBe('NOT_FOUND');
}
const data = (auth: Auth, path: string, body: unknown, method = 'POST') => call(t.url, `/wix-data/v2${path}`, { ...auth, method, body });

describe('site B reaches nothing of site A (8.4.1)', () => {
  it('data items: collections, items, queries, bulk, references and writes', async () => {
    for (const who of [ownerB, { auth: visitorB }, { auth: memberB }]) {
      const get = await call(t.url, '/wix-data/v2/items/s1', { ...who, query: { dataCollectionId: 'secrets' } });
      expect(get.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(get.body)).not.toContain('site A secret');
      const q = await data(who, '/items/query', { dataCollectionId: 'secrets', query: {} });
      expect(JSON.stringify(q.body)).not.toContain('site A secret');
      expectHidden(q);
    }
    expectHidden(await call(t.url, '/wix-data/v2/collections/secrets', ownerB));
    const list = await call(t.url, '/wix-data/v2/collections', ownerB);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('secrets');
    expectHidden(await data(ownerB, '/bulk/items/update', { dataCollectionId: 'secrets', dataItems: [{ id: 's1', data: { text: 'bulk hijack' } }] }));
    expectHidden(await data(ownerB, '/bulk/items/save', { dataCollectionId: 'secrets', dataItems: [{ id: 's1', data: { text: 'bulk hijack' } }] }));
    expectHidden(await data(ownerB, '/items/is-referenced', { dataCollectionId: 'secrets', referringItemFieldName: 'ref', referringItemId: 's2', referencedItemId: 's1' }));
    expectHidden(await data(ownerB, '/items/query-referenced', { dataCollectionId: 'secrets', referringItemFieldName: 'ref', referringItemId: 's2' }));
    expectHidden(await data(ownerB, '/items/update', { dataCollectionId: 'secrets', dataItem: { id: 's1', data: { text: 'hijacked' } } }));
    expectHidden(await data(ownerB, '/items/remove', { dataCollectionId: 'secrets', dataItemId: 's1' }));
    expectHidden(await data(ownerB, '/items/truncate', { dataCollectionId: 'secrets' }));
    expectHidden(await data(ownerB, '/bulk/items/remove', { dataCollectionId: 'secrets', dataItemIds: ['s1', 's2'] }));
    // B making its own collection with the same id gets its own, empty namespace.
    await ok(t, ownerB, '/collections', { collection: { id: 'secrets', permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } });
    expect((await ok(t, ownerB, '/items/query', { dataCollectionId: 'secrets', query: {} })).dataItems).toEqual([]);
    expectHidden(await call(t.url, '/wix-data/v2/items/s1', { ...ownerB, query: { dataCollectionId: 'secrets' } }));
    const saved = await ok(t, ownerB, '/items/save', { dataCollectionId: 'secrets', dataItem: { id: 's1', data: { text: 'B text' } } });
    expect(saved.dataItem.data.text).toBe('B text');
    // A's item is untouched by all of the above.
    const a = await call(t.url, '/wix-data/v2/items/s1', { ...ownerA, query: { dataCollectionId: 'secrets' } });
    expect(a.body.dataItem.data.text).toBe('site A secret');
    expect((await ok(t, ownerA, '/items/count', { dataCollectionId: 'secrets' })).totalCount).toBe(2);
  });

  it('catalog V3 and inventory: B reads nothing of A and changes nothing', async () => {
    const get = await call(t.url, `/stores/v3/products/${productV3A.id}`, { auth: visitorB });
    expectHidden(get);
    const q = await call(t.url, '/stores/v3/products/query', { auth: visitorB, body: { query: {} } });
    expect(q.body.products).toEqual([]);
    const patch = await call(t.url, `/stores/v3/products/${productV3A.id}`, { ...ownerB, method: 'PATCH', body: { product: { revision: productV3A.revision, name: 'stolen' } } });
    expectHidden(patch);
    const del = await call(t.url, `/stores/v3/products/${productV3A.id}`, { ...ownerB, method: 'DELETE' });
    expectHidden(del);
    const inv = await call(t.url, '/stores-reader/v2/inventoryItems/query', { auth: visitorB, body: { query: {} } });
    expect(JSON.stringify(inv.body)).not.toContain(productV3A.id);
    const still = await call(t.url, `/stores/v3/products/${productV3A.id}`, { auth: (await visitorTokens(t)).accessToken });
    expect(still.body.product).toMatchObject({ name: 'A only', revision: productV3A.revision });
  });

  it('webhooks: B cannot list, read, redeliver or change A\'s subscription or its deliveries', async () => {
    expectHidden(await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}/deliveries`, ownerB));
    expectHidden(await call(t.url, `/webhooks/v1/deliveries/${deliveryA}`, ownerB));
    expectHidden(await call(t.url, `/webhooks/v1/deliveries/${deliveryA}/redeliver`, { ...ownerB, body: {} }));
    expectHidden(await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}`, { ...ownerB, method: 'PATCH', body: { subscription: { url: 'https://attacker.example/hook' } } }));
    expectHidden(await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}/rotate-secret`, { ...ownerB, body: {} }));
    expectHidden(await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}`, { ...ownerB, method: 'DELETE' }));
    const mine = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionA}`, asOwner(t));
    expect(mine.body.subscription).toMatchObject({ id: subscriptionA, url: receiver.url, status: 'ACTIVE' });
    const delivery = await call(t.url, `/webhooks/v1/deliveries/${deliveryA}`, asOwner(t));
    expect(delivery.status).toBe(200);
  });

  it('mailbox: B sees none of A\'s mails', async () => {
    const a = await call(t.url, '/notifications/v1/mails', asOwner(t));
    expect(a.body.mails.length).toBeGreaterThan(0);
    const b = await call(t.url, '/notifications/v1/mails', ownerB);
    expect(b.status).toBe(200);
    expect(JSON.stringify(b.body)).not.toContain('welcome@site-a.test');
    expect(b.body.mails.every((m: { to: string }) => m.to !== 'welcome@site-a.test')).toBe(true);
  });

  it('tokens of B: a member token of B is not a member of A; B\'s refresh token does not work with A\'s client and vice versa', async () => {
    const me = await call(t.url, '/members/v1/members/my', { auth: memberB, siteId: t.site.id });
    expect({ status: me.status, code: code(me) }).toEqual({ status: 403, code: 'SITE_MISMATCH' });
    const aMembers = await call(t.url, '/members/v1/members/query', { auth: memberB, body: { query: {} } });
    expect(JSON.stringify(aMembers.body)).not.toContain('site-a.test');
    const refreshB = (await call(t.url, '/oauth2/token', { body: { clientId: clientB, grantType: 'anonymous' } })).body.refresh_token;
    const cross = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: refreshB } });
    expect({ status: cross.status, code: code(cross) }).toEqual({ status: 400, code: 'INVALID_GRANT' });
    const refreshA = (await visitorTokens(t)).refreshToken;
    const back = await call(t.url, '/oauth2/token', { body: { clientId: clientB, grantType: 'refresh_token', refreshToken: refreshA } });
    expect({ status: back.status, code: code(back) }).toEqual({ status: 400, code: 'INVALID_GRANT' });
    // authorized_client with B's key cannot mint tokens for A's member.
    const memberA = await ownerCreateMember(t, { loginEmail: 'ext@site-a.test' });
    const ext = await call(t.url, '/oauth2/token', { auth: ownerB.auth, body: { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberA.id, clientId: clientB } });
    expect(ext.status).toBeGreaterThanOrEqual(400);
    expect(ext.body.access_token).toBeUndefined();
    const extA = await call(t.url, '/oauth2/token', { auth: ownerB.auth, body: { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberA.id, clientId: t.clientId } });
    expect(extA.status).toBeGreaterThanOrEqual(400);
    expect(extA.body.access_token).toBeUndefined();
    // A member token of A works for A (control).
    expect((await call(t.url, '/members/v1/members/my', { auth: await memberToken(t, memberA.id) })).status).toBe(200);
  });
});
