import http from 'node:http';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../e2e/browser.js';
import { call, startTestServer, type TestServer } from './harness.js';
import { updateSite } from '../src/domains/sites/service.js';
import { pkce, STRONG_PASSWORD, uniqueEmail, visitor } from './identity-helpers.js';

/**
 * The hosted pages and the hidden-frame direct login in a real Chromium: a storefront page on
 * http://localhost:<port> (another origin than the API on 127.0.0.1) drives them.
 */
let t: TestServer;
let browser: Browser;
let page: Page;
let shop: http.Server;
let shopOrigin: string;

beforeAll(async () => {
  t = await startTestServer();
  shop = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><html><body><h1 id="where">${req.url}</h1></body></html>`);
  });
  const port = await new Promise<number>((resolve) => shop.listen(0, '127.0.0.1', () => resolve((shop.address() as { port: number }).port)));
  shopOrigin = `http://localhost:${port}`;
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  shop?.close();
  await t?.close();
});

async function registeredUser(): Promise<string> {
  const v = await visitor(t);
  const email = uniqueEmail('browser');
  const res = await call(t.url, '/_api/iam/authentication/v2/register', { auth: v.token, body: { loginId: { email }, password: STRONG_PASSWORD } });
  expect(res.body.state).toBe('SUCCESS');
  return email;
}

describe('identity in a browser', () => {
  it('hosted login page (with the invisible captcha) sends the browser back with a code', async () => {
    const email = await registeredUser();
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { captcha: 'invisible' } });
    const v = await visitor(t);
    const { verifier, challenge } = pkce();
    const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: v.token, body: {
      auth: { authRequest: { clientId: t.clientId, redirectUri: `${shopOrigin}/callback`, codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', scope: 'offline_access', state: 'browser-state' }, prompt: 'login' },
    } });
    await page.goto(rs.body.redirectSession.fullUrl);
    await page.fill('#loginForm input[name=email]', email);
    await page.fill('#loginForm input[name=password]', 'not my password');
    await page.click('#loginForm button');
    await expect.poll(() => page.textContent('#err'), { timeout: 20_000 }).toBe('Invalid email or password');
    await page.fill('#loginForm input[name=password]', STRONG_PASSWORD);
    await page.click('#loginForm button');
    await page.waitForURL(`${shopOrigin}/callback?**`, { timeout: 20_000 });
    const url = new URL(page.url());
    expect(url.searchParams.get('state')).toBe('browser-state');
    const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', redirectUri: `${shopOrigin}/callback`, code: url.searchParams.get('code'), codeVerifier: verifier } });
    expect(tokens.status).toBe(200);
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: {} });
  });

  it('direct login: the hidden frame posts {code, state} to the storefront origin only', async () => {
    const email = await registeredUser();
    await page.goto(`${shopOrigin}/shop`);
    const result = await page.evaluate(async ({ api, clientId, email, password }) => {
      const post = async (path: string, body: unknown, auth?: string) => {
        const res = await fetch(api + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify(body) });
        return res.json();
      };
      const visitorTokens = await post('/oauth2/token', { clientId, grantType: 'anonymous' });
      const login = await post('/_api/iam/authentication/v2/login', { loginId: { email }, password }, visitorTokens.access_token);
      const verifier = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
      const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const state = 'frame-state';
      const rs = await post('/_api/redirects-api/v1/redirect-session', {
        auth: { authRequest: { clientId, codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'web_message', responseType: 'code', scope: 'offline_access', state, sessionToken: login.sessionToken }, prompt: 'none' },
      }, visitorTokens.access_token);
      const message = await new Promise<{ data: { code: string; state: string }; origin: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('OAuth flow timed out')), 15_000);
        window.addEventListener('message', (e) => {
          if (e.data && e.data.state === state) {
            clearTimeout(timer);
            resolve({ data: e.data, origin: e.origin });
          }
        });
        const frame = document.createElement('iframe');
        frame.style.display = 'none';
        frame.src = rs.redirectSession.fullUrl;
        document.body.appendChild(frame);
      });
      const tokens = await post('/oauth2/token', { clientId, grantType: 'authorization_code', code: message.data.code, codeVerifier: verifier });
      return { message, tokenType: tokens.token_type, refresh: typeof tokens.refresh_token };
    }, { api: t.url, clientId: t.clientId, email, password: STRONG_PASSWORD });
    expect(result.message.origin).toBe(t.url);
    expect(result.message.data.state).toBe('frame-state');
    expect(result.message.data.code).toMatch(/^oc_/);
    expect(result.tokenType).toBe('Bearer');
    expect(result.refresh).toBe('string');
  });

  it('our SDK\'s getMemberTokensForDirectLogin works in the browser (hidden frame, web message)', async () => {
    const email = await registeredUser();
    // The SDK bundled for the browser, as a storefront would ship it.
    const bundle = await build({ entryPoints: ['packages/sdk/src/index.ts'], bundle: true, format: 'iife', globalName: 'VitrineSDK', write: false, platform: 'browser', target: 'es2022' });
    await page.goto(`${shopOrigin}/account`);
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const result = await page.evaluate(async ({ api, clientId, email, password }) => {
      const sdk = (window as unknown as { VitrineSDK: typeof import('../../sdk/src/index.js') }).VitrineSDK;
      const auth = sdk.OAuthStrategy({ clientId, host: api });
      const login = await auth.login({ email, password });
      const tokens = await auth.getMemberTokensForDirectLogin(login.data!.sessionToken!);
      auth.setTokens(tokens);
      return { state: login.loginState, role: tokens.refreshToken.role, loggedIn: auth.loggedIn(), frames: document.querySelectorAll('iframe').length };
    }, { api: t.url, clientId: t.clientId, email, password: STRONG_PASSWORD });
    expect(result).toEqual({ state: 'SUCCESS', role: 'member', loggedIn: true, frames: 0 });
  });
});
