import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { eventsOf, memberTokenPair, memberWithToken, ownerCreateMember, serviceContext } from './member-tokens.js';
import { setMemberRoles } from '../src/domains/members/service.js';
import { queryMemberRows } from '../src/domains/members/store.js';

/** Owner administration: create/update validation, slugs, transitions, deletes, queries, events. */
let t: TestServer;
const M = '/members/v1/members';
const owner = () => asOwner(t);

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

const violations = (body: { details: { validationError: { fieldViolations: unknown[] } } }) => body.details.validationError.fieldViolations;
const appErr = (code: string, description: string, data: Record<string, unknown> = {}) => ({ message: description, details: { applicationError: { code, description, data } } });

describe('create', () => {
  it('creates an approved private member with a slug from the nickname and records the event', async () => {
    const res = await call(t.url, M, { ...owner(), body: { member: { loginEmail: 'Carla@Example.com', profile: { nickname: 'Carla Diaz' }, contact: { firstName: 'Carla', customFields: { site: { name: 'Site', value: 'https://carla.example', type: 'URL' }, age: { value: 41 }, x: { value: 'https://x.com/carla', type: 'SOCIAL', socialNetwork: 'TWITTER' } } } } } });
    expect(res.status).toBe(200);
    const m = res.body.member;
    expect(m).toMatchObject({
      loginEmail: 'carla@example.com', status: 'APPROVED', privacyStatus: 'PRIVATE', activityStatus: 'ACTIVE', loginEmailVerified: false, roles: ['MEMBER'],
      profile: { nickname: 'Carla Diaz', slug: 'carla-diaz' },
      contact: {
        firstName: 'Carla', emails: ['carla@example.com'],
        customFields: { site: { name: 'Site', value: 'https://carla.example', type: 'URL' }, age: { value: 41, type: 'NUMBER' }, x: { value: 'https://x.com/carla', type: 'SOCIAL', socialNetwork: 'TWITTER' } },
      },
    });
    expect(m.createdDate).toBe(m.updatedDate);
    const events = await eventsOf(t, m.id);
    expect(events.map((e) => [e.entityFqdn, e.slug])).toEqual([['wix.members.v1.member', 'created']]);
  });

  it('gives a second member with the same nickname the next free slug', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'carla2@example.com', profile: { nickname: 'Carla Diaz' } });
    expect((m.profile as { slug: string }).slug).toBe('carla-diaz-1');
  });

  it('refuses bad input with exact field violations and creates nothing', async () => {
    const res = await call(t.url, M, { ...owner(), body: { member: {
      loginEmail: 'not-an-email', id: randomUUID(), status: 'BLOCKED',
      contact: { birthdate: '2020-13-45', customFields: { n: { value: 'ten', type: 'NUMBER' }, s: { value: 'https://s.example', type: 'SOCIAL' }, u: { value: 'javascript:alert(1)', type: 'URL' } } },
    } } });
    expect(res.status).toBe(400);
    expect(violations(res.body)).toEqual([
      { field: 'member.contact.birthdate', description: 'must be a real date', violatedRule: 'FORMAT', data: {} },
      { field: 'member.contact.customFields.n.value', description: 'must be a finite number for a NUMBER field', violatedRule: 'FORMAT', data: {} },
      { field: 'member.contact.customFields.s.socialNetwork', description: 'is required for a SOCIAL field', violatedRule: 'REQUIRED_FIELD', data: {} },
      { field: 'member.contact.customFields.u.value', description: 'must be an http(s) URL for a URL field', violatedRule: 'FORMAT', data: {} },
      { field: 'member.id', description: 'is not allowed', violatedRule: 'FIELD_NOT_ALLOWED', data: {} },
      { field: 'member.loginEmail', description: 'must be an e-mail address', violatedRule: 'FORMAT', data: { format: 'regex' } },
      { field: 'member.status', description: 'must be one of "PENDING", "APPROVED"', violatedRule: 'INVALID_ENUM_VALUE', data: { allowed: ['PENDING', 'APPROVED'] } },
    ]);
    const list = await call(t.url, `${M}/query`, { ...owner(), body: { query: { filter: { loginEmail: 'not-an-email' } } } });
    expect(list.body.metadata.total).toBe(0);
  });

  it('enforces list bounds', async () => {
    const res = await call(t.url, M, { ...owner(), body: { member: { loginEmail: 'many@example.com', contact: { phones: Array.from({ length: 21 }, (_, i) => `+1 555 ${i}`) } } } });
    expect(res.status).toBe(400);
    expect(violations(res.body)).toEqual([{ field: 'member.contact.phones', description: 'must be at most 20 items', violatedRule: 'MAX_SIZE', data: { max: 20 } }]);
  });

  it('refuses a duplicate login e-mail, a taken slug and a malformed slug', async () => {
    const dup = await call(t.url, M, { ...owner(), body: { member: { loginEmail: 'CARLA@example.com' } } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(appErr('EMAIL_ALREADY_EXISTS', 'A member with this login e-mail already exists', { loginEmail: 'carla@example.com' }));
    const taken = await call(t.url, M, { ...owner(), body: { member: { loginEmail: 'other@example.com', profile: { slug: 'carla-diaz' } } } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual(appErr('SLUG_ALREADY_EXISTS', 'Slug "carla-diaz" is already taken', { slug: 'carla-diaz' }));
    const bad = await call(t.url, M, { ...owner(), body: { member: { loginEmail: 'other@example.com', profile: { slug: 'no spaces!' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(appErr('BAD_CODE', 'Slug must be 1-100 lowercase letters and digits joined by single hyphens', { slug: 'no spaces!' }));
  });
});

describe('update', () => {
  it('merges contact and profile fields, removes with null, keeps loginEmail immutable', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'dora@example.com', contact: { firstName: 'Dora', lastName: 'Ek', company: 'Acme', customFields: { a: { value: 'x' }, b: { value: 'y' } } }, profile: { nickname: 'Dora' } });
    const res = await call(t.url, `${M}/${m.id}`, { method: 'PATCH', ...owner(), body: { member: {
      loginEmail: 'dora@example.com',
      contact: { lastName: 'Berg', company: null, customFields: { a: { value: null }, c: { value: '2024-02-29', type: 'DATE' } }, addresses: [{ city: 'Oslo', country: 'NO', addressLine: 'Main 1' }] },
      profile: { title: 'CTO' }, privacyStatus: 'PUBLIC',
    } } });
    expect(res.status).toBe(200);
    const u = res.body.member;
    expect(u.contact).toEqual({
      firstName: 'Dora', lastName: 'Berg', emails: ['dora@example.com'],
      customFields: { b: { value: 'y', type: 'TEXT' }, c: { value: '2024-02-29', type: 'DATE' } },
      addresses: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), city: 'Oslo', country: 'NO', addressLine: 'Main 1' }],
    });
    expect(u.profile).toEqual({ nickname: 'Dora', slug: 'dora', title: 'CTO' });
    expect(u.privacyStatus).toBe('PUBLIC');
    expect(Date.parse(u.updatedDate)).toBeGreaterThanOrEqual(Date.parse(u.createdDate));
    const changeEmail = await call(t.url, `${M}/${m.id}`, { method: 'PATCH', ...owner(), body: { member: { loginEmail: 'new@example.com' } } });
    expect(changeEmail.status).toBe(400);
    expect(violations(changeEmail.body)).toEqual([{ field: 'member.loginEmail', description: 'cannot be changed', violatedRule: 'FIELD_NOT_ALLOWED', data: {} }]);
    expect((await eventsOf(t, m.id)).map((e) => e.slug)).toEqual(['created', 'updated']);
    const cleared = await call(t.url, `${M}/${m.id}`, { method: 'PATCH', ...owner(), body: { member: { contact: { emails: null, addresses: null } } } });
    expect(cleared.body.member.contact.emails).toBeUndefined();
    expect(cleared.body.member.contact.addresses).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, { value: 'v' }]));
    const tooMany = await call(t.url, `${M}/${m.id}`, { method: 'PATCH', ...owner(), body: { member: { contact: { customFields: many } } } });
    expect(tooMany.status).toBe(400);
    expect(violations(tooMany.body)).toEqual([{ field: 'member.contact.customFields', description: 'takes at most 50 fields', violatedRule: 'MAX_SIZE', data: { max: 50 } }]);
    const missing = await call(t.url, `${M}/${randomUUID()}`, { method: 'PATCH', ...owner(), body: { member: { profile: { title: 'x' } } } });
    expect(missing.status).toBe(404);
    expect(missing.body.details.applicationError.code).toBe('MEMBER_NOT_FOUND');
  });

  it('changes slugs by owner and by the member; taken and malformed slugs are refused', async () => {
    const e = await memberWithToken(t, { loginEmail: 'eve@example.com', profile: { nickname: 'Eve' } });
    const f = await ownerCreateMember(t, { loginEmail: 'fay@example.com', profile: { nickname: 'Fay' } });
    const mine = await call(t.url, `${M}/my/slug`, { auth: e.token, body: { slug: 'Eve-Online' } });
    expect(mine.status).toBe(200);
    expect(mine.body.member.profile.slug).toBe('eve-online');
    const same = await call(t.url, `${M}/my/slug`, { auth: e.token, body: { slug: 'eve-online' } });
    expect(same.status).toBe(200);
    const taken = await call(t.url, `${M}/${f.id}/slug`, { ...owner(), body: { slug: 'eve-online' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual(appErr('SLUG_ALREADY_EXISTS', 'Slug "eve-online" is already taken', { slug: 'eve-online' }));
    const bad = await call(t.url, `${M}/${f.id}/slug`, { ...owner(), body: { slug: '--' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.applicationError.code).toBe('BAD_CODE');
    const tooLong = await call(t.url, `${M}/my/slug`, { auth: e.token, body: { slug: 'a'.repeat(256) } });
    expect(tooLong.status).toBe(400);
    expect(violations(tooLong.body)).toEqual([{ field: 'slug', description: 'must be at most 255 characters', violatedRule: 'MAX_LENGTH', data: { max: 255 } }]);
    const ok = await call(t.url, `${M}/${f.id}/slug`, { ...owner(), body: { slug: 'fay-2' } });
    expect(ok.body.member.profile.slug).toBe('fay-2');
  });

  it('join and leave community toggle the privacy status, idempotently', async () => {
    const g = await memberWithToken(t, { loginEmail: 'gus@example.com' });
    const join = await call(t.url, `${M}/join-community`, { auth: g.token, body: {} });
    expect(join.body.member.privacyStatus).toBe('PUBLIC');
    const again = await call(t.url, `${M}/join-community`, { method: 'POST', auth: g.token });
    expect(again.status).toBe(200);
    expect(again.body.member.privacyStatus).toBe('PUBLIC');
    const leave = await call(t.url, `${M}/leave-community`, { auth: g.token, body: {} });
    expect(leave.body.member.privacyStatus).toBe('PRIVATE');
    expect((await eventsOf(t, g.id)).map((e) => e.slug)).toEqual(['created', 'updated', 'updated']);
  });
});

describe('status transitions', () => {
  it('approves a pending member; approving again is refused', async () => {
    const p = await ownerCreateMember(t, { loginEmail: 'pending@example.com', status: 'PENDING' });
    const res = await call(t.url, `${M}/${p.id}/approve`, { ...owner(), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.member.status).toBe('APPROVED');
    const again = await call(t.url, `${M}/${p.id}/approve`, { ...owner(), body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(appErr('MEMBER_STATUS_TRANSITION_NOT_ALLOWED', 'Cannot approve a member whose status is APPROVED', { action: 'approve', status: 'APPROVED' }));
  });

  it('block revokes the member\'s tokens; blocking again is refused; approve unblocks', async () => {
    const b = await ownerCreateMember(t, { loginEmail: 'blockme@example.com' });
    const pair = await memberTokenPair(t, b.id);
    const okBefore = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: pair.refreshToken } });
    expect(okBefore.status).toBe(200);
    const res = await call(t.url, `${M}/${b.id}/block`, { ...owner(), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.member.status).toBe('BLOCKED');
    const refresh = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: pair.refreshToken } });
    expect(refresh.status).toBe(400);
    const again = await call(t.url, `${M}/${b.id}/block`, { ...owner(), body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(appErr('MEMBER_STATUS_TRANSITION_NOT_ALLOWED', 'Cannot block a member whose status is BLOCKED', { action: 'block', status: 'BLOCKED' }));
    const unblock = await call(t.url, `${M}/${b.id}/approve`, { ...owner(), body: {} });
    expect(unblock.body.member.status).toBe('APPROVED');
  });

  it('a member blocked while holding a valid access token cannot act with it', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'stilltoken@example.com', privacyStatus: 'PUBLIC' });
    const other = await ownerCreateMember(t, { loginEmail: 'target@example.com', privacyStatus: 'PUBLIC' });
    const { accessToken } = await memberTokenPair(t, m.id);
    expect((await call(t.url, `${M}/my`, { auth: accessToken })).status).toBe(200);
    await call(t.url, `${M}/${m.id}/block`, { ...owner(), body: {} });
    // Blocking revokes the token family, so the token is refused as revoked on every route (401),
    // before the members rule for non-APPROVED members (403 MEMBER_NOT_ACTIVE) is reached.
    const refused = appErr('UNAUTHENTICATED', 'The access token is invalid, expired or revoked');
    const my = await call(t.url, `${M}/my`, { auth: accessToken });
    expect(my.status).toBe(401);
    expect(my.body).toEqual(refused);
    const patch = await call(t.url, `${M}/${m.id}`, { method: 'PATCH', auth: accessToken, body: { member: { profile: { nickname: 'still here' } } } });
    expect([patch.status, patch.body]).toEqual([401, refused]);
    const slug = await call(t.url, `${M}/my/slug`, { auth: accessToken, body: { slug: 'sneaky' } });
    expect([slug.status, slug.body]).toEqual([401, refused]);
    const report = await call(t.url, '/members/v1/reports', { auth: accessToken, body: { memberId: other.id, reason: 'SPAM' } });
    expect([report.status, report.body]).toEqual([401, refused]);
    const about = await call(t.url, '/members/v2/abouts', { auth: accessToken, body: { memberAbout: { content: { nodes: [] } } } });
    expect([about.status, about.body]).toEqual([401, refused]);
    const del = await call(t.url, `${M}/my`, { method: 'DELETE', auth: accessToken });
    expect([del.status, del.body]).toEqual([401, refused]);
  });

  it('disconnect makes a member OFFLINE; disconnecting again is refused', async () => {
    const d = await ownerCreateMember(t, { loginEmail: 'disc@example.com' });
    const res = await call(t.url, `${M}/${d.id}/disconnect`, { ...owner(), body: {} });
    expect(res.body.member.status).toBe('OFFLINE');
    const again = await call(t.url, `${M}/${d.id}/disconnect`, { ...owner(), body: {} });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.data).toEqual({ action: 'disconnect', status: 'OFFLINE' });
  });

  it('mute and unmute follow ACTIVE <-> MUTED only', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'mute@example.com' });
    const unmute = await call(t.url, `${M}/${m.id}/unmute`, { ...owner(), body: {} });
    expect(unmute.status).toBe(409);
    expect(unmute.body).toEqual(appErr('MEMBER_ACTIVITY_TRANSITION_NOT_ALLOWED', 'Cannot unmute a member whose activity status is ACTIVE', { action: 'unmute', activityStatus: 'ACTIVE' }));
    expect((await call(t.url, `${M}/${m.id}/mute`, { ...owner(), body: {} })).body.member.activityStatus).toBe('MUTED');
    expect((await call(t.url, `${M}/${m.id}/mute`, { ...owner(), body: {} })).status).toBe(409);
    expect((await call(t.url, `${M}/${m.id}/unmute`, { ...owner(), body: {} })).body.member.activityStatus).toBe('ACTIVE');
  });

  it('the owner\'s member cannot be blocked or deleted', async () => {
    const o = await ownerCreateMember(t, { loginEmail: 'boss@example.com' });
    await setMemberRoles(serviceContext(t), o.id, ['MEMBER', 'OWNER']);
    const block = await call(t.url, `${M}/${o.id}/block`, { ...owner(), body: {} });
    expect(block.status).toBe(403);
    expect(block.body).toEqual(appErr('OWNER_MEMBER_BLOCK_FORBIDDEN', 'The site owner\'s member cannot be blocked'));
    const del = await call(t.url, `${M}/${o.id}`, { method: 'DELETE', ...owner() });
    expect(del.status).toBe(403);
    expect(del.body.details.applicationError.code).toBe('OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN');
  });

  it('unknown ids are 404 and malformed ids are 400', async () => {
    const id = randomUUID();
    const res = await call(t.url, `${M}/${id}/approve`, { ...owner(), body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(appErr('MEMBER_NOT_FOUND', `Member ${id} not found`, { id }));
    const bad = await call(t.url, `${M}/not-a-guid/approve`, { ...owner(), body: {} });
    expect(bad.status).toBe(400);
    expect(violations(bad.body)).toEqual([{ field: 'id', description: 'must be a GUID', violatedRule: 'FORMAT', data: { format: 'regex' } }]);
  });
});

