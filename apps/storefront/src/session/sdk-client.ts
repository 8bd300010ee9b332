import { createClient, localStorageTokens, VisitorOAuthStrategy } from '@vitrine/sdk';

/**
 * The browser's real SDK client (its own chunk, see deferred-client.ts): visitor and member tokens
 * survive reloads in localStorage and tabs renew them one at a time. The visitor strategy carries no
 * sign-in code: the flows load on demand over `auth.core`.
 */
export function openBrowserClient({ clientId, tokensKey, host }: { clientId: string; tokensKey: string; host: string }) {
  const auth = VisitorOAuthStrategy({ clientId, storage: localStorageTokens(tokensKey) });
  return { auth, client: createClient({ auth, host }) };
}
