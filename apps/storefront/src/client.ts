import { createClient, localStorageTokens, OAuthStrategy, type OAuthData } from '@vitrine/sdk';

/** The demo site's OAuth client; a deployment sets its own at build time. */
export const CLIENT_ID = import.meta.env.VITE_VITRINE_CLIENT_ID ?? 'demo';

/** Visitor and member tokens survive reloads in localStorage; tabs renew them one at a time. */
export const auth = OAuthStrategy({ clientId: CLIENT_ID, storage: localStorageTokens('vitrine.storefront.tokens') });

/**
 * One SDK client for the whole storefront, talking to the server that serves this page. Pages read
 * through the @vitrine/react hooks, which bring their own modules.
 */
export const client = createClient({ auth, host: window.location.origin });

/** PKCE data of a sign-in in progress, kept until the hosted page sends the visitor back. */
const OAUTH_DATA_KEY = 'vitrine.storefront.oauth';
export const CALLBACK_PATH = '/callback';

/** Sends the visitor to the hosted login/register page; they come back to CALLBACK_PATH. */
export async function startSignIn(): Promise<void> {
  const data = auth.generateOAuthData(`${window.location.origin}${CALLBACK_PATH}`, window.location.href);
  sessionStorage.setItem(OAUTH_DATA_KEY, JSON.stringify(data));
  const { authUrl } = await auth.getAuthUrl(data, { prompt: 'login' });
  window.location.assign(authUrl);
}

/** Exchanges the code the hosted page returned for member tokens; answers where to go next. */
export async function finishSignIn(): Promise<string> {
  const raw = sessionStorage.getItem(OAUTH_DATA_KEY);
  if (!raw) throw new Error('No sign-in is in progress in this tab');
  const data = JSON.parse(raw) as OAuthData;
  const { code, state, error } = auth.parseFromUrl();
  if (error) throw new Error(`Sign-in was not completed (${error})`);
  const tokens = await auth.getMemberTokens(code, state, data);
  auth.setTokens(tokens);
  sessionStorage.removeItem(OAUTH_DATA_KEY);
  return data.originalUri && new URL(data.originalUri).origin === window.location.origin ? new URL(data.originalUri).pathname : '/';
}

/** Revokes the member's tokens on the server (hosted logout page) and comes back as a visitor. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await auth.logout(window.location.origin + '/');
  window.location.assign(logoutUrl);
}