describe('contact removal and deletes', () => {
  it('removes all phones, e-mails or addresses', async () => {
    const m = await ownerCreateMember(t, { loginEmail: 'lists@example.com', contact: { phones: ['+1 1'], emails: ['a@example.com', 'b@example.com'], addresses: [{ city: 'Rome' }] } });
    const phones = await call(t.url, `${M}/${m.id}/phones`, { method: 'DELETE', ...owner() });
    expect(phones.status).toBe(200);
    expect(phones.body.member.contact.phones).toBeUndefined();
    expect(phones.body.member.contact.emails).toEqual(['a@example.com', 'b@example.com']);
    const emails = await call(t.url, `${M}/${m.id}/emails`, { method: 'DELETE', ...owner() });
    expect(emails.body.member.contact.emails).toBeUndefined();
    const addresses = await call(t.url, `${M}/${m.id}/addresses`, { method: 'DELETE', ...owner() });
    expect(addresses.body.member.contact).toEqual({});
    expect(addresses.body.member.loginEmail).toBe('lists@example.com');
  });

  it('deletes a member (content to an assignee), records the event and revokes tokens', async () => {
    const keep = await ownerCreateMember(t, { loginEmail: 'keeper@example.com' });
    const gone = await ownerCreateMember(t, { loginEmail: 'gone@example.com' });
    const pair = await memberTokenPair(t, gone.id);
    const badAssignee = await call(t.url, `${M}/${gone.id}`, { method: 'DELETE', ...owner(), query: { contentAssigneeId: gone.id } });
    expect(badAssignee.status).toBe(400);
    expect(badAssignee.body).toEqual(appErr('INVALID_CONTENT_ASSIGNEE', 'The content assignee must be another member', { contentAssigneeId: gone.id }));
    const res = await call(t.url, `${M}/${gone.id}`, { method: 'DELETE', ...owner(), query: { contentAssigneeId: keep.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await call(t.url, `${M}/${gone.id}`, owner())).status).toBe(404);
    const events = await eventsOf(t, gone.id);
    expect(events.map((e) => e.slug)).toEqual(['created', 'deleted']);
    expect(events[1]!.payload).toMatchObject({ data: { contentReassignmentRequested: { contentAssigneeId: keep.id } } });
    const refresh = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: pair.refreshToken } });
    expect(refresh.status).toBe(400);
    const twice = await call(t.url, `${M}/${gone.id}`, { method: 'DELETE', ...owner() });
    expect(twice.status).toBe(404);
  });

  it('a member deletes themselves', async () => {
    const me = await memberWithToken(t, { loginEmail: 'selfdelete@example.com' });
    const res = await call(t.url, `${M}/my`, { method: 'DELETE', auth: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await call(t.url, `${M}/${me.id}`, owner())).status).toBe(404);
    // Deleting revoked the member's tokens: the token is refused before the member lookup (was 404).
    const after = await call(t.url, `${M}/my`, { auth: me.token });
    expect(after.status).toBe(401);
  });

  it('bulk delete reports per id and keeps going', async () => {
    const x = await ownerCreateMember(t, { loginEmail: 'bulk1@example.com' });
    const y = await ownerCreateMember(t, { loginEmail: 'bulk2@example.com' });
    const boss = await ownerCreateMember(t, { loginEmail: 'bulkboss@example.com' });
    await setMemberRoles(serviceContext(t), boss.id, ['CONTRIBUTOR']);
    const missing = randomUUID();
    const res = await call(t.url, `${M}/bulk/delete`, { ...owner(), body: { memberIds: [x.id, missing, boss.id, y.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { itemMetadata: { id: x.id, originalIndex: 0, success: true } },
        { itemMetadata: { id: missing, originalIndex: 1, success: false, error: { code: 'MEMBER_NOT_FOUND', description: `Member ${missing} not found`, data: { id: missing } } } },
        { itemMetadata: { id: boss.id, originalIndex: 2, success: false, error: { code: 'OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN', description: 'Owner and contributor members cannot be deleted', data: {} } } },
        { itemMetadata: { id: y.id, originalIndex: 3, success: true } },
      ],
      bulkActionMetadata: { totalSuccesses: 2, totalFailures: 2, undetailedFailures: 0 },
    });
    const tooMany = await call(t.url, `${M}/bulk/delete`, { ...owner(), body: { memberIds: Array.from({ length: 1001 }, () => randomUUID()) } });
    expect(tooMany.status).toBe(400);
    expect(violations(tooMany.body)).toEqual([{ field: 'memberIds', description: 'must be at most 1000 items', violatedRule: 'MAX_SIZE', data: { max: 1000 } }]);
    const empty = await call(t.url, `${M}/bulk/delete`, { ...owner(), body: { memberIds: [] } });
    expect(violations(empty.body)).toEqual([{ field: 'memberIds', description: 'must be at least 1 items', violatedRule: 'MIN_SIZE', data: { min: 1 } }]);
  });
});

