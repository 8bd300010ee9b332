import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { readJson, toJson } from '../../storage/dialect.js';
import { preparedQuery } from '../../storage/prepared.js';
import { VouchedReads } from '../../storage/vouched-reads.js';

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

const apiKeyByHash = preparedQuery((db, p: { keyHash: string }) =>
  db.selectFrom('api_keys').select(['id', 'site_id', 'name']).where('key_hash', '=', p.keyHash).where('revoked_date', 'is', null));

/**
 * Keys and token families checked per handle while nothing is committed (storage/vouched-reads.ts):
 * a revocation is a commit, so every process reads again on its next request, as without them.
 */
export const VOUCHED_CREDENTIALS = 10_000;
const vouchedKeys = new VouchedReads<ApiKeyRecord | undefined>(VOUCHED_CREDENTIALS);
const vouchedFamilies = new VouchedReads<boolean>(VOUCHED_CREDENTIALS);

/** The unrevoked API key with this hash; the record is shared between calls (never change it). */
export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<ApiKeyRecord | undefined> {
  return vouchedKeys.read(db, keyHash, async () => {
    const row = (await apiKeyByHash.run(db, { keyHash })).rows[0];
    return row && Object.freeze({ id: row.id, siteId: row.site_id, name: row.name });
  });
}

export async function insertApiKey(db: Executor, key: ApiKeyRecord & { keyHash: string }, now: string): Promise<void> {
  await db.insertInto('api_keys').values({ id: key.id, site_id: key.siteId, name: key.name, key_hash: key.keyHash, created_date: now, revoked_date: null }).execute();
}

export interface ApiKeyListing extends ApiKeyRecord { createdDate: string; revokedDate: string | null }

/** The site's API keys, newest first (hashes never leave the store). */
export async function listApiKeyRows(db: Executor, siteId: string, limit: number): Promise<ApiKeyListing[]> {
  const rows = await db.selectFrom('api_keys').select(['id', 'site_id', 'name', 'created_date', 'revoked_date'])
    .where('site_id', '=', siteId).orderBy('created_date', 'desc').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, siteId: r.site_id, name: r.name, createdDate: r.created_date, revokedDate: r.revoked_date }));
}

/** Marks a key revoked; false when the site has no such live key. */
export async function revokeApiKeyRow(db: Executor, siteId: string, id: string, now: string): Promise<boolean> {
  const res = await db.updateTable('api_keys').set({ revoked_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('revoked_date', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function listOAuthClientRows(db: Executor, siteId: string, limit: number): Promise<(OAuthClient & { createdDate: string })[]> {
  const rows = await db.selectFrom('oauth_clients').selectAll().where('site_id', '=', siteId).orderBy('created_date', 'desc').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, siteId: r.site_id, name: r.name, redirectUris: readJson<string[]>(r.redirect_uris), allowLocalhost: r.allow_localhost === 1, createdDate: r.created_date }));
}

export async function deleteOAuthClientRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('oauth_clients').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
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

/**
 * Whether a member's token family still stands: its refresh token exists for that subject and was
 * never revoked (logout, password change, block, delete and a replayed code all revoke it). One row
 * by the `refresh_tokens_family` index; expiry is not checked here (the access token has its own).
 */
const activeFamilyToken = preparedQuery((db, p: { siteId: string; subjectId: string; familyId: string }) => db.selectFrom('refresh_tokens').select('id')
  .where('family_id', '=', p.familyId).where('site_id', '=', p.siteId).where('subject_id', '=', p.subjectId).where('revoked_date', 'is', null)
  .limit(1));

export async function isTokenFamilyActive(db: Executor, siteId: string, subjectId: string, familyId: string): Promise<boolean> {
  // NUL cannot occur in these ids (they come from our own signed claims).
  return vouchedFamilies.read(db, `${siteId}\u0000${subjectId}\u0000${familyId}`,
    async () => (await activeFamilyToken.run(db, { siteId, subjectId, familyId })).rows.length > 0);
}

export async function revokeFamily(db: Executor, familyId: string, now: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_date: now }).where('family_id', '=', familyId).where('revoked_date', 'is', null).execute();
}

// ---------------------------------------------------------------------------------------------
// Identities, sessions, flow states, codes, recovery, captcha, throttling, mail (issue 3)

