import { randomUUID } from 'node:crypto';
import type { AppDeps, BaseContext, Caller } from '../../http/context.js';
import { ApplicationError, badRequest, forbidden, unauthenticated } from '../../http/errors.js';
import type { Executor } from '../../storage/database.js';
import { inTransaction } from '../../storage/transaction.js';
import { assertSiteServes, getSiteCached, type Site } from '../sites/index.js';
import { hashSecret, randomToken } from './secrets.js';
import {
  findApiKeyByHash, findOAuthClient, isTokenFamilyActive, findRefreshTokenByHash, insertApiKey, insertOAuthClient, insertRefreshToken,
  revokeSubjectTokens, listApiKeyRows, revokeApiKeyRow, listOAuthClientRows, deleteOAuthClientRow,
  type ApiKeyListing, type ApiKeyRecord, type OAuthClient, type TokenRole,
} from './store.js';

export type { ApiKeyListing, OAuthClient, TokenRole };

const API_KEY_PREFIX = 'vtr_';

/** The 401 description for a member token whose family was revoked (logout, password change, block, delete). */
export const REVOKED_TOKEN = 'The access token is invalid, expired or revoked';

/** The wire shape of `POST /oauth2/token` answers. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
}

// ---------------------------------------------------------------------------------------------
// Authentication of requests

export interface Authenticated { site: Site | undefined; caller: Caller }

/**
 * API keys are looked up in the database on every call (one indexed read; on SQLite kept only while
 * nothing is committed, store.ts): a key revoked through any process is refused by every process on
 * its very next request.
 */
async function lookupApiKey(db: Executor, raw: string): Promise<ApiKeyRecord | undefined> {
  return findApiKeyByHash(db, hashSecret(raw));
}

/** The API key record for a raw key, for the authorized_client grant. */
export async function lookupApiKeyRecord(db: Executor, raw: string): Promise<ApiKeyRecord | undefined> {
  return raw.startsWith(API_KEY_PREFIX) ? lookupApiKey(db, raw) : undefined;
}

function looksLikeJws(value: string): boolean {
  return value.startsWith('eyJ') && value.split('.').length === 3;
}

/**
 * Resolves the caller from the raw `Authorization` header (no scheme word, per docs/api.md) and the
 * `wix-site-id` header. No header: an anonymous caller. A bad or expired credential: 401.
 */
export async function authenticate(deps: AppDeps, authorization: string | undefined, siteIdHeader: string | undefined): Promise<Authenticated> {
  let raw = authorization?.trim();
  if (!raw) return { site: undefined, caller: { kind: 'anonymous' } };
  // External login sends `<visitor access token>,<api key>`: the key is the authority.
  if (raw.includes(',')) raw = raw.slice(raw.lastIndexOf(',') + 1).trim();
  const db = deps.storage.db;
  if (looksLikeJws(raw)) {
    let claims;
    try {
      claims = await deps.keys.verify(raw);
    } catch {
      throw unauthenticated('The access token is invalid or expired');
    }
    const siteId = String(claims.sid ?? '');
    const site = await getSiteCached(db, siteId);
    if (!site) throw unauthenticated('The access token is invalid or expired');
    if (siteIdHeader && siteIdHeader !== site.id) throw forbidden('SITE_MISMATCH', 'The token does not belong to this site');
    assertSiteServes(site);
    const clientId = String(claims.cid ?? '');
    const familyId = String(claims.fam ?? '');
    if (claims.role !== 'member') return { site, caller: { kind: 'visitor', visitorId: claims.sub!, clientId, familyId } };
    // The one revocation rule for every route: a member token stands only while its family does.
    // Visitor tokens skip this (the hot read path gains no query); state lives in the database, so
    // every process sees a revocation on the very next request.
    if (!(await isTokenFamilyActive(db, site.id, claims.sub!, familyId))) throw unauthenticated(REVOKED_TOKEN);
    return { site, caller: { kind: 'member', memberId: claims.sub!, clientId, familyId } };
  }
  if (!raw.startsWith(API_KEY_PREFIX)) throw unauthenticated('The Authorization header holds neither an access token nor an API key');
  const key = await lookupApiKey(db, raw);
  if (!key) throw unauthenticated('The API key is invalid or revoked');
  if (siteIdHeader && siteIdHeader !== key.siteId) throw forbidden('SITE_MISMATCH', 'The API key does not belong to this site');
  const site = await getSiteCached(db, key.siteId);
  if (!site) throw unauthenticated('The API key is invalid or revoked');
  assertSiteServes(site);
  return { site, caller: { kind: 'owner', apiKeyId: key.id } };
}

// ---------------------------------------------------------------------------------------------
// Tokens

const invalidGrant = (description: string) => new ApplicationError(400, 'INVALID_GRANT', description);

async function clientOf(ctx: BaseContext, clientId: string): Promise<{ client: OAuthClient; site: Site }> {
  const client = await findOAuthClient(ctx.db, clientId);
  if (!client) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  const site = await getSiteCached(ctx.db, client.siteId);
  if (!site) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  assertSiteServes(site);
  return { client, site };
}

async function signAccessToken(ctx: BaseContext, input: { siteId: string; clientId: string; role: TokenRole; subjectId: string; familyId: string }): Promise<string> {
  return ctx.deps.keys.sign(
    { sub: input.subjectId, sid: input.siteId, cid: input.clientId, role: input.role, fam: input.familyId },
    ctx.deps.config.accessTokenTtlSeconds,
  );
}

