import { createClient, localStorageTokens, OAuthStrategy, type OAuthAuth, type OAuthData } from '@vitrine/sdk';
import { CLIENT_ID } from './site';

/**
 * Browser-only auth: visitor and member tokens survive reloads in localStorage; tabs renew them one
 * at a time. Created on first use so the server bundle can import the pages without a `window`.
 */
let auth: OAuthAuth | undefined;
export function browserAuth(): OAuthAuth {
  auth ??= OAuthStrategy({ clientId: CLIENT_ID, storage: localStorageTokens('vitrine.storefront.tokens') });
  return auth;
}

/** The browser's SDK client, talking to the server that served the page. */
export function browserClient() {
  return createClient({ auth: browserAuth(), host: window.location.origin });
}

/** PKCE data of a sign-in in progress, kept until the hosted page sends the visitor back. */
const OAUTH_DATA_KEY = 'vitrine.storefront.oauth';
export const CALLBACK_PATH = '/callback';

/** Sends the visitor to the hosted login/register page; they come back to CALLBACK_PATH. */
export async function startSignIn(): Promise<void> {
  const data = browserAuth().generateOAuthData(`${window.location.origin}${CALLBACK_PATH}`, window.location.href);
  sessionStorage.setItem(OAUTH_DATA_KEY, JSON.stringify(data));
  const { authUrl } = await browserAuth().getAuthUrl(data, { prompt: 'login' });
  window.location.assign(authUrl);
}

/** Exchanges the code the hosted page returned for member tokens; answers where to go next. */
export async function finishSignIn(): Promise<string> {
  const raw = sessionStorage.getItem(OAUTH_DATA_KEY);
  if (!raw) throw new Error('No sign-in is in progress in this tab');
  // Written by startSignIn in this tab.
  const data = JSON.parse(raw) as OAuthData;
  const { code, state, error } = browserAuth().parseFromUrl();
  if (error) throw new Error(`Sign-in was not completed (${error})`);
  const tokens = await browserAuth().getMemberTokens(code, state, data);
  browserAuth().setTokens(tokens);
  sessionStorage.removeItem(OAUTH_DATA_KEY);
  return data.originalUri && new URL(data.originalUri).origin === window.location.origin ? new URL(data.originalUri).pathname : '/';
}

/** Revokes the member's tokens on the server (hosted logout page) and comes back as a visitor. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await browserAuth().logout(window.location.origin + '/');
  window.location.assign(logoutUrl);
}
