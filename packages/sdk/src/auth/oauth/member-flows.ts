import type { OAuthCore } from './visitor.js';
import { captchaFlows, type CaptchaFlows } from './captcha.js';
import { directLoginFlows, type DirectLoginFlows } from './direct-login.js';
import { logoutFlows, type LogoutFlows } from './logout.js';
import { pkceFlows, type PkceFlows } from './pkce.js';

/**
 * Member sign-in flows spread into the OAuth strategy: authorization code + PKCE (`pkce.ts`), direct
 * register/login with e-mail verification and MFA (`direct-login.ts`), logout (`logout.ts`), captcha solving (`captcha.ts`). Each flow
 * is a file `(core: OAuthCore) => methods`; token storage helpers are in `token-storage.ts`.
 */
export interface MemberFlows extends PkceFlows, DirectLoginFlows, LogoutFlows, CaptchaFlows {}

export function memberFlows(core: OAuthCore): MemberFlows {
  return { ...pkceFlows(core), ...directLoginFlows(core), ...logoutFlows(core), ...captchaFlows(core) };
}
