import type { OffsetPagingMetadata } from '@vitrine/types';
import type {
  ListMembersResponse, MemberAbout, MemberAboutResponse, MemberBulkJobResponse, MemberResponse, Member as WireMember,
  QueryMemberAboutsResponse,
} from '@vitrine/types/members';
import { isElevated, memberIdOf, type RequestContext } from '../../http/context.js';
import type { Fieldset, Member } from './model.js';
import type { MemberAboutRecord, MemberJob } from './store.js';

/**
 * What a caller sees of a member (fieldsets of members.members):
 * - PUBLIC: id, contactId, createdDate, updatedDate, profile; statuses read UNKNOWN;
 * - EXTENDED: PUBLIC plus loginEmail, status, privacyStatus, activityStatus;
 * - FULL: everything.
 * The caller's reach caps what it asks for: visitors and other members get PUBLIC at most, a member
 * FULL of themselves, owners FULL of anyone.
 */
export type Viewer = 'elevated' | 'self' | 'other';

export function viewerOf(ctx: RequestContext, memberId: string): Viewer {
  if (isElevated(ctx.caller)) return 'elevated';
  return memberIdOf(ctx.caller) === memberId ? 'self' : 'other';
}

const RANK: Record<Fieldset, number> = { PUBLIC: 0, EXTENDED: 1, FULL: 2 };

export function maxFieldset(viewer: Viewer): Fieldset {
  return viewer === 'other' ? 'PUBLIC' : 'FULL';
}

/** The widest requested fieldset (default PUBLIC), capped by what the viewer may see. */
export function effectiveFieldset(requested: readonly Fieldset[] | undefined, viewer: Viewer): Fieldset {
  const asked = (requested ?? []).reduce<Fieldset>((best, f) => (RANK[f] > RANK[best] ? f : best), 'PUBLIC');
  const cap = maxFieldset(viewer);
  return RANK[asked] <= RANK[cap] ? asked : cap;
}

/** A member as a caller sees it: the wire shape. */
export type MemberView = WireMember;

export function presentMember(member: Member, fieldset: Fieldset): MemberView {
  const base = {
    id: member.id,
    contactId: member.contactId,
    profile: member.profile,
    createdDate: member.createdDate,
    updatedDate: member.updatedDate,
  };
  if (fieldset === 'PUBLIC') return { ...base, status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN' };
  const extended = {
    ...base,
    loginEmail: member.loginEmail,
    status: member.status,
    privacyStatus: member.privacyStatus,
    activityStatus: member.activityStatus,
  };
  if (fieldset === 'EXTENDED') return extended;
  return {
    ...extended,
    loginEmailVerified: member.loginEmailVerified,
    contact: member.contact,
    roles: member.roles,
    ...(member.lastLoginDate ? { lastLoginDate: member.lastLoginDate } : {}),
  };
}

// The members domain's one way to the wire: services return stored members; routes answer with these.

/** `{ member }` of a read, in the fieldsets asked for as far as the caller may see them. */
export function memberAnswer(ctx: RequestContext, member: Member, fieldsets?: readonly Fieldset[]): MemberResponse {
  return { member: presentMember(member, effectiveFieldset(fieldsets, viewerOf(ctx, member.id))) };
}

/** `{ member }` of a write: the caller sees what it may see in full (owner or self). */
export function writtenMemberAnswer(ctx: RequestContext, member: Member): MemberResponse {
  return memberAnswer(ctx, member, ['FULL']);
}

/** A page of members as a service returns it. */
export interface MembersPage { members: Member[]; metadata: OffsetPagingMetadata }

/** `{ members, metadata }` of list and query calls. */
export function membersPageAnswer(ctx: RequestContext, page: MembersPage, fieldsets?: readonly Fieldset[]): ListMembersResponse {
  return { members: page.members.map((m) => memberAnswer(ctx, m, fieldsets).member), metadata: page.metadata };
}

// ---- Member abouts

export function presentAbout(a: MemberAboutRecord): MemberAbout {
  return { id: a.id, memberId: a.memberId, revision: String(a.revision), content: a.content };
}

export function aboutAnswer(a: MemberAboutRecord): MemberAboutResponse {
  return { memberAbout: presentAbout(a) };
}

/** A page of abouts as the query service returns it (cursors already signed). */
export interface AboutsPage { abouts: MemberAboutRecord[]; metadata: QueryMemberAboutsResponse['metadata'] }

export function aboutsPageAnswer(page: AboutsPage): QueryMemberAboutsResponse {
  return { memberAbouts: page.abouts.map(presentAbout), metadata: page.metadata };
}

// ---- Bulk calls and jobs

/** Progress of a by-filter job. */
export function jobAnswer(job: MemberJob): MemberBulkJobResponse {
  return {
    job: {
      id: job.id,
      type: job.kind,
      status: job.status,
      total: job.total,
      processed: job.processed,
      succeeded: job.succeeded,
      failed: job.failed,
      errors: job.errors,
      createdDate: job.createdDate,
      updatedDate: job.updatedDate,
      ...(job.finishedDate ? { finishedDate: job.finishedDate } : {}),
    },
  };
}
