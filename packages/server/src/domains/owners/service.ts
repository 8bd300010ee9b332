import { randomUUID } from 'node:crypto';
import type { AppDeps, BaseContext, Caller, OwnerAccountCaller, RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, conflict, forbidden, notFound, unauthenticated, violation } from '../../http/errors.js';
import type { Executor } from '../../storage/database.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { assertSiteServes, getSite, getSiteCached, type Site } from '../sites/index.js';
import {
  createApiKey, createOAuthClient, deleteOAuthClient, hashPassword, hashSecret, listApiKeys, listOAuthClients, matchTotp, newTotpSecret,
  passwordProblem, randomToken, revokeApiKey, throttle, verifyDummyPassword, verifyPassword, type ApiKeyListing, type OAuthClient,
} from '../identity/index.js';
import type { OwnerAccount, OwnerArea, OwnerRole, OwnerSession } from './model.js';
import {
  claimTotpStep, countOwners, deleteAccount, findAccount, findAccountsByEmail, findLiveSession, insertAccount, insertSession, listAccounts,
  listLiveSessions, revokeSessions, updateAccount, type AccountPatch,
} from './store.js';

/** Session tokens start with this, so the HTTP layer knows them from API keys and access tokens. */
export const OWNER_SESSION_PREFIX = 'vto_';
/** A dashboard session lasts this long; signing in again starts a new one. */
export const OWNER_SESSION_TTL_HOURS = 12;
/** Listing bounds: accounts, sessions of an account, API keys and OAuth clients of a site. */
export const MAX_ACCOUNTS = 200;
export const MAX_SESSIONS_LISTED = 100;
export const MAX_KEYS_LISTED = 200;
/** The throttling namespace of owner sign-in (identity's fixed windows, shared by every process). */
const THROTTLE_SCOPE = 'owners';

const invalidCredentials = () => new ApplicationError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is wrong');

// ---------------------------------------------------------------------------------------------
// Accounts

export interface NewAccount { email: string; name?: string; password: string; role: OwnerRole; permissions?: OwnerArea[] }

function assertPassword(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem === 'TOO_SHORT') throw violation(field, 'must be at least 8 characters', 'MIN_LENGTH');
  if (problem === 'TOO_LONG') throw violation(field, 'is too long', 'MAX_LENGTH');
  if (problem === 'TOO_COMMON') throw violation(field, 'is too common; choose a less guessable password', 'FORMAT');
}

/** Creates an account (CLI, demo start, an owner adding staff). 409 OWNER_EMAIL_TAKEN for a second account of one e-mail on a site. */
export async function createAccount(db: Executor, siteId: string, input: NewAccount): Promise<OwnerAccount> {
  assertPassword(input.password);
  const now = new Date().toISOString();
  const account: OwnerAccount = {
    id: randomUUID(),
    siteId,
    email: input.email.trim(),
    name: input.name?.trim() || input.email.trim(),
    role: input.role,
    // Owners may do everything; their list is kept empty so a later demotion starts with no grants.
    permissions: input.role === 'owner' ? [] : [...new Set(input.permissions ?? [])],
    passwordHash: await hashPassword(input.password),
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    createdDate: now,
    updatedDate: now,
  };
  try {
    await insertAccount(db, account);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('OWNER_EMAIL_TAKEN', 'This site already has an account with that e-mail');
    throw error;
  }
  return account;
}

/** Whether the site has any owner account yet (the demo start creates one once). */
export async function siteHasOwner(db: Executor, siteId: string): Promise<boolean> {
  return (await countOwners(db, siteId)) > 0;
}

// ---------------------------------------------------------------------------------------------
// Sign-in and sessions

export interface SignInInput { email: string; password: string; totpCode?: string; site?: string }
export interface SignedIn { token: string; session: OwnerSession; account: OwnerAccount; site: Site }

/**
 * E-mail + password (+ TOTP when the account enabled it) -> a new session. Throttled per e-mail and
 * IP like member login; unknown e-mails spend the same argon2 work (no account enumeration by time).
 */
