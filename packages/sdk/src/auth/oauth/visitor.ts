import type { AuthEnvironment, AuthStrategy } from '../types.js';
import { DEFAULT_HOST } from '../../host.js';
import { createAccessToken, EMPTY_TOKENS, fetchTokens, needsRenewal, type TokenRequest, type TokenResponse, type Tokens } from './tokens.js';
import { withTokenLock, type TokenStorage } from './token-storage.js';

export interface OAuthStrategyConfig {
  clientId: string;
  /** Tokens to start from (e.g. restored from a cookie). */
  tokens?: Tokens;
  /** Server origin for token calls; defaults to the host of the first client this strategy is given to. */
  host?: string;
  /** Fetch for token calls; defaults to the fetch of the first client this strategy is given to. */
  fetch?: typeof fetch;
  /**
   * Where tokens live across page loads and tabs (`localStorageTokens()`, `cookieTokens()`): tokens
   * start from it and every change is saved to it, and renewals run under a cross-tab lock that first
   * looks at the storage, so a tab adopts the tokens another tab just renewed instead of renewing again.
   */
  storage?: TokenStorage;
}

/** What member-login flows (see member-flows.ts) build on; only types flow back from them. */
export interface OAuthCore {
  readonly clientId: string;
  env(): AuthEnvironment;
  getTokens(): Tokens;
  setTokens(tokens: Tokens): void;
  fetchTokens(payload: TokenRequest): Promise<TokenResponse>;
  /** Headers with a valid visitor/member access token, for the flows' own calls. */
  readonly visitorAuth: AuthStrategy;
}

/** Visitor and member tokens without the sign-in flows (`VisitorOAuthStrategy`). */
export interface VisitorOAuthAuth extends AuthStrategy {
  readonly elevated: false;
  getTokens(): Tokens;
  setTokens(tokens: Tokens): void;
  /** True only when the refresh token belongs to a member. */
  loggedIn(): boolean;
  /**
   * Valid tokens from the given ones: returned as they are while the access token stays valid for at
   * least `TOKEN_RENEW_MARGIN_SECONDS`; renewed from the refresh token when (nearly) expired (the old
   * refresh token is kept); new anonymous tokens when there is no refresh token or renewal fails.
   * Does not store them: pass them to `setTokens`.
   */
  generateVisitorTokens(tokens?: Partial<Tokens>): Promise<Tokens>;
  /** Called after every `setTokens` (React's `useAuth` listens here). Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * Visitor/member auth by OAuth tokens of a client id, without the member sign-in flows: a page that
 * only reads the catalog and the cart bundles this alone (`OAuthStrategy` adds the flows on top).
 * Token calls go to `<host>/oauth2/token`. `core` is what the flows build on.
 */
export function VisitorOAuthStrategy(config: OAuthStrategyConfig): VisitorOAuthAuth & { readonly core: OAuthCore } {
  let tokens: Tokens = config.tokens ?? config.storage?.load() ?? EMPTY_TOKENS;
  let attached: AuthEnvironment | undefined;
  const listeners = new Set<() => void>();
  // One token request at a time: concurrent first calls all wait for the same one.
  let pending: Promise<Tokens> | undefined;

  const env = (): AuthEnvironment => ({
    host: config.host ?? attached?.host ?? DEFAULT_HOST,
    fetch: config.fetch ?? attached?.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  });

  const getTokens = () => tokens;
  const setTokens = (next: Tokens) => {
    tokens = next;
    config.storage?.save(next);
    for (const listener of listeners) listener();
  };
  const requestTokens = (payload: TokenRequest) => fetchTokens(env(), payload);

  const renew = async (refreshToken: Tokens['refreshToken']): Promise<Tokens> => {
    const res = await requestTokens({ clientId: config.clientId, grantType: 'refresh_token', refreshToken: refreshToken.value });
    // The refresh token is kept: a rotated one in the answer is ignored (ARCHITECTURE reliability rules).
    return { accessToken: createAccessToken(res.access_token, res.expires_in), refreshToken };
  };

  const generateVisitorTokens = async (given?: Partial<Tokens>): Promise<Tokens> => {
    if (given?.accessToken && given.refreshToken?.value && !needsRenewal(given.accessToken)) return given as Tokens;
    if (given?.refreshToken?.value) {
      try {
        return await renew(given.refreshToken);
      } catch {
        // a revoked or unknown refresh token: start a new anonymous session below
      }
    }
    const res = await requestTokens({ clientId: config.clientId, grantType: 'anonymous' });
    return { accessToken: createAccessToken(res.access_token, res.expires_in), refreshToken: { value: res.refresh_token, role: 'visitor' } };
  };

  /** Renewal, one tab at a time when tokens are shared through storage. */
  const renewShared = (current: Tokens): Promise<Tokens> => {
    const storage = config.storage;
    if (!storage) return generateVisitorTokens(current);
    return withTokenLock(async () => {
      const stored = storage.load();
      if (stored && !needsRenewal(stored.accessToken)) return stored;
      return generateVisitorTokens(stored ?? current);
    });
  };

  const ensureTokens = (): Promise<Tokens> => {
    const current = tokens;
    if (!needsRenewal(current.accessToken)) return Promise.resolve(current);
    pending ??= renewShared(current)
      .then((fresh) => {
        setTokens(fresh);
        return fresh;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  const getAuthHeaders = async () => ({ headers: { Authorization: (await ensureTokens()).accessToken.value } });
  const visitorAuth: AuthStrategy = { elevated: false, getAuthHeaders };

  const core: OAuthCore = { clientId: config.clientId, env, getTokens, setTokens, fetchTokens: requestTokens, visitorAuth };

  return {
    core,
    elevated: false,
    attach(next) {
      attached ??= next;
    },
    getAuthHeaders,
    getTokens,
    setTokens,
    loggedIn: () => tokens.refreshToken.role === 'member',
    generateVisitorTokens,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