export type IdentityStatus = 'PENDING' | 'ACTIVE' | 'DELETED' | 'BLOCKED' | 'OFFLINE';

interface IdentitiesTable {
  id: string;
  site_id: string;
  login_email: string;
  email_verified: Bool01;
  status: IdentityStatus;
  status_reasons: unknown;
  password_hash: string | null;
  profile: unknown;
  totp_secret: string | null;
  totp_enabled: Bool01;
  totp_last_step: number;
  email_mfa_enabled: Bool01;
  revision: number;
  created_date: string;
  updated_date: string;
  last_login_date: string | null;
}

interface IdentitySessionsTable {
  id: string;
  site_id: string;
  identity_id: string;
  token_hash: string;
  created_date: string;
  expires_date: string;
  revoked_date: string | null;
}

interface AuthStatesTable {
  id: string;
  site_id: string;
  identity_id: string;
  kind: string;
  token_hash: string;
  code_hash: string | null;
  attempts: number;
  data: unknown;
  created_date: string;
  expires_date: string;
  used_date: string | null;
}

interface OAuthCodesTable {
  id: string;
  site_id: string;
  client_id: string;
  identity_id: string;
  code_hash: string;
  redirect_uri: string;
  code_challenge: string;
  created_date: string;
  expires_date: string;
  used_date: string | null;
  family_id: string | null;
}

interface RedirectSessionsTable {
  id: string;
  site_id: string;
  kind: string;
  payload: unknown;
  created_date: string;
  expires_date: string;
}

interface RecoveryTokensTable {
  id: string;
  site_id: string;
  identity_id: string;
  token_hash: string;
  redirect_url: string | null;
  created_date: string;
  expires_date: string;
  used_date: string | null;
}

interface CaptchaUsedTable { signature: string; expires_date: string }
interface RateLimitsTable { bucket: string; window_start: number; hits: number; previous_hits: number }
interface IdentitySecretsTable { name: string; value: string }
declare module '../../storage/schema.js' {
  interface Database {
    identities: IdentitiesTable;
    identity_sessions: IdentitySessionsTable;
    auth_states: AuthStatesTable;
    oauth_codes: OAuthCodesTable;
    redirect_sessions: RedirectSessionsTable;
    recovery_tokens: RecoveryTokensTable;
    captcha_used: CaptchaUsedTable;
    rate_limits: RateLimitsTable;
    identity_secrets: IdentitySecretsTable;
  }
}

export interface IdentityRecord {
  id: string;
  siteId: string;
  loginEmail: string;
  emailVerified: boolean;
  status: IdentityStatus;
  statusReasons: string[];
  passwordHash: string | null;
  profile: Record<string, unknown>;
  totpSecret: string | null;
  totpEnabled: boolean;
  totpLastStep: number;
  emailMfaEnabled: boolean;
  revision: number;
  createdDate: string;
  updatedDate: string;
  lastLoginDate: string | null;
}

function toIdentity(row: IdentitiesTable): IdentityRecord {
  return {
    id: row.id,
    siteId: row.site_id,
    loginEmail: row.login_email,
    emailVerified: row.email_verified === 1,
    status: row.status,
    statusReasons: readJson<string[]>(row.status_reasons),
    passwordHash: row.password_hash,
    profile: readJson<Record<string, unknown>>(row.profile),
    totpSecret: row.totp_secret,
    totpEnabled: row.totp_enabled === 1,
    totpLastStep: Number(row.totp_last_step),
    emailMfaEnabled: row.email_mfa_enabled === 1,
    revision: Number(row.revision),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
    lastLoginDate: row.last_login_date,
  };
}

export async function insertIdentity(db: Executor, i: IdentityRecord): Promise<void> {
  await db.insertInto('identities').values({
    id: i.id,
    site_id: i.siteId,
    login_email: i.loginEmail,
    email_verified: i.emailVerified ? 1 : 0,
    status: i.status,
    status_reasons: toJson(i.statusReasons),
    password_hash: i.passwordHash,
    profile: toJson(i.profile),
    totp_secret: i.totpSecret,
    totp_enabled: i.totpEnabled ? 1 : 0,
    totp_last_step: i.totpLastStep,
    email_mfa_enabled: i.emailMfaEnabled ? 1 : 0,
    revision: i.revision,
    created_date: i.createdDate,
    updated_date: i.updatedDate,
    last_login_date: i.lastLoginDate,
  }).execute();
}

