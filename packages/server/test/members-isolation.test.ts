import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { memberWithToken, ownerCreateMember } from './member-tokens.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

/** Site isolation (ASVS 8.4.1): another site's key or member token reaches no member of this site. */
let t: TestServer;
let otherKey: { auth: string; siteId: string };
const M = '/members/v1/members';

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.deps.storage.db;
  const site = await createSite(db, { slug: 'second-shop', name: 'Second shop' });
  otherKey = { auth: (await createApiKey(db, { siteId: site.id, name: 'second' })).apiKey, siteId: site.id };
});
afterAll(() => t?.close());

describe('members across sites', () => {
  it('the other site\'s owner cannot read, change or delete our members, directly or by filter', async () => {
    const ours = await ownerCreateMember(t, { loginEmail: 'ours@iso.test', status: 'PENDING', privacyStatus: 'PUBLIC' });
    expect((await call(t.url, `${M}/${ours.id}`, otherKey)).status).toBe(404);
    expect((await call(t.url, `${M}/${ours.id}/approve`, { ...otherKey, body: {} })).status).toBe(404);
    expect((await call(t.url, `${M}/${ours.id}`, { method: 'PATCH', ...otherKey, body: { member: { profile: { title: 'x' } } } })).status).toBe(404);
    expect((await call(t.url, `${M}/${ours.id}`, { method: 'DELETE', ...otherKey })).status).toBe(404);
    const bulk = await call(t.url, `${M}/bulk/delete`, { ...otherKey, body: { memberIds: [ours.id] } });
    expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: 0, totalFailures: 1, undetailedFailures: 0 });
    const query = await call(t.url, `${M}/query`, { ...otherKey, body: {} });
    expect(query.body.metadata.total).toBe(0);
    const job = await call(t.url, `${M}/bulk/approve-by-filter`, { ...otherKey, body: { filter: {} } });
    await t.server.jobs.whenIdle();
    const status = await call(t.url, `${M}/bulk/jobs/${job.body.jobId}`, otherKey);
    expect(status.body.job).toMatchObject({ status: 'FINISHED', total: 0 });
    expect((await call(t.url, `${M}/bulk/jobs/${job.body.jobId}`, asOwner(t))).status).toBe(404);
    const still = await call(t.url, `${M}/${ours.id}`, { ...asOwner(t), query: { fieldsets: ['EXTENDED'] } });
    expect(still.body.member.status).toBe('PENDING');
  });

  it('the other site\'s slugs and e-mails are independent', async () => {
    const a = await call(t.url, M, { ...asOwner(t), body: { member: { loginEmail: 'same@iso.test', profile: { slug: 'same-slug' } } } });
    const b = await call(t.url, M, { ...otherKey, body: { member: { loginEmail: 'same@iso.test', profile: { slug: 'same-slug' } } } });
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  it('our member token sent with the other site id is refused', async () => {
    const m = await memberWithToken(t, { loginEmail: 'token@iso.test' });
    const res = await call(t.url, `${M}/my`, { auth: m.token, siteId: otherKey.siteId });
    expect(res.status).toBe(403);
    expect(res.body.details.applicationError.code).toBe('SITE_MISMATCH');
  });
});
