/** Test helpers: a fetch that records every request it passes on (no mocking: requests go out as they are). */
import type { TestServer } from '../../server/test/harness.js';

export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export function recordingFetch(): { fetch: typeof fetch; calls: Recorded[]; tokenCalls: () => Recorded[] } {
  const calls: Recorded[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const text = typeof init?.body === 'string' ? init.body : undefined;
    calls.push({ method: init?.method ?? 'GET', url, headers: new Headers(init?.headers), body: text ? JSON.parse(text) : undefined });
    return fetch(input, init);
  };
  return { fetch: wrapped, calls, tokenCalls: () => calls.filter((c) => c.url.pathname === '/oauth2/token') };
}

/** The decoded `.r` parameter of a recorded GET. */
export function dotR(call: Recorded): unknown {
  const r = call.url.searchParams.get('.r');
  return r === null ? undefined : JSON.parse(Buffer.from(r, 'base64url').toString('utf8'));
}

/** Creates data collection `id` with `fields` through the owner's API key, open to any caller (the SDK tests act as visitors). */
export async function createOpenCollection(t: TestServer, id: string, fields: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${t.url}/wix-data/v2/collections`, {
    method: 'POST',
    headers: { authorization: t.apiKey, 'wix-site-id': t.site.id, 'content-type': 'application/json' },
    body: JSON.stringify({ collection: { id, permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' }, fields } }),
  });
  if (res.status !== 200) throw new Error(`creating collection ${id}: ${res.status} ${await res.text()}`);
}
