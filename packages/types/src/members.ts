/**
 * Site members (members.members) as they travel on the wire. Which member fields an answer carries
 * depends on the fieldset and the caller (PUBLIC: id, contactId, profile, dates; EXTENDED adds
 * e-mail and statuses; FULL everything), so all but `id` are optional in `Member`.
 */
import type { BulkActionMetadata, BulkItemMetadata, IsoDate, OffsetPagingMetadata } from './common.js';

export type MemberStatus = 'UNKNOWN' | 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE';
export type PrivacyStatus = 'UNKNOWN' | 'PRIVATE' | 'PUBLIC';
export type ActivityStatus = 'UNKNOWN' | 'ACTIVE' | 'MUTED';
export type Fieldset = 'PUBLIC' | 'EXTENDED' | 'FULL';
export type ReportReason = 'UNKNOWN' | 'SPAM' | 'IMPERSONATION' | 'HARASSMENT' | 'OTHER';
export type CustomFieldType = 'TEXT' | 'NUMBER' | 'DATE' | 'URL' | 'SOCIAL';
export type SocialNetwork =
  | 'FACEBOOK' | 'INSTAGRAM' | 'LINKEDIN' | 'TWITTER' | 'YOUTUBE' | 'PINTEREST' | 'TIKTOK' | 'DEVIANTART' | 'SOUNDCLOUD'
  | 'TUMBLR' | 'VIMEO' | 'VKONTAKTE' | 'ODNOKLASSNIKI' | 'OTHER';
export type MemberRole = 'UNDEFINED_ROLE' | 'MEMBER' | 'OWNER' | 'CONTRIBUTOR';

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
  /** Vitrine extension: how `value` is validated; inferred from the value when absent. */
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
  /** `YYYY-MM-DD`. */
  birthdate?: string;
  company?: string;
  jobTitle?: string;
  customFields?: Record<string, CustomField>;
}

export interface MemberImage { id?: string; url?: string; height?: number; width?: number; offsetX?: number; offsetY?: number }

export interface MemberProfile { nickname?: string; slug?: string; photo?: MemberImage; cover?: MemberImage; title?: string }

/** A member as answered (fields per fieldset, see above). */
export interface Member {
  id: string;
  contactId?: string;
  loginEmail?: string;
  loginEmailVerified?: boolean;
  status?: MemberStatus;
  privacyStatus?: PrivacyStatus;
  activityStatus?: ActivityStatus;
  contact?: MemberContact;
  profile?: MemberProfile;
  roles?: MemberRole[];
  createdDate?: IsoDate;
  updatedDate?: IsoDate;
  lastLoginDate?: IsoDate;
}

export interface MemberResponse { member: Member }
export interface ListMembersResponse { members: Member[]; metadata: OffsetPagingMetadata }

// Requests. Inputs are strict: an unknown or read-only field is FIELD_NOT_ALLOWED; `null` clears.

export interface MemberImageInput { id?: string; url?: string; height?: number; width?: number; offsetX?: number | null; offsetY?: number | null }
export interface MemberAddressInput {
  id?: string;
  streetAddress?: StreetAddress;
  addressLine?: string | null;
  addressLine2?: string | null;
  city?: string | null;
  subdivision?: string | null;
  /** ISO-3166 alpha-2. */
  country?: string | null;
  postalCode?: string | null;
}
export interface CustomFieldInput { name?: string | null; value?: string | number | null; type?: CustomFieldType; socialNetwork?: SocialNetwork }
export interface MemberContactInput {
  firstName?: string | null;
  lastName?: string | null;
  phones?: string[] | null;
  emails?: string[] | null;
  addresses?: MemberAddressInput[] | null;
  birthdate?: string | null;
  company?: string | null;
  jobTitle?: string | null;
  customFields?: Record<string, CustomFieldInput> | null;
}
export interface MemberProfileInput { nickname?: string | null; slug?: string; photo?: MemberImageInput | null; cover?: MemberImageInput | null; title?: string | null }

