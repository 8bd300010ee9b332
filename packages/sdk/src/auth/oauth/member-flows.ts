import type { OAuthCore } from './strategy.js';

/**
 * EXTENSION POINT for member sign-in (authorization code + PKCE, direct register/login with e-mail
 * verification, logout). Not built yet. The engineer who adds them:
 *  - puts each flow in its own file next to this one (`pkce.ts`, `direct-login.ts`, `logout.ts`),
 *    each a function `(core: OAuthCore) => { ...methods }`;
 *  - adds their method types to `MemberFlows` and spreads them in `memberFlows` below.
 * A flow stores member tokens with `core.setTokens({accessToken, refreshToken: {value, role: 'member'}})`
 * and fetches them with `core.fetchTokens({clientId: core.clientId, grantType: 'authorization_code', ...})`.
 * Calls to other endpoints (redirect sessions, identity) go through a client made with
 * `createClient({ host: core.env().host, fetch: core.env().fetch, auth: core.visitorAuth, modules })`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the member-login flows
export interface MemberFlows {}

export function memberFlows(_core: OAuthCore): MemberFlows {
  return {};
}
