import type { SignOnResponse, StateMachineResponse, ValidateEmailResponse } from '@vitrine/types/identity';
import { randomInt, randomUUID } from 'node:crypto';
import type { BaseContext, RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, forbidden, notFound, violation } from '../../http/errors.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { createMemberFromIdentity, memberLoginByEmail, memberLoginById, recordMemberLogin } from '../members/index.js';
import { notifyVisitorLogin } from './login-listeners.js';
import type { Site } from '../sites/index.js';
import { captchaTokenOf, verifyCaptcha, type CaptchaMode } from './captcha.js';
import { identityToWire, isValidEmail, normalizeEmail, REASON_APPROVAL, REASON_EMAIL, statusFromReasons } from './identities.js';
import { queueMail } from './mailer.js';
import { defineJobKind } from '../../jobs/kinds.js';
import { enqueueJob } from '../../jobs/service.js';
import { getSite } from '../sites/index.js';
import { hashPassword, passwordProblem, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyDummyPassword, verifyPassword } from './passwords.js';
import { throttle } from './rate-limit.js';
import type { IdentityProfileInput } from './schema.js';
import { hashSecret, randomToken } from './secrets.js';
import { revokeMemberTokens } from './service.js';
import {
  advanceTotpStep, countAuthStateAttempt, deleteIdentityRow, revokeSessionRow, findAuthStateByHash, findIdentity, findIdentityByEmail, findRecoveryTokenByHash,
  findSessionByHash, insertAuthState, insertIdentity, insertRecoveryToken, insertSession, replaceAuthStateCode,
  revokeIdentitySessions, updateIdentityRow, useAuthState, useRecoveryToken, type AuthStateRecord, type IdentityRecord, type IdentityStatus,
} from './store.js';
import { matchTotp, newTotpSecret } from './totp.js';

// ---------------------------------------------------------------------------------------------
// Bounds (SECURITY.md, ASVS 6.4-6.6)

/** E-mailed codes: 6 digits, valid 10 minutes, 5 tries, bound to their state token. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** A state token lives as long as its code. */
export const STATE_TTL_MS = CODE_TTL_MS;
/** Session tokens from login/register: exchanged for tokens once, within 10 minutes. */
export const API_SESSION_TTL_MS = 10 * 60 * 1000;
/** Hosted-page cookie sessions (prompt=none after a hosted login). */
export const COOKIE_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Password reset links: single use, 1 hour, stored hashed. */
export const RECOVERY_TTL_MS = 3600 * 1000;

export const EMAIL_EXISTS = '-19995';
export const INVALID_PASSWORD = '-19976';
export const RESET_PASSWORD = '-19973';

const API_SESSION_PREFIX = 'st_';
const COOKIE_SESSION_PREFIX = 'hs_';

export type StateName = 'SUCCESS' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_MFA' | 'STATUS_CHECK';

/** The state machine's answer; only the states this server reaches. */
export type StateResponse = StateMachineResponse & { state: StateName };

/** The one answer for every wrong e-mail/password pair, so known and unknown e-mails look alike. */
/** Registering a taken e-mail; its holder may never have chosen a password (an owner-created member), hence the way on. */
const emailExists = () => new ApplicationError(409, EMAIL_EXISTS, 'An account with this e-mail already exists; use "forgot password" to sign in with it');
const invalidCredentials = () => new ApplicationError(400, INVALID_PASSWORD, 'Invalid email or password');
const invalidStateToken = () => badRequest('INVALID_STATE_TOKEN', 'The state token is invalid or expired');

function captchaModeOf(site: Site): CaptchaMode | undefined {
  const mode = site.settings.captcha;
  return mode === 'visible' || mode === 'invisible' ? mode : undefined;
}

async function checkCaptcha(ctx: BaseContext, site: Site, tokens: Parameters<typeof captchaTokenOf>[0]): Promise<void> {
  const mode = captchaModeOf(site);
  if (mode) await verifyCaptcha(ctx, mode, captchaTokenOf(tokens));
}

function newPasswordOrThrow(password: string | null | undefined, field: string): string {
  if (!password) throw violation(field, 'is required', 'REQUIRED_FIELD');
  const problem = passwordProblem(password);
  if (problem === 'TOO_SHORT') throw violation(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`, 'MIN_LENGTH', { type: 'PASSWORD', reason: problem });
  if (problem === 'TOO_LONG') throw violation(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`, 'MAX_LENGTH', { type: 'PASSWORD', reason: problem });
  if (problem === 'TOO_COMMON') throw violation(field, 'is too common; choose a less guessable password', 'FORMAT', { type: 'PASSWORD', reason: problem });
  return password;
}

// ---------------------------------------------------------------------------------------------
// Sessions

