import { useSyncExternalStore } from 'react';
import { deferredClient, type DeferredClient } from './session/deferred-client';
import type { openBrowserClient } from './session/sdk-client';
import { CLIENT_ID } from './site';

/** Where the browser keeps the visitor's or member's tokens. */
const TOKENS_KEY = 'vitrine.storefront.tokens';

/**
 * The browser's SDK client, talking to the server that served the page. Its code loads after
 * hydration (`loadBrowserClient` on idle, or the first call): created on first use so the server
 * bundle can import the pages without a `window`.
 */
let session: DeferredClient<ReturnType<typeof openBrowserClient>> | undefined;
function browserSession() {
  const host = window.location.origin;
  session ??= deferredClient(host, async () => (await import('./session/sdk-client')).openBrowserClient({ clientId: CLIENT_ID, tokensKey: TOKENS_KEY, host }));
  return session;
}

export const browserClient = () => browserSession().client;
export const loadBrowserClient = () => browserSession().load();

const subscribeToTokens = (listener: () => void) => browserSession().client.auth.subscribe(listener);

/**
 * True once the browser client is here and the stored tokens with it: until then nobody knows
 * whether the shopper has a cart (false on the server and in the hydration render).
 */
export function useTokensKnown(): boolean {
  return useSyncExternalStore(subscribeToTokens, () => session?.isLoaded() ?? false, () => false);
}

/** Where the hosted login page sends the browser back (the callback page's route). */
export const CALLBACK_PATH = '/callback';
