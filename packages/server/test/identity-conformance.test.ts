import { afterAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { updateSite } from '../src/domains/sites/service.js';
import { codeFrom, STRONG_PASSWORD, uniqueEmail } from './identity-helpers.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { usePublicClientServer } from './public-client.js';

/**
 * The platform's own public client (@wix/sdk OAuthStrategy) against our server: its two API hosts are
 * rewritten to the test server's origin by wrapping the global fetch (docs/conformance.md).
 */
let mail: Mailbox;
const f = usePublicClientServer(async () => {
  mail = await startMailbox();
  return { smtpUrl: mail.url };
});
afterAll(() => mail?.close());

const newClient = () => createClient({ auth: OAuthStrategy({ clientId: f.t.clientId }) });

describe('@wix/sdk OAuthStrategy against our server', () => {
  it('register -> processVerification -> member tokens by redirect code -> logout', async () => {
    await updateSite(f.t.server.deps.storage.db, f.t.site.id, { settings: { requireEmailVerification: true } });
    const client = newClient();
    const email = uniqueEmail('sdk');

    const reg = await client.auth.register({ email, password: STRONG_PASSWORD, profile: { nickname: 'Sdk' } });
    expect(reg.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    expect(client.auth.getTokens().refreshToken.role).toBe('visitor');

    const code = codeFrom(await mail.waitFor(email, /verification code/));
    const verified = await client.auth.processVerification({ verificationCode: code });
    expect(verified.loginState).toBe('SUCCESS');
    const sessionToken = (verified as { data: { sessionToken: string } }).data.sessionToken;
    expect(sessionToken).toMatch(/^st_/);

    const oauthData = client.auth.generateOAuthData('http://localhost:5173/callback', 'http://localhost:5173/account');
    // `sessionToken` is read by the client's getAuthUrl at run time though its typings omit it.
    const opts = { prompt: 'none', responseMode: 'query', sessionToken } as Parameters<typeof client.auth.getAuthUrl>[1];
    const { authUrl } = await client.auth.getAuthUrl(oauthData, opts);
    const page = await f.routing.original(authUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const { code: authCode, state } = client.auth.parseFromUrl(page.headers.get('location')!, 'query');
    expect(state).toBe(oauthData.state);
    await expect(client.auth.getMemberTokens(authCode, 'other-state', oauthData)).rejects.toThrow('Invalid _state');
    await expect(client.auth.getMemberTokens(null as unknown as string, state, oauthData)).rejects.toThrow('Missing code or _state');
    const tokens = await client.auth.getMemberTokens(authCode, state, oauthData);
    expect(tokens.refreshToken.role).toBe('member');
    client.auth.setTokens(tokens);
    expect(client.auth.loggedIn()).toBe(true);

    const { logoutUrl } = await client.auth.logout('http://localhost:5173/');
    expect(client.auth.loggedIn()).toBe(false);
    const out = await f.routing.original(logoutUrl, { redirect: 'manual' });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('http://localhost:5173/');
    // The refresh token of the logged-out member is dead; the client falls back to a new visitor.
    const renewed = await client.auth.generateVisitorTokens({ refreshToken: tokens.refreshToken });
    expect(renewed.refreshToken.role).toBe('visitor');
    expect(renewed.refreshToken.value).not.toBe(tokens.refreshToken.value);
    // A second exchange of the same code fails with the client's own message. (Checked after logout:
    // a second use revokes what the first issued, and a revoked member token cannot create the logout session.)
    await expect(client.auth.getMemberTokens(authCode, state, oauthData)).rejects.toThrow(/^Failed to fetch tokens from OAuth API: Bad Request\. request id: [0-9a-f-]{36}\. Response: .*INVALID_GRANT/);
    await updateSite(f.t.server.deps.storage.db, f.t.site.id, { settings: {} });
  });

  it('login maps our error codes to the client\'s error codes', async () => {
    const client = newClient();
    const email = uniqueEmail('sdk-login');
    expect((await client.auth.register({ email, password: STRONG_PASSWORD })).loginState).toBe('SUCCESS');
    const again = await client.auth.register({ email, password: STRONG_PASSWORD });
    expect(again).toMatchObject({ loginState: 'FAILURE', errorCode: 'emailAlreadyExists' });
    const badEmail = await client.auth.register({ email: 'not-an-email', password: STRONG_PASSWORD });
    expect(badEmail).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
    const wrong = await client.auth.login({ email, password: 'wrong password 123' });
    expect(wrong).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    const ok = await client.auth.login({ email, password: STRONG_PASSWORD });
    expect(ok.loginState).toBe('SUCCESS');

    await updateSite(f.t.server.deps.storage.db, f.t.site.id, { settings: { captcha: 'invisible' } });
    const noCaptcha = await client.auth.login({ email, password: STRONG_PASSWORD });
    expect(noCaptcha).toMatchObject({ loginState: 'FAILURE', errorCode: 'missingCaptchaToken' });
    const badCaptcha = await client.auth.login({ email, password: STRONG_PASSWORD, captchaTokens: { invisibleRecaptchaToken: 'nope' } });
    expect(badCaptcha).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
    await updateSite(f.t.server.deps.storage.db, f.t.site.id, { settings: {} });

    await expect(client.auth.sendPasswordResetEmail(email, 'http://localhost:5173/')).resolves.toBeUndefined();
    expect((await mail.waitFor(email, /Reset your password/)).text).toContain('/_hosted/reset-password?recoveryToken=');
  });
});
