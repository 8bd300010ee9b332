import { useCallback, useSyncExternalStore } from 'react';
import type { AuthStrategy, OAuthAuth, Tokens } from '@vitrine/sdk';
import { useVitrineClient } from './provider.js';

export interface AuthState {
  /** False for API-key or no auth: there are no visitor tokens then. */
  isOAuth: boolean;
  /** Current tokens (null without OAuth). Re-renders when they change. */
  tokens: Tokens | null;
  /** True only for a member refresh token. */
  loggedIn: boolean;
  setTokens(tokens: Tokens): void;
}

function isOAuth(auth: AuthStrategy): auth is OAuthAuth {
  return typeof (auth as Partial<OAuthAuth>).getTokens === 'function' && typeof (auth as Partial<OAuthAuth>).subscribe === 'function';
}

const noSubscribe = () => () => {};

/**
 * Skeleton of the auth hook: token state of an `OAuthStrategy` client. The member-login flows
 * (login, register, logout) add their actions here once the SDK has them.
 */
export function useAuth(): AuthState {
  const { auth } = useVitrineClient();
  const oauth = isOAuth(auth) ? auth : undefined;
  const subscribe = useCallback((listener: () => void) => (oauth ? oauth.subscribe(listener) : noSubscribe()), [oauth]);
  const tokens = useSyncExternalStore(subscribe, () => oauth?.getTokens() ?? null, () => oauth?.getTokens() ?? null);
  return {
    isOAuth: Boolean(oauth),
    tokens,
    loggedIn: tokens?.refreshToken.role === 'member',
    setTokens: (next) => oauth?.setTokens(next),
  };
}
