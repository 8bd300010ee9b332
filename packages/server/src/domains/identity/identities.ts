import type { Identity, IdentityProfile } from '@vitrine/types/identity';
import { identifierProblem } from '../../http/wire-schemas.js';
import type { IdentityRecord, IdentityStatus } from './store.js';

/** Login e-mails compare case-insensitively: stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL_MAX_LENGTH = 254;
// One @, no spaces, a dot in the domain; deliberately simple (RFC 5321 sizes, no quoted local parts).
const EMAIL_PATTERN = /^[^\s@"<>()[\]\\,;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;

export function isValidEmail(email: string): boolean {
  // Control, bidi and invisible characters make two addresses look alike: never part of an e-mail.
  return email.length <= EMAIL_MAX_LENGTH && identifierProblem(email) === undefined && EMAIL_PATTERN.test(email.trim());
}

export const REASON_EMAIL = 'PENDING_EMAIL_VERIFICATION_REQUIRED';
export const REASON_APPROVAL = 'PENDING_ADMIN_APPROVAL_REQUIRED';

/** PENDING while any pending reason remains, else ACTIVE (BLOCKED/DELETED/OFFLINE are set explicitly). */
export function statusFromReasons(reasons: string[]): IdentityStatus {
  return reasons.length > 0 ? 'PENDING' : 'ACTIVE';
}

/** The wire `identity` of the authentication responses (REST names; profile as stored). */
export function identityToWire(i: IdentityRecord): Identity {
  const factors: { factorId: string; type: string; status: string }[] = [];
  if (i.passwordHash) factors.push({ factorId: `${i.id}-password`, type: 'PASSWORD', status: 'ACTIVE' });
  if (i.totpEnabled) factors.push({ factorId: `${i.id}-totp`, type: 'TOTP', status: 'ACTIVE' });
  if (i.emailMfaEnabled) factors.push({ factorId: `${i.id}-email`, type: 'EMAIL', status: 'ACTIVE' });
  return {
    id: i.id,
    revision: String(i.revision),
    createdDate: i.createdDate,
    updatedDate: i.updatedDate,
    // Stored only after the register / sign-on profile schema accepted it.
    identityProfile: i.profile as IdentityProfile,
    email: { address: i.loginEmail, isVerified: i.emailVerified },
    status: { name: i.status, reasons: i.statusReasons },
    factors,
    metadata: {},
    connections: [],
  };
}
