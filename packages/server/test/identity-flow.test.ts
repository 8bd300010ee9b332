import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import { updateSite } from '../src/domains/sites/service.js';
import { listIdentityMails as listMail } from '../src/domains/identity/mailer.js';
import { as, codeForSession, codeFrom, pkce, STRONG_PASSWORD, uniqueEmail, visitor } from './identity-helpers.js';
import { startMailbox, type Mailbox } from './mailbox.js';

let t: TestServer;
let mail: Mailbox;

beforeAll(async () => {
  mail = await startMailbox();
  t = await startTestServer({ smtpUrl: mail.url, trustedProxies: ['127.0.0.1'] });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const setSettings = (settings: Record<string, unknown>) => updateSite(t.server.deps.storage.db, t.site.id, { settings: { ...t.site.settings, ...settings } });

describe('visitor -> member -> logout, with e-mail verification over real SMTP', () => {
  it('registers, verifies the e-mailed code, gets member tokens by code + PKCE, refreshes, logs out', async () => {
    await setSettings({ requireEmailVerification: true });
    const v = await visitor(t);
    const email = uniqueEmail('Flow');

    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD, profile: { nickname: 'Flo', addresses: [{ tag: 'HOME', address: { city: 'Lyon', country: 'FR' } }] } }));
    expect(reg.status).toBe(200);
    expect(reg.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    expect(reg.body.stateToken).toMatch(/^stt_/);
    expect(reg.body.sessionToken).toBeUndefined();
    expect(reg.body.identity.email).toEqual({ address: email.toLowerCase(), isVerified: false });
    expect(reg.body.identity.status).toEqual({ name: 'PENDING', reasons: ['PENDING_EMAIL_VERIFICATION_REQUIRED'] });
    expect(reg.body.identity.identityProfile.addresses).toEqual([{ tag: 'HOME', address: { city: 'Lyon', country: 'FR' } }]);
    expect(reg.body.additionalData).toEqual({});

    // The code arrives at the real SMTP receiver.
    const code = codeFrom(await mail.waitFor(email, /verification code/));
    const verified = await call(t.url, '/_api/iam/verification/v1/auth/verify', as(v, { code, stateToken: reg.body.stateToken }));
    expect(verified.status).toBe(200);
    expect(verified.body.state).toBe('SUCCESS');
    expect(verified.body.sessionToken).toMatch(/^st_/);
    expect(verified.body.identity.status).toEqual({ name: 'ACTIVE', reasons: [] });
    expect(verified.body.identity.email.isVerified).toBe(true);

    // The same code does not work twice.
    const again = await call(t.url, '/_api/iam/verification/v1/auth/verify', as(v, { code, stateToken: reg.body.stateToken }));
    expect(again.status).toBe(400);
    expect(again.body.details.applicationError.code).toBe('INVALID_STATE_TOKEN');

    // Authorization code with PKCE.
    const { verifier, challenge } = pkce();
    const got = await codeForSession(t, v, verified.body.sessionToken, { challenge, state: 'st-1' });
    expect(got.location.startsWith('http://localhost:5173/callback?')).toBe(true);
    expect(got.state).toBe('st-1');
    expect(got.code).toMatch(/^oc_/);
    const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code: got.code, codeVerifier: verifier } });
    expect(tokens.status).toBe(200);
    expect(tokens.body.token_type).toBe('Bearer');
    expect(tokens.body.expires_in).toBe(t.config.accessTokenTtlSeconds);
    const member = tokens.body.access_token as string;

    const info = await call(t.url, '/oauth2/token-info', { body: { token: member } });
    expect(info.body).toMatchObject({ active: true, subjectType: 'MEMBER', subjectId: reg.body.identity.id, clientId: t.clientId, siteId: t.site.id });
    const user = await call(t.url, '/oauth2/user-info', { auth: member });
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ sub: reg.body.identity.id, email: email.toLowerCase(), emailVerified: true, name: 'Flo' });

    const refreshed = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: tokens.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBe(tokens.body.refresh_token);

    // Logout through the hosted logout page.
    const out = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: member, headers: { 'x-forwarded-for': v.ip }, body: { logout: { clientId: t.clientId }, callbacks: { postFlowUrl: 'http://localhost:5173/' } } });
    expect(out.status).toBe(200);
    expect(out.body.redirectSession.fullUrl).toContain('/_hosted/logout?rs=');
    const page = await fetch(out.body.redirectSession.fullUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('http://localhost:5173/');
    expect(page.headers.get('set-cookie')).toContain('Max-Age=0');

    const dead = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: tokens.body.refresh_token } });
    expect(dead.status).toBe(400);
    expect(dead.body.details.applicationError).toEqual({ code: 'INVALID_GRANT', description: 'The refresh token was revoked', data: {} });

    // Logging in again goes straight to SUCCESS: the e-mail is verified now.
    const again2 = await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email: email.toUpperCase() }, password: STRONG_PASSWORD }));
    expect(again2.status).toBe(200);
    expect(again2.body.state).toBe('SUCCESS');
    await setSettings({ requireEmailVerification: false });
  });

  it('answers fragment and web_message modes', async () => {
    const v = await visitor(t);
    const email = uniqueEmail('modes');
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    expect(reg.body.state).toBe('SUCCESS');
    const { challenge } = pkce();
    const frag = await codeForSession(t, v, reg.body.sessionToken, { challenge, responseMode: 'fragment', state: 'abc' });
    expect(frag.location).toMatch(/^http:\/\/localhost:5173\/callback#code=oc_[^&]+&state=abc$/);

    const login = await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, {
      auth: { authRequest: { clientId: t.clientId, codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'web_message', responseType: 'code', scope: 'offline_access', state: 'wm-state', sessionToken: login.body.sessionToken }, prompt: 'none' },
    }));
    expect(rs.status).toBe(200);
    const page = await fetch(rs.body.redirectSession.fullUrl, { headers: { referer: 'http://localhost:3000/shop' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/parent\.postMessage\(\{"code":"oc_[^"]+","state":"wm-state"\}, "http:\/\/localhost:3000"\);/);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors http://localhost:3000');

    // An embedding page the client does not allow gets no message.
    const login2 = await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    const rs2 = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, {
      auth: { authRequest: { clientId: t.clientId, codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'web_message', responseType: 'code', state: 's2', sessionToken: login2.body.sessionToken }, prompt: 'none' },
    }));
    const evil = await fetch(rs2.body.redirectSession.fullUrl, { headers: { referer: 'https://evil.example/' } });
    expect(evil.status).toBe(400);
    expect(await evil.text()).not.toContain('postMessage');
  });

  it('answers login_required for prompt=none without a session', async () => {
    const v = await visitor(t);
    const { challenge } = pkce();
    const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, {
      auth: { authRequest: { clientId: t.clientId, redirectUri: 'http://127.0.0.1:8080/cb', codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'q' }, prompt: 'none' },
    }));
    const page = await fetch(rs.body.redirectSession.fullUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const loc = new URL(page.headers.get('location')!);
    expect(loc.origin + loc.pathname).toBe('http://127.0.0.1:8080/cb');
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: 'login_required', error_description: 'No valid session', state: 'q' });
  });

  it('runs the hosted login page: form steps, cookie session, then prompt=none from the cookie', async () => {
    const v = await visitor(t);
    const email = uniqueEmail('hosted');
    await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    const { verifier, challenge } = pkce();
    const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, {
      auth: { authRequest: { clientId: t.clientId, redirectUri: 'http://localhost:5173/cb', codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'hs' }, prompt: 'login' },
    }));
    const page = await fetch(rs.body.redirectSession.fullUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Forgot password?');
    expect(html).toContain('id="registerForm"');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const rsId = new URL(rs.body.redirectSession.fullUrl).searchParams.get('rs');

    const wrong = await call(t.url, '/_hosted/api/login', { body: { rs: rsId, email, password: 'wrong password here' }, headers: { 'x-forwarded-for': v.ip } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.applicationError.code).toBe('-19976');

    const res = await fetch(`${t.url}/_hosted/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': v.ip }, body: JSON.stringify({ rs: rsId, email, password: STRONG_PASSWORD }) });
    expect(res.status).toBe(200);
    const body = await res.json() as { redirect: string };
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^vitrine_hs=hs_[^;]+; Path=\/_hosted; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const redirect = new URL(body.redirect);
    expect(redirect.searchParams.get('state')).toBe('hs');
    const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/cb', code: redirect.searchParams.get('code'), codeVerifier: verifier } });
    expect(tokens.status).toBe(200);

    // prompt=none with the cookie only.
    const p2 = pkce();
    const rs2 = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, {
      auth: { authRequest: { clientId: t.clientId, redirectUri: 'http://localhost:5173/cb', codeChallenge: p2.challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'c2' }, prompt: 'none' },
    }));
    const silent = await fetch(rs2.body.redirectSession.fullUrl, { redirect: 'manual', headers: { cookie: cookie.split(';')[0]! } });
    expect(new URL(silent.headers.get('location')!).searchParams.get('code')).toMatch(/^oc_/);
  });

  it('sends a reset link by SMTP; the link works once, within the hour, and revokes tokens', async () => {
    const v = await visitor(t);
    const email = uniqueEmail('reset');
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    const { verifier, challenge } = pkce();
    const got = await codeForSession(t, v, reg.body.sessionToken, { challenge });
    const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code: got.code, codeVerifier: verifier } });

    const sent = await call(t.url, '/_api/iam/recovery/v1/send-email', as(v, { email, redirect: { url: 'http://localhost:5173/', clientId: t.clientId } }));
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({});
    const link = /(http:\/\/\S+\/_hosted\/reset-password\?recoveryToken=\S+)/.exec((await mail.waitFor(email, /Reset your password/)).text)?.[1];
    expect(link).toBeTruthy();
    const recoveryToken = decodeURIComponent(new URL(link!).searchParams.get('recoveryToken')!);
    const pageRes = await fetch(link!);
    expect(pageRes.status).toBe(200);

    const newPassword = 'a brand new passphrase 7';
    const rec = await call(t.url, '/_api/iam/recovery/v1/recover', as(v, { recoveryToken, password: newPassword }));
    expect(rec.status).toBe(200);
    expect(rec.body.state).toBe('SUCCESS');
    const reuse = await call(t.url, '/_api/iam/recovery/v1/recover', as(v, { recoveryToken, password: 'yet another passphrase 8' }));
    expect(reuse.status).toBe(400);
    expect(reuse.body.details.applicationError.code).toBe('INVALID_RECOVERY_TOKEN');

    const refresh = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: tokens.body.refresh_token } });
    expect(refresh.status).toBe(400);
    const oldPw = await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    expect(oldPw.body.details.applicationError.code).toBe('-19976');
    const newPw = await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email }, password: newPassword }));
    expect(newPw.body.state).toBe('SUCCESS');
  });
});

describe('SMTP down', () => {
  it('still answers the login flow and keeps the code mail in the outbox', async () => {
    const down = await startTestServer({ smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      await updateSite(down.server.deps.storage.db, down.site.id, { settings: { requireEmailVerification: true } });
      const v = await visitor(down);
      const email = uniqueEmail('smtpdown');
      const reg = await call(down.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
      expect(reg.status).toBe(200);
      expect(reg.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
      const mails = await listMail(down.server.deps.storage.db, down.site.id, email.toLowerCase());
      expect(mails).toHaveLength(1);
      const verified = await call(down.url, '/_api/iam/verification/v1/auth/verify', as(v, { code: codeFrom(mails[0]!), stateToken: reg.body.stateToken }));
      expect(verified.body.state).toBe('SUCCESS');
    } finally {
      await down.close();
    }
  });
});
