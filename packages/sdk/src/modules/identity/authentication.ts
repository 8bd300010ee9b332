/**
 * `@vitrine/sdk/identity` -> `authentication`: register, login, sign-on, change password, validate
 * e-mail, verify a second factor. Argument shapes follow the public `@wix/identity` module.
 */
import { defineMethod } from '../../define.js';

export type StateType = 'SUCCESS' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_MFA' | 'STATUS_CHECK' | 'UNKNOWN_STATE';
export const StateType = {
  SUCCESS: 'SUCCESS', REQUIRE_OWNER_APPROVAL: 'REQUIRE_OWNER_APPROVAL', REQUIRE_EMAIL_VERIFICATION: 'REQUIRE_EMAIL_VERIFICATION',
  REQUIRE_MFA: 'REQUIRE_MFA', STATUS_CHECK: 'STATUS_CHECK', UNKNOWN_STATE: 'UNKNOWN_STATE',
} as const;

export interface LoginId { email: string }

export interface IdentityProfile {
  firstName?: string;
  lastName?: string;
  nickname?: string;
  picture?: string;
  language?: string;
  privacyStatus?: 'UNDEFINED' | 'PUBLIC' | 'PRIVATE';
  secondaryEmails?: { email?: string; tag?: 'UNTAGGED' | 'MAIN' | 'HOME' | 'WORK' }[];
  phonesV2?: { countryCode?: string; phone?: string; tag?: 'UNTAGGED' | 'MAIN' | 'HOME' | 'MOBILE' | 'WORK' | 'FAX' }[];
  addresses?: { address?: Record<string, string>; tag?: 'UNTAGGED' | 'HOME' | 'WORK' | 'BILLING' | 'SHIPPING' }[];
  customFields?: { name?: string; value?: Record<string, unknown> }[];
  [key: string]: unknown;
}

export interface Identity {
  _id: string;
  revision: string;
  _createdDate: Date;
  _updatedDate: Date;
  identityProfile: IdentityProfile;
  email: { address: string; isVerified: boolean };
  status: { name: 'PENDING' | 'ACTIVE' | 'DELETED' | 'BLOCKED' | 'OFFLINE'; reasons: string[] };
  factors: { factorId: string; type: string; status: string }[];
}

/** Captcha tokens as the public client sends them; `NoCaptcha` carries our proof-of-work token. */
export interface CaptchaToken { Recaptcha?: string; InvisibleRecaptcha?: string; NoCaptcha?: string }

export interface StateMachineResponse {
  state: StateType;
  sessionToken?: string;
  stateToken?: string;
  identity?: Identity;
  additionalData: Record<string, unknown>;
  requireMfaData?: { availableFactors: { factorType: string; factorStatus: string }[]; reason: string };
}

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
  client.request<{ sessionToken: string; identity: Identity }>({ method: 'POST', path: '/_api/iam/authentication/v2/sign-on', payload: { loginId, ...options }, decode: IDENTITY_DATES }));

export const validateEmail = defineMethod((client, email: string) =>
  client.request<{ valid: boolean; formatInvalid: boolean; failure?: { reason: string } }>({ method: 'POST', path: '/_api/iam/authentication/v2/validate-email', payload: { email } }));

export type FactorType = 'EMAIL' | 'TOTP' | 'SMS' | 'CALL' | 'PUSH';

export const verify = defineMethod((client, factorType: FactorType, options: { stateToken: string; emailData?: { code: string }; totpData?: { code: string } }) =>
  client.request<StateMachineResponse>({ method: 'POST', path: `/_api/iam/authentication/v2/${encodeURIComponent(factorType)}/verify`, payload: { factorType, ...options }, decode: IDENTITY_DATES }));

export const logout = defineMethod((client, options: { postLogoutRedirectUri?: string; clientId?: string } = {}) =>
  client.request<Record<string, never>>({ method: 'GET', path: '/_api/iam/authentication/v1/logout', payload: { ...options } }));
