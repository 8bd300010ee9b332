import { randomBytes } from 'node:crypto';
import type { BaseContext, RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest } from '../../http/errors.js';
import { assertSiteServes, getSiteCached } from '../sites/index.js';
import {
  COOKIE_SESSION_TTL_MS, createSession, login, logoutMember, recover, register, resendCode, resolveSession, resolveSessionHash, sendRecoveryEmail,
  verifyDuringAuthentication, verifyFactor, type StateResponse,
} from './auth.js';
import { issueAuthorizationCode, originAllowed, redirectUriAllowed, safeOrigin } from './oauth-codes.js';
import { loadRedirectSession, type AuthPayload } from './redirect-sessions.js';
import { hashSecret } from './secrets.js';
import { findOAuthClient, findRecoveryTokenByHash, type OAuthClient, type RedirectSessionRecord } from './store.js';

/**
 * The pages a redirect session's `fullUrl` points at: login/register (with e-mail code, MFA and
 * forgot-password steps), authorize (issues the one-time code by query, fragment or web message),
 * logout, and reset-password. Plain HTML with one small inline script each, under a strict CSP.
 */
export const SESSION_COOKIE = 'vitrine_hs';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe to embed inside a <script> element. */
const jsonForScript = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

function page(title: string, body: string, script: string, opts: { frameAncestors?: string; status?: number; headers?: Record<string, string> } = {}): Response {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
form{display:flex;flex-direction:column;gap:.6rem;margin:1rem 0}input,button{font:inherit;padding:.55rem}button{cursor:pointer}
.err{color:#b00020}.hidden{display:none}a{color:#1a56db}</style></head><body>${body}
<script nonce="${nonce}">${script}</script></body></html>`;
  return new Response(html, {
    status: opts.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${opts.frameAncestors ?? "'none'"}`,
      ...(opts.headers ?? {}),
    },
  });
}

