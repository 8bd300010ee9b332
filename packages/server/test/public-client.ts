/**
 * Routes the platform's public client (`@wix/sdk` and its modules) to a test server: they always call
 * https://www.wixapis.com and https://edge.wixapis.com, so the global fetch is wrapped to rewrite those
 * origins (contracts/wire.md, "Running the public client against our server").
 */
export interface PublicClientRouting {
  /** Every request the public client made, after rewriting. */
  requests: { method: string; url: string }[];
  restore(): void;
}

const PLATFORM_ORIGIN = /^https:\/\/(www|edge)\.wixapis\.com/;

export function routePublicClientTo(origin: string): PublicClientRouting {
  const original = globalThis.fetch;
  const requests: PublicClientRouting['requests'] = [];
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const routed = url.replace(PLATFORM_ORIGIN, origin);
    requests.push({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url: routed });
    return original(input instanceof Request ? new Request(routed, input) : routed, init);
  };
  return { requests, restore: () => { globalThis.fetch = original; } };
}
