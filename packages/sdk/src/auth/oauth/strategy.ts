import { VisitorOAuthStrategy, type OAuthStrategyConfig, type VisitorOAuthAuth } from './visitor.js';
import { memberFlows, type MemberFlows } from './member-flows.js';

export type { OAuthCore, OAuthStrategyConfig, VisitorOAuthAuth } from './visitor.js';

export interface OAuthAuth extends VisitorOAuthAuth, MemberFlows {}

/**
 * Visitor/member auth by OAuth tokens of a client id, with every member sign-in flow (PKCE, direct
 * login with verification and MFA, logout, captcha). The token handling is `VisitorOAuthStrategy`'s.
 */
export function OAuthStrategy(config: OAuthStrategyConfig): OAuthAuth {
  const { core, ...visitor } = VisitorOAuthStrategy(config);
  return { ...memberFlows(core), ...visitor };
}
