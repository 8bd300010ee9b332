import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { createAccount } from '../src/domains/owners/index.js';
import { currentStep, totpAt } from '../src/domains/identity/totp.js';
import { RATE_LIMITS } from '../src/domains/identity/rate-limit.js';

const P = '/_api/vitrine/owners/v1';
const OWNER = { email: 'Owner@Example.test', password: 'plum-orchard-47-violet' };

let t: TestServer;

async function signIn(email: string, password: string, extra: Record<string, unknown> = {}, ip?: string) {
  // Each caller gets its own X-Forwarded-For so rate-limit buckets of different tests do not meet.
  return call(t.url, `${P}/sign-in`, { body: { email, password, ...extra }, headers: ip ? { 'x-forwarded-for': ip } : {} });
}

async function session(email: string, password: string): Promise<{ auth: string; siteId: string }> {
  const res = await signIn(email, password);
  expect(res.status).toBe(200);
  return { auth: res.body.sessionToken, siteId: res.body.siteId };
}

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: ['127.0.0.1', '::ffff:127.0.0.1'] });
  await createAccount(t.server.deps.storage.db, t.site.id, { ...OWNER, name: 'Olive Owner', role: 'owner' });
});
afterAll(() => t.close());

describe('owner sign-in', () => {
  it('answers a session token that works as an owner caller, whatever the e-mail case', async () => {
    const res = await signIn('owner@example.test', OWNER.password);
    expect(res.status).toBe(200);
    expect(res.body.sessionToken).toMatch(/^vto_[A-Za-z0-9_-]{43}$/);
    expect(res.body.siteId).toBe(t.site.id);
    expect(res.body.account).toMatchObject({ email: 'Owner@Example.test', name: 'Olive Owner', role: 'owner', permissions: [], totpEnabled: false });
    const auth = { auth: res.body.sessionToken, siteId: t.site.id };
    const me = await call(t.url, `${P}/me`, auth);
    expect(me.status).toBe(200);
    expect(me.body.account.id).toBe(res.body.account.id);
    // An elevated route of another domain.
    const subs = await call(t.url, '/webhooks/v1/subscriptions', auth);
    expect(subs.status).toBe(200);
    expect(subs.body).toEqual({ subscriptions: [] });
  });

  it('refuses a wrong password or an unknown e-mail with the same answer', async () => {
    const wrong = await signIn(OWNER.email, 'not-the-password-at-all', {}, '10.0.0.2');
    const unknown = await signIn('nobody@example.test', 'not-the-password-at-all', {}, '10.0.0.2');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.details.applicationError.code).toBe('INVALID_CREDENTIALS');
    expect(unknown.body).toMatchObject({ message: wrong.body.message, details: { applicationError: { code: 'INVALID_CREDENTIALS' } } });
  });

  it('refuses bad input with field violations', async () => {
    const res = await call(t.url, `${P}/sign-in`, { body: { email: 'no-at-sign', password: '', extra: 1 } });
    expect(res.status).toBe(400);
    const fields = res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('throttles repeated attempts for one e-mail from one address with 429 and Retry-After', async () => {
    const limit = RATE_LIMITS.login.perIdentifierIp;
    for (let i = 0; i < limit; i++) expect((await signIn('throttle@example.test', 'wrong-password-123', {}, '10.0.0.9')).status).toBe(401);
    const refused = await signIn('throttle@example.test', 'wrong-password-123', {}, '10.0.0.9');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await signIn('throttle@example.test', 'wrong-password-123', {}, '10.0.0.10')).status).toBe(401);
  }, 60_000);

  it('signs out: the token stops working at once', async () => {
    const s = await session(OWNER.email, OWNER.password);
    expect((await call(t.url, `${P}/me/sign-out`, { ...s, method: 'POST' })).status).toBe(200);
    const after = await call(t.url, `${P}/me`, s);
    expect(after.status).toBe(401);
  });

  it('lists own sessions and revokes another one', async () => {
    const a = await session(OWNER.email, OWNER.password);
    const b = await session(OWNER.email, OWNER.password);
    const list = await call(t.url, `${P}/me/sessions`, a);
    expect(list.status).toBe(200);
    const current = list.body.sessions.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    const bMe = await call(t.url, `${P}/me/sessions`, b);
    const bId = bMe.body.sessions.find((s: { current: boolean }) => s.current).id;
    expect((await call(t.url, `${P}/me/sessions/${bId}`, { ...a, method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `${P}/me`, b)).status).toBe(401);
    expect((await call(t.url, `${P}/me`, a)).status).toBe(200);
    const again = await call(t.url, `${P}/me/sessions/${bId}`, { ...a, method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('an API key is an owner caller but has no account of its own', async () => {
    const me = await call(t.url, `${P}/me`, asOwner(t));
    expect(me.status).toBe(400);
    expect(me.body.details.applicationError.code).toBe('ACCOUNT_REQUIRED');
  });

  it('a session of one site is refused for another site id', async () => {
    const s = await session(OWNER.email, OWNER.password);
    const res = await call(t.url, `${P}/me`, { auth: s.auth, siteId: 'another-site' });
    expect(res.status).toBe(403);
    expect(res.body.details.applicationError.code).toBe('SITE_MISMATCH');
  });
});

describe('TOTP', () => {
  it('once activated, sign-in needs a fresh code; a used code is refused', async () => {
    const email = 'totp@example.test';
    const password = 'granite-harbor-88-lantern';
    await createAccount(t.server.deps.storage.db, t.site.id, { email, password, role: 'owner' });
    const s = await session(email, password);
    const enroll = await call(t.url, `${P}/me/totp/enroll`, { ...s, method: 'POST' });
    expect(enroll.status).toBe(200);
    const secret: string = enroll.body.secret;
    expect(enroll.body.otpauthUri).toBe(`otpauth://totp/Vitrine%3Atotp%40example.test?secret=${secret}&issuer=Vitrine`);
    const wrong = await call(t.url, `${P}/me/totp/activate`, { ...s, body: { code: '000000' === totpAt(secret, currentStep()) ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    const activatedStep = currentStep() - 1;
    expect((await call(t.url, `${P}/me/totp/activate`, { ...s, body: { code: totpAt(secret, activatedStep) } })).status).toBe(200);

    const missing = await signIn(email, password);
    expect(missing.status).toBe(401);
    expect(missing.body.details.applicationError.code).toBe('TOTP_REQUIRED');
    // The activation used the previous step: a code of that step again is a replay.
    const replay = await signIn(email, password, { totpCode: totpAt(secret, activatedStep) });
    expect(replay.status).toBe(401);
    expect(replay.body.details.applicationError.code).toBe('INVALID_TOTP');
    const ok = await signIn(email, password, { totpCode: totpAt(secret, currentStep()) });
    expect(ok.status).toBe(200);
    expect(ok.body.account.totpEnabled).toBe(true);
  });
});

describe('password change', () => {
  it('needs the current password, refuses a weak one, and ends the other sessions', async () => {
    const email = 'change@example.test';
    const password = 'cobalt-meadow-31-thistle';
    await createAccount(t.server.deps.storage.db, t.site.id, { email, password, role: 'owner' });
    const a = await session(email, password);
    const b = await session(email, password);
    const wrong = await call(t.url, `${P}/me/password`, { ...a, body: { currentPassword: 'nope-nope-nope', newPassword: 'saffron-quarry-52-willow' } });
    expect(wrong.status).toBe(401);
    const weak = await call(t.url, `${P}/me/password`, { ...a, body: { currentPassword: password, newPassword: 'password123' } });
    expect(weak.status).toBe(400);
    expect(weak.body.details.validationError.fieldViolations[0].field).toBe('newPassword');
    const ok = await call(t.url, `${P}/me/password`, { ...a, body: { currentPassword: password, newPassword: 'saffron-quarry-52-willow' } });
    expect(ok.status).toBe(200);
    expect((await call(t.url, `${P}/me`, a)).status).toBe(200);
    expect((await call(t.url, `${P}/me`, b)).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, 'saffron-quarry-52-willow')).status).toBe(200);
  });
});

describe('staff accounts and areas', () => {
  it('an owner adds staff with areas; staff reach only their areas and never account management', async () => {
    const owner = await session(OWNER.email, OWNER.password);
    const created = await call(t.url, `${P}/accounts`, { ...owner, body: { account: { email: 'staff@example.test', name: 'Sam Staff', password: 'juniper-canyon-64-ember', role: 'staff', permissions: ['catalog'] } } });
    expect(created.status).toBe(200);
    expect(created.body.account).toMatchObject({ email: 'staff@example.test', role: 'staff', permissions: ['catalog'] });
    const dup = await call(t.url, `${P}/accounts`, { ...owner, body: { account: { email: 'STAFF@example.test', password: 'juniper-canyon-64-ember', role: 'staff' } } });
    expect(dup.status).toBe(409);
    expect(dup.body.details.applicationError.code).toBe('OWNER_EMAIL_TAKEN');

    const staff = await session('staff@example.test', 'juniper-canyon-64-ember');
    // An elevated catalog call (creating a collection) is within the grant.
    const collection = await call(t.url, '/stores/v1/collections', { ...staff, body: { collection: { name: 'Staff picks' } } });
    expect(collection.status).toBe(200);
    expect(collection.body.collection.name).toBe('Staff picks');
    const member = await call(t.url, '/members/v1/members', { ...staff, body: { member: { loginEmail: 'm@example.test' } } });
    expect(member.status).toBe(403);
    expect(member.body.details.applicationError.code).toBe('OWNER_PERMISSION_REQUIRED');
    const webhooks = await call(t.url, '/webhooks/v1/subscriptions', staff);
    expect(webhooks.status).toBe(403);
    expect(webhooks.body.details.applicationError.code).toBe('OWNER_PERMISSION_REQUIRED');
    const accounts = await call(t.url, `${P}/accounts`, staff);
    expect(accounts.status).toBe(403);
    expect((await call(t.url, `${P}/api-keys`, staff)).status).toBe(403);
    // Their own profile stays reachable.
    expect((await call(t.url, `${P}/me`, staff)).status).toBe(200);

    // A new grant applies to the live session at once.
    const patched = await call(t.url, `${P}/accounts/${created.body.account.id}`, { ...owner, method: 'PATCH', body: { account: { permissions: ['catalog', 'settings'] } } });
    expect(patched.status).toBe(200);
    expect(patched.body.account.permissions).toEqual(['catalog', 'settings']);
    expect((await call(t.url, '/webhooks/v1/subscriptions', staff)).status).toBe(200);

    // Deleting the account ends its sessions.
    expect((await call(t.url, `${P}/accounts/${created.body.account.id}`, { ...owner, method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `${P}/me`, staff)).status).toBe(401);
  });

  it('the last owner can be neither demoted nor deleted', async () => {
    const solo = await startTestServer();
    try {
      const acc = await createAccount(solo.server.deps.storage.db, solo.site.id, { email: 'solo@example.test', password: 'walnut-glacier-19-hazel', role: 'owner' });
      const demote = await call(solo.url, `${P}/accounts/${acc.id}`, { ...asOwner(solo), method: 'PATCH', body: { account: { role: 'staff' } } });
      expect(demote.status).toBe(400);
      expect(demote.body.details.applicationError.code).toBe('LAST_OWNER');
      const del = await call(solo.url, `${P}/accounts/${acc.id}`, { ...asOwner(solo), method: 'DELETE' });
      expect(del.status).toBe(400);
      const list = await call(solo.url, `${P}/accounts`, asOwner(solo));
      expect(list.body.accounts.map((a: { email: string }) => a.email)).toEqual(['solo@example.test']);
    } finally {
      await solo.close();
    }
  });
});

describe('API keys and OAuth clients from Settings', () => {
  it('creates a key shown once, lists it without the key, and a revoked key stops working', async () => {
    const owner = await session(OWNER.email, OWNER.password);
    const created = await call(t.url, `${P}/api-keys`, { ...owner, body: { name: 'Zapier' } });
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^vtr_/);
    expect(created.body.apiKey).toMatchObject({ name: 'Zapier', revokedDate: null });
    const use = await call(t.url, '/webhooks/v1/subscriptions', { auth: created.body.key, siteId: t.site.id });
    expect(use.status).toBe(200);
    const list = await call(t.url, `${P}/api-keys`, owner);
    expect(list.status).toBe(200);
    expect(list.body.apiKeys[0]).toEqual(created.body.apiKey);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect((await call(t.url, `${P}/api-keys/${created.body.apiKey.id}`, { ...owner, method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, '/webhooks/v1/subscriptions', { auth: created.body.key, siteId: t.site.id })).status).toBe(401);
    expect((await call(t.url, `${P}/api-keys/${created.body.apiKey.id}`, { ...owner, method: 'DELETE' })).status).toBe(404);
  });

  it('creates, lists and deletes OAuth clients with redirect URIs; bad URIs are violations', async () => {
    const owner = await session(OWNER.email, OWNER.password);
    const bad = await call(t.url, `${P}/oauth-clients`, { ...owner, body: { client: { name: 'Shop', redirectUris: ['javascript:alert(1)'] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('client.redirectUris[0]');
    const created = await call(t.url, `${P}/oauth-clients`, { ...owner, body: { client: { name: 'Shop', redirectUris: ['https://shop.example.test/callback'] } } });
    expect(created.status).toBe(200);
    expect(created.body.client).toMatchObject({ name: 'Shop', redirectUris: ['https://shop.example.test/callback'], allowLocalhost: false });
    // The new client grants visitor tokens.
    const token = await call(t.url, '/oauth2/token', { body: { clientId: created.body.client.id, grantType: 'anonymous' } });
    expect(token.status).toBe(200);
    const list = await call(t.url, `${P}/oauth-clients`, owner);
    expect(list.body.clients.map((c: { id: string }) => c.id)).toContain(created.body.client.id);
    expect((await call(t.url, `${P}/oauth-clients/${created.body.client.id}`, { ...owner, method: 'DELETE' })).status).toBe(200);
    const after = await call(t.url, '/oauth2/token', { body: { clientId: created.body.client.id, grantType: 'anonymous' } });
    expect(after.status).toBe(400);
  });
});
