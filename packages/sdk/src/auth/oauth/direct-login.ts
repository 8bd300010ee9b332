import { createClient } from '../../client.js';
import { VitrineError } from '../../errors.js';
import { authentication, recovery, verification } from '../../modules/identity/index.js';
import type { StateMachineResponse } from '../../modules/identity/authentication.js';
import { pkceChallenge, pkceFlows } from './pkce.js';
import type { OAuthCore } from './visitor.js';
import type { Tokens } from './tokens.js';

/** The hidden-frame login gives up after this long with `OAuth flow timed out` (spec section 9). */
export const DIRECT_LOGIN_TIMEOUT_MS = 120_000;

export const MISSING_CAPTCHA = '-19971';
export const INVALID_CAPTCHA = '-19970';
export const EMAIL_EXISTS = '-19995';
export const INVALID_PASSWORD = '-19976';
export const RESET_PASSWORD = '-19973';

export type LoginState =
  | 'SUCCESS' | 'INITIAL' | 'FAILURE' | 'EMAIL_VERIFICATION_REQUIRED' | 'OWNER_APPROVAL_REQUIRED'
  | 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED'
  /** Our extension: a second factor is due (the public client reports FAILURE 'Unknown _state'). */
  | 'MFA_REQUIRED';

export type LoginErrorCode = 'invalidEmail' | 'invalidPassword' | 'emailAlreadyExists' | 'missingCaptchaToken' | 'invalidCaptchaToken' | 'resetPassword';

export interface StateMachine {
  loginState: LoginState;
  data?: { sessionToken?: string; stateToken?: string; factors?: string[] };
  error?: string;
  errorCode?: LoginErrorCode;
}

export interface CaptchaTokens {
  recaptchaToken?: string;
  invisibleRecaptchaToken?: string;
  /** Our self-hosted proof-of-work token (see docs/identity.md). */
  noCaptchaToken?: string;
}

export interface RegisterParams { email: string; password: string; profile?: authentication.IdentityProfile; captchaTokens?: CaptchaTokens }
export interface LoginParams { email: string; password: string; captchaTokens?: CaptchaTokens }

export interface DirectLoginFlows {
  register(params: RegisterParams): Promise<StateMachine>;
  login(params: LoginParams): Promise<StateMachine>;
  /** Continues EMAIL_VERIFICATION_REQUIRED (and our MFA_REQUIRED) with the code. */
  processVerification(nextInputs: { verificationCode?: string; code?: string; factorType?: 'EMAIL' | 'TOTP' }, state?: StateMachine): Promise<StateMachine>;
  sendPasswordResetEmail(email: string, redirectUri: string): Promise<void>;
  /** Browser only: a hidden frame runs prompt=none with the session token and answers by web message. */
  getMemberTokensForDirectLogin(sessionToken: string): Promise<Tokens>;
}

function captchaList(tokens: CaptchaTokens | undefined): authentication.CaptchaToken[] | undefined {
  if (!tokens) return undefined;
  return [{
    ...(tokens.recaptchaToken ? { Recaptcha: tokens.recaptchaToken } : {}),
    ...(tokens.invisibleRecaptchaToken ? { InvisibleRecaptcha: tokens.invisibleRecaptchaToken } : {}),
    ...(tokens.noCaptchaToken ? { NoCaptcha: tokens.noCaptchaToken } : {}),
  }];
}

