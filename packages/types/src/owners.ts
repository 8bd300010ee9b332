/** Owner accounts: the people who run a site from the dashboard, their sessions, API keys and OAuth clients. */
import type { IsoDate } from './common.js';

export type OwnerRole = 'owner' | 'staff';
/** The areas a staff account may be granted. */
export type OwnerArea = 'catalog' | 'orders' | 'members' | 'data' | 'settings';

export interface OwnerAccount {
  id: string;
  email: string;
  name: string;
  role: OwnerRole;
  /** Areas a staff account may use; empty for owners (who may use all). */
  permissions: OwnerArea[];
  totpEnabled: boolean;
  createdDate: IsoDate;
  updatedDate: IsoDate;
}

export interface OwnerSignInRequest { email: string; password: string; totpCode?: string; site?: string }

export interface OwnerSignInResponse {
  /** Send as `Authorization` (with `wix-site-id`) like an API key until it expires or is signed out. */
  sessionToken: string;
  siteId: string;
  expiresDate: IsoDate;
  account: OwnerAccount;
}

export interface OwnerSession { id: string; ip: string; createdDate: IsoDate; expiresDate: IsoDate; current: boolean }

export interface OwnerAccountInput { email: string; name?: string; password: string; role: OwnerRole; permissions?: OwnerArea[] }
export interface OwnerAccountUpdate { name?: string; role?: OwnerRole; permissions?: OwnerArea[] }

export interface SiteApiKey { id: string; name: string; createdDate: IsoDate; revokedDate: IsoDate | null }

export interface SiteOAuthClient { id: string; name: string; redirectUris: string[]; allowLocalhost: boolean; createdDate: IsoDate }
export interface SiteOAuthClientInput { name: string; redirectUris: string[]; allowLocalhost?: boolean }

/** Captcha on member sign-up and login: none, a proof of work the browser solves unseen, or a visible check. */
export type SiteCaptchaMode = 'off' | 'invisible' | 'visible';
/** The store's details and member sign-up rules (`/_api/vitrine/settings/v1/site`). */
export interface SiteDetails {
  id: string;
  slug: string;
  name: string;
  /** The one currency the site prices in (set when the site is made). */
  currency: string;
  /** Where order and webhook-disabled notices go; '' when none. */
  ownerEmail: string;
  requireEmailVerification: boolean;
  requireOwnerApproval: boolean;
  captcha: SiteCaptchaMode;
}
/** What an owner may change of it (fields left out keep their value). */
export type SiteDetailsPatch = Partial<Pick<SiteDetails, 'name' | 'ownerEmail' | 'requireEmailVerification' | 'requireOwnerApproval' | 'captcha'>>;