export async function createSession(ctx: BaseContext, siteId: string, identityId: string, kind: 'api' | 'cookie'): Promise<string> {
  const token = randomToken(kind === 'api' ? API_SESSION_PREFIX : COOKIE_SESSION_PREFIX);
  const now = new Date();
  await insertSession(ctx.db, {
    id: randomUUID(), siteId, identityId, tokenHash: hashSecret(token), createdDate: now.toISOString(),
    expiresDate: new Date(now.getTime() + (kind === 'api' ? API_SESSION_TTL_MS : COOKIE_SESSION_TTL_MS)).toISOString(), revokedDate: null,
  });
  return token;
}

/**
 * The identity a session token stands for, when valid and the identity may log in. API session tokens
 * are single use (`consume`); cookie sessions stay until they expire or the member logs out.
 */
export async function resolveSession(ctx: BaseContext, siteId: string, token: string, consume: boolean): Promise<IdentityRecord | undefined> {
  return resolveSessionHash(ctx, siteId, sessionTokenRef(token), consume);
}

/** What may be stored about a session token that is to be redeemed later: its hash, never the token. */
export interface SessionTokenRef { hash: string; singleUse: boolean }

export function sessionTokenRef(token: string): SessionTokenRef {
  return { hash: hashSecret(token), singleUse: token.startsWith(API_SESSION_PREFIX) };
}

/** `resolveSession` for a token known only by its hash (a redirect session keeps no token in clear). */
export async function resolveSessionHash(ctx: BaseContext, siteId: string, ref: SessionTokenRef, consume: boolean): Promise<IdentityRecord | undefined> {
  const session = await findSessionByHash(ctx.db, ref.hash);
  if (!session || session.siteId !== siteId || session.revokedDate || Date.parse(session.expiresDate) <= Date.now()) return undefined;
  const identity = await findIdentity(ctx.db, siteId, session.identityId);
  if (!identity || identity.status !== 'ACTIVE') return undefined;
  // Single use: of two concurrent uses of one API session token, only one revokes it.
  if (consume && ref.singleUse && !(await revokeSessionRow(ctx.db, session.id, new Date().toISOString()))) return undefined;
  return identity;
}

// ---------------------------------------------------------------------------------------------
// Flow states (e-mail verification, MFA)

function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const codeHash = (stateId: string, code: string) => hashSecret(`${stateId}:${code}`);

async function newState(ctx: BaseContext, siteId: string, identityId: string, kind: 'EMAIL_VERIFICATION' | 'MFA', data: Record<string, unknown>, code?: string): Promise<string> {
  const token = randomToken('stt_');
  const id = randomUUID();
  const now = Date.now();
  await insertAuthState(ctx.db, {
    id, siteId, identityId, kind, tokenHash: hashSecret(token), codeHash: code ? codeHash(id, code) : null, attempts: 0, data,
    createdDate: new Date(now).toISOString(), expiresDate: new Date(now + STATE_TTL_MS).toISOString(), usedDate: null,
  });
  return token;
}

async function loadState(ctx: BaseContext, siteId: string, token: string, kind: string): Promise<AuthStateRecord> {
  const state = await findAuthStateByHash(ctx.db, hashSecret(token));
  if (!state || state.siteId !== siteId || state.kind !== kind || state.usedDate || Date.parse(state.expiresDate) <= Date.now()) throw invalidStateToken();
  return state;
}

/** Checks a code against its state: counts the try first, so at most CODE_MAX_ATTEMPTS guesses ever reach the compare. */
async function checkStateCode(ctx: BaseContext, state: AuthStateRecord, code: string): Promise<void> {
  if (!(await countAuthStateAttempt(ctx.db, state.id, CODE_MAX_ATTEMPTS))) {
    throw badRequest('CODE_ATTEMPTS_EXCEEDED', 'Too many wrong codes; start again to get a new code');
  }
  if (!state.codeHash || codeHash(state.id, code.trim()) !== state.codeHash) {
    throw badRequest('INVALID_CODE', 'The code is wrong', { attemptsLeft: Math.max(0, CODE_MAX_ATTEMPTS - state.attempts - 1) });
  }
  if (!(await useAuthState(ctx.db, state.id, new Date().toISOString()))) throw invalidStateToken();
}

function codeMail(to: string, code: string, purpose: string) {
  return {
    to,
    subject: `Your verification code: ${code}`,
    text: `Your code to ${purpose} is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.`,
  };
}

async function emailVerificationState(ctx: BaseContext, identity: IdentityRecord): Promise<StateResponse> {
  const code = newCode();
  const stateToken = await inTransaction(ctx.db, async (trx) => {
    const token = await newState({ ...ctx, db: trx }, identity.siteId, identity.id, 'EMAIL_VERIFICATION', {}, code);
    await queueMail({ ...ctx, db: trx }, identity.siteId, 'identity-code', codeMail(identity.loginEmail, code, 'verify your e-mail address'));
    return token;
  });
  return { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken, identity: identityToWire(identity), additionalData: {} };
}