describe('queries', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 7; i++) {
      const m = await ownerCreateMember(t, { loginEmail: `q${i}@query.test`, status: i % 2 === 0 ? 'PENDING' : 'APPROVED', profile: { nickname: `Quinn ${String.fromCharCode(71 - i)}` }, contact: { lastName: i < 3 ? 'Smith' : 'Jones' } });
      ids.push(m.id);
    }
  });

  it('filters, sorts and pages with exact metadata', async () => {
    const res = await call(t.url, `${M}/query`, { ...owner(), body: {
      query: { filter: { loginEmail: { $endsWith: '@query.test' }, status: 'PENDING' }, sorting: [{ fieldName: 'profile.nickname', order: 'ASC' }], paging: { limit: 2, offset: 1 } },
      fieldsets: ['EXTENDED'],
    } });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { profile: { nickname: string } }) => m.profile.nickname)).toEqual(['Quinn C', 'Quinn E']);
    expect(res.body.metadata).toEqual({ count: 2, offset: 1, total: 4, tooManyToCount: false });
    expect(res.body.members[0].status).toBe('PENDING');
    expect(res.body.members[0].contact).toBeUndefined();
  });

  it('searches the owner\'s fields case-insensitively, escaping LIKE characters', async () => {
    const res = await call(t.url, `${M}/query`, { ...owner(), body: { search: { expression: 'SMITH', fields: ['contact.lastName'] }, query: { filter: { loginEmail: { $endsWith: '@query.test' } } } } });
    expect(res.body.metadata.total).toBe(3);
    const wild = await call(t.url, `${M}/query`, { ...owner(), body: { search: { expression: '%', fields: ['loginEmail'] } } });
    expect(wild.body.metadata.total).toBe(0);
  });

  it('lists with GET: defaults to 50, sorting and paging from the query string', async () => {
    const res = await call(t.url, M, { ...owner(), query: { 'paging.limit': '3', 'sorting.fieldName': 'createdDate', 'sorting.order': 'ASC' } });
    expect(res.status).toBe(200);
    expect(res.body.members).toHaveLength(3);
    expect(res.body.metadata.count).toBe(3);
    const dotR = await call(t.url, M, { ...owner(), dotR: { paging: { limit: 2 }, sorting: [{ fieldName: 'profile.nickname', order: 'DESC' }] } });
    expect(dotR.body.members).toHaveLength(2);
    const tooBig = await call(t.url, M, { ...owner(), query: { 'paging.limit': '1001' } });
    expect(tooBig.status).toBe(400);
    expect(violations(tooBig.body)).toEqual([{ field: 'paging.limit', description: 'must be at most 1000', violatedRule: 'MAX', data: { max: 1000 } }]);
    const badSort = await call(t.url, M, { ...owner(), query: { 'sorting.fieldName': 'password' } });
    expect(violations(badSort.body)).toEqual([{ field: 'sorting[0].fieldName', description: '"password" cannot be sorted on', violatedRule: 'FIELD_NOT_ALLOWED', data: { problem: 'UNKNOWN_FIELD' } }]);
  });

  it('refuses $regex and unknown operators in filters', async () => {
    const res = await call(t.url, `${M}/query`, { ...owner(), body: { query: { filter: { loginEmail: { $regex: '.*' } } } } });
    expect(res.status).toBe(400);
    expect(violations(res.body)).toEqual([{ field: 'query.filter.loginEmail', description: '$regex is not allowed in filters', violatedRule: 'FIELD_NOT_ALLOWED', data: { problem: 'REGEX' } }]);
  });

  it('reports tooManyToCount past the count cap', async () => {
    const ctx = serviceContext(t);
    const result = await queryMemberRows(ctx.db, { siteId: t.site.id, filter: undefined, elevated: true, selfId: undefined, search: undefined, dialect: ctx.dialect, sort: [], limit: 1, offset: 0, countCap: 3 });
    expect(result.members).toHaveLength(1);
    expect(result.total).toBe(3);
    expect(result.tooManyToCount).toBe(true);
  });
});
