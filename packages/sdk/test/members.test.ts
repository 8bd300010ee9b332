import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { memberTokenPair } from '../../server/test/member-tokens.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { members } from '../src/modules/members/index.js';
import { dotR, recordingFetch } from './helpers.js';

/** The members module over real HTTP: owner (API key) and member (OAuth member tokens) clients. */
let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
let admin: ReturnType<typeof adminClient>;

const adminClient = () => createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: rec.fetch });

async function memberClient(memberId: string) {
  const pair = await memberTokenPair(t, memberId);
  const auth = OAuthStrategy({
    clientId: t.clientId,
    tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' } },
  });
  return createClient({ modules: { members }, auth, host: t.url, fetch: rec.fetch });
}

const lastApiCall = () => rec.calls.filter((c) => c.url.pathname !== '/oauth2/token').at(-1)!;

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
  admin = adminClient();
});
afterAll(() => t?.close());

describe('owner calls', () => {
  it('creates, gets with fieldsets, updates and lists members', async () => {
    const created = await admin.members.createMember({ member: { loginEmail: 'sdk@members.test', profile: { nickname: 'Sdk User' }, privacyStatus: 'PUBLIC' } });
    expect(created).toMatchObject({ loginEmail: 'sdk@members.test', status: 'APPROVED', profile: { nickname: 'Sdk User', slug: 'sdk-user' } });
    expect(created._createdDate).toBeInstanceOf(Date);
    expect((created as { id?: string }).id).toBeUndefined();

    const got = await admin.members.getMember(created._id, { fieldsets: ['EXTENDED'] });
    expect(got).toMatchObject({ _id: created._id, loginEmail: 'sdk@members.test', status: 'APPROVED' });
    const call = lastApiCall();
    expect(call.method).toBe('GET');
    expect(call.url.pathname).toBe(`/members/v1/members/${created._id}`);
    expect(call.url.searchParams.getAll('fieldsets')).toEqual(['EXTENDED']);

    const updated = await admin.members.updateMember(created._id, { profile: { title: 'Tester' } });
    expect(updated.profile).toEqual({ nickname: 'Sdk User', slug: 'sdk-user', title: 'Tester' });
    expect(lastApiCall().body).toEqual({ member: { id: created._id, profile: { title: 'Tester' } } });

    const list = await admin.members.listMembers({ paging: { limit: 1 }, sorting: [{ fieldName: '_createdDate', order: 'DESC' }] });
    expect(list.members.map((m) => m._id)).toEqual([created._id]);
    expect(list.metadata).toEqual({ count: 1, offset: 0, total: 1, tooManyToCount: false });
    expect(dotR(lastApiCall())).toEqual({ paging: { limit: 1 }, sorting: [{ fieldName: '_createdDate', order: 'DESC' }] });
  });

  it('queries with the builder and pages', async () => {
    for (let i = 0; i < 3; i++) await admin.members.createMember({ member: { loginEmail: `b${i}@builder.test`, status: 'PENDING', profile: { nickname: `Builder ${i}` } } });
    const page = await admin.members.queryMembers({ fieldsets: ['EXTENDED'] }).eq('status', 'PENDING').ascending('profile.nickname').limit(2).find();
    expect(page.items.map((m) => m.profile?.nickname)).toEqual(['Builder 0', 'Builder 1']);
    expect(page.totalCount).toBe(3);
    expect(lastApiCall().body).toEqual({ query: { filter: { status: 'PENDING' }, sort: [{ fieldName: 'profile.nickname', order: 'ASC' }], paging: { limit: 2, offset: 0 } }, fieldsets: ['EXTENDED'] });
    const next = await page.next();
    expect(next.items.map((m) => m.profile?.nickname)).toEqual(['Builder 2']);
  });

  it('runs transitions, bulk jobs and deletes', async () => {
    const { jobId } = await admin.members.bulkApproveMembers({ loginEmail: { $endsWith: '@builder.test' } });
    let job = (await admin.members.getBulkJob(jobId)).job;
    for (let i = 0; i < 100 && job.status !== 'FINISHED'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      job = (await admin.members.getBulkJob(jobId)).job;
    }
    expect(job).toMatchObject({ _id: jobId, type: 'APPROVE', status: 'FINISHED', total: 3, succeeded: 3 });
    expect(job._createdDate).toBeInstanceOf(Date);

    const one = (await admin.members.queryMembers().eq('loginEmail', 'b0@builder.test').find()).items[0]!;
    const { member: blocked } = await admin.members.blockMember(one._id);
    expect(blocked.status).toBe('BLOCKED');
    const error = await admin.members.blockMember(one._id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VitrineError);
    expect(error).toMatchObject({ code: 'MEMBER_STATUS_TRANSITION_NOT_ALLOWED', status: 409, message: 'Cannot block a member whose status is BLOCKED' });

    const bulk = await admin.members.bulkDeleteMembers([one._id]);
    expect(bulk.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 });
    expect(bulk.results[0]!.itemMetadata).toEqual({ _id: one._id, originalIndex: 0, success: true });
    await expect(admin.members.deleteMember(one._id)).rejects.toMatchObject({ code: 'MEMBER_NOT_FOUND' });
  });
});

