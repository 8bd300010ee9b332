import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { readJson, toJson } from '../../storage/dialect.js';

interface OAuthClientsTable {
  id: string;
  site_id: string;
  name: string;
  redirect_uris: unknown;
  allow_localhost: Bool01;
  created_date: string;
}

interface ApiKeysTable {
  id: string;
  site_id: string;
  name: string;
  key_hash: string;
  created_date: string;
  revoked_date: string | null;
}

interface SigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: unknown;
  public_jwk: unknown;
  created_date: string;
}

export type TokenRole = 'visitor' | 'member';

interface RefreshTokensTable {
  id: string;
  site_id: string;
  client_id: string;
  family_id: string;
  role: TokenRole;
  subject_id: string;
  token_hash: string;
  created_date: string;
  expires_date: string;
  revoked_date: string | null;
}

declare module '../../storage/schema.js' {
  interface Database {
    oauth_clients: OAuthClientsTable;
    api_keys: ApiKeysTable;
    signing_keys: SigningKeysTable;
    refresh_tokens: RefreshTokensTable;
  }
}

export interface OAuthClient {
  id: string;
  siteId: string;
  name: string;
  redirectUris: string[];
  allowLocalhost: boolean;
}

export async function findOAuthClient(db: Executor, id: string): Promise<OAuthClient | undefined> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, siteId: row.site_id, name: row.name, redirectUris: readJson<string[]>(row.redirect_uris), allowLocalhost: row.allow_localhost === 1 };
}

export async function insertOAuthClient(db: Executor, client: OAuthClient, now: string): Promise<void> {
  await db.insertInto('oauth_clients').values({
    id: client.id,
    site_id: client.siteId,
    name: client.name,
    redirect_uris: toJson(client.redirectUris),
    allow_localhost: client.allowLocalhost ? 1 : 0,
    created_date: now,
  }).execute();
}

export interface ApiKeyRecord { id: string; siteId: string; name: string }

export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'site_id', 'name'])
    .where('key_hash', '=', keyHash)
    .where('revoked_date', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, siteId: row.site_id, name: row.name };
}

export async function insertApiKey(db: Executor, key: ApiKeyRecord & { keyHash: string }, now: string): Promise<void> {
  await db.insertInto('api_keys').values({ id: key.id, site_id: key.siteId, name: key.name, key_hash: key.keyHash, created_date: now, revoked_date: null }).execute();
}

export interface StoredSigningKey { kid: string; alg: string; privateJwk: Record<string, unknown>; publicJwk: Record<string, unknown>; createdDate: string }

export async function listSigningKeys(db: Executor): Promise<StoredSigningKey[]> {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('created_date', 'desc').execute();
  return rows.map((r) => ({ kid: r.kid, alg: r.alg, privateJwk: readJson(r.private_jwk), publicJwk: readJson(r.public_jwk), createdDate: r.created_date }));
}

export async function insertSigningKey(db: Executor, key: StoredSigningKey): Promise<void> {
  await db.insertInto('signing_keys').values({
    kid: key.kid, alg: key.alg, private_jwk: toJson(key.privateJwk), public_jwk: toJson(key.publicJwk), created_date: key.createdDate,
  }).execute();
}

export interface RefreshTokenRecord {
  id: string;
  siteId: string;
  clientId: string;
  familyId: string;
  role: TokenRole;
  subjectId: string;
  expiresDate: string;
  revokedDate: string | null;
}

export async function insertRefreshToken(db: Executor, token: RefreshTokenRecord & { tokenHash: string; createdDate: string }): Promise<void> {
  await db.insertInto('refresh_tokens').values({
    id: token.id,
    site_id: token.siteId,
    client_id: token.clientId,
    family_id: token.familyId,
    role: token.role,
    subject_id: token.subjectId,
    token_hash: token.tokenHash,
    created_date: token.createdDate,
    expires_date: token.expiresDate,
    revoked_date: null,
  }).execute();
}

export async function findRefreshTokenByHash(db: Executor, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  const row = await db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && {
    id: row.id, siteId: row.site_id, clientId: row.client_id, familyId: row.family_id, role: row.role,
    subjectId: row.subject_id, expiresDate: row.expires_date, revokedDate: row.revoked_date,
  };
}

/** Revokes every refresh token of a subject (a member's logout-everywhere, block, delete, password change). */
export async function revokeSubjectTokens(db: Executor, siteId: string, subjectId: string, now: string): Promise<number> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_date: now })
    .where('site_id', '=', siteId)
    .where('subject_id', '=', subjectId)
    .where('revoked_date', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function revokeFamily(db: Executor, familyId: string, now: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_date: now }).where('family_id', '=', familyId).where('revoked_date', 'is', null).execute();
}
