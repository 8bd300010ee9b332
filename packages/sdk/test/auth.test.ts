import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, TOKEN_RENEW_MARGIN_SECONDS, type Tokens } from '../src/index.js';
import { products } from '../src/modules/stores/index.js';
import { recordingFetch } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

function visitorClient(tokens?: Tokens) {
  const rec = recordingFetch();
  const auth = OAuthStrategy({ clientId: t.clientId, tokens });
  const client = createClient({ modules: { products }, auth, host: t.url, fetch: rec.fetch });
  return { client, auth, ...rec };
}

describe('OAuthStrategy token lifecycle', () => {
  it('gets anonymous tokens on the first call and reuses them', async () => {
    const { client, auth, tokenCalls, calls } = visitorClient();
    expect(auth.getTokens().accessToken.value).toBe('');
    const before = Math.floor(Date.now() / 1000);
    const res = await client.products.queryProducts().limit(1).find();
    expect(res.items).toHaveLength(1);
    expect(tokenCalls().map((c) => c.body)).toEqual([{ clientId: 'demo', grantType: 'anonymous' }]);
    const tokens = auth.getTokens();
    expect(tokens.refreshToken.role).toBe('visitor');
    expect(tokens.refreshToken.value).toMatch(/^rt_/);
    expect(tokens.accessToken.expiresAt).toBeGreaterThanOrEqual(before + t.config.accessTokenTtlSeconds);
    expect(tokens.accessToken.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + t.config.accessTokenTtlSeconds);
    expect(calls.at(-1)!.headers.get('authorization')).toBe(tokens.accessToken.value);
    expect(auth.loggedIn()).toBe(false);
    await client.products.queryProducts().limit(1).find();
    expect(tokenCalls()).toHaveLength(1);
  });

  it('shares one token request between concurrent first calls', async () => {
    const { client, tokenCalls, calls } = visitorClient();
    const results = await Promise.all([
      client.products.queryProducts().limit(2).find(),
      client.products.queryProducts().limit(3).find(),
      client.products.queryProducts().limit(4).find(),
    ]);
    expect(results.map((r) => r.length)).toEqual([2, 3, 4]);
    expect(tokenCalls()).toHaveLength(1);
    const authorizations = new Set(calls.filter((c) => c.url.pathname !== '/oauth2/token').map((c) => c.headers.get('authorization')));
    expect(authorizations.size).toBe(1);
  });

  it('renews an expired access token from the refresh token and keeps the old refresh token', async () => {
    const first = visitorClient();
    await first.client.products.queryProducts().limit(1).find();
    const old = first.auth.getTokens();
    const expired: Tokens = { accessToken: { value: old.accessToken.value, expiresAt: Math.floor(Date.now() / 1000) - 10 }, refreshToken: old.refreshToken };
    const { client, auth, tokenCalls } = visitorClient(expired);
    await client.products.queryProducts().limit(1).find();
    expect(tokenCalls().map((c) => c.body)).toEqual([{ clientId: 'demo', refreshToken: old.refreshToken.value, grantType: 'refresh_token' }]);
    expect(auth.getTokens().refreshToken).toEqual(old.refreshToken);
    expect(auth.getTokens().accessToken.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it('renews a token that expires within the margin, before its request can fail in flight', async () => {
    const first = visitorClient();
    await first.client.products.queryProducts().limit(1).find();
    const old = first.auth.getTokens();
    const { client, tokenCalls } = visitorClient({ ...old, accessToken: { ...old.accessToken, expiresAt: Math.floor(Date.now() / 1000) + TOKEN_RENEW_MARGIN_SECONDS - 3 } });
    await client.products.queryProducts().limit(1).find();
    expect(tokenCalls().map((c) => (c.body as { grantType: string }).grantType)).toEqual(['refresh_token']);
  });

  it('starts a new anonymous session when renewal fails', async () => {
    const expired: Tokens = { accessToken: { value: 'stale', expiresAt: 1 }, refreshToken: { value: 'rt_forged', role: 'visitor' } };
    const { client, auth, tokenCalls } = visitorClient(expired);
    const res = await client.products.queryProducts().limit(1).find();
    expect(res.length).toBe(1);
    expect(tokenCalls().map((c) => (c.body as { grantType: string }).grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(auth.getTokens().refreshToken.value).not.toBe('rt_forged');
    expect(auth.getTokens().refreshToken.role).toBe('visitor');
  });

  it('generateVisitorTokens returns valid tokens unchanged and does not store new ones', async () => {
    const { auth, tokenCalls } = visitorClient();
    const fresh = await auth.generateVisitorTokens();
    expect(tokenCalls()).toHaveLength(1);
    expect(auth.getTokens().accessToken.value).toBe('');
    expect(await auth.generateVisitorTokens(fresh)).toBe(fresh);
    expect(tokenCalls()).toHaveLength(1);
    auth.setTokens(fresh);
    expect(auth.getTokens()).toBe(fresh);
  });

  it('loggedIn is true only for a member refresh token', () => {
    const auth = OAuthStrategy({ clientId: 'demo', tokens: { accessToken: { value: 'a', expiresAt: 0 }, refreshToken: { value: 'r', role: 'member' } } });
    expect(auth.loggedIn()).toBe(true);
    auth.setTokens({ accessToken: { value: 'a', expiresAt: 0 }, refreshToken: { value: 'r', role: 'visitor' } });
    expect(auth.loggedIn()).toBe(false);
  });

  it('notifies subscribers when tokens change', async () => {
    const { client, auth } = visitorClient();
    let changes = 0;
    const off = auth.subscribe(() => changes++);
    await client.products.queryProducts().limit(1).find();
    off();
    auth.setTokens(auth.getTokens());
    expect(changes).toBe(1);
  });

  it('fails with the contract message when the token endpoint refuses', async () => {
    const auth = OAuthStrategy({ clientId: 'no-such-client' });
    const client = createClient({ modules: { products }, auth, host: t.url });
    const error = await client.products.queryProducts().find().catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Failed to fetch tokens from OAuth API: Bad Request\. request id: [0-9a-f-]{36}\. Response: \{"message":/);
    expect((error as Error).message).toContain('"code":"INVALID_CLIENT"');
    expect(error).toMatchObject({ status: 400, code: 'INVALID_CLIENT', kind: 'application' });
  });
});

describe('ApiKeyStrategy', () => {
  it('sends the raw key and the site id, and sees merchant data', async () => {
    const rec = recordingFetch();
    const client = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id, accountId: 'acc-1' }), host: t.url, fetch: rec.fetch });
    const list = await client.products.queryProducts().eq('slug', 'hand-grinder').find();
    const { product } = await client.products.getProduct(list.items[0]!._id, { includeMerchantSpecificData: true });
    expect(product.costAndProfitData).toMatchObject({ itemCost: 40, profit: 49 });
    const sent = rec.calls[0]!.headers;
    expect(sent.get('authorization')).toBe(t.apiKey);
    expect(sent.get('wix-site-id')).toBe(t.site.id);
    expect(sent.get('wix-account-id')).toBe('acc-1');
    expect(rec.tokenCalls()).toHaveLength(0);
  });

  it('an unknown key is a 401 application error', async () => {
    const client = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: 'vtr_unknown', siteId: t.site.id }), host: t.url });
    await expect(client.products.queryProducts().find()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
