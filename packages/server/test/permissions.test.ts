import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../src/http/routes.js';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { ROUTE_ACCESS } from './permissions.table.js';
import { memberToken, memberWithToken } from './member-tokens.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

/** Every declared route, with its POST twin, as `METHOD path`. */
function declared(): { key: string; method: string; path: string; access: string }[] {
  return allRoutes().flatMap((r) => {
    const rows = [{ key: `${r.method} ${r.path}`, method: r.method, path: r.path, access: r.access }];
    if (r.postTwin) rows.push({ key: `POST ${r.path}`, method: 'POST', path: r.path, access: r.access });
    return rows;
  });
}

/** Fills path parameters with a placeholder id; authorization is decided before the id is looked up. */
const concrete = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, '00000000-0000-4000-8000-000000000000');

describe('function-level authorization table', () => {
  it('lists every declared route with the access it declares, and nothing else', () => {
    const routes = declared();
    const fromCode = Object.fromEntries(routes.map((r) => [r.key, r.access]));
    expect(fromCode).toEqual(ROUTE_ACCESS);
  });
});

describe('each identity against each route', () => {
  let t: TestServer;
  let visitor: string;
  let memberId: string;
  let otherMemberId: string;
  let otherSiteKey: string;
  beforeAll(async () => {
    t = await startTestServer();
    visitor = (await visitorTokens(t)).accessToken;
    memberId = (await memberWithToken(t, { loginEmail: 'walker@permissions.test', profile: { nickname: 'Walker' } })).id;
    otherMemberId = (await memberWithToken(t, { loginEmail: 'other-walker@permissions.test', profile: { nickname: 'Other' } })).id;
    // An owner key of another site on this server, sent with this site's id.
    const other = await createSite(t.server.deps.storage.db, { slug: 'permissions-other', name: 'Other site' });
    otherSiteKey = (await createApiKey(t.server.deps.storage.db, { siteId: other.id, name: 'other' })).apiKey;
  });
  afterAll(() => t?.close());

  const rows = declared().filter((r) => r.access !== 'public');

  it.each(rows.map((r) => [r.key, r] as const))('%s', async (_key, row) => {
    const path = concrete(row.path);
    const body = row.method === 'GET' || row.method === 'DELETE' ? undefined : {};
    const anonymous = await call(t.url, path, { method: row.method, body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.details.applicationError.code).toBe('UNAUTHENTICATED');

    const asVisitor = await call(t.url, path, { method: row.method, body, auth: visitor });
    if (row.access === 'visitor') expect([401, 403]).not.toContain(asVisitor.status);
    else expect(asVisitor.status).toBe(403);

    // A member passes every function-level check except the elevated one; object-level answers
    // (404 for another's object, 400 for an empty body) are the domains' business, tested there.
    // A fresh login per route: logout (and deleting oneself) revoke every token the member holds.
    const asMember = await call(t.url, path, { method: row.method, body, auth: await memberToken(t, memberId) });
    const memberRefusal = asMember.body?.details?.applicationError?.code;
    if (row.access === 'elevated') expect([asMember.status, memberRefusal]).toEqual([403, 'ELEVATED_REQUIRED']);
    else expect(['UNAUTHENTICATED', 'MEMBER_REQUIRED', 'ELEVATED_REQUIRED']).not.toContain(memberRefusal);

    // Another member gets the same function-level answer, and never the first member's private data
    // (their login e-mail) in it.
    const asOtherMember = await call(t.url, path, { method: row.method, body, auth: await memberToken(t, otherMemberId) });
    const otherRefusal = asOtherMember.body?.details?.applicationError?.code;
    if (row.access === 'elevated') expect([asOtherMember.status, otherRefusal]).toEqual([403, 'ELEVATED_REQUIRED']);
    else expect(['UNAUTHENTICATED', 'MEMBER_REQUIRED', 'ELEVATED_REQUIRED']).not.toContain(otherRefusal);
    expect(JSON.stringify(asOtherMember.body ?? '')).not.toContain('"walker@permissions.test"');

    const owner = await call(t.url, path, { method: row.method, body, ...asOwner(t) });
    if (row.access === 'member') expect(owner.status).toBe(403);
    else expect([401, 403]).not.toContain(owner.status);

    // An owner key of another site is refused here on every route, whatever it asks.
    const foreign = await call(t.url, path, { method: row.method, body, auth: otherSiteKey, siteId: t.site.id });
    expect([foreign.status, foreign.body?.details?.applicationError?.code]).toEqual(row.access === 'member' ? [403, expect.any(String)] : [403, 'SITE_MISMATCH']);
  });
});
