/** The signed-in member's own account: profile, addresses, slug, community membership. */
import { bindModule } from '@vitrine/sdk';
import { members } from '@vitrine/sdk/members';
import { invalidates } from './keys.js';
import { useVitrineMutation } from './mutation.js';

/** `mutate({ _id, member })`: the member changes their own names, photo, addresses (`members.updateMember`). */
export const useUpdateMyMember = () =>
  useVitrineMutation((client, { _id, member }: { _id: string; member: members.MemberInput }) => bindModule(members, client).updateMember(_id, member), invalidates.member);

/** `mutate(slug)`: the member's profile URL slug (`members.updateCurrentMemberSlug`); 409 when taken. */
export const useUpdateMySlug = () =>
  useVitrineMutation(async (client, slug: string) => (await bindModule(members, client).updateCurrentMemberSlug(slug)).member, invalidates.member);

/** `mutate(true)` joins the community (profile PUBLIC), `mutate(false)` leaves it (PRIVATE). */
export const useCommunityMembership = () =>
  useVitrineMutation(async (client, join: boolean) => {
    const m = bindModule(members, client);
    return (await (join ? m.joinCommunity() : m.leaveCommunity())).member;
  }, invalidates.member);