async function mfaState(ctx: BaseContext, identity: IdentityRecord): Promise<StateResponse> {
  const factors: { factorType: string; factorStatus: string }[] = [];
  if (identity.totpEnabled) factors.push({ factorType: 'TOTP', factorStatus: 'ENABLED' });
  let code: string | undefined;
  if (identity.emailMfaEnabled) {
    factors.push({ factorType: 'EMAIL', factorStatus: 'ENABLED' });
    code = newCode();
  }
  const stateToken = await inTransaction(ctx.db, async (trx) => {
    const token = await newState({ ...ctx, db: trx }, identity.siteId, identity.id, 'MFA', {}, code);
    if (code) await queueMail({ ...ctx, db: trx }, identity.siteId, 'identity-code', codeMail(identity.loginEmail, code, 'sign in'));
    return token;
  });
  return {
    state: 'REQUIRE_MFA', stateToken, identity: identityToWire(identity), additionalData: {},
    requireMfaData: { availableFactors: factors, reason: 'USER_SETTINGS' },
  };
}

/**
 * After the first factor (password, reset link): status, e-mail verification, owner approval, then
 * the second factor, then a session. A reset never skips MFA because it continues here.
 */
async function continueLogin(ctx: BaseContext, site: Site, identityIn: IdentityRecord, opts: { mfaDone: boolean }): Promise<StateResponse> {
  let identity = identityIn;
  if (identity.status === 'BLOCKED' || identity.status === 'OFFLINE') {
    return { state: 'STATUS_CHECK', identity: identityToWire(identity), additionalData: {} };
  }
  if (site.settings.requireEmailVerification && !identity.emailVerified) return emailVerificationState(ctx, identity);
  if (identity.statusReasons.includes(REASON_EMAIL)) {
    // The site stopped requiring verification after this identity registered: the reason no longer holds.
    const reasons = identity.statusReasons.filter((r) => r !== REASON_EMAIL);
    const now = new Date().toISOString();
    await updateIdentityRow(ctx.db, site.id, identity.id, { statusReasons: reasons, status: statusFromReasons(reasons) }, now);
    identity = (await findIdentity(ctx.db, site.id, identity.id)) ?? identity;
  }
  if (identity.statusReasons.includes(REASON_APPROVAL)) {
    return { state: 'REQUIRE_OWNER_APPROVAL', identity: identityToWire(identity), additionalData: {} };
  }
  if (!opts.mfaDone && (identity.totpEnabled || identity.emailMfaEnabled)) return mfaState(ctx, identity);
  const now = new Date().toISOString();
  await updateIdentityRow(ctx.db, site.id, identity.id, { lastLoginDate: now }, now);
  await recordMemberLogin({ ...ctx, site }, identity.id, identity.emailVerified);
  if (ctx.caller.kind === 'visitor') await notifyVisitorLogin({ ...ctx, site }, { visitorId: ctx.caller.visitorId, memberId: identity.id });
  const sessionToken = await createSession(ctx, site.id, identity.id, 'api');
  const fresh = (await findIdentity(ctx.db, site.id, identity.id)) ?? identity;
  return { state: 'SUCCESS', sessionToken, identity: identityToWire(fresh), additionalData: {} };
}

// ---------------------------------------------------------------------------------------------
// Register and login

export interface RegisterInput {
  loginId: { email: string };
  password?: string | undefined;
  profile?: IdentityProfileInput | undefined;
  captchaTokens?: Parameters<typeof captchaTokenOf>[0];
}

export async function register(ctx: RequestContext, input: RegisterInput): Promise<StateResponse> {
  const site = ctx.site;
  const raw = input.loginId.email;
  if (!isValidEmail(raw)) throw violation('loginId.email', 'must be a valid e-mail address', 'FORMAT', { type: 'EMAIL' });
  const email = normalizeEmail(raw);
  await throttle(ctx, site.id, 'register', email);
  // Input checks first, so a rejected password does not use up the caller's captcha solution.
  const password = newPasswordOrThrow(input.password, 'password');
  await checkCaptcha(ctx, site, input.captchaTokens);
  // Hash before looking the e-mail up: both outcomes spend the same argon2 work.
  const passwordHash = await hashPassword(password);
  // An owner-created member holds the e-mail as an account does: its holder claims it by the reset link.
  const existing = await findIdentityByEmail(ctx.db, site.id, email) ?? await unclaimedMember(ctx, email);
  if (existing) {
    if (site.settings.requireEmailVerification) {
      // Same answer as a new registration (a state token), and the owner of the address hears about it.
      // Queued like the code mail of a new registration (a database write, no network wait).
      const stateToken = await inTransaction(ctx.db, async (trx) => {
        const token = await newState({ ...ctx, db: trx }, site.id, existing.id, 'EMAIL_VERIFICATION', { decoy: true });
        await queueMail({ ...ctx, db: trx }, site.id, 'identity-register-notice', {
          to: email,
          subject: 'Someone tried to register with your e-mail',
          text: 'Somebody tried to create an account with this e-mail address. You already have one; use "forgot password" if you cannot log in.',
        });
        return token;
      });
      return { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken, additionalData: {} };
    }
    throw emailExists();
  }
  const reasons: string[] = [];
  if (site.settings.requireEmailVerification) reasons.push(REASON_EMAIL);
  if (site.settings.requireOwnerApproval) reasons.push(REASON_APPROVAL);
  const now = new Date().toISOString();
  const identity: IdentityRecord = {
    id: randomUUID(), siteId: site.id, loginEmail: email, emailVerified: false, status: statusFromReasons(reasons), statusReasons: reasons,
    passwordHash, profile: stripUndefined(input.profile ?? {}), totpSecret: null, totpEnabled: false, totpLastStep: 0, emailMfaEnabled: false,
    revision: 1, createdDate: now, updatedDate: now, lastLoginDate: null,
  };
  try {
    await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      await insertIdentity(trx, identity);
      await createMemberFromIdentity(tctx, {
        id: identity.id, loginEmail: email, status: site.settings.requireOwnerApproval ? 'PENDING' : 'APPROVED',
        profile: profileNames(input.profile),
      });
    });
  } catch (err) {
    // Two registrations of one e-mail at once: the unique index decides, the loser gets -19995.
    if (await findIdentityByEmail(ctx.db, site.id, email)) throw emailExists();
    throw err;
  }
  return continueLogin(ctx, site, identity, { mfaDone: true });
}

