import { z } from 'zod';
import type { OwnerAccountInput, OwnerAccountUpdate, OwnerSignInRequest, SiteCaptchaMode, SiteDetailsPatch, SiteOAuthClientInput } from '@vitrine/types';
import { conforms } from '../../http/conforms.js';
import { emailAddress, identifier } from '../../http/wire-schemas.js';
import { PASSWORD_MAX_LENGTH } from '../identity/index.js';
import { OWNER_AREAS, OWNER_ROLES } from './model.js';

/** Bounds of owner inputs. */
export const MAX_EMAIL_LENGTH = 320;
export const MAX_NAME_LENGTH = 100;
export const MAX_REDIRECT_URIS = 20;
export const MAX_URI_LENGTH = 2_000;
/** Captcha modes identity knows (its `captcha` site setting). */
export const SITE_CAPTCHA_MODES = ['off', 'invisible', 'visible'] as const satisfies readonly SiteCaptchaMode[];

const email = emailAddress(MAX_EMAIL_LENGTH);
// Passwords are checked for strength by the service (identity's rules); here only bounded.
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const name = z.string().trim().min(1).max(MAX_NAME_LENGTH);
const role = z.enum(OWNER_ROLES);
const permissions = z.array(z.enum(OWNER_AREAS)).max(OWNER_AREAS.length);

export const signInRequest = conforms<OwnerSignInRequest>()(z.object({
  email,
  password,
  totpCode: z.string().regex(/^\d{6}$/, 'must be 6 digits').optional(),
  site: identifier(100, 1).optional(),
}).strict());

export const idRequest = z.object({ id: identifier(100, 1) });

export const changePasswordRequest = z.object({ currentPassword: password, newPassword: password }).strict();
export const totpCodeRequest = z.object({ code: z.string().regex(/^\d{6}$/, 'must be 6 digits') }).strict();
export const passwordRequest = z.object({ password }).strict();

export const createAccountRequest = z.object({
  account: conforms<OwnerAccountInput>()(z.object({ email, name: name.optional(), password, role, permissions: permissions.optional() }).strict()),
});

export const updateAccountRequest = z.object({
  id: identifier(100, 1),
  account: conforms<OwnerAccountUpdate>()(z.object({ name: name.optional(), role: role.optional(), permissions: permissions.optional() }).strict()),
});

export const createApiKeyRequest = z.object({ name }).strict();

const redirectUri = z.string().max(MAX_URI_LENGTH).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.hash;
  } catch {
    return false;
  }
}, { message: 'must be an absolute http(s) URL without credentials or fragment', params: { rule: 'FORMAT' } });

export const createOAuthClientRequest = z.object({
  client: conforms<SiteOAuthClientInput>()(z.object({
    name,
    redirectUris: z.array(redirectUri).max(MAX_REDIRECT_URIS),
    allowLocalhost: z.boolean().optional(),
  }).strict()),
});

/** Settings -> store details: every field optional; an empty `ownerEmail` removes it. */
export const updateSiteDetailsRequest = z.object({
  site: conforms<SiteDetailsPatch>()(z.object({
    name: name.optional(),
    ownerEmail: z.union([z.literal(''), email]).optional(),
    requireEmailVerification: z.boolean().optional(),
    requireOwnerApproval: z.boolean().optional(),
    captcha: z.enum(SITE_CAPTCHA_MODES).optional(),
  }).strict()),
}).strict();
