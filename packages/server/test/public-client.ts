import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import type { Config } from '../src/config.js';

/**
 * Routes the platform's public client (`@wix/sdk` and its modules) to a test server: they always call
 * https://www.wixapis.com and https://edge.wixapis.com, so the global fetch is wrapped to rewrite those
 * origins (docs/api.md, "Running the public client against our server").
 */
export interface RoutedRequest { method: string; url: string; body?: string }

export interface PublicClientRouting {
  /** Every request the public client made, after rewriting. */
  requests: RoutedRequest[];
  /** The fetch from before, for calls a browser (not the client) would make. */
  original: typeof fetch;
  restore(): void;
}

const PLATFORM_ORIGIN = /^https:\/\/(www|edge)\.wixapis\.com/;

export function routePublicClientTo(origin: string): PublicClientRouting {
  const original = globalThis.fetch;
  const requests: RoutedRequest[] = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const isRequest = typeof input === 'object' && !(input instanceof URL);
    const url = isRequest ? input.url : String(input);
    const routed = url.replace(PLATFORM_ORIGIN, origin);
    const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
    requests.push({ method, url: routed, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
    return original(isRequest ? new Request(routed, input) : routed, init);
  }) as typeof fetch;
  return { requests, original, restore: () => { globalThis.fetch = original; } };
}

export interface PublicClientServer {
  t: TestServer;
  routing: PublicClientRouting;
}

/**
 * A test server for a file's tests, with the public client routed to it; both undone after the file.
 * Read the fields inside tests (they are set in beforeAll). `serverConfig` runs first.
 */
export function usePublicClientServer(serverConfig: () => Promise<Partial<Config>> = async () => ({})): PublicClientServer {
  const fixture = {} as PublicClientServer;
  beforeAll(async () => {
    fixture.t = await startTestServer(await serverConfig());
    fixture.routing = routePublicClientTo(fixture.t.url);
  });
  afterAll(async () => {
    fixture.routing?.restore();
    await fixture.t?.close();
  });
  return fixture;
}