function profileNames(p: IdentityProfileInput | undefined): { nickname?: string; firstName?: string; lastName?: string } {
  return {
    ...(p?.nickname ? { nickname: p.nickname } : {}),
    ...(p?.firstName ? { firstName: p.firstName } : {}),
    ...(p?.lastName ? { lastName: p.lastName } : {}),
  };
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

export interface LoginInput {
  loginId: { email: string };
  password?: string | null | undefined;
  captchaTokens?: Parameters<typeof captchaTokenOf>[0];
}

export async function login(ctx: RequestContext, input: LoginInput): Promise<StateResponse> {
  const site = ctx.site;
  const email = normalizeEmail(input.loginId.email);
  await throttle(ctx, site.id, 'login', email);
  await checkCaptcha(ctx, site, input.captchaTokens);
  const password = input.password ?? '';
  const identity = isValidEmail(email) ? await findIdentityByEmail(ctx.db, site.id, email) : undefined;
  if (!identity || identity.status === 'DELETED') {
    await verifyDummyPassword(password);
    throw invalidCredentials();
  }
  if (!identity.passwordHash) {
    await verifyDummyPassword(password);
    throw new ApplicationError(400, RESET_PASSWORD, 'A password reset is required for this account');
  }
  if (!(await verifyPassword(identity.passwordHash, password))) throw invalidCredentials();
  return continueLogin(ctx, site, identity, { mfaDone: false });
}

export async function verifyDuringAuthentication(ctx: RequestContext, input: { code: string; stateToken: string }): Promise<StateResponse> {
  await throttle(ctx, ctx.site.id, 'verify', input.stateToken);
  const state = await loadState(ctx, ctx.site.id, input.stateToken, 'EMAIL_VERIFICATION');
  await checkStateCode(ctx, state, input.code);
  const identity = await findIdentity(ctx.db, ctx.site.id, state.identityId);
  if (!identity) throw invalidStateToken();
  const reasons = identity.statusReasons.filter((r) => r !== REASON_EMAIL);
  const status: IdentityStatus = identity.status === 'PENDING' || identity.status === 'ACTIVE' ? statusFromReasons(reasons) : identity.status;
  const now = new Date().toISOString();
  await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { emailVerified: true, statusReasons: reasons, status }, now);
  const updated = (await findIdentity(ctx.db, ctx.site.id, identity.id))!;
  // The e-mail code was the proof of possession at register; at login it follows the password.
  return continueLogin(ctx, ctx.site, updated, { mfaDone: false });
}

/** A new code for the same state token (the old one stops working). */
export async function resendCode(ctx: RequestContext, stateToken: string): Promise<void> {
  await throttle(ctx, ctx.site.id, 'send-email', stateToken);
  const state = await findAuthStateByHash(ctx.db, hashSecret(stateToken));
  if (!state || state.siteId !== ctx.site.id || state.usedDate || Date.parse(state.expiresDate) <= Date.now()) throw invalidStateToken();
  if (state.data.decoy) return;
  const identity = await findIdentity(ctx.db, ctx.site.id, state.identityId);
  if (!identity) throw invalidStateToken();
  if (state.kind === 'MFA' && !identity.emailMfaEnabled) throw badRequest('FACTOR_NOT_AVAILABLE', 'No e-mail factor to resend a code for');
  const code = newCode();
  await inTransaction(ctx.db, async (trx) => {
    await replaceAuthStateCode(trx, state.id, codeHash(state.id, code), new Date(Date.now() + CODE_TTL_MS).toISOString());
    await queueMail({ ...ctx, db: trx }, ctx.site.id, 'identity-code', codeMail(identity.loginEmail, code, state.kind === 'MFA' ? 'sign in' : 'verify your e-mail address'));
  });
}

