import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { memberTokenPair, ownerCreateMember } from '../../server/test/member-tokens.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { members, reports } from '../src/modules/members/index.js';
import { dotR, recordingFetch } from './helpers.js';

/** `@vitrine/sdk/members` -> `reports` (our extension): a member reports, the owner lists and resolves. */
let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
const admin = () => createClient({ modules: { reports, members }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: rec.fetch });

async function memberClient(memberId: string) {
  const pair = await memberTokenPair(t, memberId);
  const auth = OAuthStrategy({
    clientId: t.clientId,
    tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' } },
  });
  return createClient({ modules: { reports }, auth, host: t.url, fetch: rec.fetch });
}

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
});
afterAll(() => t?.close());

describe('member reports', () => {
  it('a member reports, the owner lists by status and resolves with a mute', async () => {
    const reporter = await ownerCreateMember(t, { loginEmail: 'reporter@reports.test' });
    const target = await ownerCreateMember(t, { loginEmail: 'target@reports.test', privacyStatus: 'PUBLIC' });
    const m = await memberClient(reporter.id);
    const { report } = await m.reports.reportMember({ memberId: target.id, reason: 'SPAM', details: 'links everywhere' });
    expect(rec.calls.at(-1)!.body).toEqual({ memberId: target.id, reason: 'SPAM', details: 'links everywhere' });
    expect(report).toMatchObject({ reporterId: reporter.id, memberId: target.id, reason: 'SPAM', status: 'OPEN' });
    expect(report._createdDate).toBeInstanceOf(Date);

    const a = admin();
    const open = await a.reports.listReports({ status: 'OPEN', memberId: target.id, paging: { limit: 1, offset: 0 } });
    expect(dotR(rec.calls.at(-1)!)).toEqual({ status: 'OPEN', memberId: target.id, paging: { limit: 1, offset: 0 } });
    expect(open.reports.map((r) => r._id)).toEqual([report._id]);
    expect(open.metadata).toEqual({ count: 1, offset: 0, total: 1, tooManyToCount: false });

    const resolved = await a.reports.resolveReport(report._id, { mute: true, note: 'muted for a week' });
    expect(resolved).toMatchObject({ _id: report._id, status: 'RESOLVED', resolution: { muted: true, note: 'muted for a week' } });
    expect(resolved.resolvedDate).toBeInstanceOf(Date);
    expect((await a.members.getMember(target.id, { fieldsets: ['FULL'] })).activityStatus).toBe('MUTED');
    expect((await a.reports.listReports({ status: 'OPEN' })).reports).toEqual([]);
    expect((await a.reports.listReports({ status: 'RESOLVED' })).reports.map((r) => r._id)).toEqual([report._id]);

    const twice = await a.reports.resolveReport(report._id).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(VitrineError);
    expect(twice).toMatchObject({ status: 409, code: 'REPORT_ALREADY_RESOLVED' });
  });

  it('refuses members listing reports, unknown reports and bad paging', async () => {
    const someone = await ownerCreateMember(t, { loginEmail: 'someone@reports.test' });
    const refused = await (await memberClient(someone.id)).reports.listReports().catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403 });
    const missing = await admin().reports.resolveReport('00000000-0000-4000-8000-000000000001').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'REPORT_NOT_FOUND' });
    const bad = await admin().reports.listReports({ paging: { limit: 0 } }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'validation', status: 400, message: expect.stringMatching(/^INVALID_ARGUMENT: "paging\.limit"/) });
  });
});