export async function signIn(ctx: BaseContext, input: SignInInput): Promise<SignedIn> {
  await throttle(ctx, THROTTLE_SCOPE, 'login', input.email);
  let siteId: string | undefined;
  if (input.site) {
    const site = await getSite(ctx.db, input.site);
    if (!site) throw invalidCredentials();
    siteId = site.id;
  }
  const found = await findAccountsByEmail(ctx.db, input.email, siteId, 2);
  if (found.length > 1) throw badRequest('SITE_REQUIRED', 'This e-mail has accounts on several sites: name the site');
  const account = found[0];
  if (!account) {
    await verifyDummyPassword(input.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(account.passwordHash, input.password))) throw invalidCredentials();
  if (account.totpSecret) {
    if (!input.totpCode) throw new ApplicationError(401, 'TOTP_REQUIRED', 'Enter the code from your authenticator app');
    const step = matchTotp(account.totpSecret, input.totpCode);
    if (step === undefined || !(await claimTotpStep(ctx.db, account.siteId, account.id, step))) {
      throw new ApplicationError(401, 'INVALID_TOTP', 'The authenticator code is wrong or was already used');
    }
  }
  const site = await getSiteCached(ctx.db, account.siteId);
  if (!site) throw invalidCredentials();
  assertSiteServes(site);
  const token = randomToken(OWNER_SESSION_PREFIX);
  const now = new Date();
  const session: OwnerSession = {
    id: randomUUID(),
    siteId: site.id,
    accountId: account.id,
    ip: ctx.ip,
    createdDate: now.toISOString(),
    expiresDate: new Date(now.getTime() + OWNER_SESSION_TTL_HOURS * 3600_000).toISOString(),
    revokedDate: null,
  };
  await insertSession(ctx.db, { ...session, tokenHash: hashSecret(token) });
  return { token, session, account, site };
}

/**
 * The caller of a session token (called by the HTTP layer for `vto_` credentials): an owner caller
 * like an API key, carrying the account's role and grants. Checked against the database on every
 * request, so a revoked session or a changed grant applies at once on every process.
 */
export async function authenticateOwnerSession(deps: AppDeps, raw: string, siteIdHeader: string | undefined): Promise<{ site: Site; caller: Caller }> {
  const found = await findLiveSession(deps.storage.db, hashSecret(raw), new Date().toISOString());
  if (!found) throw unauthenticated('The session is invalid, expired or signed out');
  const { session, account } = found;
  if (siteIdHeader && siteIdHeader !== session.siteId) throw forbidden('SITE_MISMATCH', 'The session does not belong to this site');
  const site = await getSiteCached(deps.storage.db, session.siteId);
  if (!site) throw unauthenticated('The session is invalid, expired or signed out');
  assertSiteServes(site);
  const accountCaller: OwnerAccountCaller = { accountId: account.id, sessionId: session.id, role: account.role, permissions: account.permissions };
  return { site, caller: { kind: 'owner', apiKeyId: account.id, account: accountCaller } };
}

/**
 * The signed-in account of the caller; 400 ACCOUNT_REQUIRED for an API key: it is a full owner caller,
 * it just has no account (profile, sessions, TOTP) of its own.
 */
function accountCaller(ctx: RequestContext): OwnerAccountCaller {
  if (ctx.caller.kind === 'owner' && ctx.caller.account) return ctx.caller.account;
  throw badRequest('ACCOUNT_REQUIRED', 'This call needs an owner signed in with a password, not an API key');
}

async function ownAccount(ctx: RequestContext): Promise<OwnerAccount> {
  const account = await findAccount(ctx.db, ctx.site.id, accountCaller(ctx).accountId);
  if (!account) throw unauthenticated('The session is invalid, expired or signed out');
  return account;
}

export async function getMe(ctx: RequestContext): Promise<{ account: OwnerAccount; sessionId: string }> {
  return { account: await ownAccount(ctx), sessionId: accountCaller(ctx).sessionId };
}

