/**
 * Member of the domain (the full stored member) and the enums of the spec as run-time lists. The wire
 * shapes are defined once in `@vitrine/types/members` and re-exported here. Pure types and constants.
 */
import type {
  ActivityStatus, CustomFieldType, Fieldset, MemberContact, MemberProfile, MemberRole, MemberStatus, PrivacyStatus, ReportReason, SocialNetwork,
} from '@vitrine/types/members';

export type {
  ActivityStatus, CustomField, CustomFieldType, Fieldset, MemberAddress, MemberContact, MemberImage, MemberProfile, MemberRole, MemberStatus,
  PrivacyStatus, ReportReason, SocialNetwork, StreetAddress,
} from '@vitrine/types/members';

export const MEMBER_STATUSES = ['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const satisfies readonly MemberStatus[];
export const PRIVACY_STATUSES = ['UNKNOWN', 'PRIVATE', 'PUBLIC'] as const satisfies readonly PrivacyStatus[];
export const ACTIVITY_STATUSES = ['UNKNOWN', 'ACTIVE', 'MUTED'] as const satisfies readonly ActivityStatus[];
export const FIELDSETS = ['PUBLIC', 'EXTENDED', 'FULL'] as const satisfies readonly Fieldset[];
export const REPORT_REASONS = ['UNKNOWN', 'SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] as const satisfies readonly ReportReason[];
export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'URL', 'SOCIAL'] as const satisfies readonly CustomFieldType[];
export const SOCIAL_NETWORKS = [
  'FACEBOOK', 'INSTAGRAM', 'LINKEDIN', 'TWITTER', 'YOUTUBE', 'PINTEREST', 'TIKTOK', 'DEVIANTART', 'SOUNDCLOUD',
  'TUMBLR', 'VIMEO', 'VKONTAKTE', 'ODNOKLASSNIKI', 'OTHER',
] as const satisfies readonly SocialNetwork[];
export const MEMBER_ROLES = ['UNDEFINED_ROLE', 'MEMBER', 'OWNER', 'CONTRIBUTOR'] as const satisfies readonly MemberRole[];

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