export async function findIdentityByEmail(db: Executor, siteId: string, loginEmail: string): Promise<IdentityRecord | undefined> {
  const row = await db.selectFrom('identities').selectAll().where('site_id', '=', siteId).where('login_email', '=', loginEmail).executeTakeFirst();
  return row && toIdentity(row);
}

export async function findIdentity(db: Executor, siteId: string, id: string): Promise<IdentityRecord | undefined> {
  const row = await db.selectFrom('identities').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row && toIdentity(row);
}

export interface IdentityPatch {
  status?: IdentityStatus;
  statusReasons?: string[];
  emailVerified?: boolean;
  passwordHash?: string;
  profile?: Record<string, unknown>;
  totpSecret?: string | null;
  totpEnabled?: boolean;
  emailMfaEnabled?: boolean;
  lastLoginDate?: string;
  loginEmail?: string;
}

export async function updateIdentityRow(db: Executor, siteId: string, id: string, patch: IdentityPatch, now: string): Promise<boolean> {
  const result = await db.updateTable('identities').set((eb) => ({
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.statusReasons !== undefined ? { status_reasons: toJson(patch.statusReasons) } : {}),
    ...(patch.emailVerified !== undefined ? { email_verified: patch.emailVerified ? 1 as const : 0 as const } : {}),
    ...(patch.passwordHash !== undefined ? { password_hash: patch.passwordHash } : {}),
    ...(patch.profile !== undefined ? { profile: toJson(patch.profile) } : {}),
    ...(patch.totpSecret !== undefined ? { totp_secret: patch.totpSecret } : {}),
    ...(patch.totpEnabled !== undefined ? { totp_enabled: patch.totpEnabled ? 1 as const : 0 as const } : {}),
    ...(patch.emailMfaEnabled !== undefined ? { email_mfa_enabled: patch.emailMfaEnabled ? 1 as const : 0 as const } : {}),
    ...(patch.lastLoginDate !== undefined ? { last_login_date: patch.lastLoginDate } : {}),
    ...(patch.loginEmail !== undefined ? { login_email: patch.loginEmail } : {}),
    revision: eb('revision', '+', 1),
    updated_date: now,
  })).where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves the TOTP counter forward only; 0 rows means that step (or a later one) was already used. */