export async function signOut(ctx: RequestContext): Promise<void> {
  const me = accountCaller(ctx);
  await revokeSessions(ctx.db, ctx.site.id, me.accountId, new Date().toISOString(), { sessionId: me.sessionId });
}

export async function listMySessions(ctx: RequestContext): Promise<OwnerSession[]> {
  return listLiveSessions(ctx.db, ctx.site.id, accountCaller(ctx).accountId, new Date().toISOString(), MAX_SESSIONS_LISTED);
}

export async function revokeMySession(ctx: RequestContext, sessionId: string): Promise<void> {
  const revoked = await revokeSessions(ctx.db, ctx.site.id, accountCaller(ctx).accountId, new Date().toISOString(), { sessionId });
  if (revoked === 0) throw notFound('SESSION_NOT_FOUND', 'No live session with this id');
}

/** Changes the password after checking the current one; every other session of the account ends. */
export async function changePassword(ctx: RequestContext, currentPassword: string, newPassword: string): Promise<void> {
  const account = await ownAccount(ctx);
  await throttle(ctx, THROTTLE_SCOPE, 'login', account.email);
  if (!(await verifyPassword(account.passwordHash, currentPassword))) throw invalidCredentials();
  assertPassword(newPassword, 'newPassword');
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (trx) => {
    await updateAccount(trx, ctx.site.id, account.id, { passwordHash }, now);
    await revokeSessions(trx, ctx.site.id, account.id, now, { exceptId: accountCaller(ctx).sessionId });
  });
}

/** Starts TOTP enrolment: a pending secret the account proves with `activateTotp`. */
export async function enrollTotp(ctx: RequestContext): Promise<{ secret: string; otpauthUri: string }> {
  const account = await ownAccount(ctx);
  if (account.totpSecret) throw conflict('TOTP_ALREADY_ENABLED', 'Two-factor sign-in is already on');
  const secret = newTotpSecret();
  await updateAccount(ctx.db, ctx.site.id, account.id, { totpPendingSecret: secret }, new Date().toISOString());
  const label = encodeURIComponent(`Vitrine:${account.email}`);
  return { secret, otpauthUri: `otpauth://totp/${label}?secret=${secret}&issuer=Vitrine` };
}

export async function activateTotp(ctx: RequestContext, code: string): Promise<void> {
  const account = await ownAccount(ctx);
  if (!account.totpPendingSecret) throw badRequest('TOTP_NOT_ENROLLED', 'Start enrolment first');
  const step = matchTotp(account.totpPendingSecret, code);
  if (step === undefined) throw badRequest('INVALID_TOTP', 'The authenticator code is wrong');
  await updateAccount(ctx.db, ctx.site.id, account.id, { totpSecret: account.totpPendingSecret, totpPendingSecret: null, totpLastStep: step }, new Date().toISOString());
}

/** Turns TOTP off; the current password proves it is the account holder. */
export async function disableTotp(ctx: RequestContext, password: string): Promise<void> {
  const account = await ownAccount(ctx);
  await throttle(ctx, THROTTLE_SCOPE, 'login', account.email);
  if (!(await verifyPassword(account.passwordHash, password))) throw invalidCredentials();
  await updateAccount(ctx.db, ctx.site.id, account.id, { totpSecret: null, totpPendingSecret: null, totpLastStep: null }, new Date().toISOString());
}

// ---------------------------------------------------------------------------------------------
// Staff management (owner role or API key; areas.ts keeps staff out)

export async function listSiteAccounts(ctx: RequestContext): Promise<OwnerAccount[]> {
  return listAccounts(ctx.db, ctx.site.id, MAX_ACCOUNTS);
}

export async function addAccount(ctx: RequestContext, input: NewAccount): Promise<OwnerAccount> {
  if ((await listAccounts(ctx.db, ctx.site.id, MAX_ACCOUNTS)).length >= MAX_ACCOUNTS) {
    throw badRequest('TOO_MANY_ACCOUNTS', `A site has at most ${MAX_ACCOUNTS} accounts`);
  }
  return createAccount(ctx.db, ctx.site.id, input);
}

