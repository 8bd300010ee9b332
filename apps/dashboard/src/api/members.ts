import type { Api, PageMeta } from './client';

export const MEMBER_STATUSES = ['PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface Member {
  id: string;
  loginEmail: string;
  loginEmailVerified?: boolean;
  status: MemberStatus;
  activityStatus: 'ACTIVE' | 'MUTED';
  privacyStatus: 'PRIVATE' | 'PUBLIC';
  contact?: { firstName?: string; lastName?: string; phones?: string[]; emails?: string[]; company?: string; jobTitle?: string };
  profile?: { nickname?: string; slug?: string; title?: string };
  roles?: string[];
  createdDate: string;
  updatedDate?: string;
  lastLoginDate?: string;
}

export interface Report {
  id: string;
  reporterId: string;
  memberId: string;
  reason: string;
  details?: string;
  status: 'OPEN' | 'RESOLVED';
  resolution?: { muted: boolean; note?: string };
  createdDate: string;
  resolvedDate?: string;
}

/** Largest page of member and report lists (server MEMBER_PAGE_MAX / REPORT_PAGE_MAX are at least this). */
export const MEMBER_PAGE_SIZE = 25;

/**
 * The server searches only the nickname unless told otherwise, and takes at most 4 fields
 * (SEARCH_FIELDS_MAX); an owner wants e-mail and names.
 */
const SEARCH_FIELDS = ['loginEmail', 'contact.firstName', 'contact.lastName', 'profile.nickname'];
/** Server SEARCH_EXPRESSION_MAX. */
export const SEARCH_MAX = 100;

export function memberName(m: Member): string {
  return [m.contact?.firstName, m.contact?.lastName].filter(Boolean).join(' ');
}

export async function queryMembers(api: Api, q: { status?: MemberStatus; search?: string; ids?: string[]; offset: number; limit: number }): Promise<{ members: Member[]; metadata: PageMeta }> {
  const filter: Record<string, unknown> = {};
  if (q.status) filter.status = q.status;
  if (q.ids) filter.id = { $in: q.ids };
  const expression = q.search?.trim();
  return api('/members/v1/members/query', {
    body: {
      query: { filter, paging: { limit: q.limit, offset: q.offset }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] },
      fieldsets: ['FULL'],
      ...(expression ? { search: { expression, fields: SEARCH_FIELDS } } : {}),
    },
  });
}

export async function getMember(api: Api, id: string): Promise<Member> {
  return (await api<{ member: Member }>(`/members/v1/members/${id}`, { query: { fieldsets: ['FULL'] } })).member;
}

export type MemberAction = 'approve' | 'block' | 'mute' | 'unmute';

export async function memberAction(api: Api, id: string, action: MemberAction): Promise<Member> {
  return (await api<{ member: Member }>(`/members/v1/members/${id}/${action}`, { body: {} })).member;
}

export async function deleteMember(api: Api, id: string): Promise<void> {
  await api(`/members/v1/members/${id}`, { method: 'DELETE' });
}

export async function listReports(api: Api, q: { status?: 'OPEN' | 'RESOLVED'; memberId?: string; offset: number; limit: number }): Promise<{ reports: Report[]; metadata: PageMeta }> {
  return api('/members/v1/reports', { query: { ...(q.status ? { status: q.status } : {}), ...(q.memberId ? { memberId: q.memberId } : {}), paging: { limit: q.limit, offset: q.offset } } });
}

export async function resolveReport(api: Api, id: string, input: { mute: boolean; note?: string }): Promise<Report> {
  return (await api<{ report: Report }>(`/members/v1/reports/${id}/resolve`, { body: { mute: input.mute, ...(input.note ? { note: input.note } : {}) } })).report;
}
