/** Members hooks: the signed-in member (storefront) and the owner's member admin (dashboard). */
import { useMemo } from 'react';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule, type SortOrder } from '@vitrine/sdk';
import { recovery } from '@vitrine/sdk/identity';
import { members, reports } from '@vitrine/sdk/members';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation, type QueryHookOptions } from './mutation.js';
import { useVitrineClient } from './provider.js';

type Fieldset = members.Fieldset;
type Member = members.Member;
type MemberField = members.MemberField;
type MembersQueryBuilder = members.MembersQueryBuilder;

export interface MembersQueryOptions extends QueryHookOptions {
  fieldsets?: Fieldset[];
  /** Free text over the given fields (the server searches the nickname when none are given). */
  search?: members.Search;
  limit?: number;
  skip?: number;
  sort?: readonly { fieldName: MemberField; order?: SortOrder }[];
  build?: (query: MembersQueryBuilder) => MembersQueryBuilder;
}

/** One page of `members.queryMembers({ fieldsets, search })` (owners see every member). */
export function useMembers(options: MembersQueryOptions = {}): UseQueryResult<members.MembersQueryResult> {
  const client = useVitrineClient();
  const { fieldsets, search, limit, skip, sort, build } = options;
  const builder = useMemo(() => {
    let q = bindModule(members, client).queryMembers({ ...(fieldsets ? { fieldsets } : {}), ...(search?.expression ? { search } : {}) });
    if (limit !== undefined) q = q.limit(limit);
    if (skip !== undefined) q = q.skip(skip);
    for (const s of sort ?? []) q = s.order === 'DESC' ? q.descending(s.fieldName) : q.ascending(s.fieldName);
    return build ? build(q) : q;
  }, [client, fieldsets, search, limit, skip, sort, build]);
  return useQuery({
    queryKey: queryKeys.members.list({ query: builder.query, fieldsets, search: search?.expression ? search : undefined }),
    queryFn: () => builder.find(),
    enabled: options.enabled,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}

/** One member by id; disabled while `id` is empty. */
export function useMember(id: string | undefined, options: { fieldsets?: Fieldset[] } = {}): UseQueryResult<Member> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: queryKeys.members.detail(id ?? '', options),
    queryFn: () => bindModule(members, client).getMember(id!, options),
    enabled: Boolean(id),
  });
}

/** The signed-in member (`members.getCurrentMember`); pass `enabled: loggedIn`. */
export function useCurrentMember(options: { fieldsets?: Fieldset[]; enabled?: boolean } = {}): UseQueryResult<Member> {
  const client = useVitrineClient();
  const { enabled, ...call } = options;
  return useQuery({
    queryKey: queryKeys.members.current(call),
    queryFn: async () => (await bindModule(members, client).getCurrentMember(call)).member,
    enabled,
  });
}

export type MemberAction = 'approve' | 'block' | 'mute' | 'unmute';
const ACTIONS = { approve: 'approveMember', block: 'blockMember', mute: 'muteMember', unmute: 'unmuteMember' } as const;

/** Elevated: `mutate({ _id, action: 'approve' | 'block' | 'mute' | 'unmute' })` -> the changed member. */
export const useMemberAction = () =>
  useVitrineMutation(async (client, { _id, action }: { _id: string; action: MemberAction }) => (await bindModule(members, client)[ACTIONS[action]](_id)).member, invalidates.member);

/**
 * Elevated: mails the member a link to choose a password (`recovery.sendActivationEmail`); a member the
 * owner created claims its account with it.
 */
export const useSendPasswordLink = () =>
  useVitrineMutation((client, _id: string) => bindModule(recovery, client).sendActivationEmail(_id), () => []);

export const useDeleteMember = () =>
  useVitrineMutation((client, _id: string) => bindModule(members, client).deleteMember(_id), invalidates.member);

/** Elevated: a page of member reports (`reports.listReports`). */
export function useReports(options: reports.ListReportsOptions & QueryHookOptions = {}): UseQueryResult<{ reports: reports.Report[]; metadata: members.PagingMetadata }> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, ...call } = options;
  return useQuery({
    queryKey: queryKeys.reports.list(call),
    queryFn: () => bindModule(reports, client).listReports(call),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

export const useResolveReport = () =>
  useVitrineMutation((client, { _id, mute, note }: { _id: string; mute?: boolean; note?: string }) => bindModule(reports, client).resolveReport(_id, { mute, ...(note ? { note } : {}) }), invalidates.report);
