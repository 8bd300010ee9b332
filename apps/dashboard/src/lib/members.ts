/** Member helpers and bounds of the dashboard (the calls themselves are @vitrine/react hooks). */
import type { members, reports } from '@vitrine/sdk/members';

export type Member = members.Member;
export type Report = reports.Report;

export const MEMBER_STATUSES = ['PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Largest page of member and report lists (server MEMBER_PAGE_MAX / REPORT_PAGE_MAX are at least this). */
export const MEMBER_PAGE_SIZE = 25;

/**
 * The server searches only the nickname unless told otherwise, and takes at most 4 fields
 * (SEARCH_FIELDS_MAX); an owner wants e-mail and names.
 */
export const SEARCH_FIELDS: NonNullable<members.Search['fields']> = ['loginEmail', 'contact.firstName', 'contact.lastName', 'profile.nickname'];
/** Server SEARCH_EXPRESSION_MAX. */
export const SEARCH_MAX = 100;

export function memberName(m: Member): string {
  return [m.contact?.firstName, m.contact?.lastName].filter(Boolean).join(' ');
}
