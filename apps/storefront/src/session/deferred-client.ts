import type { AuthStrategy, ClientCore, RequestSpec, Tokens, VisitorOAuthAuth } from '@vitrine/sdk';

/**
 * No tokens yet (the SDK's EMPTY_TOKENS, written out: importing it would put the SDK's token module,
 * shared with the deferred client, into the first load).
 */
const NO_TOKENS: Tokens = { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } };

/** The token side of a client that `useAuth` reads. */
export type TokenAuth = AuthStrategy & Pick<VisitorOAuthAuth, 'getTokens' | 'setTokens' | 'subscribe'>;

/** A real SDK client and its visitor/member token strategy. */
export interface LoadedClient {
  client: ClientCore;
  auth: VisitorOAuthAuth;
}

export interface DeferredClient<L extends LoadedClient> {
  /** Usable at once: calls wait for the real client; tokens read as none until it is here. */
  client: ClientCore & { readonly auth: TokenAuth };
  /** Loads the real client (once; a failed load is tried again on the next call). */
  load(): Promise<L>;
  /** True once the real client (and with it the stored tokens) is here. */
  isLoaded(): boolean;
}

/**
 * A client whose code loads later. Hydration reads the catalog from the server's cache and needs no
 * transport and no tokens, so the SDK client, its token strategy and token storage are left out of
 * the first load: the first request (a navigation, a click) or `load()` on idle brings them in.
 * Token subscribers hear about the stored tokens as soon as the real client is here.
 */
export function deferredClient<L extends LoadedClient>(host: string, importClient: () => Promise<L>): DeferredClient<L> {
  let loaded: L | undefined;
  let loading: Promise<L> | undefined;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());

  const load = (): Promise<L> => {
    loading ??= importClient().then(
      (real) => {
        loaded = real;
        real.auth.subscribe(notify);
        notify();
        return real;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  const auth: TokenAuth = {
    elevated: false,
    getAuthHeaders: async () => (await load()).auth.getAuthHeaders(),
    getTokens: () => loaded?.auth.getTokens() ?? NO_TOKENS,
    setTokens: (tokens) => void load().then((real) => real.auth.setTokens(tokens)),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };

  return {
    client: {
      host,
      auth,
      request: async <T>(spec: RequestSpec): Promise<T> => (await load()).client.request<T>(spec),
      fetchWithAuth: async (input, init) => (await load()).client.fetchWithAuth(input, init),
    },
    load,
    isLoaded: () => loaded !== undefined,
  };
}
