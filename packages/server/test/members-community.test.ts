import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';

/** Member reports (member -> owner) and member-about rich text, with their object-level checks. */
let t: TestServer;
let visitor: string;
let a: { id: string; token: string };
let b: { id: string; token: string };
let priv: { id: string; token: string };
const owner = () => asOwner(t);
const R = '/members/v1/reports';
const A = '/members/v2/abouts';

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  a = await memberWithToken(t, { loginEmail: 'a@community.test', privacyStatus: 'PUBLIC', profile: { nickname: 'A' } });
  b = await memberWithToken(t, { loginEmail: 'b@community.test', privacyStatus: 'PUBLIC', profile: { nickname: 'B' } });
  priv = await memberWithToken(t, { loginEmail: 'p@community.test', profile: { nickname: 'P' } });
});
afterAll(() => t?.close());

const violations = (body: { details: { validationError: { fieldViolations: unknown[] } } }) => body.details.validationError.fieldViolations;

describe('reports', () => {
  let reportId = '';

  it('a member reports another visible member with a reason', async () => {
    const res = await call(t.url, R, { auth: a.token, body: { memberId: b.id, reason: 'SPAM', details: 'sells watches' } });
    expect(res.status).toBe(200);
    expect(res.body.report).toEqual({ id: expect.any(String), reporterId: a.id, memberId: b.id, reason: 'SPAM', details: 'sells watches', status: 'OPEN', createdDate: expect.any(String) });
    reportId = res.body.report.id;
  });

  it('refuses a second open report, self reports, hidden members, bad reasons and non-members', async () => {
    const again = await call(t.url, R, { auth: a.token, body: { memberId: b.id, reason: 'OTHER' } });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError).toEqual({ code: 'MEMBER_ALREADY_REPORTED', description: 'You already reported this member; the report is still open', data: { memberId: b.id } });
    const self = await call(t.url, R, { auth: a.token, body: { memberId: a.id, reason: 'SPAM' } });
    expect(self.status).toBe(400);
    expect(self.body.details.applicationError.code).toBe('CANNOT_REPORT_SELF');
    const hidden = await call(t.url, R, { auth: a.token, body: { memberId: priv.id, reason: 'SPAM' } });
    expect(hidden.status).toBe(404);
    const reason = await call(t.url, R, { auth: a.token, body: { memberId: b.id, reason: 'RUDE' } });
    expect(violations(reason.body)).toEqual([{ field: 'reason', description: 'must be one of "UNKNOWN", "SPAM", "IMPERSONATION", "HARASSMENT", "OTHER"', violatedRule: 'INVALID_ENUM_VALUE', data: { allowed: ['UNKNOWN', 'SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] } }]);
    expect((await call(t.url, R, { auth: visitor, body: { memberId: b.id, reason: 'SPAM' } })).status).toBe(403);
    expect((await call(t.url, R, { ...owner(), body: { memberId: b.id, reason: 'SPAM' } })).status).toBe(403);
  });

  it('only owners list and resolve; resolving can mute the reported member', async () => {
    expect((await call(t.url, R, { auth: a.token })).status).toBe(403);
    expect((await call(t.url, `${R}/${reportId}/resolve`, { auth: b.token, body: { mute: false } })).status).toBe(403);
    const list = await call(t.url, R, { ...owner(), query: { status: 'OPEN' } });
    expect(list.status).toBe(200);
    expect(list.body.reports.map((r: { id: string }) => r.id)).toEqual([reportId]);
    expect(list.body.metadata).toEqual({ count: 1, offset: 0, total: 1, tooManyToCount: false });
    const res = await call(t.url, `${R}/${reportId}/resolve`, { ...owner(), body: { mute: true, note: 'muted for spam' } });
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({ id: reportId, status: 'RESOLVED', resolution: { muted: true, note: 'muted for spam' }, resolvedDate: expect.any(String) });
    const member = await call(t.url, `/members/v1/members/${b.id}`, { ...owner(), query: { fieldsets: ['EXTENDED'] } });
    expect(member.body.member.activityStatus).toBe('MUTED');
    const again = await call(t.url, `${R}/${reportId}/resolve`, { ...owner(), body: {} });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.code).toBe('REPORT_ALREADY_RESOLVED');
    expect((await call(t.url, `${R}/${randomUUID()}/resolve`, { ...owner(), body: {} })).status).toBe(404);
    // once resolved, the reporter may report again
    expect((await call(t.url, R, { auth: a.token, body: { memberId: b.id, reason: 'HARASSMENT' } })).status).toBe(200);
    const open = await call(t.url, R, { ...owner(), query: { status: 'OPEN', memberId: b.id } });
    expect(open.body.metadata.total).toBe(1);
    const badLimit = await call(t.url, R, { ...owner(), query: { 'paging.limit': '101', status: 'CLOSED' } });
    expect(violations(badLimit.body)).toEqual([
      { field: 'paging.limit', description: 'must be at most 100', violatedRule: 'MAX', data: { max: 100 } },
      { field: 'status', description: 'must be one of "OPEN", "RESOLVED"', violatedRule: 'INVALID_ENUM_VALUE', data: { allowed: ['OPEN', 'RESOLVED'] } },
    ]);
  });
});

const doc = (text: string) => ({ nodes: [{ type: 'PARAGRAPH', id: 'p1', nodes: [{ type: 'TEXT', id: 't1', textData: { text, decorations: [] } }], paragraphData: {} }], metadata: { version: 1 } });

describe('member-about', () => {
  let aboutA = '';
  let aboutPriv = '';

  it('a member creates their own about; the node tree comes back as stored', async () => {
    const res = await call(t.url, A, { auth: a.token, body: { memberAbout: { content: doc('Hello, I bake bread.') } } });
    expect(res.status).toBe(200);
    expect(res.body.memberAbout).toEqual({ id: expect.any(String), memberId: a.id, revision: '1', content: doc('Hello, I bake bread.') });
    aboutA = res.body.memberAbout.id;
    const again = await call(t.url, A, { auth: a.token, body: { memberAbout: { content: doc('x') } } });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.code).toBe('MEMBER_ABOUT_ALREADY_EXISTS');
    const p = await call(t.url, A, { auth: priv.token, body: { memberAbout: { content: doc('private') } } });
    aboutPriv = p.body.memberAbout.id;
  });

  it('validates node types and sizes with exact violations', async () => {
    const res = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: { nodes: [{ type: 'SCRIPT' }, { type: 'TEXT' }, { nodes: [] }], extra: 1 } } } });
    expect(res.status).toBe(400);
    expect(violations(res.body)).toEqual([
      { field: 'memberAbout.content.extra', description: 'is not allowed', violatedRule: 'FIELD_NOT_ALLOWED', data: {} },
      { field: 'memberAbout.content.nodes[0].type', description: 'must be a rich-content node type', violatedRule: 'INVALID_ENUM_VALUE', data: { value: 'SCRIPT' } },
      { field: 'memberAbout.content.nodes[1].textData.text', description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} },
      { field: 'memberAbout.content.nodes[2].type', description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} },
    ]);
    let deep: Record<string, unknown> = { type: 'PARAGRAPH' };
    for (let i = 0; i < 25; i++) deep = { type: 'BLOCKQUOTE', nodes: [deep] };
    const tooDeep = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: { nodes: [deep] } } } });
    expect(tooDeep.status).toBe(400);
    expect(violations(tooDeep.body)[0]).toMatchObject({ violatedRule: 'MAX', data: { max: 20 } });
    expect((await call(t.url, `${A}/my`, { auth: b.token })).body.details.applicationError.code).toBe('MEMBER_ABOUT_NOT_FOUND');
  });

  it('bounds node count, text length and document size', async () => {
    const many = { nodes: Array.from({ length: 2001 }, () => ({ type: 'DIVIDER' })) };
    const tooMany = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: many } } });
    expect(violations(tooMany.body)).toEqual([{ field: 'memberAbout.content', description: 'must have at most 2000 nodes', violatedRule: 'MAX_SIZE', data: { max: 2000 } }]);
    const longText = { nodes: [{ type: 'TEXT', textData: { text: 'x'.repeat(10_001) } }] };
    const tooLong = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: longText } } });
    expect(violations(tooLong.body)).toEqual([{ field: 'memberAbout.content.nodes[0].textData.text', description: 'must be at most 10000 characters', violatedRule: 'MAX_LENGTH', data: { max: 10000 } }]);
    const big = { nodes: Array.from({ length: 30 }, () => ({ type: 'TEXT', textData: { text: 'y'.repeat(9_000) } })) };
    const tooBig = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: big } } });
    expect(violations(tooBig.body)).toEqual([{ field: 'memberAbout.content', description: 'must be at most 262144 bytes', violatedRule: 'MAX', data: { max: 262144 } }]);
    expect((await call(t.url, `${A}/my`, { auth: b.token })).body.details.applicationError.code).toBe('MEMBER_ABOUT_NOT_FOUND');
  });

  it('object-level: B cannot create, change or delete A\'s about; a visitor cannot write', async () => {
    const create = await call(t.url, A, { auth: b.token, body: { memberAbout: { memberId: a.id, content: doc('fake') } } });
    expect(create.status).toBe(403);
    const patch = await call(t.url, `${A}/${aboutA}`, { method: 'PATCH', auth: b.token, body: { memberAbout: { content: doc('pwned') } } });
    expect(patch.status).toBe(403);
    const del = await call(t.url, `${A}/${aboutA}`, { method: 'DELETE', auth: b.token });
    expect(del.status).toBe(403);
    const asVisitor = await call(t.url, `${A}/${aboutA}`, { method: 'PATCH', auth: visitor, body: { memberAbout: { content: doc('pwned') } } });
    expect(asVisitor.status).toBe(403);
    const privPatch = await call(t.url, `${A}/${aboutPriv}`, { method: 'PATCH', auth: b.token, body: { memberAbout: { content: doc('pwned') } } });
    expect(privPatch.status).toBe(404);
    const got = await call(t.url, `${A}/${aboutA}`, { auth: visitor });
    expect(got.body.memberAbout.content).toEqual(doc('Hello, I bake bread.'));
  });

  it('reads follow member visibility; updates need the current revision', async () => {
    expect((await call(t.url, `${A}/${aboutPriv}`, { auth: visitor })).status).toBe(404);
    expect((await call(t.url, `${A}/${aboutPriv}`, { auth: priv.token })).status).toBe(200);
    expect((await call(t.url, `${A}/${aboutPriv}`, owner())).status).toBe(200);
    const my = await call(t.url, `${A}/my`, { auth: a.token });
    expect(my.body.memberAbout.id).toBe(aboutA);
    const stale = await call(t.url, `${A}/${aboutA}`, { method: 'PATCH', auth: a.token, body: { memberAbout: { revision: '7', content: doc('new') } } });
    expect(stale.status).toBe(409);
    expect(stale.body.details.applicationError).toEqual({ code: 'REVISION_MISMATCH', description: 'The about section is at revision 1', data: { currentRevision: '1' } });
    const ok = await call(t.url, `${A}/${aboutA}`, { method: 'PATCH', auth: a.token, body: { memberAbout: { id: aboutA, revision: '1', content: doc('new') } } });
    expect(ok.status).toBe(200);
    expect(ok.body.memberAbout).toEqual({ id: aboutA, memberId: a.id, revision: '2', content: doc('new') });
    const byOwner = await call(t.url, `${A}/${aboutA}`, { method: 'PATCH', ...owner(), body: { memberAbout: { content: doc('moderated') } } });
    expect(byOwner.body.memberAbout.revision).toBe('3');
  });

  it('queries abouts of visible members with signed cursors', async () => {
    const b2 = await call(t.url, A, { auth: b.token, body: { memberAbout: { content: doc('B here') } } });
    expect(b2.status).toBe(200);
    const first = await call(t.url, `${A}/query`, { auth: visitor, body: { query: { cursorPaging: { limit: 1 } } } });
    expect(first.status).toBe(200);
    expect(first.body.memberAbouts).toHaveLength(1);
    expect(first.body.metadata.hasNext).toBe(true);
    const second = await call(t.url, `${A}/query`, { auth: visitor, body: { query: { cursorPaging: { cursor: first.body.metadata.cursors.next } } } });
    expect(second.body.memberAbouts).toHaveLength(1);
    expect(second.body.metadata.hasNext).toBe(false);
    const seen = [first.body.memberAbouts[0].memberId, second.body.memberAbouts[0].memberId].sort();
    expect(seen).toEqual([a.id, b.id].sort());
    const tampered = first.body.metadata.cursors.next.replace(/^./, (c: string) => (c === 'e' ? 'f' : 'e'));
    const bad = await call(t.url, `${A}/query`, { auth: visitor, body: { query: { cursorPaging: { cursor: tampered } } } });
    expect(bad.status).toBe(400);
    expect(violations(bad.body)).toEqual([{ field: 'query.cursorPaging.cursor', description: 'is not a valid cursor', violatedRule: 'FORMAT', data: {} }]);
    const byMember = await call(t.url, `${A}/query`, { ...owner(), body: { query: { filter: { memberId: priv.id } } } });
    expect(byMember.body.memberAbouts.map((x: { id: string }) => x.id)).toEqual([aboutPriv]);
  });

  it('the member or the owner deletes an about', async () => {
    const del = await call(t.url, `${A}/${aboutA}`, { method: 'DELETE', auth: a.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await call(t.url, `${A}/${aboutA}`, owner())).status).toBe(404);
    expect((await call(t.url, `${A}/${aboutPriv}`, { method: 'DELETE', ...owner() })).status).toBe(200);
  });
});
