/**
 * Member sign-in and sign-out through the hosted pages. Its own chunk: loaded when the shopper clicks
 * "Sign in" (AccountLink) or opens the account and callback pages.
 */
import type { MemberFlows } from '@vitrine/sdk/member-flows';
import type { OAuthData } from '@vitrine/sdk';
import { CALLBACK_PATH, loadBrowserClient } from './browser';

/** The member sign-in flows over the browser's tokens, in their own chunk (first load stays small). */
let flows: Promise<MemberFlows> | undefined;
function memberFlows(): Promise<MemberFlows> {
  flows ??= Promise.all([import('@vitrine/sdk/member-flows'), loadBrowserClient()]).then(([m, real]) => m.memberFlows(real.auth.core));
  return flows;
}

/** PKCE data of a sign-in in progress, kept until the hosted page sends the visitor back. */
const OAUTH_DATA_KEY = 'vitrine.storefront.oauth';

/** Sends the visitor to the hosted login/register page; they come back to CALLBACK_PATH. */
export async function startSignIn(): Promise<void> {
  const member = await memberFlows();
  const data = member.generateOAuthData(`${window.location.origin}${CALLBACK_PATH}`, window.location.href);
  sessionStorage.setItem(OAUTH_DATA_KEY, JSON.stringify(data));
  const { authUrl } = await member.getAuthUrl(data, { prompt: 'login' });
  window.location.assign(authUrl);
}

/** Exchanges the code the hosted page returned for member tokens; answers where to go next. */
export async function finishSignIn(): Promise<string> {
  const raw = sessionStorage.getItem(OAUTH_DATA_KEY);
  if (!raw) throw new Error('No sign-in is in progress in this tab');
  // Written by startSignIn in this tab.
  const data = JSON.parse(raw) as OAuthData;
  const member = await memberFlows();
  const { code, state, error } = member.parseFromUrl();
  if (error) throw new Error(`Sign-in was not completed (${error})`);
  const tokens = await member.getMemberTokens(code, state, data);
  (await loadBrowserClient()).auth.setTokens(tokens);
  sessionStorage.removeItem(OAUTH_DATA_KEY);
  return returnPath(data.originalUri, window.location.origin);
}

/**
 * Where a finished sign-in goes: the page it started on, with its query and fragment (the chosen
 * variant, a search), when that page is on this origin; the home page otherwise (no open redirect).
 */
export function returnPath(originalUri: string | undefined, origin: string): string {
  if (!originalUri) return '/';
  let url: URL;
  try {
    url = new URL(originalUri);
  } catch {
    return '/';
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
}

/** Revokes the member's tokens on the server (hosted logout page) and comes back as a visitor. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await (await memberFlows()).logout(window.location.origin + '/');
  window.location.assign(logoutUrl);
}
