import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { as, visitor } from './identity-helpers.js';
import { memberToken, ownerCreateMember } from './member-tokens.js';

/**
 * SECURITY.md 10.4.1 (exact redirect URIs) applied to the other places the server redirects a browser:
 * `callbacks.postFlowUrl` of logout and login sessions. A URL the client does not allow is never a
 * redirect target, whatever its disguise (userinfo, look-alike host, scheme-relative, javascript:).
 */

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: ['127.0.0.1'] });
}, SLOW_START_MS);
afterAll(() => t?.close());

const DISGUISES = [
  'https://evil.example/',
  'http://localhost.evil.example/',
  'http://localhost:5173@evil.example/',
  '//evil.example/',
  'javascript:alert(1)',
  'http://127.0.0.1.nip.io:5173/',
  'http://[::ffff:7f00:1]@evil.example/',
];

/** Where the hosted page sends the browser (Location), or '' when it does not redirect. */
async function landing(fullUrl: string): Promise<string> {
  const page = await fetch(fullUrl.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
  await page.text();
  return page.headers.get('location') ?? '';
}

function expectNotEvil(location: string, what: string): void {
  expect(location, what).not.toMatch(/evil\.example|javascript:|nip\.io/i);
  if (location && !location.startsWith('/')) {
    const host = new URL(location).hostname;
    expect(['localhost', '127.0.0.1', new URL(t.url).hostname], what).toContain(host);
  }
}

describe('postFlowUrl is never an open redirect (10.4.1)', () => {
  it('logout sessions', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'redir@example.com' });
    for (const postFlowUrl of DISGUISES) {
      // A fresh login per attempt: landing on a logout page revokes every token the member holds.
      const token = await memberToken(t, m.id);
      const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: token, body: { logout: { clientId: t.clientId }, callbacks: { postFlowUrl } } });
      if (rs.status !== 200) {
        expect(rs.status, postFlowUrl).toBe(400);
        continue;
      }
      expectNotEvil(await landing(rs.body.redirectSession.fullUrl), postFlowUrl);
    }
    // Control: an allowed localhost URL is followed.
    const good = await call(t.url, '/_api/redirects-api/v1/redirect-session', { auth: await memberToken(t, m.id), body: { logout: { clientId: t.clientId }, callbacks: { postFlowUrl: 'http://localhost:5173/bye' } } });
    expect(await landing(good.body.redirectSession.fullUrl)).toBe('http://localhost:5173/bye');
  });

  it('login sessions', async () => {
    const v = await visitor(t);
    for (const postFlowUrl of DISGUISES) {
      const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(v, { login: {}, callbacks: { postFlowUrl } }));
      if (rs.status !== 200) {
        expect(rs.status, postFlowUrl).toBe(400);
        continue;
      }
      expectNotEvil(await landing(rs.body.redirectSession.fullUrl), postFlowUrl);
      const html = await (await fetch(rs.body.redirectSession.fullUrl.replace(/^https?:\/\/[^/]+/, t.url))).text();
      expect(html, postFlowUrl).not.toMatch(/evil\.example|javascript:alert/);
    }
  });
});