async function siteAccount(ctx: RequestContext, id: string): Promise<OwnerAccount> {
  const account = await findAccount(ctx.db, ctx.site.id, id);
  if (!account) throw notFound('ACCOUNT_NOT_FOUND', 'No account with this id');
  return account;
}

/** The last owner of a site can be neither demoted nor deleted (someone must be able to manage it). */
async function assertNotLastOwner(ctx: RequestContext, account: OwnerAccount): Promise<void> {
  if (account.role === 'owner' && (await countOwners(ctx.db, ctx.site.id)) <= 1) {
    throw badRequest('LAST_OWNER', 'The site needs at least one owner account');
  }
}

/** Changes name, role or grants; the account's live sessions carry the new grants from their next request. */
export async function changeAccount(ctx: RequestContext, id: string, patch: { name?: string; role?: OwnerRole; permissions?: OwnerArea[] }): Promise<OwnerAccount> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const account = await siteAccount(tctx, id);
    if (patch.role === 'staff') await assertNotLastOwner(tctx, account);
    const role = patch.role ?? account.role;
    const update: AccountPatch = { name: patch.name?.trim(), role: patch.role };
    if (role === 'owner') update.permissions = [];
    else if (patch.permissions) update.permissions = [...new Set(patch.permissions)];
    await updateAccount(trx, ctx.site.id, id, update, new Date().toISOString());
    return siteAccount(tctx, id);
  });
}

export async function removeAccount(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await assertNotLastOwner(tctx, await siteAccount(tctx, id));
    await deleteAccount(trx, ctx.site.id, id);
  });
}

// ---------------------------------------------------------------------------------------------
// API keys and OAuth clients of the site (Settings)

/** A new key of the site: the raw key (shown once) and its listing as stored. */
export async function createSiteApiKey(ctx: RequestContext, name: string): Promise<{ apiKey: string; key: ApiKeyListing }> {
  const created = await createApiKey(ctx.db, { siteId: ctx.site.id, name: name.trim() });
  // Newest first: the key just made is at the head of the listing.
  const key = (await listApiKeys(ctx.db, ctx.site.id, MAX_KEYS_LISTED)).find((k) => k.id === created.id);
  if (!key) throw new Error('API key not found after insert');
  return { apiKey: created.apiKey, key };
}

export async function listSiteApiKeys(ctx: RequestContext): Promise<ApiKeyListing[]> {
  return listApiKeys(ctx.db, ctx.site.id, MAX_KEYS_LISTED);
}

export async function revokeSiteApiKey(ctx: RequestContext, id: string): Promise<void> {
  if (!(await revokeApiKey(ctx.db, ctx.site.id, id))) throw notFound('API_KEY_NOT_FOUND', 'No live API key with this id');
}

export async function createSiteOAuthClient(ctx: RequestContext, input: { name: string; redirectUris: string[]; allowLocalhost?: boolean }): Promise<OAuthClient & { createdDate: string }> {
  const created = await createOAuthClient(ctx.db, { siteId: ctx.site.id, name: input.name.trim(), redirectUris: input.redirectUris, allowLocalhost: input.allowLocalhost ?? false });
  const client = (await listOAuthClients(ctx.db, ctx.site.id, MAX_KEYS_LISTED)).find((c) => c.id === created.id);
  if (!client) throw new Error('OAuth client not found after insert');
  return client;
}

export async function listSiteOAuthClients(ctx: RequestContext): Promise<(OAuthClient & { createdDate: string })[]> {
  return listOAuthClients(ctx.db, ctx.site.id, MAX_KEYS_LISTED);
}

export async function deleteSiteOAuthClient(ctx: RequestContext, id: string): Promise<void> {
  if (!(await deleteOAuthClient(ctx.db, ctx.site.id, id))) throw notFound('OAUTH_CLIENT_NOT_FOUND', 'No OAuth client with this id');
}
