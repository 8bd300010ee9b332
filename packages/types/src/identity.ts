/**
 * Identity (iam authentication, verification, recovery) and redirect sessions as they travel on the
 * wire: the answers of the login / register state machine and of `createRedirectSession`.
 */
import type { IsoDate } from './common.js';

export type StateType = 'SUCCESS' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_MFA' | 'STATUS_CHECK' | 'UNKNOWN_STATE';
export type IdentityStatusName = 'PENDING' | 'ACTIVE' | 'DELETED' | 'BLOCKED' | 'OFFLINE';

/** Profile fields as stored and answered (what register / sign-on accepted). */
export interface IdentityProfile {
  firstName?: string | null;
  lastName?: string | null;
  nickname?: string | null;
  picture?: string | null;
  language?: string | null;
  privacyStatus?: 'UNDEFINED' | 'PUBLIC' | 'PRIVATE';
  secondaryEmails?: { email?: string; tag?: 'UNTAGGED' | 'MAIN' | 'HOME' | 'WORK' }[];
  phonesV2?: { countryCode?: string | null; phone?: string; tag?: 'UNTAGGED' | 'MAIN' | 'HOME' | 'MOBILE' | 'WORK' | 'FAX' }[];
  addresses?: { address?: Record<string, string | null>; tag?: 'UNTAGGED' | 'HOME' | 'WORK' | 'BILLING' | 'SHIPPING' }[];
  customFields?: { name?: string; value?: Record<string, unknown> }[];
  [field: string]: unknown;
}

export interface IdentityFactor { factorId: string; type: string; status: string }

export interface Identity {
  id: string;
  /** int64 as text. */
  revision: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  identityProfile: IdentityProfile;
  email: { address: string; isVerified: boolean };
  status: { name: IdentityStatusName; reasons: string[] };
  factors: IdentityFactor[];
  metadata: Record<string, unknown>;
  connections: unknown[];
}

/** Answer of register, login, verify, recover: the next state, and a session token on SUCCESS. */
export interface StateMachineResponse {
  state: StateType;
  sessionToken?: string;
  stateToken?: string;
  identity?: Identity;
  additionalData: Record<string, unknown>;
  requireMfaData?: { availableFactors: { factorType: string; factorStatus: string }[]; reason: string };
}

export interface SignOnResponse { sessionToken: string; identity: Identity }
export interface ValidateEmailResponse { valid: boolean; formatInvalid: boolean; failure?: { reason: string } }
export interface StartVerificationResponse { verificationId: string }

// ---- Redirect sessions (`/_api/redirects-api/v1/redirect-session`)

export interface RedirectSession {
  id: string;
  /** A page this server hosts (login, logout, checkout, product). */
  fullUrl: string;
  /** `searchParams` keep the server's keys (the SDK does not rename inside them). */
  urlDetails: { endpoint: string; searchParams: Record<string, string> };
  sessionToken?: string;
}
export interface RedirectSessionResponse { redirectSession: RedirectSession }