// ---------------------------------------------------------------------------------------------
// MFA

export const SUPPORTED_FACTORS = ['EMAIL', 'TOTP'] as const;

export async function verifyFactor(
  ctx: RequestContext,
  factorType: string,
  input: { stateToken: string; emailData?: { code?: string | null | undefined } | undefined; totpData?: { code?: string | null | undefined } | undefined },
): Promise<StateResponse> {
  const type = factorType.toUpperCase();
  if (type !== 'EMAIL' && type !== 'TOTP') {
    throw new ApplicationError(400, 'FACTOR_NOT_AVAILABLE', `The ${type} factor is not available on this server; use EMAIL or TOTP`, { factorType: type });
  }
  await throttle(ctx, ctx.site.id, 'verify', input.stateToken);
  const state = await loadState(ctx, ctx.site.id, input.stateToken, 'MFA');
  const identity = await findIdentity(ctx.db, ctx.site.id, state.identityId);
  if (!identity) throw invalidStateToken();
  if (type === 'EMAIL') {
    if (!identity.emailMfaEnabled) throw new ApplicationError(400, 'FACTOR_NOT_AVAILABLE', 'The EMAIL factor is not enabled for this member', { factorType: type });
    const code = input.emailData?.code;
    if (!code) throw violation('emailData.code', 'is required', 'REQUIRED_FIELD');
    await checkStateCode(ctx, state, code);
  } else {
    if (!identity.totpEnabled || !identity.totpSecret) throw new ApplicationError(400, 'FACTOR_NOT_AVAILABLE', 'The TOTP factor is not enabled for this member', { factorType: type });
    const code = input.totpData?.code;
    if (!code) throw violation('totpData.code', 'is required', 'REQUIRED_FIELD');
    if (!(await countAuthStateAttempt(ctx.db, state.id, CODE_MAX_ATTEMPTS))) throw badRequest('CODE_ATTEMPTS_EXCEEDED', 'Too many wrong codes; log in again');
    await acceptTotp(ctx, identity, code);
    if (!(await useAuthState(ctx.db, state.id, new Date().toISOString()))) throw invalidStateToken();
  }
  return continueLogin(ctx, ctx.site, identity, { mfaDone: true });
}

/** Accepts a TOTP code once: the step it matches must be later than the last step used. */
async function acceptTotp(ctx: BaseContext, identity: IdentityRecord, code: string): Promise<void> {
  const step = identity.totpSecret ? matchTotp(identity.totpSecret, code.trim()) : undefined;
  if (step === undefined) throw badRequest('INVALID_CODE', 'The code is wrong');
  if (!(await advanceTotpStep(ctx.db, identity.siteId, identity.id, step))) throw badRequest('CODE_ALREADY_USED', 'This code was already used; wait for the next one');
}

export async function enrollTotp(ctx: RequestContext, memberId: string): Promise<{ secret: string; otpauthUri: string }> {
  const identity = await memberIdentity(ctx, memberId);
  if (identity.totpEnabled) throw badRequest('FACTOR_ALREADY_ENABLED', 'TOTP is already enabled');
  const secret = newTotpSecret();
  const now = new Date().toISOString();
  await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { totpSecret: secret, totpEnabled: false }, now);
  const label = encodeURIComponent(`${ctx.site.name}:${identity.loginEmail}`);
  return { secret, otpauthUri: `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(ctx.site.name)}&algorithm=SHA1&digits=6&period=30` };
}

export async function activateTotp(ctx: RequestContext, memberId: string, code: string): Promise<{ enabled: true }> {
  const identity = await memberIdentity(ctx, memberId);
  if (!identity.totpSecret) throw badRequest('FACTOR_NOT_ENROLLED', 'Enroll TOTP first');
  await acceptTotp(ctx, identity, code);
  await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { totpEnabled: true }, new Date().toISOString());
  return { enabled: true };
}

export async function setEmailFactor(ctx: RequestContext, memberId: string, enabled: boolean): Promise<{ enabled: boolean }> {
  const identity = await memberIdentity(ctx, memberId);
  await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { emailMfaEnabled: enabled }, new Date().toISOString());
  return { enabled };
}

async function memberIdentity(ctx: RequestContext, memberId: string): Promise<IdentityRecord> {
  const identity = await findIdentity(ctx.db, ctx.site.id, memberId);
  if (!identity) throw notFound('IDENTITY_NOT_FOUND', 'No identity for this member');
  return identity;
}

// ---------------------------------------------------------------------------------------------
// Passwords

