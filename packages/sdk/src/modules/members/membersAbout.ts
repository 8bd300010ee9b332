/**
 * Member "About" sections (`@vitrine/sdk/members` -> `membersAbout`), after the public `@wix/members`
 * membersAbout module; paths of contracts/endpoints.md (members.membersAbout). Rules: docs/members.md.
 */
import type * as wire from '@vitrine/types/members';
import { defineMethod } from '../../define.js';
import { cursorQuery, type CursorQueryBuilder } from '../../query/cursor.js';
import type { DateKeys, FromWire } from '../../wire-types.js';

/** A rich-content node (`type` one of the rich-content node types; the server checks them). Node ids stay `id`. */
export type { RichContent, RichContentNode } from '@vitrine/types/members';
/** An about in the caller's names (`_id`); `content` keeps its wire shape (the codec preserves it). */
export type MemberAbout = FromWire<wire.MemberAbout, DateKeys, 'content'>;
type MemberAboutInput = FromWire<wire.MemberAboutInput, DateKeys, 'content'>;

const A = '/members/v2/abouts';
const ID_ARG = { id: '_id' } as const;
/** Node ids inside content keep their wire name `id` both ways. */
const ONE = { preserve: ['memberAbout.content'] };
const MANY = { preserve: ['memberAbouts.content'] };

/** `membersAbout.createMemberAbout({ memberId?, content })` -> the about (a member: their own; owners: anyone's). */
export const createMemberAbout = defineMethod(async (client, memberAbout: Pick<MemberAboutInput, 'memberId'> & Required<Pick<MemberAboutInput, 'content'>>) =>
  (await client.request<FromWire<wire.MemberAboutResponse, DateKeys, 'content'>>({ method: 'POST', path: A, payload: { memberAbout }, preserve: ['memberAbout.content'], decode: ONE })).memberAbout);

/** `membersAbout.updateMemberAbout(id, { revision, content })` -> the about */
export const updateMemberAbout = defineMethod(async (client, _id: string, memberAbout: Omit<MemberAboutInput, '_id'>) =>
  (await client.request<FromWire<wire.MemberAboutResponse, DateKeys, 'content'>>({
    method: 'PATCH', path: `${A}/${encodeURIComponent(_id)}`, payload: { memberAbout: { ...memberAbout, _id } }, preserve: ['memberAbout.content'], decode: ONE,
  })).memberAbout);

/** `membersAbout.deleteMemberAbout(id)` */
export const deleteMemberAbout = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${A}/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: ID_ARG });
});

/** `membersAbout.getMemberAbout(id)` -> the about (of a member the caller can see) */
export const getMemberAbout = defineMethod(async (client, _id: string) =>
  (await client.request<FromWire<wire.MemberAboutResponse, DateKeys, 'content'>>({ method: 'GET', path: `${A}/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: ID_ARG, decode: ONE })).memberAbout);

/** `membersAbout.getMyMemberAbout()` -> `{ memberAbout }` (a logged-in member) */
export const getMyMemberAbout = defineMethod((client) =>
  client.request<FromWire<wire.MemberAboutResponse, DateKeys, 'content'>>({ method: 'GET', path: `${A}/my`, decode: ONE }));

/** `membersAbout.queryMemberAbouts().eq('memberId', id).limit(10).find()` (newest first; no sort). */
export const queryMemberAbouts = defineMethod((client): CursorQueryBuilder<MemberAbout, 'memberId'> =>
  cursorQuery<MemberAbout, 'memberId'>(async (request) => {
    const res = await client.request<Partial<FromWire<wire.QueryMemberAboutsResponse, DateKeys, 'content'>>>({
      method: 'POST', path: `${A}/query`, payload: { query: request }, decode: MANY,
    });
    return { items: res.memberAbouts ?? [], cursors: res.metadata?.cursors ?? {}, hasNext: res.metadata?.hasNext ?? false };
  }));