/** `createMember` body `member` (owners). */
export interface CreateMemberInput {
  loginEmail: string;
  /** Vitrine extension: owners may create a member waiting for approval. */
  status?: 'PENDING' | 'APPROVED';
  contact?: MemberContactInput;
  profile?: MemberProfileInput;
  privacyStatus?: 'PRIVATE' | 'PUBLIC';
}

/** `updateMember` body `member`: `id` may repeat the path id; `loginEmail` only unchanged. */
export interface UpdateMemberInput {
  id?: string;
  loginEmail?: string;
  contact?: MemberContactInput;
  profile?: MemberProfileInput;
  privacyStatus?: 'PRIVATE' | 'PUBLIC';
}

// ---- Member reports (our extension: `/members/v1/reports`)

export type ReportStatus = 'OPEN' | 'RESOLVED';
export interface MemberReport {
  id: string; reporterId: string; memberId: string; reason: ReportReason; details?: string; status: ReportStatus;
  resolution?: { muted: boolean; note?: string };
  createdDate: IsoDate; resolvedDate?: IsoDate;
}
export interface CreateReportInput { memberId: string; reason: ReportReason; details?: string }
export interface ListReportsInput { status?: ReportStatus; memberId?: string; paging?: { limit?: number | null; offset?: number | null } }
export interface ReportResponse { report: MemberReport }
export interface ListReportsResponse { reports: MemberReport[]; metadata: OffsetPagingMetadata }

// ---- Member abouts (members.membersAbout, `/members/v2/abouts`): one rich-content document per member

/**
 * A rich-content node. `id` here is the node's own id inside the document, not an entity id: the SDK
 * keeps it as `id` (its codec preserves `content`), see `FromWire`'s third parameter.
 */
export interface RichContentNode { type: string; id?: string; nodes?: RichContentNode[]; [data: string]: unknown }
export interface RichContent { nodes: RichContentNode[]; metadata?: Record<string, unknown>; documentStyle?: Record<string, unknown> }

export interface MemberAbout {
  id: string;
  memberId: string;
  /** int64 as text; an update must send the current one. */
  revision: string;
  content: RichContent;
}

/** Body `memberAbout` of create and update: `id` may repeat the path id; `memberId` only unchanged. */
export interface MemberAboutInput { id?: string; memberId?: string; revision?: string; content?: RichContent }
export interface MemberAboutResponse { memberAbout: MemberAbout }
export interface QueryMemberAboutsResponse { memberAbouts: MemberAbout[]; metadata: { count: number; cursors: { next?: string; prev?: string }; hasNext: boolean } }

// ---- Member bulk jobs (approve / block / delete by filter)

export type MemberBulkJobType = 'APPROVE' | 'BLOCK' | 'DELETE';
export type BulkJobStatus = 'INITIALIZED' | 'PROCESSING' | 'FINISHED' | 'FAILED';
export interface MemberBulkJobError { memberId: string; code: string; description: string }
/** Progress of a by-filter job (Vitrine extension: `GET /members/v1/members/bulk/jobs/:jobId`). */
export interface MemberBulkJob {
  id: string;
  type: MemberBulkJobType;
  status: BulkJobStatus;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  /** The first failures (at most a bounded number are kept). */
  errors: MemberBulkJobError[];
  createdDate: IsoDate;
  updatedDate: IsoDate;
  finishedDate?: IsoDate;
}
export interface MemberBulkJobResponse { job: MemberBulkJob }
/** Answer of a by-filter call: the job to follow. */
export interface MemberBulkJobStarted { jobId: string }

/** Answer of `bulk/delete`: one result per id, in request order. */
export interface BulkDeleteMembersResponse { results: { itemMetadata: BulkItemMetadata }[]; bulkActionMetadata: BulkActionMetadata }