describe('member calls', () => {
  it('reads and changes the current member, joins the community and deletes itself', async () => {
    const created = await admin.members.createMember({ member: { loginEmail: 'me@members.test', contact: { firstName: 'Me' } } });
    const me = await memberClient(created._id);
    const { member } = await me.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(member).toMatchObject({ _id: created._id, loginEmail: 'me@members.test', contact: { firstName: 'Me' }, privacyStatus: 'PRIVATE' });
    const slug = await me.members.updateCurrentMemberSlug('its-me');
    expect(slug.member.profile?.slug).toBe('its-me');
    const joined = await me.members.joinCommunity();
    expect(joined.member.privacyStatus).toBe('PUBLIC');
    const left = await me.members.leaveCommunity();
    expect(left.member.privacyStatus).toBe('PRIVATE');
    const forbidden = await me.members.approveMember(created._id).catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ code: 'ELEVATED_REQUIRED', status: 403 });
    await me.members.deleteMyMember();
    await expect(admin.members.getMember(created._id)).rejects.toMatchObject({ code: 'MEMBER_NOT_FOUND', status: 404 });
  });

  it('maps validation errors to argument names', async () => {
    const error = await admin.members.getMember('not-a-guid').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'INVALID_ARGUMENT: "_id" must be a GUID' });
  });
});

describe('membersAbout', () => {
  const content = { nodes: [{ type: 'PARAGRAPH', id: 'p1', nodes: [{ type: 'TEXT', id: 't1', textData: { text: 'About me' } }] }] };

  it('a member writes their about; others read it; revisions guard updates; the builder pages', async () => {
    const { membersAbout } = await import('../src/modules/members/index.js');
    const created = await admin.members.createMember({ member: { loginEmail: 'about@members.test', privacyStatus: 'PUBLIC' } });
    const pair = await memberTokenPair(t, created._id);
    const me = createClient({
      modules: { membersAbout },
      auth: OAuthStrategy({ clientId: t.clientId, tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' } } }),
      host: t.url,
      fetch: rec.fetch,
    });
    const about = await me.membersAbout.createMemberAbout({ content });
    expect(about).toEqual({ _id: expect.any(String), memberId: created._id, revision: '1', content });
    expect(lastApiCall().body).toEqual({ memberAbout: { content } });
    const mine = await me.membersAbout.getMyMemberAbout();
    expect(mine.memberAbout._id).toBe(about._id);
    const stale = await me.membersAbout.updateMemberAbout(about._id, { revision: '5', content }).catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: 'REVISION_MISMATCH', status: 409 });
    const updated = await me.membersAbout.updateMemberAbout(about._id, { revision: '1', content: { nodes: [] } });
    expect(updated.revision).toBe('2');

    const visitorClient = createClient({ modules: { membersAbout }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: rec.fetch });
    const read = await visitorClient.membersAbout.getMemberAbout(about._id);
    expect(read.content).toEqual({ nodes: [] });
    const page = await visitorClient.membersAbout.queryMemberAbouts().eq('memberId', created._id).limit(1).find();
    expect(page.items.map((a) => a._id)).toEqual([about._id]);
    expect(page.hasNext()).toBe(false);
    await me.membersAbout.deleteMemberAbout(about._id);
    await expect(visitorClient.membersAbout.getMemberAbout(about._id)).rejects.toMatchObject({ code: 'MEMBER_ABOUT_NOT_FOUND', status: 404 });
  });
});
