import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { codeFrom, STRONG_PASSWORD, uniqueEmail } from '../../server/test/identity-helpers.js';
import { startMailbox, type Mailbox } from '../../server/test/mailbox.js';
import { updateSite } from '../../server/src/domains/sites/service.js';
import { cookieTokens, createClient, OAuthStrategy, pkceChallenge } from '../src/index.js';
import { sha256 } from '../src/auth/oauth/sha256.js';
import { createHash } from 'node:crypto';

let t: TestServer;
let mail: Mailbox;
beforeAll(async () => {
  mail = await startMailbox();
  t = await startTestServer({ smtpUrl: mail.url });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const newClient = () => {
  const auth = OAuthStrategy({ clientId: t.clientId });
  return { auth, client: createClient({ auth, host: t.url }) };
};

describe('PKCE helpers', () => {
  it('makes 43-128 character verifiers whose challenge is base64url(SHA-256)', () => {
    for (const length of [43, 64, 128]) {
      const { codeVerifier, codeChallenge } = pkceChallenge(length);
      expect(codeVerifier).toMatch(new RegExp(`^[A-Za-z0-9\\-._~]{${length}}$`));
      expect(codeChallenge).toBe(createHash('sha256').update(codeVerifier).digest('base64url'));
    }
    expect(() => pkceChallenge(42)).toThrow('Expected a length between 43 and 128');
    expect(() => pkceChallenge(129)).toThrow('Expected a length between 43 and 128');
    const long = 'x'.repeat(1000);
    expect(Buffer.from(sha256(new TextEncoder().encode(long))).toString('hex')).toBe(createHash('sha256').update(long).digest('hex'));
  });
});

describe('member flows of our OAuthStrategy against our server', () => {
  it('register -> processVerification -> code + PKCE -> member -> logout', async () => {
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { requireEmailVerification: true } });
    const { auth } = newClient();
    const email = uniqueEmail('vsdk');
    const reg = await auth.register({ email, password: STRONG_PASSWORD, profile: { nickname: 'V' } });
    expect(reg.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    const code = codeFrom(await mail.waitFor(email, /verification code/));
    const done = await auth.processVerification({ verificationCode: code });
    expect(done.loginState).toBe('SUCCESS');

    const oauthData = auth.generateOAuthData('http://localhost:5173/callback');
    const { authUrl } = await auth.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'fragment', sessionToken: done.data!.sessionToken! });
    const page = await fetch(authUrl, { redirect: 'manual' });
    const { code: authCode, state } = auth.parseFromUrl(page.headers.get('location')!, 'fragment');
    await expect(auth.getMemberTokens(authCode, 'nope', oauthData)).rejects.toThrow('Invalid _state');
    await expect(auth.getMemberTokens('', state, oauthData)).rejects.toThrow('Missing code or _state');
    const tokens = await auth.getMemberTokens(authCode, state, oauthData);
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);

    const { logoutUrl } = await auth.logout('http://localhost:5173/');
    expect(auth.loggedIn()).toBe(false);
    const out = await fetch(logoutUrl, { redirect: 'manual' });
    expect(out.headers.get('location')).toBe('http://localhost:5173/');
    const after = await auth.generateVisitorTokens({ refreshToken: tokens.refreshToken });
    expect(after.refreshToken.role).toBe('visitor');
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: {} });
  });

  it('maps error codes like the public client; direct login needs a browser', async () => {
    const { auth } = newClient();
    const email = uniqueEmail('vsdk2');
    expect((await auth.register({ email, password: STRONG_PASSWORD })).loginState).toBe('SUCCESS');
    expect(await auth.register({ email, password: STRONG_PASSWORD })).toMatchObject({ loginState: 'FAILURE', errorCode: 'emailAlreadyExists' });
    expect(await auth.register({ email: 'bad', password: STRONG_PASSWORD })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
    expect(await auth.login({ email, password: 'wrong password 42' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword', error: 'Invalid email or password' });
    const ok = await auth.login({ email, password: STRONG_PASSWORD });
    expect(ok.loginState).toBe('SUCCESS');
    await expect(auth.getMemberTokensForDirectLogin(ok.data!.sessionToken!)).rejects.toThrow(/needs a browser/);
    await expect(auth.sendPasswordResetEmail(email, 'http://localhost:5173/')).resolves.toBeUndefined();
  });

  it('keeps tokens in a cookie with path and expiry days', () => {
    const jar = { cookie: '' };
    const store = cookieTokens({ expiryDays: 2, path: '/shop' }, jar);
    const tokens = { accessToken: { value: 'a', expiresAt: 1 }, refreshToken: { value: 'r', role: 'visitor' as const } };
    store.save(tokens);
    expect(jar.cookie).toBe(`vitrine-tokens=${encodeURIComponent(JSON.stringify(tokens))}; Path=/shop; Max-Age=172800; SameSite=Lax; Secure`);
    jar.cookie = jar.cookie.split(';')[0]!;
    expect(store.load()).toEqual(tokens);
  });
});

describe('captcha', () => {
  it('reports the captcha kind the site wants and solves the server\'s challenge', async () => {
    const { auth } = newClient();
    const email = uniqueEmail('vsdk-cap');
    for (const mode of ['visible', 'invisible'] as const) {
      await updateSite(t.server.deps.storage.db, t.site.id, { settings: { captcha: mode } });
      const missing = await auth.register({ email, password: STRONG_PASSWORD });
      expect(missing).toMatchObject({ loginState: mode === 'visible' ? 'USER_CAPTCHA_REQUIRED' : 'SILENT_CAPTCHA_REQUIRED', errorCode: 'missingCaptchaToken' });
    }
    const bad = await auth.register({ email, password: STRONG_PASSWORD, captchaTokens: { noCaptchaToken: 'bad' } });
    expect(bad).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
    const token = await auth.getCaptchaToken('invisible');
    expect((await auth.register({ email, password: STRONG_PASSWORD, captchaTokens: { noCaptchaToken: token } })).loginState).toBe('SUCCESS');
    expect(await auth.login({ email, password: STRONG_PASSWORD, captchaTokens: { noCaptchaToken: token } })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: {} });
  });
});
