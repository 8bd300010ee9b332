/**
 * Site members (`@vitrine/sdk/members` -> `members`). Call names, argument order and result shapes follow
 * the public `@wix/members` members module; paths are those of contracts/endpoints.md (members.members).
 * Server rules (fieldsets, transitions, jobs): docs/members.md.
 */
import { defineMethod } from '../../define.js';
import type { DecodeOptions } from '../../http/codec.js';
import { offsetQuery, type OffsetQueryBuilder, type OffsetQueryResult } from '../../query/offset.js';
import type * as wire from '@vitrine/types/members';
import type { Fieldset } from '@vitrine/types/members';
import type { FromWire } from '../../wire-types.js';

export type {
  ActivityStatus, CustomFieldType, Fieldset, MemberStatus, PrivacyStatus, SocialNetwork,
} from '@vitrine/types/members';

/** Member date fields the SDK turns into Date objects (MEMBER_DATES below). */
type MemberDateKeys = 'createdDate' | 'updatedDate' | 'lastLoginDate';
// Caller shapes of the wire types (`_id`, `_createdDate`, dates as Date): see wire-types.ts.
export type MemberAddress = FromWire<wire.MemberAddress>;
export type CustomField = wire.CustomField;
export type MemberContact = FromWire<wire.MemberContact>;
export type MemberImage = FromWire<wire.MemberImage>;
export type MemberProfile = FromWire<wire.MemberProfile>;
/** A member in the caller's names; which fields are present depends on the fieldset and the caller. */
export type Member = FromWire<wire.Member, MemberDateKeys>;

export interface PagingMetadata { count?: number; offset?: number; total?: number; tooManyToCount?: boolean }
export interface Sorting { fieldName: string; order?: 'ASC' | 'DESC' }
export interface Search {
  expression?: string | null;
  fields?: ('loginEmail' | 'contact.firstName' | 'contact.lastName' | 'profile.title' | 'profile.nickname' | 'profile.slug')[];
}

/** Fields `queryMembers()` filters and sorts on (owners; others only `_id`, `profile.*`, dates). */
export type MemberField =
  | '_id' | 'loginEmail' | 'status' | 'privacyStatus' | 'activityStatus' | 'contact.firstName' | 'contact.lastName'
  | 'profile.nickname' | 'profile.slug' | 'profile.title' | '_createdDate' | '_updatedDate' | 'lastLoginDate';
export type MembersQueryBuilder = OffsetQueryBuilder<Member, MemberField>;
export type MembersQueryResult = OffsetQueryResult<Member, MemberField>;

/** What an owner (or the member, on update) may write: the create body, every field optional. */
export type MemberInput = FromWire<Partial<wire.CreateMemberInput>>;

type BulkDeleteMembersResponse = FromWire<wire.BulkDeleteMembersResponse>;
export type BulkMemberResult = BulkDeleteMembersResponse['results'][number];
/** Progress of a by-filter job; its dates as Date. */
export type BulkJob = FromWire<wire.MemberBulkJob, 'createdDate' | 'updatedDate' | 'finishedDate'>;

const MEMBER_DATES = ['createdDate', 'updatedDate', 'lastLoginDate'];
const at = (prefix: string): DecodeOptions => ({ dates: MEMBER_DATES.map((d) => (prefix ? `${prefix}.${d}` : d)) });
const ONE = at('member');
const MANY = at('members');
const M = '/members/v1/members';
const byId = (_id: string) => `${M}/${encodeURIComponent(_id)}`;
const ID_ARG = { id: '_id' } as const;

type MemberResponse = { member: Member };

/** `members.getCurrentMember({ fieldsets })` -> `{ member }` (a logged-in member). */
export const getCurrentMember = defineMethod((client, options: { fieldsets?: Fieldset[] } = {}) =>
  client.request<MemberResponse>({ method: 'GET', path: `${M}/my`, payload: { ...options }, decode: ONE }));

/** `members.getMember(id, { fieldsets })` -> the member (PUBLIC fields unless the caller may see more). */
export const getMember = defineMethod(async (client, _id: string, options: { fieldsets?: Fieldset[] } = {}) =>
  (await client.request<MemberResponse>({ method: 'GET', path: byId(_id), payload: { _id, ...options }, decode: ONE, argumentFields: ID_ARG })).member);

/** `members.listMembers({ paging, fieldsets, sorting })` -> `{ members, metadata }` */
export const listMembers = defineMethod((client, options: { paging?: { limit?: number; offset?: number }; fieldsets?: Fieldset[]; sorting?: Sorting[] } = {}) =>
  client.request<{ members: Member[]; metadata: PagingMetadata }>({ method: 'GET', path: M, payload: { ...options }, decode: MANY }));

/** `members.queryMembers({ fieldsets, search }).eq('status', 'PENDING').find()` */
export const queryMembers = defineMethod((client, options: { fieldsets?: Fieldset[]; search?: Search } = {}): MembersQueryBuilder =>
  offsetQuery<Member, MemberField>(async (query) => {
    const res = await client.request<{ members?: Member[]; metadata?: PagingMetadata }>({
      method: 'POST', path: `${M}/query`, payload: { query, ...options }, decode: MANY,
    });
    return { items: res.members ?? [], total: res.metadata?.total, tooManyToCount: res.metadata?.tooManyToCount };
  }));