function messagePage(title: string, message: string, status = 200): Response {
  return page(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`, '', { status });
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

function sessionCookie(ctx: BaseContext, value: string, maxAgeSeconds: number): string {
  const secure = ctx.origin.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}; Path=/_hosted; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

async function siteContext(ctx: BaseContext, siteId: string): Promise<RequestContext> {
  const site = await getSiteCached(ctx.db, siteId);
  if (!site) throw badRequest('INVALID_SESSION', 'The page link is invalid or expired');
  assertSiteServes(site);
  return { ...ctx, site };
}

// ---------------------------------------------------------------------------------------------
// Authorization responses

function withParams(uri: string, mode: 'query' | 'fragment', params: Record<string, string>): string {
  const url = new URL(uri);
  if (mode === 'query') {
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  } else {
    url.hash = new URLSearchParams(params).toString();
  }
  return url.toString();
}

/** The origin a web message may go to: the redirect URI's, else the embedding page's (Referer) when the client allows it. */
function webMessageOrigin(auth: AuthPayload, client: OAuthClient | undefined, request: Request): string | undefined {
  if (auth.redirectUri) return safeOrigin(auth.redirectUri);
  const referer = request.headers.get('referer');
  const origin = referer ? safeOrigin(referer) : undefined;
  return origin && client && originAllowed(client, origin) ? origin : undefined;
}

function deliver(auth: AuthPayload, client: OAuthClient | undefined, request: Request, params: Record<string, string>, headers: Record<string, string> = {}): Response {
  if (auth.responseMode !== 'web_message') return redirect(withParams(auth.redirectUri, auth.responseMode, params), headers);
  const target = webMessageOrigin(auth, client, request);
  if (!target) return messagePage('Authorization failed', 'The page that asked for this login is not registered for this client.', 400);
  return page('Authorizing', '<p>Signing you in...</p>', `parent.postMessage(${jsonForScript(params)}, ${jsonForScript(target)});`, { frameAncestors: target, headers });
}

async function codeFor(ctx: BaseContext, siteId: string, auth: AuthPayload, identityId: string): Promise<string> {
  return issueAuthorizationCode(ctx, { siteId, clientId: auth.clientId, identityId, redirectUri: auth.redirectUri, codeChallenge: auth.codeChallenge });
}

/** `GET /_hosted/authorize?rs=`: prompt=none answers at once (code or login_required); prompt=login shows the form. */
export async function authorizePage(ctx: BaseContext, rs: string, request: Request): Promise<Response> {
  const session = await loadRedirectSession(ctx.db, rs);
  if (!session || session.kind !== 'auth') return messagePage('Link expired', 'This sign-in link is invalid or expired. Go back and try again.', 400);
  const auth = (session.payload as { auth: AuthPayload }).auth;
  const client = await findOAuthClient(ctx.db, auth.clientId);
  if (auth.prompt === 'none') {
    let identity = auth.sessionToken ? await resolveSessionHash(ctx, session.siteId, auth.sessionToken, true) : undefined;
    const cookie = cookieOf(request, SESSION_COOKIE);
    if (!identity && cookie && !auth.sessionToken) identity = await resolveSession(ctx, session.siteId, cookie, false);
    if (!identity) return deliver(auth, client, request, { error: 'login_required', error_description: 'No valid session', state: auth.state });
    const code = await codeFor(ctx, session.siteId, auth, identity.id);
    return deliver(auth, client, request, { code, state: auth.state });
  }
  return loginSectionPage(ctx, rs);
}

// ---------------------------------------------------------------------------------------------
// Login / register page

const LOGIN_SCRIPT = `
const cfg = JSON.parse(document.getElementById('cfg').textContent);
const $ = (id) => document.getElementById(id);
let stateToken = null, factors = [];
function show(id) { for (const s of ['login','register','verify','mfa','forgot','done']) $(s).classList.toggle('hidden', s !== id); $('err').textContent = ''; }
async function sha256hex(t) { const b = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(t)); return [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join(''); }
async function captcha() {
  if (!cfg.captcha) return undefined;
  const c = await (await fetch('/_api/iam/captcha/v1/challenge?mode=' + cfg.captcha)).json();
  for (let n = 0; n <= c.maxnumber; n++) if (await sha256hex(c.salt + n) === c.challenge) return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature }));
}
async function post(action, body) {
  const res = await fetch('/_hosted/api/' + action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rs: cfg.rs, ...body }) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) { $('err').textContent = (json.details && json.details.applicationError && json.details.applicationError.description) || (json.details && json.details.validationError && json.details.validationError.fieldViolations.map((v) => v.field + ' ' + v.description).join(', ')) || json.message || 'Something went wrong'; return; }
  if (json.redirect) { location.assign(json.redirect); return; }
  if (json.step === 'verify') { stateToken = json.stateToken; show('verify'); return; }
  if (json.step === 'mfa') { stateToken = json.stateToken; factors = json.factors; $('mfaType').textContent = factors.join(' or '); show('mfa'); return; }
  $('doneMsg').textContent = json.message || 'Done'; show('done');
}
const on = (id, fn) => $(id).addEventListener('submit', (e) => { e.preventDefault(); fn(new FormData(e.target)); });
on('loginForm', async (f) => post('login', { email: f.get('email'), password: f.get('password'), captcha: await captcha() }));
on('registerForm', async (f) => post('register', { email: f.get('email'), password: f.get('password'), nickname: f.get('nickname'), captcha: await captcha() }));
on('verifyForm', (f) => post('verify', { stateToken, code: f.get('code') }));
on('mfaForm', (f) => post('mfa', { stateToken, code: f.get('code'), factorType: factors.includes('TOTP') ? 'TOTP' : 'EMAIL' }));
on('forgotForm', (f) => post('forgot', { email: f.get('email') }));
$('toRegister').onclick = () => show('register'); $('toLogin').onclick = () => show('login'); $('toForgot').onclick = () => show('forgot');
$('resend').onclick = () => post('resend', { stateToken });
`;

function loginPage(rs: string, captchaMode: string | undefined): Response {
  const cfg = { rs, captcha: captchaMode ?? null };
  const body = `<script type="application/json" id="cfg">${jsonForScript(cfg)}</script>
