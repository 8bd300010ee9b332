import type { Executor } from '../../storage/database.js';
import { readJson, toJson } from '../../storage/dialect.js';
import type { OwnerAccount, OwnerArea, OwnerRole, OwnerSession } from './model.js';

interface OwnerAccountsTable {
  id: string;
  site_id: string;
  email: string;
  email_key: string;
  name: string;
  role: string;
  permissions: unknown;
  password_hash: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  created_date: string;
  updated_date: string;
}

interface OwnerSessionsTable {
  id: string;
  site_id: string;
  account_id: string;
  token_hash: string;
  ip: string;
  created_date: string;
  expires_date: string;
  revoked_date: string | null;
}

declare module '../../storage/schema.js' {
  interface Database {
    owner_accounts: OwnerAccountsTable;
    owner_sessions: OwnerSessionsTable;
  }
}

function toAccount(r: OwnerAccountsTable): OwnerAccount {
  return {
    id: r.id,
    siteId: r.site_id,
    email: r.email,
    name: r.name,
    role: r.role as OwnerRole,
    permissions: readJson<OwnerArea[]>(r.permissions),
    passwordHash: r.password_hash,
    totpSecret: r.totp_secret,
    totpPendingSecret: r.totp_pending_secret,
    totpLastStep: r.totp_last_step === null ? null : Number(r.totp_last_step),
    createdDate: r.created_date,
    updatedDate: r.updated_date,
  };
}

function toSession(r: Omit<OwnerSessionsTable, 'token_hash'>): OwnerSession {
  return { id: r.id, siteId: r.site_id, accountId: r.account_id, ip: r.ip, createdDate: r.created_date, expiresDate: r.expires_date, revokedDate: r.revoked_date };
}

export const emailKey = (email: string) => email.trim().toLowerCase();

export async function insertAccount(db: Executor, a: OwnerAccount): Promise<void> {
  await db.insertInto('owner_accounts').values({
    id: a.id, site_id: a.siteId, email: a.email, email_key: emailKey(a.email), name: a.name, role: a.role,
    permissions: toJson(a.permissions), password_hash: a.passwordHash, totp_secret: a.totpSecret,
    totp_pending_secret: a.totpPendingSecret, totp_last_step: a.totpLastStep, created_date: a.createdDate, updated_date: a.updatedDate,
  }).execute();
}

export async function findAccount(db: Executor, siteId: string, id: string): Promise<OwnerAccount | undefined> {
  const row = await db.selectFrom('owner_accounts').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row && toAccount(row);
}

/** Accounts with this e-mail on any site (sign-in without a site names the one it finds). Bounded by `limit`. */
export async function findAccountsByEmail(db: Executor, email: string, siteId: string | undefined, limit: number): Promise<OwnerAccount[]> {
  let q = db.selectFrom('owner_accounts').selectAll().where('email_key', '=', emailKey(email));
  if (siteId) q = q.where('site_id', '=', siteId);
  const rows = await q.orderBy('created_date').orderBy('id').limit(limit).execute();
  return rows.map(toAccount);
}

export async function listAccounts(db: Executor, siteId: string, limit: number): Promise<OwnerAccount[]> {
  const rows = await db.selectFrom('owner_accounts').selectAll().where('site_id', '=', siteId).orderBy('created_date').orderBy('id').limit(limit).execute();
  return rows.map(toAccount);
}

export async function countOwners(db: Executor, siteId: string): Promise<number> {
  const row = await db.selectFrom('owner_accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).where('role', '=', 'owner').executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface AccountPatch {
  name?: string; role?: OwnerRole; permissions?: OwnerArea[]; passwordHash?: string;
  totpSecret?: string | null; totpPendingSecret?: string | null; totpLastStep?: number | null;
}

export async function updateAccount(db: Executor, siteId: string, id: string, patch: AccountPatch, now: string): Promise<void> {
  await db.updateTable('owner_accounts').set({
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.role !== undefined ? { role: patch.role } : {}),
    ...(patch.permissions !== undefined ? { permissions: toJson(patch.permissions) } : {}),
    ...(patch.passwordHash !== undefined ? { password_hash: patch.passwordHash } : {}),
    ...(patch.totpSecret !== undefined ? { totp_secret: patch.totpSecret } : {}),
    ...(patch.totpPendingSecret !== undefined ? { totp_pending_secret: patch.totpPendingSecret } : {}),
    ...(patch.totpLastStep !== undefined ? { totp_last_step: patch.totpLastStep } : {}),
    updated_date: now,
  }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Claims a TOTP step once: false when this or a later step was already used (replay). */
export async function claimTotpStep(db: Executor, siteId: string, id: string, step: number): Promise<boolean> {
  const res = await db.updateTable('owner_accounts').set({ totp_last_step: step })
    .where('site_id', '=', siteId).where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteAccount(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('owner_sessions').where('site_id', '=', siteId).where('account_id', '=', id).execute();
  await db.deleteFrom('owner_accounts').where('site_id', '=', siteId).where('id', '=', id).execute();
}

export async function insertSession(db: Executor, s: OwnerSession & { tokenHash: string }): Promise<void> {
  await db.insertInto('owner_sessions').values({
    id: s.id, site_id: s.siteId, account_id: s.accountId, token_hash: s.tokenHash, ip: s.ip,
    created_date: s.createdDate, expires_date: s.expiresDate, revoked_date: s.revokedDate,
  }).execute();
}

/** The live session of a token with its account, or undefined (unknown, revoked or expired). */
export async function findLiveSession(db: Executor, tokenHash: string, now: string): Promise<{ session: OwnerSession; account: OwnerAccount } | undefined> {
  const s = await db.selectFrom('owner_sessions').select(['id', 'site_id', 'account_id', 'ip', 'created_date', 'expires_date', 'revoked_date'])
    .where('token_hash', '=', tokenHash).where('revoked_date', 'is', null).where('expires_date', '>', now).executeTakeFirst();
  if (!s) return undefined;
  const account = await findAccount(db, s.site_id, s.account_id);
  return account && { session: toSession(s), account };
}

export async function listLiveSessions(db: Executor, siteId: string, accountId: string, now: string, limit: number): Promise<OwnerSession[]> {
  const rows = await db.selectFrom('owner_sessions').select(['id', 'site_id', 'account_id', 'ip', 'created_date', 'expires_date', 'revoked_date'])
    .where('site_id', '=', siteId).where('account_id', '=', accountId).where('revoked_date', 'is', null).where('expires_date', '>', now)
    .orderBy('created_date', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toSession);
}

/** Revokes one session (when `sessionId` is given) or every session of the account but `exceptId`. */
export async function revokeSessions(db: Executor, siteId: string, accountId: string, now: string, opts: { sessionId?: string; exceptId?: string } = {}): Promise<number> {
  let q = db.updateTable('owner_sessions').set({ revoked_date: now })
    .where('site_id', '=', siteId).where('account_id', '=', accountId).where('revoked_date', 'is', null);
  if (opts.sessionId) q = q.where('id', '=', opts.sessionId);
  if (opts.exceptId) q = q.where('id', '!=', opts.exceptId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}