export async function changePassword(ctx: RequestContext, memberId: string, input: { newPassword: string; currentPassword?: string | undefined }): Promise<Record<string, never>> {
  const identity = await memberIdentity(ctx, memberId);
  await throttle(ctx, ctx.site.id, 'login', identity.loginEmail);
  if (identity.passwordHash) {
    if (!input.currentPassword) throw violation('currentPassword', 'is required', 'REQUIRED_FIELD');
    if (!(await verifyPassword(identity.passwordHash, input.currentPassword))) throw new ApplicationError(400, INVALID_PASSWORD, 'The current password is wrong');
  }
  const password = newPasswordOrThrow(input.newPassword, 'newPassword');
  await setPasswordAndRevoke(ctx, ctx.site.id, identity.id, await hashPassword(password), {});
  return {};
}

async function setPasswordAndRevoke(ctx: BaseContext, siteId: string, identityId: string, passwordHash: string, extra: { emailVerified?: boolean; statusReasons?: string[]; status?: IdentityStatus }): Promise<void> {
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await updateIdentityRow(trx, siteId, identityId, { passwordHash, ...extra }, now);
    await revokeMemberTokens(tctx, siteId, identityId);
    await revokeIdentitySessions(trx, siteId, identityId, now);
  });
}

// ---------------------------------------------------------------------------------------------
// Recovery

/**
 * Always answers the same, in the same time, whether or not the e-mail has an account (ASVS 6.3.8):
 * the request only queues an `identity.recovery-email` job; the lookup, the token and the mail happen
 * in the job.
 */
export async function sendRecoveryEmail(ctx: RequestContext, input: { email: string; redirect?: { url?: string | undefined; clientId?: string | null | undefined } | undefined }): Promise<Record<string, never>> {
  const email = normalizeEmail(input.email);
  await throttle(ctx, ctx.site.id, 'send-email', email);
  await enqueueJob(ctx.db, recoveryEmailJob, { siteId: ctx.site.id, email, redirectUrl: input.redirect?.url ?? null, origin: ctx.origin }, { siteId: ctx.site.id });
  return {};
}

export const recoveryEmailJob = defineJobKind<{ siteId: string; email: string; redirectUrl: string | null; origin: string }>({
  kind: 'identity.recovery-email',
  async run(jctx, p) {
    const site = await getSite(jctx.db, p.siteId);
    if (!site || !isValidEmail(p.email)) return;
    const ctx: RequestContext = {
      requestId: jctx.job.id, deps: jctx.deps, db: jctx.db, dialect: jctx.deps.storage.dialect, caller: { kind: 'anonymous' },
      origin: p.origin, ip: '127.0.0.1', log: jctx.log, site,
    };
    const identity = await findIdentityByEmail(jctx.db, site.id, p.email);
    if (identity) {
      if (identity.status !== 'DELETED' && identity.status !== 'BLOCKED') await issueRecoveryLink(ctx, identity, p.redirectUrl, 'reset');
      return;
    }
    const member = await unclaimedMember(ctx, p.email);
    if (member && claimable(member.status)) await issueRecoveryLink(ctx, member, p.redirectUrl, 'choose');
  },
});

/** Every job kind of the identity domain. */
export const identityJobKinds = [recoveryEmailJob] as const;

/** Elevated: mails the holder a link to set a password; an owner-created member's (no identity yet) claims the member. */
export async function sendActivationEmail(ctx: RequestContext, input: { identityId: string; redirectUrl?: string | undefined }): Promise<Record<string, never>> {
  const identity = await findIdentity(ctx.db, ctx.site.id, input.identityId);
  const holder = identity ?? await unclaimedMemberById(ctx, input.identityId);
  if (!holder || (identity && identity.status === 'DELETED')) throw notFound('IDENTITY_NOT_FOUND', 'No such identity');
  // A member the owner created has no password yet: the link sets its first one.
  await issueRecoveryLink(ctx, holder, input.redirectUrl ?? null, identity ? 'reset' : 'activate');
  return {};
}

/**
 * `identity`: an identity, or an owner-created member without one (the link then carries the member's
 * id, and using it creates the member's identity: claimMember).
 */
/** A recovery mail's subject, and whether its link sets a first password (an owner-created member's) or a new one. */
const RECOVERY_MAILS = {
  reset: { subject: 'Reset your password', first: false },
  choose: { subject: 'Choose your password', first: true },
  activate: { subject: 'Activate your account', first: true },
} as const;

async function issueRecoveryLink(ctx: RequestContext, identity: { id: string; loginEmail: string }, redirectUrl: string | null, kind: keyof typeof RECOVERY_MAILS): Promise<void> {
  const { subject, first } = RECOVERY_MAILS[kind];
  const token = randomToken('rc_');
  const now = Date.now();
  const link = `${ctx.origin}/_hosted/reset-password?recoveryToken=${encodeURIComponent(token)}`;
  await inTransaction(ctx.db, async (trx) => {
    await insertRecoveryToken(trx, {
      id: randomUUID(), siteId: ctx.site.id, identityId: identity.id, tokenHash: hashSecret(token), redirectUrl,
      createdDate: new Date(now).toISOString(), expiresDate: new Date(now + RECOVERY_TTL_MS).toISOString(), usedDate: null,
    });
    await queueMail({ ...ctx, db: trx }, ctx.site.id, 'identity-recovery', {
      to: identity.loginEmail,
      subject,
      text: `Open this link within one hour to choose ${first ? 'your' : 'a new'} password:\n${link}\n\nIf you did not ask for this, ignore this e-mail.`,
    });
  });
}

