/**
 * Member entity as it travels on the wire (REST names of members.members), plus the enums of the spec.
 * Pure types and constants; no I/O.
 */

export const MEMBER_STATUSES = ['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const PRIVACY_STATUSES = ['UNKNOWN', 'PRIVATE', 'PUBLIC'] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];
export const ACTIVITY_STATUSES = ['UNKNOWN', 'ACTIVE', 'MUTED'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
export const FIELDSETS = ['PUBLIC', 'EXTENDED', 'FULL'] as const;
export type Fieldset = (typeof FIELDSETS)[number];
export const REPORT_REASONS = ['UNKNOWN', 'SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'URL', 'SOCIAL'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const SOCIAL_NETWORKS = [
  'FACEBOOK', 'INSTAGRAM', 'LINKEDIN', 'TWITTER', 'YOUTUBE', 'PINTEREST', 'TIKTOK', 'DEVIANTART', 'SOUNDCLOUD',
  'TUMBLR', 'VIMEO', 'VKONTAKTE', 'ODNOKLASSNIKI', 'OTHER',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const MEMBER_ROLES = ['UNDEFINED_ROLE', 'MEMBER', 'OWNER', 'CONTRIBUTOR'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface StreetAddress { number?: string; name?: string }

export interface MemberAddress {
  id: string;
  streetAddress?: StreetAddress;
  addressLine?: string;
  addressLine2?: string;
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
}

export interface CustomField {
  name?: string;
  value?: string | number;
  /** Our extension: how `value` is validated. Inferred from the value when absent (string TEXT, number NUMBER). */
  type?: CustomFieldType;
  /** Required when type is SOCIAL. */
  socialNetwork?: SocialNetwork;
}

export interface MemberContact {
  firstName?: string;
  lastName?: string;
  phones?: string[];
  emails?: string[];
  addresses?: MemberAddress[];
  birthdate?: string;
  company?: string;
  jobTitle?: string;
  customFields?: Record<string, CustomField>;
}

export interface MemberImage {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  offsetX?: number;
  offsetY?: number;
}

export interface MemberProfile {
  nickname?: string;
  slug?: string;
  photo?: MemberImage;
  cover?: MemberImage;
  title?: string;
}

/** The full member as stored. */
export interface Member {
  id: string;
  loginEmail: string;
  loginEmailVerified: boolean;
  status: MemberStatus;
  contactId: string;
  contact: MemberContact;
  profile: MemberProfile & { slug: string };
  privacyStatus: PrivacyStatus;
  activityStatus: ActivityStatus;
  roles: MemberRole[];
  createdDate: string;
  updatedDate: string;
  lastLoginDate?: string;
}