export async function advanceTotpStep(db: Executor, siteId: string, id: string, step: number): Promise<boolean> {
  const result = await db.updateTable('identities').set({ totp_last_step: step })
    .where('site_id', '=', siteId).where('id', '=', id).where('totp_last_step', '<', step).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteIdentityRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('identities').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// Sessions ------------------------------------------------------------------------------------

export interface SessionRecord { id: string; siteId: string; identityId: string; expiresDate: string; revokedDate: string | null }

export async function insertSession(db: Executor, s: SessionRecord & { tokenHash: string; createdDate: string }): Promise<void> {
  await db.insertInto('identity_sessions').values({
    id: s.id, site_id: s.siteId, identity_id: s.identityId, token_hash: s.tokenHash,
    created_date: s.createdDate, expires_date: s.expiresDate, revoked_date: null,
  }).execute();
}

export async function findSessionByHash(db: Executor, tokenHash: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('identity_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && { id: row.id, siteId: row.site_id, identityId: row.identity_id, expiresDate: row.expires_date, revokedDate: row.revoked_date };
}

/** Revokes one session; false when it was already revoked (a second use of a single-use token). */
export async function revokeSessionRow(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('identity_sessions').set({ revoked_date: now }).where('id', '=', id).where('revoked_date', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeIdentitySessions(db: Executor, siteId: string, identityId: string, now: string): Promise<void> {
  await db.updateTable('identity_sessions').set({ revoked_date: now })
    .where('site_id', '=', siteId).where('identity_id', '=', identityId).where('revoked_date', 'is', null).execute();
}

// Flow states ---------------------------------------------------------------------------------

export interface AuthStateRecord {
  id: string;
  siteId: string;
  identityId: string;
  kind: string;
  codeHash: string | null;
  attempts: number;
  data: Record<string, unknown>;
  expiresDate: string;
  usedDate: string | null;
}

export async function insertAuthState(db: Executor, s: AuthStateRecord & { tokenHash: string; createdDate: string }): Promise<void> {
  await db.insertInto('auth_states').values({
    id: s.id, site_id: s.siteId, identity_id: s.identityId, kind: s.kind, token_hash: s.tokenHash, code_hash: s.codeHash,
    attempts: s.attempts, data: toJson(s.data), created_date: s.createdDate, expires_date: s.expiresDate, used_date: null,
  }).execute();
}

export async function findAuthStateByHash(db: Executor, tokenHash: string): Promise<AuthStateRecord | undefined> {
  const row = await db.selectFrom('auth_states').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && {
    id: row.id, siteId: row.site_id, identityId: row.identity_id, kind: row.kind, codeHash: row.code_hash,
    attempts: Number(row.attempts), data: readJson<Record<string, unknown>>(row.data), expiresDate: row.expires_date, usedDate: row.used_date,
  };
}

/** Counts one try, atomically; false when the state is used up (too many tries or already used). */
export async function countAuthStateAttempt(db: Executor, id: string, maxAttempts: number): Promise<boolean> {
  const result = await db.updateTable('auth_states').set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id).where('attempts', '<', maxAttempts).where('used_date', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a state used; false when it was already used (a concurrent second use). */
export async function useAuthState(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('auth_states').set({ used_date: now }).where('id', '=', id).where('used_date', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceAuthStateCode(db: Executor, id: string, codeHash: string, expiresDate: string): Promise<void> {
  await db.updateTable('auth_states').set({ code_hash: codeHash, attempts: 0, expires_date: expiresDate }).where('id', '=', id).execute();
}

// OAuth codes ---------------------------------------------------------------------------------

export interface OAuthCodeRecord {
  id: string;
  siteId: string;
  clientId: string;
  identityId: string;
  redirectUri: string;
  codeChallenge: string;
  expiresDate: string;
  usedDate: string | null;
  familyId: string | null;
}

export async function insertOAuthCode(db: Executor, c: OAuthCodeRecord & { codeHash: string; createdDate: string }): Promise<void> {
  await db.insertInto('oauth_codes').values({
    id: c.id, site_id: c.siteId, client_id: c.clientId, identity_id: c.identityId, code_hash: c.codeHash,
    redirect_uri: c.redirectUri, code_challenge: c.codeChallenge, created_date: c.createdDate,
    expires_date: c.expiresDate, used_date: null, family_id: null,
  }).execute();
}

export async function findOAuthCodeByHash(db: Executor, codeHash: string): Promise<OAuthCodeRecord | undefined> {
  const row = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  return row && {
    id: row.id, siteId: row.site_id, clientId: row.client_id, identityId: row.identity_id, redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge, expiresDate: row.expires_date, usedDate: row.used_date, familyId: row.family_id,
  };
}

/** Consumes a code; false when it was already used. */
export async function useOAuthCode(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('oauth_codes').set({ used_date: now }).where('id', '=', id).where('used_date', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setOAuthCodeFamily(db: Executor, id: string, familyId: string): Promise<void> {
  await db.updateTable('oauth_codes').set({ family_id: familyId }).where('id', '=', id).execute();
}

// Redirect sessions ---------------------------------------------------------------------------

export interface RedirectSessionRecord { id: string; siteId: string; kind: string; payload: Record<string, unknown>; createdDate: string; expiresDate: string }

export async function insertRedirectSession(db: Executor, r: RedirectSessionRecord): Promise<void> {
  await db.insertInto('redirect_sessions').values({
    id: r.id, site_id: r.siteId, kind: r.kind, payload: toJson(r.payload), created_date: r.createdDate, expires_date: r.expiresDate,
  }).execute();
}

export async function findRedirectSession(db: Executor, id: string): Promise<RedirectSessionRecord | undefined> {
  const row = await db.selectFrom('redirect_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, siteId: row.site_id, kind: row.kind, payload: readJson(row.payload), createdDate: row.created_date, expiresDate: row.expires_date };
}

// Recovery tokens -----------------------------------------------------------------------------

export interface RecoveryTokenRecord { id: string; siteId: string; identityId: string; redirectUrl: string | null; expiresDate: string; usedDate: string | null }

export async function insertRecoveryToken(db: Executor, r: RecoveryTokenRecord & { tokenHash: string; createdDate: string }): Promise<void> {
  await db.insertInto('recovery_tokens').values({
    id: r.id, site_id: r.siteId, identity_id: r.identityId, token_hash: r.tokenHash, redirect_url: r.redirectUrl,
    created_date: r.createdDate, expires_date: r.expiresDate, used_date: null,
  }).execute();
}

export async function findRecoveryTokenByHash(db: Executor, tokenHash: string): Promise<RecoveryTokenRecord | undefined> {
  const row = await db.selectFrom('recovery_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && { id: row.id, siteId: row.site_id, identityId: row.identity_id, redirectUrl: row.redirect_url, expiresDate: row.expires_date, usedDate: row.used_date };
}

export async function useRecoveryToken(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('recovery_tokens').set({ used_date: now }).where('id', '=', id).where('used_date', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Captcha, throttling, secrets, mail ----------------------------------------------------------

/** Records a captcha solution; false when it was seen before (a replay). */
export async function markCaptchaUsed(db: Executor, signature: string, expiresDate: string, now: string): Promise<boolean> {
  await db.deleteFrom('captcha_used').where('expires_date', '<', now).execute();
  const result = await db.insertInto('captcha_used').values({ signature, expires_date: expiresDate })
    .onConflict((oc) => oc.column('signature').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Counts a hit in a fixed window; returns the hits in the current window (including this one) and its start. */
/**
 * Counts one hit of `bucket` in the window starting at `windowStart` (`windowMs` long) and answers the
 * bucket's hits in it and in the window just before it (0 when the bucket was idle then). A bucket
 * entering a new window keeps its old count as the previous one only when that was the window just
 * before (SET expressions read the row as it was).
 */
export async function hitRateLimit(db: Executor, bucket: string, windowStart: number, windowMs: number): Promise<{ hits: number; previousHits: number; windowStart: number }> {
  const row = await db.insertInto('rate_limits').values({ bucket, window_start: windowStart, hits: 1, previous_hits: 0 })
    .onConflict((oc) => oc.column('bucket').doUpdateSet((eb) => ({
      hits: eb.case().when('rate_limits.window_start', '<', windowStart).then(1).else(eb('rate_limits.hits', '+', 1)).end(),
      previous_hits: eb.case()
        .when('rate_limits.window_start', '=', windowStart - windowMs).then(eb.ref('rate_limits.hits'))
        .when('rate_limits.window_start', '<', windowStart).then(0)
        .else(eb.ref('rate_limits.previous_hits')).end(),
      window_start: eb.case().when('rate_limits.window_start', '<', windowStart).then(windowStart).else(eb.ref('rate_limits.window_start')).end(),
    })))
    .returning(['hits', 'previous_hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), previousHits: Number(row.previous_hits), windowStart: Number(row.window_start) };
}

/**
 * Deletes rows that can no longer be used: expired flow states, codes, redirect sessions and reset
 * links (kept one extra day for the code-reuse check), and finished throttling windows.
 */
export async function purgeExpiredRows(db: Executor, nowIso: string, rateWindowStartBefore: number): Promise<void> {
  const dayAgo = new Date(Date.parse(nowIso) - 24 * 3600 * 1000).toISOString();
  await db.deleteFrom('auth_states').where('expires_date', '<', dayAgo).execute();
  await db.deleteFrom('oauth_codes').where('expires_date', '<', dayAgo).execute();
  await db.deleteFrom('redirect_sessions').where('expires_date', '<', dayAgo).execute();
  await db.deleteFrom('recovery_tokens').where('expires_date', '<', dayAgo).execute();
  await db.deleteFrom('identity_sessions').where('expires_date', '<', dayAgo).execute();
  await db.deleteFrom('rate_limits').where('window_start', '<', rateWindowStartBefore).execute();
}

export async function readOrCreateSecret(db: Executor, name: string, fresh: string): Promise<string> {
  await db.insertInto('identity_secrets').values({ name, value: fresh }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('identity_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