/** Issues a new token family (access + refresh) for a subject. Used by every grant that logs someone in. */
export async function issueTokenPair(
  ctx: BaseContext,
  input: { siteId: string; clientId: string; role: TokenRole; subjectId: string },
): Promise<TokenResponse & { familyId: string }> {
  const now = new Date();
  const familyId = randomUUID();
  const refreshToken = randomToken('rt_');
  const expires = new Date(now.getTime() + ctx.deps.config.refreshTokenTtlDays * 24 * 3600 * 1000);
  await insertRefreshToken(ctx.db, {
    id: randomUUID(),
    siteId: input.siteId,
    clientId: input.clientId,
    familyId,
    role: input.role,
    subjectId: input.subjectId,
    tokenHash: hashSecret(refreshToken),
    createdDate: now.toISOString(),
    expiresDate: expires.toISOString(),
    revokedDate: null,
  });
  const accessToken = await signAccessToken(ctx, { ...input, familyId });
  return { access_token: accessToken, refresh_token: refreshToken, expires_in: ctx.deps.config.accessTokenTtlSeconds, token_type: 'Bearer', familyId };
}

/** `grantType: anonymous`: a new visitor with its own token family. */
export async function grantAnonymous(ctx: BaseContext, clientId: string): Promise<TokenResponse> {
  const { client, site } = await clientOf(ctx, clientId);
  const { familyId: _familyId, ...pair } = await issueTokenPair(ctx, { siteId: site.id, clientId: client.id, role: 'visitor', subjectId: randomUUID() });
  return pair;
}

/**
 * `grantType: refresh_token`: a new access token. The refresh token is not rotated: the public client
 * keeps its first refresh token and ignores a new one, so we hand the same one back.
 */
export async function grantRefresh(ctx: BaseContext, clientId: string, refreshToken: string): Promise<TokenResponse> {
  const { client, site } = await clientOf(ctx, clientId);
  const record = await findRefreshTokenByHash(ctx.db, hashSecret(refreshToken));
  if (!record || record.clientId !== client.id || record.siteId !== site.id) throw invalidGrant('The refresh token is invalid');
  if (record.revokedDate) throw invalidGrant('The refresh token was revoked');
  if (Date.parse(record.expiresDate) <= Date.now()) throw invalidGrant('The refresh token has expired');
  const accessToken = await signAccessToken(ctx, { siteId: site.id, clientId: client.id, role: record.role, subjectId: record.subjectId, familyId: record.familyId });
  return { access_token: accessToken, refresh_token: refreshToken, expires_in: ctx.deps.config.accessTokenTtlSeconds, token_type: 'Bearer' };
}

/** Makes every refresh token of a member unusable (logout, block, delete, password change). */
export async function revokeMemberTokens(ctx: BaseContext, siteId: string, memberId: string): Promise<number> {
  return revokeSubjectTokens(ctx.db, siteId, memberId, new Date().toISOString());
}

// ---------------------------------------------------------------------------------------------
// Clients and API keys (CLI and seeding)

export async function createOAuthClient(db: Executor, input: { id?: string; siteId: string; name: string; redirectUris?: string[]; allowLocalhost?: boolean }): Promise<OAuthClient> {
  const client: OAuthClient = {
    id: input.id ?? randomUUID(),
    siteId: input.siteId,
    name: input.name,
    redirectUris: input.redirectUris ?? [],
    allowLocalhost: input.allowLocalhost ?? false,
  };
  await insertOAuthClient(db, client, new Date().toISOString());
  return client;
}

export async function getOAuthClient(db: Executor, id: string): Promise<OAuthClient | undefined> {
  return findOAuthClient(db, id);
}

/** Creates an API key; the raw key is returned once and only its hash is stored. */
export async function createApiKey(db: Executor, input: { siteId: string; name: string }): Promise<{ id: string; apiKey: string }> {
  const apiKey = randomToken(API_KEY_PREFIX);
  const id = randomUUID();
  await inTransaction(db, (trx) => insertApiKey(trx, { id, siteId: input.siteId, name: input.name, keyHash: hashSecret(apiKey) }, new Date().toISOString()));
  return { id, apiKey };
}

/** The site's API keys (live and revoked), newest first, at most `limit`. */
export async function listApiKeys(db: Executor, siteId: string, limit: number): Promise<ApiKeyListing[]> {
  return listApiKeyRows(db, siteId, limit);
}

/** Revokes an API key of the site; every process refuses it from the next request on (keys are not cached). */
export async function revokeApiKey(db: Executor, siteId: string, id: string): Promise<boolean> {
  return revokeApiKeyRow(db, siteId, id, new Date().toISOString());
}

export async function listOAuthClients(db: Executor, siteId: string, limit: number): Promise<(OAuthClient & { createdDate: string })[]> {
  return listOAuthClientRows(db, siteId, limit);
}

/** Deletes an OAuth client of the site: its tokens stop refreshing (the client id no longer resolves). */
export async function deleteOAuthClient(db: Executor, siteId: string, id: string): Promise<boolean> {
  return deleteOAuthClientRow(db, siteId, id);
}