function appCode(e: unknown): string | undefined {
  return e instanceof VitrineError && e.details && 'applicationError' in e.details ? e.details.applicationError.code : undefined;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function directLoginFlows(core: OAuthCore): DirectLoginFlows {
  let current: StateMachine = { loginState: 'INITIAL' };
  const client = () => {
    const env = core.env();
    return createClient({ host: env.host, fetch: env.fetch, auth: core.visitorAuth, modules: { authentication, verification, recovery } });
  };

  const handleState = (res: StateMachineResponse): StateMachine => {
    switch (res.state) {
      case 'SUCCESS': return { loginState: 'SUCCESS', data: { sessionToken: res.sessionToken! } };
      case 'REQUIRE_OWNER_APPROVAL': return { loginState: 'OWNER_APPROVAL_REQUIRED' };
      case 'REQUIRE_EMAIL_VERIFICATION':
        current = { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: res.stateToken! } };
        return current;
      case 'REQUIRE_MFA':
        current = { loginState: 'MFA_REQUIRED', data: { stateToken: res.stateToken!, factors: res.requireMfaData?.availableFactors.map((f) => f.factorType) ?? [] } };
        return current;
      default: return { loginState: 'FAILURE', error: 'Unknown _state' };
    }
  };

  /** A missing captcha says which kind the site wants: solve it (getCaptchaToken) and call again. */
  const captchaState = (e: unknown): StateMachine | undefined => {
    if (appCode(e) !== MISSING_CAPTCHA) return undefined;
    const mode = e instanceof VitrineError ? e.data.captchaMode : undefined;
    return { loginState: mode === 'visible' ? 'USER_CAPTCHA_REQUIRED' : 'SILENT_CAPTCHA_REQUIRED', error: message(e), errorCode: 'missingCaptchaToken' };
  };

  const loginFailure = (e: unknown): StateMachine => {
    const captcha = captchaState(e);
    if (captcha) return captcha;
    const code = appCode(e);
    const errorCode: LoginErrorCode = code === MISSING_CAPTCHA ? 'missingCaptchaToken' : code === INVALID_CAPTCHA ? 'invalidCaptchaToken'
      : code === INVALID_PASSWORD ? 'invalidPassword' : code === RESET_PASSWORD ? 'resetPassword' : 'invalidEmail';
    return { loginState: 'FAILURE', error: message(e), errorCode };
  };

  return {
    async register(params) {
      try {
        const captchaTokens = captchaList(params.captchaTokens);
        return handleState(await client().authentication.registerV2({ email: params.email }, {
          password: params.password, ...(params.profile ? { profile: params.profile } : {}), ...(captchaTokens ? { captchaTokens } : {}),
        }));
      } catch (e) {
        const details = e instanceof VitrineError ? e.details : undefined;
        const emailViolation = details && 'validationError' in details ? details.validationError.fieldViolations.find((v) => v.data?.type === 'EMAIL') : undefined;
        if (emailViolation) return { loginState: 'FAILURE', error: emailViolation.description, errorCode: 'invalidEmail' };
        const captcha = captchaState(e);
        if (captcha) return captcha;
        const code = appCode(e);
        const errorCode: LoginErrorCode | undefined = code === MISSING_CAPTCHA ? 'missingCaptchaToken' : code === EMAIL_EXISTS ? 'emailAlreadyExists' : code === INVALID_CAPTCHA ? 'invalidCaptchaToken' : undefined;
        return { loginState: 'FAILURE', error: message(e), ...(errorCode ? { errorCode } : {}) };
      }
    },
    async login(params) {
      try {
        const captchaTokens = captchaList(params.captchaTokens);
        return handleState(await client().authentication.loginV2({ email: params.email }, { password: params.password, ...(captchaTokens ? { captchaTokens } : {}) }));
      } catch (e) {
        return loginFailure(e);
      }
    },
    async processVerification(nextInputs, state) {
      const use = state ?? current;
      const code = nextInputs.verificationCode ?? nextInputs.code ?? '';
      const stateToken = use.data?.stateToken ?? '';
      if (use.loginState === 'EMAIL_VERIFICATION_REQUIRED') {
        return handleState(await client().verification.verifyDuringAuthentication(code, { stateToken }));
      }
      if (use.loginState === 'MFA_REQUIRED') {
        const factor = nextInputs.factorType ?? (use.data?.factors?.includes('TOTP') ? 'TOTP' : 'EMAIL');
        const data = factor === 'TOTP' ? { totpData: { code } } : { emailData: { code } };
        return handleState(await client().authentication.verify(factor, { stateToken, ...data }));
      }
      return { loginState: 'FAILURE', error: 'Unknown _state' };
    },
    async sendPasswordResetEmail(email, redirectUri) {
      await client().recovery.sendRecoveryEmail(email, { redirect: { url: redirectUri, clientId: core.clientId } });
    },
    async getMemberTokensForDirectLogin(sessionToken) {
      if (typeof document === 'undefined' || typeof window === 'undefined') {
        throw new Error('getMemberTokensForDirectLogin needs a browser (a hidden frame); elsewhere use getAuthUrl with prompt "none" and the session token');
      }
      const flows = pkceFlows(core);
      const { codeVerifier, codeChallenge } = pkceChallenge();
      const oauthData = { redirectUri: '', originalUri: '', codeVerifier, codeChallenge, state: flows.generateOAuthData('').state };
      const { authUrl } = await flows.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'web_message', sessionToken });
      let onMessage: ((e: MessageEvent) => void) | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const frame = document.createElement('iframe');
      try {
        const reply = await new Promise<{ code?: string; state?: string }>((resolve, reject) => {
          onMessage = (e: MessageEvent) => {
            const data = e.data as { state?: unknown } | null;
            if (data && typeof data === 'object' && data.state === oauthData.state) resolve(e.data as { code?: string; state?: string });
          };
          window.addEventListener('message', onMessage);
          timer = setTimeout(() => reject(new Error('OAuth flow timed out')), DIRECT_LOGIN_TIMEOUT_MS);
          frame.style.display = 'none';
          frame.src = authUrl;
          document.body.appendChild(frame);
        });
        return await flows.getMemberTokens(reply.code, reply.state, oauthData);
      } finally {
        if (timer) clearTimeout(timer);
        if (onMessage) window.removeEventListener('message', onMessage);
        frame.remove();
      }
    },
  };
}
