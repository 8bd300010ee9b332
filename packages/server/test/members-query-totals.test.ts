import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, visitor } from './identity-helpers.js';
import { ownerCreateMember } from './member-tokens.js';

/**
 * A member query's total is counted once per version of the site's members (storage/site-versions.ts)
 * and kept per process. Two servers on one database, as two processes: whatever one of them writes,
 * the other one's next total counts it, for every kind of member write and for every filter and
 * caller, each with a total of its own.
 */
let a: TestServer;
let b: TestServer;
const M = '/members/v1/members';
const DOMAIN = '@totals.test';

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ dataDir: a.config.dataDir, databaseSchema: a.config.databaseSchema });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** The total each server answers for `filter` (owner), asked twice each: the second from what it kept. */
async function totals(filter: Record<string, unknown> = {}): Promise<number[]> {
  const out: number[] = [];
  for (const s of [a, b]) {
    for (let i = 0; i < 2; i++) {
      const res = await call(s.url, `${M}/query`, { ...asOwner(s), body: { query: { filter: { loginEmail: { $endsWith: DOMAIN }, ...filter }, paging: { limit: 1 } } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.metadata.tooManyToCount).toBe(false);
      out.push(res.body.metadata.total);
    }
  }
  return out;
}

const owner = (s: TestServer) => asOwner(s);

describe('member query totals', () => {
  it('count each write of another process at once: create, status change, update, delete', async () => {
    expect(await totals()).toEqual([0, 0, 0, 0]);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await ownerCreateMember(a, { loginEmail: `m${i}${DOMAIN}`, profile: { nickname: `Totals ${i}` } }));
    expect(await totals()).toEqual([3, 3, 3, 3]);
    expect(await totals({ status: 'BLOCKED' })).toEqual([0, 0, 0, 0]);

    const blocked = await call(b.url, `${M}/${created[0]!.id}/block`, { ...owner(b), body: {} });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(await totals({ status: 'BLOCKED' })).toEqual([1, 1, 1, 1]);
    expect(await totals()).toEqual([3, 3, 3, 3]);

    const renamed = await call(a.url, `${M}/${created[1]!.id}`, { method: 'PATCH', ...owner(a), body: { member: { contact: { lastName: 'Counted' } } } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await totals({ 'contact.lastName': 'Counted' })).toEqual([1, 1, 1, 1]);

    const deleted = await call(b.url, `${M}/${created[2]!.id}`, { method: 'DELETE', ...owner(b) });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await totals()).toEqual([2, 2, 2, 2]);
  });

  it('keeps a total per caller: a visitor counts public members only, the owner every member', async () => {
    await ownerCreateMember(a, { loginEmail: `public${DOMAIN}`, privacyStatus: 'PUBLIC', profile: { nickname: 'Totals public' } });
    const guest = await visitor(a);
    const visitorTotal = async (s: TestServer) => {
      const res = await call(s.url, `${M}/query`, as(guest, { query: { paging: { limit: 1 } }, search: { expression: 'Totals', fields: ['profile.nickname'] } }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.metadata.total as number;
    };
    const ownerTotal = async (s: TestServer) => {
      const res = await call(s.url, `${M}/query`, { ...owner(s), body: { query: { paging: { limit: 1 } }, search: { expression: 'Totals', fields: ['profile.nickname'] } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.metadata.total as number;
    };
    // Members of this file whose nickname has "Totals": m0 (blocked), m1, and the public one.
    expect([await ownerTotal(a), await visitorTotal(a), await ownerTotal(a), await visitorTotal(a)]).toEqual([3, 1, 3, 1]);
    const joined = await call(b.url, `${M}/${(await ownerCreateMember(b, { loginEmail: `joined${DOMAIN}`, profile: { nickname: 'Totals joined' } })).id}`, {
      method: 'PATCH', ...owner(b), body: { member: { privacyStatus: 'PUBLIC' } },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect([await ownerTotal(a), await visitorTotal(a), await ownerTotal(b), await visitorTotal(b)]).toEqual([4, 2, 4, 2]);
  });
});
