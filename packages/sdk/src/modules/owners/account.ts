/**
 * The signed-in owner or staff account (`@vitrine/sdk/owners` -> `account`): password sign-in to a
 * session token, the account's own sessions, password and TOTP. A session token is used like an API
 * key: `createClient({ auth: ownerSessionAuth(answer) })`.
 */
import type { OwnerAccount as WireAccount, OwnerSession as WireSession, OwnerSignInRequest, OwnerSignInResponse } from '@vitrine/types/owners';
import { ApiKeyStrategy, type ApiKeyAuth } from '../../auth/api-key.js';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type OwnerAccount = FromWire<WireAccount>;
export type OwnerSession = FromWire<WireSession, 'createdDate' | 'expiresDate'>;
export type SignInOptions = OwnerSignInRequest;
export type SignedIn = Omit<FromWire<OwnerSignInResponse, 'expiresDate'>, 'account'> & { account: OwnerAccount };

const P = '/_api/vitrine/owners/v1';
const ACCOUNT_DATES = ['account.createdDate', 'account.updatedDate'];

/** The auth strategy of a signed-in session: the token in `Authorization`, the site in `wix-site-id`. */
export function ownerSessionAuth(session: { sessionToken: string; siteId: string }): ApiKeyAuth {
  return ApiKeyStrategy({ apiKey: session.sessionToken, siteId: session.siteId });
}

/**
 * Public: e-mail + password (+ `totpCode` when the account has TOTP on; `site` when the e-mail has
 * accounts on several sites) -> `{ sessionToken, siteId, expiresDate, account }`. Errors:
 * 401 INVALID_CREDENTIALS, TOTP_REQUIRED, INVALID_TOTP; 429 when throttled.
 */
export const signIn = defineMethod((client, options: SignInOptions) =>
  client.request<SignedIn>({ method: 'POST', path: `${P}/sign-in`, payload: { ...options }, decode: { dates: ['expiresDate', ...ACCOUNT_DATES] } }));

/** Session: -> the signed-in account. */
export const getMe = defineMethod(async (client) =>
  (await client.request<{ account: OwnerAccount }>({ method: 'GET', path: `${P}/me`, payload: {}, decode: { dates: ACCOUNT_DATES } })).account);

/** Session: ends this session; the token stops working at once. */
export const signOut = defineMethod(async (client) => {
  await client.request<object>({ method: 'POST', path: `${P}/me/sign-out`, payload: {} });
});

/** Session: live sessions of the account, newest first; `current` marks this one. */
export const listSessions = defineMethod(async (client) =>
  (await client.request<{ sessions: OwnerSession[] }>({ method: 'GET', path: `${P}/me/sessions`, payload: {}, decode: { dates: ['sessions.createdDate', 'sessions.expiresDate'] } })).sessions);

/** Session: revokes one session of the account (404 SESSION_NOT_FOUND). */
export const revokeSession = defineMethod(async (client, _id: string) => {
  await client.request<object>({ method: 'DELETE', path: `${P}/me/sessions/${encodeURIComponent(_id)}`, payload: {} });
});

/** Session: changes the password (current one required); other sessions end. */
export const changePassword = defineMethod(async (client, currentPassword: string, newPassword: string) => {
  await client.request<object>({ method: 'POST', path: `${P}/me/password`, payload: { currentPassword, newPassword } });
});

/** Session: starts TOTP enrolment -> `{ secret, otpauthUri }` for an authenticator app. */
export const enrollTotp = defineMethod((client) =>
  client.request<{ secret: string; otpauthUri: string }>({ method: 'POST', path: `${P}/me/totp/enroll`, payload: {} }));

/** Session: turns TOTP on with a current code. */
export const activateTotp = defineMethod(async (client, code: string) => {
  await client.request<object>({ method: 'POST', path: `${P}/me/totp/activate`, payload: { code } });
});

/** Session: turns TOTP off (password required). */
export const disableTotp = defineMethod(async (client, password: string) => {
  await client.request<object>({ method: 'POST', path: `${P}/me/totp/disable`, payload: { password } });
});
