import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { createClient, OAuthStrategy, type TokenStorage, type Tokens } from '../src/index.js';
import { products } from '../src/modules/stores/index.js';
import { recordingFetch } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

/** What localStorage is to two tabs: one store both read and write. */
function sharedStorage(): TokenStorage & { saves: number } {
  let value: Tokens | undefined;
  const store = {
    saves: 0,
    load: () => value,
    save: (tokens: Tokens) => { value = tokens; store.saves += 1; },
    clear: () => { value = undefined; },
  };
  return store;
}

function tab(storage: TokenStorage, tokens?: Tokens) {
  const rec = recordingFetch();
  const auth = OAuthStrategy({ clientId: t.clientId, storage, ...(tokens ? { tokens } : {}) });
  const client = createClient({ modules: { products }, auth, host: t.url, fetch: rec.fetch });
  return { client, auth, ...rec };
}

const expired = (tokens: Tokens): Tokens => ({ ...tokens, accessToken: { ...tokens.accessToken, expiresAt: 0 } });

describe('tokens shared through storage (tabs)', () => {
  it('a second tab starts from the stored tokens and asks for none', async () => {
    const storage = sharedStorage();
    const a = tab(storage);
    await a.client.products.queryProducts().limit(1).find();
    expect(a.tokenCalls()).toHaveLength(1);
    expect(storage.load()).toEqual(a.auth.getTokens());

    const b = tab(storage);
    await b.client.products.queryProducts().limit(1).find();
    expect(b.tokenCalls()).toHaveLength(0);
    expect(b.auth.getTokens()).toEqual(a.auth.getTokens());
  });

  it('a tab whose access token expired adopts what another tab just renewed, without a request', async () => {
    const storage = sharedStorage();
    const a = tab(storage);
    await a.client.products.queryProducts().limit(1).find();
    const stale = expired(a.auth.getTokens());
    // Tab B still holds the old, expired access token; tab A's renewal is in the storage.
    const b = tab(storage, stale);
    await b.client.products.queryProducts().limit(1).find();
    expect(b.tokenCalls()).toHaveLength(0);
    expect(b.auth.getTokens().accessToken.value).toBe(a.auth.getTokens().accessToken.value);
  });

  it('when the stored tokens expired too, one tab renews with the refresh token and stores the result', async () => {
    const storage = sharedStorage();
    const a = tab(storage);
    await a.client.products.queryProducts().limit(1).find();
    const old = a.auth.getTokens();
    storage.save(expired(old));
    const b = tab(storage);
    await b.client.products.queryProducts().limit(1).find();
    expect(b.tokenCalls().map((c) => c.body)).toEqual([{ clientId: 'demo', grantType: 'refresh_token', refreshToken: old.refreshToken.value }]);
    expect(storage.load()!.accessToken.value).toBe(b.auth.getTokens().accessToken.value);
    expect(storage.load()!.refreshToken).toEqual(old.refreshToken);
  });
});
