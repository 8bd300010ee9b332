import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { ownerCreateMember, serviceContext } from './member-tokens.js';
import { createMemberFromIdentity, getMember } from '../src/domains/members/service.js';
import { inTransaction } from '../src/storage/transaction.js';

/** Races: concurrent requests end in one winner and clean 409s, never a 500 or a lost update. */
let t: TestServer;
const M = '/members/v1/members';
const N = 8;

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('concurrent writes', () => {
  it('one of many members gets a contested slug; the others get SLUG_ALREADY_EXISTS', async () => {
    const ms = await Promise.all(Array.from({ length: N }, (_, i) => ownerCreateMember(t, { loginEmail: `race${i}@slug.test` })));
    const results = await Promise.all(ms.map((m) => call(t.url, `${M}/${m.id}/slug`, { ...asOwner(t), body: { slug: 'the-one' } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array.from({ length: N - 1 }, () => 409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.details.applicationError.code).toBe('SLUG_ALREADY_EXISTS');
  });

  it('concurrent approvals of one pending member: exactly one succeeds', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'race@approve.test', status: 'PENDING' });
    const results = await Promise.all(Array.from({ length: N }, () => call(t.url, `${M}/${m.id}/approve`, { ...asOwner(t), body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array.from({ length: N - 1 }, () => 409)]);
    const events = await t.server.deps.storage.db.selectFrom('outbox_events').select('slug').where('entity_id', '=', m.id).execute();
    expect(events.map((e) => e.slug).sort()).toEqual(['created', 'updated']);
  });

  it('registrations with the same nickname at once all get distinct slugs', async () => {
    const ctx = serviceContext(t);
    const ids = Array.from({ length: N }, () => randomUUID());
    await Promise.all(ids.map((id, i) => inTransaction(ctx.db, (trx) => createMemberFromIdentity({ ...ctx, db: trx }, { id, loginEmail: `nick${i}@race.test`, status: 'APPROVED', profile: { nickname: 'Same Name' } }))));
    const slugs = await Promise.all(ids.map(async (id) => (await getMember(ctx, id)).profile.slug));
    expect(new Set(slugs).size).toBe(N);
    // A derived slug is the base, base-N, or (when a concurrent insert took it) that slug plus a random suffix.
    expect(slugs.filter((s) => !/^same-name(-\d+)?(-[0-9a-f]{8})?$/.test(s!))).toEqual([]);
  });
});
