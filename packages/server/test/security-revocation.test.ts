import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { as, codeForSession, pkce, STRONG_PASSWORD, uniqueEmail, visitor, type Actor } from './identity-helpers.js';
import { REVOKED_TOKEN } from '../src/domains/identity/service.js';
import { startServerProcess, stopServerProcess, type ServerProcess } from './child-server.js';

/**
 * The revocation rule (docs/security.md "Revocation"): a member whose token family was revoked
 * (blocked, deleted, logged out, password changed) is refused on the very next request, on every
 * route and on every server process sharing the database, with the 401 of an invalid token.
 */

const COLLECTION = 'revocationNotes';

let t: TestServer;
/** A second server process (the real CLI) on the same database as `t`. */
let other: ServerProcess | undefined;

function startOtherProcess(config: TestServer['config']): Promise<ServerProcess> {
  return startServerProcess({ DATABASE_URL: config.databaseUrl ?? '', DATABASE_SCHEMA: config.databaseSchema ?? '', DATA_DIR: config.dataDir }, 'second server');
}

beforeAll(async () => {
  t = await startTestServer();
  const created = await call(t.url, '/wix-data/v2/collections', {
    ...asOwner(t),
    body: { collection: { id: COLLECTION, displayName: 'Notes', fields: [], permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'SITE_MEMBER_AUTHOR' } } },
  });
  expect(created.status).toBe(200);
  other = await startOtherProcess(t.config);
}, 2 * SLOW_START_MS);

afterAll(async () => {
  if (other) await stopServerProcess(other, 'SIGTERM');
  await t?.close();
});

interface Member { id: string; email: string; actor: Actor; access: string; refresh: string }

