/**
 * CONFORMANCE: the public `@wix/sdk` + `@wix/members` clients, unchanged, against our members routes,
 * with the two public hosts routed to the test server (docs/api.md, last section).
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { members, membersAbout } from '@wix/members';
import { memberTokenPair, ownerCreateMember } from '../../server/test/member-tokens.js';
import { usePublicClientServer } from '../../server/test/public-client.js';

const f = usePublicClientServer();

const owner = () => createClient({ modules: { members, membersAbout }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });

async function asMember(memberId: string) {
  const pair = await memberTokenPair(f.t, memberId);
  return createClient({
    modules: { members, membersAbout },
    auth: OAuthStrategy({
      clientId: f.t.clientId,
      tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' as never } },
    }),
  });
}

describe('public @wix/members against our server', () => {
  it('owner: create, get, update, query, approve, block, delete', async () => {
    const wix = owner();
    const created = await wix.members.createMember({ member: { loginEmail: 'public@conformance.test', profile: { nickname: 'Public Client' } } });
    expect(created).toMatchObject({ loginEmail: 'public@conformance.test', status: 'APPROVED', profile: { nickname: 'Public Client', slug: 'public-client' } });
    expect(created._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created._createdDate).toBeInstanceOf(Date);

    const got = await wix.members.getMember(created._id!, { fieldsets: ['FULL'] });
    expect(got).toMatchObject({ _id: created._id, loginEmail: 'public@conformance.test', contact: { emails: ['public@conformance.test'] } });

    const updated = await wix.members.updateMember(created._id!, { contact: { firstName: 'Pat' }, profile: { title: 'Conformance' } });
    expect(updated).toMatchObject({ contact: { firstName: 'Pat' }, profile: { title: 'Conformance' } });

    const pending = await wix.members.createMember({ member: { loginEmail: 'pending@conformance.test', status: 'PENDING' } as never });
    const found = await wix.members.queryMembers({ fieldsets: ['EXTENDED'] }).eq('status', 'PENDING').find();
    expect(found.items.map((m) => m._id)).toEqual([pending._id]);
    expect(found.totalCount).toBe(1);

    const approved = await wix.members.approveMember(pending._id!);
    expect(approved.member?.status).toBe('APPROVED');
    const blocked = await wix.members.blockMember(pending._id!);
    expect(blocked.member?.status).toBe('BLOCKED');

    const list = await wix.members.listMembers({ paging: { limit: 10 }, fieldsets: ['PUBLIC'] });
    expect(list.members?.length).toBe(2);
    expect(list.metadata).toMatchObject({ count: 2, offset: 0, total: 2 });
    const sorted = await wix.members.listMembers({ paging: { limit: 1, offset: 1 }, sorting: [{ fieldName: 'profile.nickname', order: 'DESC' }], fieldsets: ['EXTENDED'] });
    expect(sorted.members?.map((x) => x.loginEmail)).toEqual(['pending@conformance.test']);
    expect(sorted.metadata).toMatchObject({ count: 1, offset: 1, total: 2 });
    const searched = await wix.members.queryMembers({ search: { expression: 'pat', fields: ['contact.firstName'] } }).find();
    expect(searched.items.map((x) => x._id)).toEqual([created._id]);

    const slug = await wix.members.updateMemberSlug(created._id!, 'pat-the-tester');
    expect(slug.member?.profile?.slug).toBe('pat-the-tester');

    const bulk = await wix.members.bulkDeleteMembers([pending._id!]);
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 0 });
    const jobs = await wix.members.bulkApproveMembers({ status: 'PENDING' });
    expect(jobs.jobId).toMatch(/^[0-9a-f-]{36}$/);

    await wix.members.deleteMember(created._id!);
    const error: unknown = await wix.members.getMember(created._id!).then(() => undefined, (e: unknown) => e);
    expect((error as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('MEMBER_NOT_FOUND');
  });

  it('member: current member, slug, community, about, delete', async () => {
    const m = await ownerCreateMember(f.t, { loginEmail: 'self@conformance.test', profile: { nickname: 'Self' } });
    const wix = await asMember(m.id);
    const { member } = await wix.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(member).toMatchObject({ _id: m.id, loginEmail: 'self@conformance.test', privacyStatus: 'PRIVATE' });
    expect(member?._updatedDate).toBeInstanceOf(Date);
    const slug = await wix.members.updateCurrentMemberSlug('self-made');
    expect(slug.member?.profile?.slug).toBe('self-made');
    expect((await wix.members.joinCommunity()).member?.privacyStatus).toBe('PUBLIC');
    expect((await wix.members.leaveCommunity()).member?.privacyStatus).toBe('PRIVATE');

    const content = { nodes: [{ type: 'PARAGRAPH' as never, id: 'p', nodes: [{ type: 'TEXT' as never, id: 't', nodes: [], textData: { text: 'Hi', decorations: [] } }], paragraphData: {} }] };
    const about = await wix.membersAbout.createMemberAbout({ memberId: m.id, content } as never);
    expect(about).toMatchObject({ memberId: m.id, revision: '1' });
    const mine = await wix.membersAbout.getMyMemberAbout();
    expect(mine.memberAbout?._id).toBe(about._id);

    await wix.members.deleteMyMember();
    const error: unknown = await owner().members.getMember(m.id).then(() => undefined, (e: unknown) => e);
    expect((error as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('MEMBER_NOT_FOUND');
  });
});