export async function recover(ctx: RequestContext, input: { recoveryToken: string; password?: string | null | undefined }): Promise<StateResponse> {
  await throttle(ctx, ctx.site.id, 'recover', undefined);
  const password = newPasswordOrThrow(input.password, 'password');
  const record = await findRecoveryTokenByHash(ctx.db, hashSecret(input.recoveryToken));
  if (!record || record.siteId !== ctx.site.id || record.usedDate || Date.parse(record.expiresDate) <= Date.now()) {
    throw badRequest('INVALID_RECOVERY_TOKEN', 'The recovery link is invalid, used or expired');
  }
  if (!(await useRecoveryToken(ctx.db, record.id, new Date().toISOString()))) throw badRequest('INVALID_RECOVERY_TOKEN', 'The recovery link is invalid, used or expired');
  const identity = await findIdentity(ctx.db, ctx.site.id, record.identityId) ?? await claimMember(ctx, record.identityId);
  if (!identity || identity.status === 'DELETED') throw badRequest('INVALID_RECOVERY_TOKEN', 'The recovery link is invalid, used or expired');
  // The link proved the mailbox: the e-mail counts as verified.
  const reasons = identity.statusReasons.filter((r) => r !== REASON_EMAIL);
  const status = identity.status === 'PENDING' || identity.status === 'ACTIVE' ? statusFromReasons(reasons) : identity.status;
  await setPasswordAndRevoke(ctx, ctx.site.id, identity.id, await hashPassword(password), { emailVerified: true, statusReasons: reasons, status });
  const updated = (await findIdentity(ctx.db, ctx.site.id, identity.id))!;
  return continueLogin(ctx, ctx.site, updated, { mfaDone: false });
}

// ---------------------------------------------------------------------------------------------
// Members the owner created (members API): no identity, so no password, until their holder claims one

/** The member holding `email` when no identity does: one the owner created, not yet claimed. */
async function unclaimedMember(ctx: RequestContext, email: string): Promise<{ id: string; loginEmail: string; status: string } | undefined> {
  const member = await memberLoginByEmail(ctx, email);
  return member && !(await findIdentity(ctx.db, ctx.site.id, member.id)) ? member : undefined;
}

/** An owner-created member of this id that may still be claimed (no identity, APPROVED or PENDING). */
async function unclaimedMemberById(ctx: RequestContext, id: string): Promise<{ id: string; loginEmail: string } | undefined> {
  const member = await memberLoginById(ctx, id);
  return member && claimable(member.status) && !(await findIdentity(ctx.db, ctx.site.id, member.id)) ? member : undefined;
}

async function claimUnclaimedMember(ctx: RequestContext, email: string): Promise<IdentityRecord | undefined> {
  const member = await unclaimedMember(ctx, email);
  return member && claimMember(ctx, member.id);
}

/** Member statuses whose holder may claim the member (a blocked or offline one is not let in either way). */
const claimable = (status: string) => status === 'APPROVED' || status === 'PENDING';

/**
 * The identity of an unclaimed member whose reset link was just used, created with the member's id
 * and e-mail and no password (recover sets it; the link proved the mailbox). A pending member's
 * identity waits for the owner's approval as a registration on an approval-only site does. Undefined
 * when the member is gone, blocked, or its e-mail was taken meanwhile.
 */
async function claimMember(ctx: RequestContext, memberId: string): Promise<IdentityRecord | undefined> {
  const member = await memberLoginById(ctx, memberId);
  if (!member || !claimable(member.status)) return undefined;
  const reasons = member.status === 'PENDING' ? [REASON_APPROVAL] : [];
  const now = new Date().toISOString();
  try {
    await insertIdentity(ctx.db, {
      id: member.id, siteId: ctx.site.id, loginEmail: member.loginEmail, emailVerified: false, status: statusFromReasons(reasons), statusReasons: reasons,
      passwordHash: null, profile: {}, totpSecret: null, totpEnabled: false, totpLastStep: 0, emailMfaEnabled: false,
      revision: 1, createdDate: now, updatedDate: now, lastLoginDate: null,
    });
  } catch (err) {
    // A second link used at the same moment created it first (same id), or the e-mail is another identity's now.
    if (!isUniqueViolation(err)) throw err;
  }
  // A delete or block of the member that ran between the check above and the insert found no
  // identity to remove or stop: do it here.
  const current = await memberLoginById(ctx, member.id);
  if (!current) await deleteIdentityRow(ctx.db, ctx.site.id, member.id);
  else if (!claimable(current.status)) await updateIdentityRow(ctx.db, ctx.site.id, member.id, { status: 'BLOCKED' }, new Date().toISOString());
  if (!current || !claimable(current.status)) return undefined;
  const identity = await findIdentity(ctx.db, ctx.site.id, member.id);
  return identity?.loginEmail === member.loginEmail ? identity : undefined;
}

