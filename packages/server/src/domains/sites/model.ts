// The site as every domain sees it (service and store share these).
export type SiteStatus = 'ENABLED' | 'DISABLED' | 'PENDING' | 'DEMO';

/** Per-site switches the domains read; each domain documents the keys it owns. */
export interface SiteSettings {
  /** identity: new members must verify their e-mail before they can log in. */
  requireEmailVerification?: boolean;
  /** identity: new members wait for the owner's approval. */
  requireOwnerApproval?: boolean;
  /** identity: captcha on register and login. */
  captcha?: 'off' | 'invisible' | 'visible';
  [key: string]: unknown;
}

export interface Site {
  id: string;
  slug: string;
  name: string;
  status: SiteStatus;
  currency: string;
  settings: SiteSettings;
  createdDate: string;
  updatedDate: string;
}
