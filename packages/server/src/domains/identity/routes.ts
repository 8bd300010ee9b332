import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import { badRequest, forbidden, violation } from '../../http/errors.js';
import { isElevated } from '../../http/context.js';
import { grantAnonymous, grantRefresh } from './service.js';
import { jwksResponse, tokenRequest, tokenResponse } from './schema.js';
import * as s from './schema.js';
import {
  activateTotp, changePassword, enrollTotp, getIdentity, login, logoutMember, recover, register, resendCode, sendActivationEmail, sendRecoveryEmail,
  setEmailFactor, signOn, startVerification, validateEmail, verifyDuringAuthentication, verifyFactor, verifyStandalone,
} from './auth.js';
import { grantAuthorizationCode, grantAuthorizedClient, tokenInfo } from './oauth-codes.js';
import { createRedirectSession, redirectSessionRequest } from './redirect-sessions.js';
import { authorizePage, hostedApi, loginSectionPage, logoutPage, resetPasswordPage } from './hosted-pages.js';
import { createChallenge } from './captcha.js';

const AUTH = '/_api/iam/authentication';

export const identityRoutes: RouteDef[] = [
  publicRoute({
    method: 'POST',
    path: '/oauth2/token',
    summary: 'Issue tokens: anonymous visitor, refresh, authorization code (PKCE S256), authorized client',
    request: tokenRequest,
    response: tokenResponse,
    async handler(ctx, input, request) {
      const grant = input.grantType ?? input.grant_type;
      if (!grant) throw violation('grantType', 'is required', 'REQUIRED_FIELD');
      switch (grant) {
        case 'anonymous':
          if (!input.clientId) throw violation('clientId', 'is required', 'REQUIRED_FIELD');
          return grantAnonymous(ctx, input.clientId);
        case 'refresh_token':
          if (!input.clientId) throw violation('clientId', 'is required', 'REQUIRED_FIELD');
          if (!input.refreshToken) throw violation('refreshToken', 'is required', 'REQUIRED_FIELD');
          return grantRefresh(ctx, input.clientId, input.refreshToken);
        case 'authorization_code':
          if (!input.clientId) throw violation('clientId', 'is required', 'REQUIRED_FIELD');
          if (!input.code) throw violation('code', 'is required', 'REQUIRED_FIELD');
          return grantAuthorizationCode(ctx, { clientId: input.clientId, code: input.code, codeVerifier: input.codeVerifier, redirectUri: input.redirectUri });
        case 'authorized_client':
          return grantAuthorizedClient(ctx, request.headers.get('authorization') ?? undefined, input);
        default:
          throw badRequest('UNSUPPORTED_GRANT_TYPE', `Grant type "${grant}" is not supported`);
      }
    },
  }),
  publicRoute({
    method: 'GET',
    path: '/oauth2/jwks',
    summary: 'Public keys that verify access tokens',
    request: z.object({}),
    response: jwksResponse,
    async handler(ctx) {
      return ctx.deps.keys.jwks();
    },
  }),
  publicRoute({
    method: 'POST',
    path: '/oauth2/token-info',
    summary: 'Introspect an access token ({active:false} when invalid)',
    request: s.tokenInfoRequest,
    async handler(ctx, input) {
      return tokenInfo(ctx, input.token);
    },
  }),
  route({
    method: 'GET',
    path: '/oauth2/user-info',
    access: 'member',
    summary: 'OpenID-style claims of the logged-in member',
    request: z.object({}),
    async handler(ctx) {
      const identity = ctx.caller.kind === 'member' ? await getIdentity(ctx, ctx.caller.memberId) : undefined;
      if (!identity) return { sub: ctx.caller.kind === 'member' ? ctx.caller.memberId : '' };
      const p = identity.profile as { firstName?: string; lastName?: string; nickname?: string; picture?: string; language?: string };
      return {
        sub: identity.id, email: identity.loginEmail, emailVerified: identity.emailVerified,
        givenName: p.firstName ?? '', familyName: p.lastName ?? '', name: p.nickname ?? [p.firstName, p.lastName].filter(Boolean).join(' '),
        picture: p.picture ?? '', language: p.language ?? '',
      };
    },
  }),

  // Redirect sessions and hosted pages
  route({
    method: 'POST',
    path: '/_api/redirects-api/v1/redirect-session',
    access: 'visitor',
    summary: 'Create a redirect session (auth, login, logout, ecomCheckout, storesProduct, ...)',
    request: redirectSessionRequest,
    async handler(ctx, input) {
      return createRedirectSession(ctx, input);
    },
  }),
  publicRoute({
    method: 'GET', path: '/_hosted/authorize', raw: true, summary: 'Hosted authorize page (prompt none: code by query, fragment or web message)',
    request: z.object({ rs: z.string().max(200).default('') }),
    async handler(ctx, input, request) { return authorizePage(ctx, input.rs, request); },
  }),
  publicRoute({
    method: 'GET', path: '/_hosted/login', raw: true, summary: 'Hosted login / register page',
    request: z.object({ rs: z.string().max(200).default('') }),
    async handler(ctx, input) { return loginSectionPage(ctx, input.rs); },
  }),
  publicRoute({
    method: 'GET', path: '/_hosted/logout', raw: true, summary: 'Hosted logout: revokes the member\'s tokens, returns to postFlowUrl',
    request: z.object({ rs: z.string().max(200).default('') }),
    async handler(ctx, input, request) { return logoutPage(ctx, input.rs, request); },
  }),
  publicRoute({
    method: 'GET', path: '/_hosted/reset-password', raw: true, summary: 'Hosted password reset page (link from the recovery e-mail)',
    request: z.object({ recoveryToken: z.string().max(1000).default('') }),
    async handler(_ctx, input) { return resetPasswordPage(input.recoveryToken); },
  }),
  publicRoute({
    method: 'POST', path: '/_hosted/api/:action', raw: true, summary: 'Steps of the hosted pages (login, register, verify, mfa, resend, forgot, reset)',
    request: z.object({
      action: z.string().max(20), rs: z.string().max(200).optional(), email: z.string().max(1000).optional(), password: z.string().max(1000).optional(),
      nickname: z.string().max(200).optional(), code: z.string().max(100).optional(), stateToken: z.string().max(1000).optional(),
      factorType: z.string().max(20).optional(), recoveryToken: z.string().max(1000).optional(), captcha: z.string().max(5000).optional(),
    }),
    async handler(ctx, input) { return hostedApi(ctx, input); },
  }),
  publicRoute({
    method: 'GET', path: '/_api/iam/captcha/v1/challenge', summary: 'A proof-of-work captcha challenge (ALTCHA format)',
    request: z.object({ mode: z.enum(['invisible', 'visible']).default('invisible') }),
    async handler(ctx, input) { return createChallenge(ctx, input.mode); },
  }),

  // Authentication
  route({
    method: 'POST', path: `${AUTH}/v2/register`, access: 'visitor', summary: 'Register a member with e-mail and password',
    request: s.registerRequest, response: s.stateMachineResponse,
    async handler(ctx, input) { return register(ctx, input); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/login`, access: 'visitor', summary: 'Log in with e-mail and password',
    request: s.loginRequest, response: s.stateMachineResponse,
    async handler(ctx, input) { return login(ctx, input); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/change-password`, access: 'member', summary: 'Change the password (current password required); revokes all tokens',
    request: s.changePasswordRequest,
    async handler(ctx, input) { return changePassword(ctx, ctx.caller.kind === 'member' ? ctx.caller.memberId : '', input); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/sign-on`, access: 'elevated', summary: 'External login: find or create the member, answer a session token',
    request: s.signOnRequest,
    async handler(ctx, input) { return signOn(ctx, input); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/validate-email`, access: 'visitor', summary: 'Check an e-mail address format',
    request: s.validateEmailRequest,
    async handler(_ctx, input) { return validateEmail(input.email); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/:factorType/verify`, access: 'visitor', summary: 'Verify a second factor (EMAIL, TOTP) during login',
    request: s.factorVerifyRequest, response: s.stateMachineResponse,
    async handler(ctx, input) { return verifyFactor(ctx, input.factorType, input); },
  }),
  route({
    method: 'GET', path: `${AUTH}/v1/logout`, access: 'visitor', summary: 'Log out: revokes the calling member\'s refresh tokens',
    request: s.logoutRequest,
    async handler(ctx) {
      if (ctx.caller.kind === 'member') await logoutMember(ctx, ctx.site.id, ctx.caller.memberId);
      return {};
    },
  }),

  // Second factors of the logged-in member (our extension: enrolment has no public client call)
  route({
    method: 'POST', path: `${AUTH}/v2/mfa/totp/enroll`, access: 'member', summary: 'Start TOTP enrolment (secret + otpauth URI)',
    request: z.object({}),
    async handler(ctx) { return enrollTotp(ctx, ctx.caller.kind === 'member' ? ctx.caller.memberId : ''); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/mfa/totp/activate`, access: 'member', summary: 'Finish TOTP enrolment with a current code',
    request: s.totpActivateRequest,
    async handler(ctx, input) { return activateTotp(ctx, ctx.caller.kind === 'member' ? ctx.caller.memberId : '', input.code); },
  }),
  route({
    method: 'POST', path: `${AUTH}/v2/mfa/email`, access: 'member', summary: 'Turn the e-mailed-code second factor on or off',
    request: s.emailFactorRequest,
    async handler(ctx, input) { return setEmailFactor(ctx, ctx.caller.kind === 'member' ? ctx.caller.memberId : '', input.enabled); },
  }),

  // Verification
  route({
    method: 'POST', path: '/_api/iam/verification/v1/start', access: 'member', summary: 'E-mail a verification code to the member',
    request: s.startVerificationRequest,
    async handler(ctx, input) {
      const me = ctx.caller.kind === 'member' ? ctx.caller.memberId : '';
      if (input.identityId && input.identityId !== me) throw forbidden('FORBIDDEN', 'A member can only verify their own e-mail');
      return startVerification(ctx, me);
    },
  }),
  route({
    method: 'POST', path: '/_api/iam/verification/v1/verify', access: 'member', summary: 'Verify the member\'s e-mail with the code from start',
    request: s.verifyCodeRequest,
    async handler(ctx, input) { return verifyStandalone(ctx, ctx.caller.kind === 'member' ? ctx.caller.memberId : '', input); },
  }),
  route({
    method: 'POST', path: '/_api/iam/verification/v1/auth/verify', access: 'visitor', summary: 'Continue a REQUIRE_EMAIL_VERIFICATION flow with the e-mailed code',
    request: s.verifyDuringAuthRequest, response: s.stateMachineResponse,
    async handler(ctx, input) { return verifyDuringAuthentication(ctx, input); },
  }),
  route({
    method: 'POST', path: '/_api/iam/verification/v1/auth/resend', access: 'visitor', summary: 'E-mail a new code for a state token',
    request: s.resendRequest,
    async handler(ctx, input) { await resendCode(ctx, input.stateToken); return {}; },
  }),

  // Recovery
  route({
    method: 'POST', path: '/_api/iam/recovery/v1/send-email', access: 'visitor', summary: 'E-mail a password reset link (same answer for unknown e-mails)',
    request: s.sendRecoveryEmailRequest,
    async handler(ctx, input) { return sendRecoveryEmail(ctx, input); },
  }),
  route({
    method: 'POST', path: '/_api/iam/recovery/v1/recover', access: 'visitor', summary: 'Set a new password with a reset token',
    request: s.recoverRequest, response: s.stateMachineResponse,
    async handler(ctx, input) { return recover(ctx, input); },
  }),
  route({
    method: 'POST', path: '/_api/iam/recovery/v1/activation-email', access: 'elevated', summary: 'E-mail an account activation (set password) link',
    request: s.sendActivationEmailRequest,
    async handler(ctx, input) {
      if (!isElevated(ctx.caller)) throw forbidden('ELEVATED_REQUIRED', 'Elevated caller required');
      return sendActivationEmail(ctx, { identityId: input.identityId, redirectUrl: input.emailOptions?.redirect?.url });
    },
  }),
];
