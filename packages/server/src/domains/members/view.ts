import type { Member as WireMember } from '@vitrine/types/members';
import type { Fieldset, Member } from './model.js';

/**
 * What a caller sees of a member (fieldsets of members.members):
 * - PUBLIC: id, contactId, createdDate, updatedDate, profile; statuses read UNKNOWN;
 * - EXTENDED: PUBLIC plus loginEmail, status, privacyStatus, activityStatus;
 * - FULL: everything.
 * The caller's reach caps what it asks for: visitors and other members get PUBLIC at most, a member
 * FULL of themselves, owners FULL of anyone.
 */
export type Viewer = 'elevated' | 'self' | 'other';

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