<p id="err" class="err" role="alert"></p>
<section id="login"><h1>Log in</h1><form id="loginForm"><input name="email" type="email" autocomplete="username" placeholder="E-mail" required>
<input name="password" type="password" autocomplete="current-password" placeholder="Password" required><button>Log in</button></form>
<a href="#" id="toForgot">Forgot password?</a> · <a href="#" id="toRegister">Create an account</a></section>
<section id="register" class="hidden"><h1>Sign up</h1><form id="registerForm"><input name="email" type="email" autocomplete="username" placeholder="E-mail" required>
<input name="nickname" placeholder="Nickname"><input name="password" type="password" autocomplete="new-password" minlength="8" placeholder="Password (8+ characters)" required>
<button>Sign up</button></form><a href="#" id="toLogin">I have an account</a></section>
<section id="verify" class="hidden"><h1>Check your e-mail</h1><p>We sent you a 6-digit code.</p><form id="verifyForm">
<input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" placeholder="123456" required><button>Verify</button></form>
<a href="#" id="resend">Send a new code</a></section>
<section id="mfa" class="hidden"><h1>Two-step verification</h1><p>Enter the code from your <span id="mfaType"></span>.</p><form id="mfaForm">
<input name="code" inputmode="numeric" autocomplete="one-time-code" placeholder="123456" required><button>Continue</button></form></section>
<section id="forgot" class="hidden"><h1>Reset your password</h1><form id="forgotForm"><input name="email" type="email" placeholder="E-mail" required>
<button>Send me a link</button></form></section>
<section id="done" class="hidden"><p id="doneMsg"></p></section>`;
  return page('Log in', body, LOGIN_SCRIPT);
}

/** `GET /_hosted/login?rs=` (the `login` section): the same form; success lands on postFlowUrl. */
export async function loginSectionPage(ctx: BaseContext, rs: string): Promise<Response> {
  const session = await loadRedirectSession(ctx.db, rs);
  if (!session || (session.kind !== 'login' && session.kind !== 'auth')) return messagePage('Link expired', 'This sign-in link is invalid or expired.', 400);
  const site = await getSiteCached(ctx.db, session.siteId);
  const mode = site?.settings.captcha;
  return loginPage(rs, mode === 'visible' || mode === 'invisible' ? mode : undefined);
}

// ---------------------------------------------------------------------------------------------
// The page's JSON steps

export interface HostedApiInput {
  action: string;
  rs?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  nickname?: string | undefined;
  code?: string | undefined;
  stateToken?: string | undefined;
  factorType?: string | undefined;
  recoveryToken?: string | undefined;
  captcha?: string | undefined;
}

type HostedResult = { redirect?: string; step?: 'verify' | 'mfa'; stateToken?: string; factors?: string[]; message?: string };

function json(body: HostedResult, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}

/** Turns a flow state into the page's next step; SUCCESS sets the cookie session and finishes the redirect session. */
async function finish(ctx: RequestContext, session: RedirectSessionRecord, result: StateResponse): Promise<Response> {
  switch (result.state) {
    case 'REQUIRE_EMAIL_VERIFICATION': return json({ step: 'verify', stateToken: result.stateToken! });
    case 'REQUIRE_MFA': return json({ step: 'mfa', stateToken: result.stateToken!, factors: result.requireMfaData?.availableFactors.map((f) => f.factorType) ?? [] });
    case 'REQUIRE_OWNER_APPROVAL': return json({ message: 'Your account waits for the site owner\'s approval. You can log in once it is approved.' });
    case 'STATUS_CHECK': return json({ message: 'This account cannot log in right now.' });
    default: break;
  }
  const identity = await resolveSession(ctx, ctx.site.id, result.sessionToken!, true);
  if (!identity) throw badRequest('INVALID_SESSION', 'The session is no longer valid; log in again');
  const cookie = await createSession(ctx, ctx.site.id, identity.id, 'cookie');
  const setCookie = { 'set-cookie': sessionCookie(ctx, cookie, Math.floor(COOKIE_SESSION_TTL_MS / 1000)) };
  if (session.kind === 'auth') {
    const auth = (session.payload as { auth: AuthPayload }).auth;
    const code = await codeFor(ctx, ctx.site.id, auth, identity.id);
    if (auth.responseMode === 'web_message') throw badRequest('UNSUPPORTED_RESPONSE_MODE', 'web_message needs prompt=none');
    return json({ redirect: withParams(auth.redirectUri, auth.responseMode, { code, state: auth.state }) }, setCookie);
  }
  const target = await allowedPostFlowUrl(ctx, session);
  return json(target ? { redirect: target } : { message: 'You are logged in.' }, setCookie);
}

async function allowedPostFlowUrl(ctx: BaseContext, session: RedirectSessionRecord): Promise<string | undefined> {
  const url = session.payload.postFlowUrl as string | null | undefined;
  const clientId = session.payload.clientId as string | null | undefined;
  if (!url || !clientId) return undefined;
  const client = await findOAuthClient(ctx.db, clientId);
  return client && client.siteId === session.siteId && redirectUriAllowed(client, url) ? url : undefined;
}

/** The hosted page acts for the visitor who opened the redirect session, so login hands that visitor's cart over. */
function asSessionVisitor(ctx: RequestContext, session: RedirectSessionRecord): RequestContext {
  const v = session.payload.visitor;
  if (typeof v !== 'object' || v === null) return ctx;
  const { visitorId, clientId, familyId } = v as Record<string, unknown>;
  if (typeof visitorId !== 'string' || typeof clientId !== 'string' || typeof familyId !== 'string') return ctx;
  return { ...ctx, caller: { kind: 'visitor', visitorId, clientId, familyId } };
}

export async function hostedApi(ctx: BaseContext, input: HostedApiInput): Promise<Response> {
  if (input.action === 'reset') {
    const token = input.recoveryToken ?? '';
    const record = token ? await findRecoveryTokenByHash(ctx.db, hashSecret(token)) : undefined;
    if (!record) throw badRequest('INVALID_RECOVERY_TOKEN', 'The recovery link is invalid, used or expired');
    const sctx = await siteContext(ctx, record.siteId);
    const result = await recover(sctx, { recoveryToken: token, password: input.password });
    return json({ message: result.state === 'SUCCESS' ? 'Your password was changed. You can log in now.' : 'Your password was changed. Log in to continue.' });
  }
  const session = await loadRedirectSession(ctx.db, input.rs ?? '');
  if (!session || (session.kind !== 'auth' && session.kind !== 'login')) throw badRequest('INVALID_SESSION', 'The page link is invalid or expired; go back and start again');
  const sctx = asSessionVisitor(await siteContext(ctx, session.siteId), session);
  const captchaTokens = input.captcha ? [{ NoCaptcha: input.captcha }] : undefined;
  switch (input.action) {
    case 'login':
      return finish(sctx, session, await login(sctx, { loginId: { email: input.email ?? '' }, password: input.password, captchaTokens }));
    case 'register':
      return finish(sctx, session, await register(sctx, {
        loginId: { email: input.email ?? '' }, password: input.password, captchaTokens, profile: input.nickname ? { nickname: input.nickname } : {},
      }));
    case 'verify':
      return finish(sctx, session, await verifyDuringAuthentication(sctx, { code: input.code ?? '', stateToken: input.stateToken ?? '' }));
    case 'mfa': {
      const type = input.factorType ?? 'TOTP';
      const data = type === 'EMAIL' ? { emailData: { code: input.code } } : { totpData: { code: input.code } };
      return finish(sctx, session, await verifyFactor(sctx, type, { stateToken: input.stateToken ?? '', ...data }));
    }
    case 'resend':
      await resendCode(sctx, input.stateToken ?? '');
      return json({ step: 'verify', stateToken: input.stateToken ?? '' });
    case 'forgot':
      await sendRecoveryEmail(sctx, { email: input.email ?? '' });
      return json({ message: 'If an account exists for this e-mail, we sent a link to reset the password.' });
    default:
      throw new ApplicationError(404, 'NOT_FOUND', `Unknown step "${input.action}"`);
  }
}

// ---------------------------------------------------------------------------------------------
// Logout and reset pages

/** `GET /_hosted/logout?rs=`: revokes the member's refresh tokens and sessions, clears the cookie, returns to postFlowUrl. */
export async function logoutPage(ctx: BaseContext, rs: string, request: Request): Promise<Response> {
  const session = await loadRedirectSession(ctx.db, rs);
  if (!session || session.kind !== 'logout') return messagePage('Link expired', 'This logout link is invalid or expired.', 400);
  const memberId = session.payload.memberId as string | null;
  if (memberId) await logoutMember(ctx, session.siteId, memberId);
  const cookie = cookieOf(request, SESSION_COOKIE);
  if (cookie) {
    const identity = await resolveSession(ctx, session.siteId, cookie, false);
    if (identity) await logoutMember(ctx, session.siteId, identity.id);
  }
  const clear = { 'set-cookie': sessionCookie(ctx, '', 0) };
  const target = await allowedPostFlowUrl(ctx, session);
  if (target) return redirect(target, clear);
  return page('Logged out', '<h1>You are logged out</h1>', '', { headers: clear });
}

const RESET_SCRIPT = `
const cfg = JSON.parse(document.getElementById('cfg').textContent);
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const password = new FormData(e.target).get('password');
  const res = await fetch('/_hosted/api/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ recoveryToken: cfg.token, password }) });
  const json = await res.json().catch(() => ({}));
  document.getElementById('msg').textContent = res.ok ? json.message : ((json.details && json.details.applicationError && json.details.applicationError.description) || (json.details && json.details.validationError && json.details.validationError.fieldViolations.map((v) => v.description).join(', ')) || 'Something went wrong');
});`;

export function resetPasswordPage(recoveryToken: string): Response {
  const body = `<script type="application/json" id="cfg">${jsonForScript({ token: recoveryToken })}</script><h1>Choose a new password</h1>
<form id="f"><input name="password" type="password" autocomplete="new-password" minlength="8" placeholder="New password (8+ characters)" required><button>Save</button></form><p id="msg" role="status"></p>`;
  return page('Reset password', body, RESET_SCRIPT);
}