/** A member through the real flow: register, session token, PKCE code, token pair. */
async function loggedInMember(tag: string): Promise<Member> {
  const actor = await visitor(t);
  const email = uniqueEmail(tag);
  const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(actor, { loginId: { email }, password: STRONG_PASSWORD, profile: { nickname: tag } }));
  if (reg.status !== 200 || reg.body.state !== 'SUCCESS') throw new Error(`register failed ${reg.status} ${JSON.stringify(reg.body)}`);
  const { verifier, challenge } = pkce();
  const got = await codeForSession(t, actor, reg.body.sessionToken, { challenge });
  const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code: got.code, codeVerifier: verifier } });
  if (tokens.status !== 200) throw new Error(`token exchange failed ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return { id: reg.body.identity.id, email, actor, access: tokens.body.access_token, refresh: tokens.body.refresh_token };
}

/** One request per domain a member reaches: data items (write and read), members, catalog V1 and V3 reads, redirects. */
const MEMBER_CALLS: { name: string; run: (base: string, token: string) => ReturnType<typeof call> }[] = [
  { name: 'data insert', run: (base, token) => call(base, '/wix-data/v2/items', { auth: token, body: { dataCollectionId: COLLECTION, dataItem: { data: { title: 'written' } } } }) },
  { name: 'data query', run: (base, token) => call(base, '/wix-data/v2/items/query', { auth: token, body: { dataCollectionId: COLLECTION, query: {} } }) },
  { name: 'members my', run: (base, token) => call(base, '/members/v1/members/my', { auth: token }) },
  { name: 'catalog V1 read', run: (base, token) => call(base, '/stores-reader/v1/products/query-platformized', { auth: token, body: { query: {} } }) },
  { name: 'catalog V3 read', run: (base, token) => call(base, '/stores/v3/products/query', { auth: token, body: { query: {} } }) },
  { name: 'redirect session', run: (base, token) => call(base, '/_api/redirects-api/v1/redirect-session', { auth: token, body: { login: {}, callbacks: { postFlowUrl: 'http://localhost:5173/' } } }) },
];

const REVOKED_BODY = { message: REVOKED_TOKEN, details: { applicationError: { code: 'UNAUTHENTICATED', description: REVOKED_TOKEN, data: {} } } };

/** Every member call answers 200 on both processes (the control for the refusals). */
async function expectAccepted(token: string): Promise<void> {
  for (const base of [t.url, other!.url]) {
    for (const c of MEMBER_CALLS) {
      const res = await c.run(base, token);
      expect({ call: c.name, onOtherProcess: base !== t.url, status: res.status }).toEqual({ call: c.name, onOtherProcess: base !== t.url, status: 200 });
    }
  }
}

/** Every member call is refused with the revoked-token 401, on both processes, and the data insert wrote nothing. */
async function expectRefusedEverywhere(token: string, memberId: string): Promise<void> {
  for (const base of [other!.url, t.url]) {
    for (const c of MEMBER_CALLS) {
      const res = await c.run(base, token);
      expect({ call: c.name, onOtherProcess: base !== t.url, status: res.status, body: res.body }).toEqual({ call: c.name, onOtherProcess: base !== t.url, status: 401, body: REVOKED_BODY });
    }
  }
  const written = await call(t.url, '/wix-data/v2/items/query', { ...asOwner(t), body: { dataCollectionId: COLLECTION, query: { filter: { _owner: memberId } } } });
  // Exactly the two control inserts (one per process) made before the revocation.
  expect(written.body.dataItems.length).toBe(2);
}

describe('a revoked member token is refused on every route and every process', () => {
  it('blocked by the owner', async () => {
    const m = await loggedInMember('rev-block');
    await expectAccepted(m.access);
    expect((await call(t.url, `/members/v1/members/${m.id}/block`, { ...asOwner(t), body: {} })).status).toBe(200);
    await expectRefusedEverywhere(m.access, m.id);
  });

  it('deleted by the owner', async () => {
    const m = await loggedInMember('rev-delete');
    await expectAccepted(m.access);
    expect((await call(t.url, `/members/v1/members/${m.id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    for (const base of [other!.url, t.url]) {
      for (const c of MEMBER_CALLS) {
        const res = await c.run(base, m.access);
        expect({ call: c.name, status: res.status, body: res.body }).toEqual({ call: c.name, status: 401, body: REVOKED_BODY });
      }
    }
  });

  it('logged out (on the other process)', async () => {
    const m = await loggedInMember('rev-logout');
    await expectAccepted(m.access);
    const out = await call(other!.url, '/_api/iam/authentication/v1/logout', { auth: m.access });
    expect([out.status, out.body]).toEqual([200, {}]);
    await expectRefusedEverywhere(m.access, m.id);
  });

  it('changed their password; a new login works again at once', async () => {
    const m = await loggedInMember('rev-password');
    await expectAccepted(m.access);
    const changed = await call(t.url, '/_api/iam/authentication/v2/change-password', { auth: m.access, headers: { 'x-forwarded-for': m.actor.ip }, body: { newPassword: 'another good passphrase 9', currentPassword: STRONG_PASSWORD } });
    expect([changed.status, changed.body]).toEqual([200, {}]);
    await expectRefusedEverywhere(m.access, m.id);
    // The member is not locked out: a fresh login gives a token family that works on both processes.
    const login = await call(t.url, '/_api/iam/authentication/v2/login', as(m.actor, { loginId: { email: m.email }, password: 'another good passphrase 9' }));
    expect(login.body.state).toBe('SUCCESS');
    const { verifier, challenge } = pkce();
    const got = await codeForSession(t, m.actor, login.body.sessionToken, { challenge });
    const fresh = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code: got.code, codeVerifier: verifier } });
    expect(fresh.status).toBe(200);
    expect((await call(other!.url, '/members/v1/members/my', { auth: fresh.body.access_token })).status).toBe(200);
  });

  it('another member of the same site keeps working; visitor tokens are untouched', async () => {
    const blocked = await loggedInMember('rev-neighbour-a');
    const neighbour = await loggedInMember('rev-neighbour-b');
    await call(t.url, `/members/v1/members/${blocked.id}/block`, { ...asOwner(t), body: {} });
    expect((await call(other!.url, '/members/v1/members/my', { auth: neighbour.access })).status).toBe(200);
    expect((await call(other!.url, '/stores-reader/v1/products/query-platformized', { auth: neighbour.actor.token, body: { query: {} } })).status).toBe(200);
  });

  it('a replayed authorization code revokes the first exchange\'s tokens at once; other families stand', async () => {
    const m = await loggedInMember('rev-replay');
    const actor = m.actor;
    const login = await call(t.url, '/_api/iam/authentication/v2/login', as(actor, { loginId: { email: m.email }, password: STRONG_PASSWORD }));
    const { verifier, challenge } = pkce();
    const got = await codeForSession(t, actor, login.body.sessionToken, { challenge });
    const exchange = () => call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code: got.code, codeVerifier: verifier } });
    const first = await exchange();
    expect((await call(other!.url, '/members/v1/members/my', { auth: first.body.access_token })).status).toBe(200);
    expect((await exchange()).status).toBe(400);
    const after = await call(other!.url, '/members/v1/members/my', { auth: first.body.access_token });
    expect([after.status, after.body]).toEqual([401, REVOKED_BODY]);
    // The earlier family of the same member was not part of that code: it still works.
    expect((await call(t.url, '/members/v1/members/my', { auth: m.access })).status).toBe(200);
  });
});
