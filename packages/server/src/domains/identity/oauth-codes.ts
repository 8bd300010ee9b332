import { createHash, randomUUID } from 'node:crypto';
import type { BaseContext } from '../../http/context.js';
import { ApplicationError, badRequest, unauthenticated } from '../../http/errors.js';
import { getSiteCached, assertSiteServes } from '../sites/index.js';
import { hashSecret, randomToken } from './secrets.js';
import { issueTokenPair, lookupApiKeyRecord, type TokenResponse } from './service.js';
import {
  findIdentity, findOAuthClient, findOAuthCodeByHash, insertOAuthCode, revokeFamily, setOAuthCodeFamily, useOAuthCode, type OAuthClient,
} from './store.js';
import { resolveSession } from './auth.js';

/** Authorization codes: 256 random bits, stored hashed, single use, valid 10 minutes at most (ASVS 10.4.2-3). */
export const CODE_TTL_MS = 10 * 60 * 1000;
/** RFC 7636: 43-128 characters of the unreserved set. */
export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/u;
/** base64url(SHA-256) is always 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/u;

const invalidGrant = (description: string) => new ApplicationError(400, 'INVALID_GRANT', description);

/** Exact match against the client's list; the demo client also allows any http://localhost or 127.0.0.1 port. */
export function redirectUriAllowed(client: OAuthClient, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true;
  if (!client.allowLocalhost) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1') && !url.username && !url.password;
}

/** Origins a client may receive web messages at (from its exact redirect URIs). */
export function originAllowed(client: OAuthClient, origin: string): boolean {
  if (client.redirectUris.some((u) => safeOrigin(u) === origin)) return true;
  if (!client.allowLocalhost) return false;
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/u.test(origin);
}

export function safeOrigin(uri: string): string | undefined {
  try {
    const origin = new URL(uri).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Issues a one-time code for an identity that passed authentication. */
export async function issueAuthorizationCode(ctx: BaseContext, input: { siteId: string; clientId: string; identityId: string; redirectUri: string; codeChallenge: string }): Promise<string> {
  const code = randomToken('oc_');
  const now = Date.now();
  await insertOAuthCode(ctx.db, {
    id: randomUUID(), siteId: input.siteId, clientId: input.clientId, identityId: input.identityId, codeHash: hashSecret(code),
    redirectUri: input.redirectUri, codeChallenge: input.codeChallenge, createdDate: new Date(now).toISOString(),
    expiresDate: new Date(now + CODE_TTL_MS).toISOString(), usedDate: null, familyId: null,
  });
  return code;
}

/** `grantType: authorization_code` with PKCE S256. A second use of a code revokes the tokens the first use issued. */
export async function grantAuthorizationCode(ctx: BaseContext, input: { clientId: string; code: string; codeVerifier?: string | undefined; redirectUri?: string | undefined }): Promise<TokenResponse> {
  const client = await findOAuthClient(ctx.db, input.clientId);
  if (!client) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  const site = await getSiteCached(ctx.db, client.siteId);
  if (!site) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  assertSiteServes(site);
  if (!input.codeVerifier) throw badRequest('INVALID_REQUEST', 'codeVerifier is required (PKCE)');
  if (!VERIFIER_PATTERN.test(input.codeVerifier)) throw badRequest('INVALID_REQUEST', 'codeVerifier must be 43-128 characters of [A-Za-z0-9-._~]');
  const record = await findOAuthCodeByHash(ctx.db, hashSecret(input.code));
  if (!record || record.clientId !== client.id || record.siteId !== site.id) throw invalidGrant('The authorization code is invalid');
  if (!(await useOAuthCode(ctx.db, record.id, new Date().toISOString()))) {
    if (record.familyId) await revokeFamily(ctx.db, record.familyId, new Date().toISOString());
    throw invalidGrant('The authorization code was already used; the tokens it issued are revoked');
  }
  if (Date.parse(record.expiresDate) <= Date.now()) throw invalidGrant('The authorization code has expired');
  // RFC 6749 4.1.3: a code issued for a redirect URI is redeemed only with that exact URI.
  if (record.redirectUri && input.redirectUri !== record.redirectUri) throw invalidGrant('redirectUri does not match the authorization request');
  if (s256(input.codeVerifier) !== record.codeChallenge) throw invalidGrant('The code verifier does not match the code challenge');
  const identity = await findIdentity(ctx.db, site.id, record.identityId);
  if (!identity || identity.status !== 'ACTIVE') throw invalidGrant('The member cannot log in');
  const { familyId, ...pair } = await issueTokenPair(ctx, { siteId: site.id, clientId: client.id, role: 'member', subjectId: identity.id });
  await setOAuthCodeFamily(ctx.db, record.id, familyId);
  return pair;
}

/**
 * `grant_type: authorized_client` (external login): an owner API key in Authorization, alone or as
 * `<visitor access token>,<api key>`, issues member tokens for `member_id` of the key's site. The client
 * id comes from the visitor token (or `clientId`); with `session_token` the session must be that member's.
 */
export async function grantAuthorizedClient(
  ctx: BaseContext,
  authorization: string | undefined,
  input: { member_id?: string | undefined; session_token?: string | undefined; clientId?: string | undefined; scope?: string | undefined },
): Promise<TokenResponse> {
  const parts = (authorization ?? '').split(',').map((s) => s.trim());
  const apiKey = parts[parts.length - 1] ?? '';
  const visitorToken = parts.length > 1 ? parts[0] : undefined;
  const key = apiKey ? await lookupApiKeyRecord(ctx.db, apiKey) : undefined;
  if (!key) throw unauthenticated('An API key of the site owner is required for this grant');
  const site = await getSiteCached(ctx.db, key.siteId);
  if (!site) throw unauthenticated('The API key is invalid or revoked');
  assertSiteServes(site);
  let clientId = input.clientId;
  if (visitorToken) {
    try {
      const claims = await ctx.deps.keys.verify(visitorToken);
      if (String(claims.sid) === site.id) clientId ??= String(claims.cid);
    } catch {
      // An expired visitor token still leaves the key as the authority; the client id must then come in the body.
    }
  }
  if (!clientId) throw badRequest('INVALID_REQUEST', 'clientId is required (send a visitor token before the API key, or clientId)');
  const client = await findOAuthClient(ctx.db, clientId);
  if (!client || client.siteId !== site.id) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  if (!input.member_id) throw badRequest('INVALID_REQUEST', 'member_id is required');
  if (input.session_token) {
    const identity = await resolveSession(ctx, site.id, input.session_token, true);
    if (!identity || identity.id !== input.member_id) throw invalidGrant('The session token is invalid for this member');
  }
  const identity = await findIdentity(ctx.db, site.id, input.member_id);
  if (!identity || identity.status !== 'ACTIVE') throw invalidGrant('The member cannot log in');
  const { familyId: _familyId, ...pair } = await issueTokenPair(ctx, { siteId: site.id, clientId: client.id, role: 'member', subjectId: identity.id });
  return pair;
}

/** `POST /oauth2/token-info`: introspection of an access token; anything invalid is `{active: false}`. */
export async function tokenInfo(ctx: BaseContext, token: string | undefined): Promise<Record<string, unknown>> {
  if (!token) return { active: false };
  try {
    const claims = await ctx.deps.keys.verify(token);
    return {
      active: true,
      subjectType: claims.role === 'member' ? 'MEMBER' : 'VISITOR',
      subjectId: claims.sub,
      exp: String(claims.exp),
      iat: String(claims.iat),
      clientId: claims.cid,
      siteId: claims.sid,
      instanceId: '',
      accountId: '',
    };
  } catch {
    return { active: false };
  }
}
