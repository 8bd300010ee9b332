/**
 * `@vitrine/sdk/identity` -> `authentication`: register, login, sign-on, change password, validate
 * e-mail, verify a second factor. Argument shapes follow the public `@wix/identity` module.
 */
import type * as wire from '@vitrine/types/identity';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type StateType = wire.StateType;
export const StateType = {
  SUCCESS: 'SUCCESS', REQUIRE_OWNER_APPROVAL: 'REQUIRE_OWNER_APPROVAL', REQUIRE_EMAIL_VERIFICATION: 'REQUIRE_EMAIL_VERIFICATION',
  REQUIRE_MFA: 'REQUIRE_MFA', STATUS_CHECK: 'STATUS_CHECK', UNKNOWN_STATE: 'UNKNOWN_STATE',
} as const satisfies Record<wire.StateType, wire.StateType>;

export interface LoginId { email: string }

export type IdentityProfile = wire.IdentityProfile;
/** An identity in the caller's names (`_id`, `_createdDate`, `_updatedDate` as Date). */
export type Identity = FromWire<wire.Identity>;

/** Captcha tokens as the public client sends them; `NoCaptcha` carries our proof-of-work token. */
export interface CaptchaToken { Recaptcha?: string; InvisibleRecaptcha?: string; NoCaptcha?: string }

export type StateMachineResponse = FromWire<wire.StateMachineResponse>;

const IDENTITY_DATES = { dates: ['identity.createdDate', 'identity.updatedDate'] };

export const registerV2 = defineMethod((client, loginId: LoginId, options: { password?: string; profile?: IdentityProfile; captchaTokens?: CaptchaToken[] } = {}) =>
  client.request<StateMachineResponse>({
    method: 'POST', path: '/_api/iam/authentication/v2/register', payload: { loginId, ...options }, decode: IDENTITY_DATES,
    argumentFields: { loginId: 'loginId', password: 'options.password', profile: 'options.profile' },
  }));

export const loginV2 = defineMethod((client, loginId: LoginId, options: { password?: string; captchaTokens?: CaptchaToken[]; stateToken?: string } = {}) =>
  client.request<StateMachineResponse>({ method: 'POST', path: '/_api/iam/authentication/v2/login', payload: { loginId, ...options }, decode: IDENTITY_DATES }));

/** Our server also requires `currentPassword` (ASVS 6.2.3); the public signature has only `newPassword`. */
export const changePassword = defineMethod((client, newPassword: string, options: { currentPassword?: string } = {}) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/_api/iam/authentication/v2/change-password', payload: { newPassword, ...options } }));

export const signOn = defineMethod((client, loginId: LoginId, options: { profile?: IdentityProfile; verifyEmail?: boolean } = {}) =>
  client.request<FromWire<wire.SignOnResponse>>({ method: 'POST', path: '/_api/iam/authentication/v2/sign-on', payload: { loginId, ...options }, decode: IDENTITY_DATES }));

export const validateEmail = defineMethod((client, email: string) =>
  client.request<wire.ValidateEmailResponse>({ method: 'POST', path: '/_api/iam/authentication/v2/validate-email', payload: { email } }));

export type FactorType = 'EMAIL' | 'TOTP' | 'SMS' | 'CALL' | 'PUSH';

export const verify = defineMethod((client, factorType: FactorType, options: { stateToken: string; emailData?: { code: string }; totpData?: { code: string } }) =>
  client.request<StateMachineResponse>({ method: 'POST', path: `/_api/iam/authentication/v2/${encodeURIComponent(factorType)}/verify`, payload: { factorType, ...options }, decode: IDENTITY_DATES }));

export const logout = defineMethod((client, options: { postLogoutRedirectUri?: string; clientId?: string } = {}) =>
  client.request<Record<string, never>>({ method: 'GET', path: '/_api/iam/authentication/v1/logout', payload: { ...options } }));
