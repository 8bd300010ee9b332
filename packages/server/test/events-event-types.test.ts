import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { EMITTED_EVENT_TYPES } from '../src/domains/events/event-types.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t.close());

describe('GET /webhooks/v1/event-types', () => {
  it('lists the event types with descriptions', async () => {
    const res = await call(t.url, '/webhooks/v1/event-types', asOwner(t));
    expect(res.status).toBe(200);
    expect(res.body.eventTypes).toEqual(EMITTED_EVENT_TYPES);
    expect(res.body.eventTypes).toContainEqual({ entityFqdn: 'wix.members.v1.member', slug: 'created', description: 'Member created' });
    const keys = res.body.eventTypes.map((e: { entityFqdn: string; slug: string }) => `${e.entityFqdn}/${e.slug}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('holds every event type the server records in common owner work', async () => {
    const owner = asOwner(t);
    const product = await call(t.url, '/stores/v1/products', { ...owner, body: { product: { name: 'Listed', productType: 'physical', priceData: { price: 5 } } } });
    expect(product.status).toBe(200);
    expect((await call(t.url, `/stores/v1/products/${product.body.product.id}`, { ...owner, method: 'PATCH', body: { product: { name: 'Listed 2' } } })).status).toBe(200);
    expect((await call(t.url, `/stores/v1/products/${product.body.product.id}`, { ...owner, method: 'DELETE' })).status).toBe(200);
    const collection = await call(t.url, '/stores/v1/collections', { ...owner, body: { collection: { name: 'Listed' } } });
    expect(collection.status).toBe(200);
    const member = await call(t.url, '/members/v1/members', { ...owner, body: { member: { loginEmail: 'listed@example.test' } } });
    expect(member.status).toBe(200);
    const recorded = await t.server.deps.storage.db.selectFrom('outbox_events').select(['entity_fqdn', 'slug']).distinct().where('site_id', '=', t.site.id).execute();
    expect(recorded.length).toBeGreaterThanOrEqual(5);
    const listed = new Set(EMITTED_EVENT_TYPES.map((e) => `${e.entityFqdn}/${e.slug}`));
    expect(recorded.map((r) => `${r.entity_fqdn}/${r.slug}`).filter((k) => !listed.has(k))).toEqual([]);
  });
});
