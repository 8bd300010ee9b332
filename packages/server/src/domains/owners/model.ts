/**
 * Owner accounts: the people who run a site from the dashboard. An `owner` may do everything; a
 * `staff` account may use only the areas it was granted. API keys are owner callers too (full access).
 */
export const OWNER_ROLES = ['owner', 'staff'] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number];

/** The areas a staff account can be granted; every elevated route belongs to one (areas.ts). */
export const OWNER_AREAS = ['catalog', 'orders', 'members', 'data', 'settings'] as const;
export type OwnerArea = (typeof OWNER_AREAS)[number];

export interface OwnerAccount {
  id: string;
  siteId: string;
  email: string;
  name: string;
  role: OwnerRole;
  permissions: OwnerArea[];
  passwordHash: string;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  totpLastStep: number | null;
  createdDate: string;
  updatedDate: string;
}

export interface OwnerSession {
  id: string;
  siteId: string;
  accountId: string;
  ip: string;
  createdDate: string;
  expiresDate: string;
  revokedDate: string | null;
}