// ---------------------------------------------------------------------------------------------
// Verification outside login (start / verify), sign-on, validate-email

export async function startVerification(ctx: RequestContext, identityId: string): Promise<{ verificationId: string }> {
  const identity = await memberIdentity(ctx, identityId);
  await throttle(ctx, ctx.site.id, 'send-email', identity.loginEmail);
  const code = newCode();
  const verificationId = await inTransaction(ctx.db, async (trx) => {
    const id = await newState({ ...ctx, db: trx }, ctx.site.id, identity.id, 'EMAIL_VERIFICATION', { standalone: true }, code);
    await queueMail({ ...ctx, db: trx }, ctx.site.id, 'identity-code', codeMail(identity.loginEmail, code, 'verify your e-mail address'));
    return id;
  });
  return { verificationId };
}

export async function verifyStandalone(ctx: RequestContext, memberId: string, input: { code: string; verificationId: string }): Promise<Record<string, never>> {
  await throttle(ctx, ctx.site.id, 'verify', input.verificationId);
  const state = await loadState(ctx, ctx.site.id, input.verificationId, 'EMAIL_VERIFICATION');
  if (state.identityId !== memberId) throw invalidStateToken();
  await checkStateCode(ctx, state, input.code);
  const identity = await memberIdentity(ctx, memberId);
  const reasons = identity.statusReasons.filter((r) => r !== REASON_EMAIL);
  const status = identity.status === 'PENDING' || identity.status === 'ACTIVE' ? statusFromReasons(reasons) : identity.status;
  await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { emailVerified: true, statusReasons: reasons, status }, new Date().toISOString());
  return {};
}

/** External login (elevated): finds or creates the identity, answers a session token for the authorized_client grant. */
export async function signOn(ctx: RequestContext, input: { loginId: { email: string }; profile?: IdentityProfileInput | undefined; verifyEmail?: boolean | undefined }): Promise<SignOnResponse> {
  const raw = input.loginId.email;
  if (!isValidEmail(raw)) throw violation('loginId.email', 'must be a valid e-mail address', 'FORMAT', { type: 'EMAIL' });
  const email = normalizeEmail(raw);
  // An elevated caller vouches for the address: an owner-created member holding it is claimed at once.
  let identity = await findIdentityByEmail(ctx.db, ctx.site.id, email) ?? await claimUnclaimedMember(ctx, email);
  if (!identity) {
    const now = new Date().toISOString();
    const created: IdentityRecord = {
      id: randomUUID(), siteId: ctx.site.id, loginEmail: email, emailVerified: input.verifyEmail ?? false, status: 'ACTIVE', statusReasons: [],
      passwordHash: null, profile: stripUndefined(input.profile ?? {}), totpSecret: null, totpEnabled: false, totpLastStep: 0, emailMfaEnabled: false,
      revision: 1, createdDate: now, updatedDate: now, lastLoginDate: null,
    };
    await inTransaction(ctx.db, async (trx) => {
      await insertIdentity(trx, created);
      await createMemberFromIdentity({ ...ctx, db: trx }, { id: created.id, loginEmail: email, status: 'APPROVED', profile: profileNames(input.profile) });
    });
    identity = created;
  } else if (input.verifyEmail && !identity.emailVerified) {
    await updateIdentityRow(ctx.db, ctx.site.id, identity.id, { emailVerified: true }, new Date().toISOString());
  }
  if (identity.status !== 'ACTIVE') throw forbidden('IDENTITY_NOT_ACTIVE', `The identity is ${identity.status}`);
  const sessionToken = await createSession(ctx, ctx.site.id, identity.id, 'api');
  const fresh = (await findIdentity(ctx.db, ctx.site.id, identity.id))!;
  return { sessionToken, identity: identityToWire(fresh) };
}

export function validateEmail(email: string): ValidateEmailResponse {
  return isValidEmail(email) ? { valid: true, formatInvalid: false } : { valid: false, formatInvalid: true, failure: { reason: 'EMAIL_DOMAIN_FORMAT_INVALID' } };
}

// ---------------------------------------------------------------------------------------------
// For the members domain

export async function getIdentity(ctx: RequestContext, identityId: string): Promise<IdentityRecord | undefined> {
  return findIdentity(ctx.db, ctx.site.id, identityId);
}

/** Logout: every refresh token and session of the member stops working. */
export async function logoutMember(ctx: BaseContext, siteId: string, memberId: string): Promise<void> {
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    await revokeMemberTokens({ ...ctx, db: trx }, siteId, memberId);
    await revokeIdentitySessions(trx, siteId, memberId, now);
  });
}
