import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createSite, updateSite } from '../src/domains/sites/service.js';
import { createApiKey, createOAuthClient } from '../src/domains/identity/service.js';

let t: TestServer;
let other: { siteId: string; apiKey: string; clientId: string };

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.deps.storage.db;
  const site = await createSite(db, { slug: 'other-shop', name: 'Other shop' });
  const client = await createOAuthClient(db, { siteId: site.id, name: 'other storefront' });
  const { apiKey } = await createApiKey(db, { siteId: site.id, name: 'other owner' });
  other = { siteId: site.id, apiKey, clientId: client.id };
});
afterAll(() => t?.close());

const QUERY = '/stores-reader/v1/products/query-platformized';

describe('site isolation', () => {
  it("a visitor of another site sees none of the demo site's products", async () => {
    const res = await call(t.url, '/oauth2/token', { body: { clientId: other.clientId, grantType: 'anonymous' } });
    const token = res.body.access_token as string;
    const list = await call(t.url, QUERY, { auth: token, body: {} });
    expect(list.status).toBe(200);
    expect(list.body.metadata.total).toBe(0);
    const demo = await call(t.url, QUERY, { ...{ auth: (await visitorTokens(t)).accessToken }, body: { query: { paging: { limit: 1 } } } });
    const demoProductId = demo.body.products[0].id;
    const cross = await call(t.url, `/stores-reader/v1/products/${demoProductId}`, { auth: token });
    expect(cross.status).toBe(404);
  });

  it("another site's owner key reaches nothing of the demo site", async () => {
    const asDemo = await call(t.url, QUERY, { auth: other.apiKey, siteId: t.site.id, body: {} });
    expect(asDemo.status).toBe(403);
    expect(asDemo.body.details.applicationError.code).toBe('SITE_MISMATCH');
    const own = await call(t.url, QUERY, { auth: other.apiKey, siteId: other.siteId, body: {} });
    expect(own.status).toBe(200);
    expect(own.body.metadata.total).toBe(0);
    const created = await call(t.url, '/stores/v1/products', { auth: other.apiKey, siteId: other.siteId, body: { product: { name: 'Other thing', priceData: { price: 3 } } } });
    expect(created.status).toBe(200);
    const demoVisitor = (await visitorTokens(t)).accessToken;
    const seen = await call(t.url, QUERY, { auth: demoVisitor, body: { query: { filter: { name: 'Other thing' } } } });
    expect(seen.body.metadata.total).toBe(0);
  });

  it("a demo visitor token cannot be pointed at another site", async () => {
    const demoVisitor = (await visitorTokens(t)).accessToken;
    const res = await call(t.url, QUERY, { auth: demoVisitor, siteId: other.siteId, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.details.applicationError.code).toBe('SITE_MISMATCH');
  });
});

describe('site status', () => {
  it('refuses every call of a disabled site, and serves it again once enabled', async () => {
    const db = t.server.deps.storage.db;
    const site = await createSite(db, { slug: 'soon-closed', name: 'Soon closed' });
    const client = await createOAuthClient(db, { siteId: site.id, name: 'sf' });
    const { apiKey } = await createApiKey(db, { siteId: site.id, name: 'owner' });
    const token = (await call(t.url, '/oauth2/token', { body: { clientId: client.id, grantType: 'anonymous' } })).body.access_token;

    await updateSite(db, site.id, { status: 'DISABLED' });
    const grant = await call(t.url, '/oauth2/token', { body: { clientId: client.id, grantType: 'anonymous' } });
    expect(grant.status).toBe(403);
    expect(grant.body.details.applicationError.code).toBe('SITE_DISABLED');
    for (const auth of [token, apiKey]) {
      const res = await call(t.url, QUERY, { auth, siteId: site.id, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.details.applicationError.code).toBe('SITE_DISABLED');
    }

    await updateSite(db, site.id, { status: 'ENABLED' });
    const again = await call(t.url, QUERY, { auth: token, body: {} });
    expect(again.status).toBe(200);
  });
});