/** `members.updateCurrentMemberSlug(slug)` -> `{ member }` */
export const updateCurrentMemberSlug = defineMethod((client, slug: string) =>
  client.request<MemberResponse>({ method: 'POST', path: `${M}/my/slug`, payload: { slug }, decode: ONE }));

/** Elevated: `members.updateMemberSlug(id, slug)` -> `{ member }` */
export const updateMemberSlug = defineMethod((client, _id: string, slug: string) =>
  client.request<MemberResponse>({ method: 'POST', path: `${byId(_id)}/slug`, payload: { _id, slug }, decode: ONE, argumentFields: ID_ARG }));

/** `members.joinCommunity()` -> `{ member }` (the logged-in member becomes PUBLIC). */
export const joinCommunity = defineMethod((client) =>
  client.request<MemberResponse>({ method: 'POST', path: `${M}/join-community`, payload: {}, decode: ONE }));

/** `members.leaveCommunity()` -> `{ member }` (the logged-in member becomes PRIVATE). */
export const leaveCommunity = defineMethod((client) =>
  client.request<MemberResponse>({ method: 'POST', path: `${M}/leave-community`, payload: {}, decode: ONE }));

const action = (name: 'mute' | 'unmute' | 'approve' | 'block' | 'disconnect') => defineMethod((client, _id: string) =>
  client.request<MemberResponse>({ method: 'POST', path: `${byId(_id)}/${name}`, payload: { _id }, decode: ONE, argumentFields: ID_ARG }));

/** Elevated: ACTIVE -> MUTED. */
export const muteMember = action('mute');
/** Elevated: MUTED -> ACTIVE. */
export const unmuteMember = action('unmute');
/** Elevated: PENDING, BLOCKED or OFFLINE -> APPROVED. */
export const approveMember = action('approve');
/** Elevated: -> BLOCKED; the member's sessions end. */
export const blockMember = action('block');
/** Elevated: -> OFFLINE; the member's sessions end. */
export const disconnectMember = action('disconnect');

/** Elevated: `members.deleteMember(id)` */
export const deleteMember = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: byId(_id), payload: { _id }, argumentFields: ID_ARG });
});

/** `members.deleteMyMember({ contentAssigneeId })` */
export const deleteMyMember = defineMethod(async (client, options: { contentAssigneeId?: string | null } = {}): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${M}/my`, payload: { ...(options.contentAssigneeId ? { contentAssigneeId: options.contentAssigneeId } : {}) } });
});

/** Elevated: `members.bulkDeleteMembers(ids)` -> `{ results, bulkActionMetadata }` (at most 1000 ids). */
export const bulkDeleteMembers = defineMethod((client, memberIds: string[]) =>
  client.request<BulkDeleteMembersResponse>({
    method: 'POST', path: `${M}/bulk/delete`, payload: { memberIds },
  }));

/** Elevated: a background job deleting the members matching `filter` -> `{ jobId }` */
export const bulkDeleteMembersByFilter = defineMethod((client, filter: Record<string, unknown>, options: { contentAssigneeId?: string | null; search?: Search } = {}) =>
  client.request<wire.MemberBulkJobStarted>({ method: 'POST', path: `${M}/bulk/delete-by-filter`, payload: { filter, ...options } }));

/** Elevated: a background job approving the members matching `filter` -> `{ jobId }` */
export const bulkApproveMembers = defineMethod((client, filter: Record<string, unknown>) =>
  client.request<wire.MemberBulkJobStarted>({ method: 'POST', path: `${M}/bulk/approve-by-filter`, payload: { filter } }));

/** Elevated: a background job blocking the members matching `filter` -> `{ jobId }` */
export const bulkBlockMembers = defineMethod((client, filter: Record<string, unknown>) =>
  client.request<wire.MemberBulkJobStarted>({ method: 'POST', path: `${M}/bulk/block-by-filter`, payload: { filter } }));

/** Elevated, Vitrine only: progress of a by-filter job -> `{ job }` */
export const getBulkJob = defineMethod((client, jobId: string) =>
  client.request<{ job: BulkJob }>({
    method: 'GET', path: `${M}/bulk/jobs/${encodeURIComponent(jobId)}`, payload: { jobId }, decode: { dates: ['job.createdDate', 'job.updatedDate', 'job.finishedDate'] },
  }));

/** Elevated: `members.createMember({ member })` -> the member */
export const createMember = defineMethod(async (client, options: { member?: MemberInput } = {}) =>
  (await client.request<MemberResponse>({ method: 'POST', path: M, payload: { member: options.member ?? {} }, decode: ONE })).member);

/** `members.updateMember(id, member)` -> the member (owners: anyone; a member: themselves). */
export const updateMember = defineMethod(async (client, _id: string, member: MemberInput) =>
  (await client.request<MemberResponse>({ method: 'PATCH', path: byId(_id), payload: { member: { ...member, _id } }, decode: ONE })).member);

const clearList = (list: 'phones' | 'emails' | 'addresses') => defineMethod((client, _id: string) =>
  client.request<MemberResponse>({ method: 'DELETE', path: `${byId(_id)}/${list}`, payload: { _id }, decode: ONE, argumentFields: ID_ARG }));

/** Elevated: removes every phone of the member's contact -> `{ member }` */
export const deleteMemberPhones = clearList('phones');
/** Elevated: removes every e-mail of the member's contact -> `{ member }` */
export const deleteMemberEmails = clearList('emails');
/** Elevated: removes every address of the member's contact -> `{ member }` */
export const deleteMemberAddresses = clearList('addresses');
