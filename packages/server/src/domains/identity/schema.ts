import { z } from 'zod';
import { identifier } from '../../http/wire-schemas.js';

/** `POST /oauth2/token`: the public client sends camelCase, the external-login grant snake_case. */
export const tokenRequest = z.object({
  clientId: identifier(200, 1).optional(),
  grantType: z.string().max(50).optional(),
  grant_type: z.string().max(50).optional(),
  refreshToken: z.string().max(500).optional(),
  code: z.string().max(500).optional(),
  codeVerifier: z.string().max(500).optional(),
  redirectUri: z.string().max(2000).optional(),
  scope: z.string().max(200).optional(),
  member_id: identifier(200).optional(),
  session_token: z.string().max(2000).optional(),
});

export const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  token_type: z.literal('Bearer'),
});

export const jwksResponse = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

// ---------------------------------------------------------------------------------------------
// Authentication, verification, recovery (issue 3)

/** Bounds on profile input; the public types cap labels at 2000, we are stricter on lists we store. */
export const PROFILE_LIST_MAX = 20;
const text = (max: number) => z.string().max(max);

const customValue: z.ZodType = z.lazy(() => z.object({
  strValue: text(2000).optional(),
  numValue: z.number().optional(),
  dateValue: text(40).optional(),
  boolValue: z.boolean().optional(),
  listValue: z.object({ value: z.array(customValue).max(PROFILE_LIST_MAX).optional() }).optional(),
  mapValue: z.object({ value: z.record(text(100), customValue).optional() }).optional(),
}));

export const identityProfile = z.object({
  firstName: text(200).nullish(),
  lastName: text(200).nullish(),
  nickname: text(200).nullish(),
  picture: text(2000).nullish(),
  emails: z.array(text(254)).max(PROFILE_LIST_MAX).optional(),
  phones: z.array(text(50)).max(PROFILE_LIST_MAX).optional(),
  labels: z.array(text(200)).max(PROFILE_LIST_MAX).optional(),
  language: text(20).nullish(),
  privacyStatus: z.enum(['UNDEFINED', 'PUBLIC', 'PRIVATE']).optional(),
  customFields: z.array(z.object({ name: text(200).optional(), value: customValue.optional() })).max(PROFILE_LIST_MAX).optional(),
  secondaryEmails: z.array(z.object({ email: text(254).optional(), tag: z.enum(['UNTAGGED', 'MAIN', 'HOME', 'WORK']).optional() })).max(PROFILE_LIST_MAX).optional(),
  phonesV2: z.array(z.object({ countryCode: text(4).nullish(), phone: text(50).optional(), tag: z.enum(['UNTAGGED', 'MAIN', 'HOME', 'MOBILE', 'WORK', 'FAX']).optional() })).max(PROFILE_LIST_MAX).optional(),
  addresses: z.array(z.object({
    address: z.object({
      country: text(3).nullish(), subdivision: text(100).nullish(), city: text(200).nullish(), postalCode: text(50).nullish(),
      addressLine: text(500).nullish(), addressLine2: text(500).nullish(), streetName: text(1000).nullish(), streetNumber: text(1000).nullish(),
    }).optional(),
    tag: z.enum(['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING']).optional(),
  })).max(PROFILE_LIST_MAX).optional(),
  company: text(1000).nullish(),
  position: text(1000).nullish(),
  birthdate: text(10).nullish(),
  slug: text(255).nullish(),
  subscription: z.boolean().nullish(),
  vatId: text(1000).nullish(),
});
export type IdentityProfileInput = z.infer<typeof identityProfile>;

const captchaTokens = z.array(z.object({
  Recaptcha: text(5000).optional(),
  InvisibleRecaptcha: text(5000).optional(),
  NoCaptcha: text(5000).optional(),
})).max(5).optional();

const loginId = z.object({ email: text(1000) });

export const registerRequest = z.object({
  loginId,
  password: text(1000).optional(),
  profile: identityProfile.optional(),
  captchaTokens,
  clientMetaData: z.record(z.string(), z.unknown()).nullish(),
});

export const loginRequest = z.object({
  loginId,
  password: text(1000).nullish(),
  captchaTokens,
  clientMetaData: z.record(z.string(), z.unknown()).nullish(),
  stateToken: text(1000).nullish(),
});

export const stateMachineResponse = z.object({
  state: z.string(),
  sessionToken: z.string().optional(),
  stateToken: z.string().optional(),
  identity: z.record(z.string(), z.unknown()).optional(),
  additionalData: z.record(z.string(), z.unknown()),
});

export const changePasswordRequest = z.object({ newPassword: text(1000), currentPassword: text(1000).optional() });
export const signOnRequest = z.object({ loginId, profile: identityProfile.optional(), verifyEmail: z.boolean().optional(), mergeExistingContact: z.boolean().optional() });
export const validateEmailRequest = z.object({ email: text(254) });
export const logoutRequest = z.object({ postLogoutRedirectUri: text(2000).optional(), clientId: text(200).optional() });

const codeData = z.object({ code: text(100).nullish() }).optional();
export const factorVerifyRequest = z.object({
  factorType: text(20),
  stateToken: text(1000),
  rememberThisDevice: z.boolean().optional(),
  smsData: codeData,
  callData: codeData,
  emailData: codeData,
  totpData: codeData,
  pushData: z.object({ transactionId: text(36).nullish() }).optional(),
  recoveryCodeData: codeData,
  passwordData: z.object({ password: text(1000).optional() }).optional(),
});

export const verifyDuringAuthRequest = z.object({ code: text(100), stateToken: text(1000) });
export const resendRequest = z.object({ stateToken: text(1000) });
export const startVerificationRequest = z.object({ identityId: identifier(100).nullish(), target: z.enum(['UNKNOWN_TARGET', 'EMAIL']).optional() });
export const verifyCodeRequest = z.object({ code: text(100), verificationId: identifier(1000) });

const redirect = z.object({ url: text(2000).optional(), clientId: text(200).nullish() }).optional();
export const sendRecoveryEmailRequest = z.object({ email: text(1000), language: text(20).nullish(), redirect });
export const sendActivationEmailRequest = z.object({ identityId: identifier(100), emailOptions: z.object({ language: text(20).nullish(), redirect }).optional() });
export const recoverRequest = z.object({ recoveryToken: text(1000), password: text(1000).nullish() });

export const tokenInfoRequest = z.object({ token: text(4000).optional() });
export const totpActivateRequest = z.object({ code: text(10) });
export const emailFactorRequest = z.object({ enabled: z.boolean() });
