import { describe, expect, it } from 'vitest';
import type { ClientCore, RequestSpec, Tokens, VisitorOAuthAuth } from '@vitrine/sdk';
import { deferredClient } from './deferred-client';

const MEMBER: Tokens = { accessToken: { value: 'a', expiresAt: 9e12 }, refreshToken: { value: 'r', role: 'member' } };

/** A stand-in for the SDK client: records requests and keeps tokens (the real one needs a server). */
function fakeClient() {
  const requests: RequestSpec[] = [];
  let tokens = MEMBER;
  const listeners = new Set<() => void>();
  const auth = {
    elevated: false,
    getAuthHeaders: async () => ({ headers: { Authorization: tokens.accessToken.value } }),
    getTokens: () => tokens,
    setTokens: (next: Tokens) => { tokens = next; listeners.forEach((l) => l()); },
    subscribe: (l: () => void) => { listeners.add(l); return () => void listeners.delete(l); },
  } as unknown as VisitorOAuthAuth; // only the members the deferred client uses
  const client: ClientCore = {
    host: 'http://shop.test', auth,
    request: async <T>(spec: RequestSpec) => { requests.push(spec); return { ok: spec.path } as T; },
    fetchWithAuth: async () => new Response('fetched'),
  };
  return { client, auth, requests };
}

describe('deferredClient', () => {
  it('reads no tokens and loads nothing until asked', () => {
    let imports = 0;
    const deferred = deferredClient('http://shop.test', async () => { imports++; return fakeClient(); });
    expect(deferred.client.auth.getTokens().refreshToken).toEqual({ value: '', role: 'none' });
    expect(deferred.isLoaded()).toBe(false);
    expect(imports).toBe(0);
  });

  it('loads the real client on the first request, once, and sends through it', async () => {
    let imports = 0;
    const real = fakeClient();
    const deferred = deferredClient('http://shop.test', async () => { imports++; return real; });
    const [a, b] = await Promise.all([
      deferred.client.request({ method: 'GET', path: '/one' }),
      deferred.client.request({ method: 'GET', path: '/two' }),
    ]);
    expect([a, b]).toEqual([{ ok: '/one' }, { ok: '/two' }]);
    expect(real.requests.map((r) => r.path)).toEqual(['/one', '/two']);
    expect(imports).toBe(1);
    expect(await (await deferred.client.fetchWithAuth('/x')).text()).toBe('fetched');
    expect(await deferred.client.auth.getAuthHeaders()).toEqual({ headers: { Authorization: 'a' } });
  });

  it('tells token subscribers when the stored tokens arrive and when they change', async () => {
    const real = fakeClient();
    const deferred = deferredClient('http://shop.test', async () => real);
    let calls = 0;
    const off = deferred.client.auth.subscribe(() => calls++);
    await deferred.load();
    expect(calls).toBe(1);
    expect(deferred.isLoaded()).toBe(true);
    expect(deferred.client.auth.getTokens()).toBe(MEMBER);
    real.auth.setTokens({ ...MEMBER, refreshToken: { value: 'v', role: 'visitor' } });
    expect(calls).toBe(2);
    off();
    real.auth.setTokens(MEMBER);
    expect(calls).toBe(2);
  });

  it('tries a failed load again on the next call', async () => {
    let attempts = 0;
    const deferred = deferredClient('http://shop.test', async () => {
      if (++attempts === 1) throw new Error('chunk failed');
      return fakeClient();
    });
    await expect(deferred.load()).rejects.toThrow('chunk failed');
    expect(deferred.isLoaded()).toBe(false);
    await deferred.load();
    expect(deferred.isLoaded()).toBe(true);
  });
});
