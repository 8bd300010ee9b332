import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';

/**
 * Function- and object-level authorization of every members route with four identities: a visitor,
 * the member themselves (A), another member (B) and the owner (API key). Fieldsets per viewer.
 */
let t: TestServer;
let visitor: string;
let a: { id: string; token: string };
let b: { id: string; token: string };
let hidden: { id: string; token: string };

const M = '/members/v1/members';

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  a = await memberWithToken(t, {
    loginEmail: 'ann@example.com', privacyStatus: 'PUBLIC',
    contact: { firstName: 'Ann', lastName: 'Lee', phones: ['+1 555 0100'] },
    profile: { nickname: 'Ann L', title: 'Baker' },
  });
  b = await memberWithToken(t, { loginEmail: 'bob@example.com', privacyStatus: 'PUBLIC', profile: { nickname: 'Bob' } });
  hidden = await memberWithToken(t, { loginEmail: 'hidden@example.com', profile: { nickname: 'Hidden' } });
});
afterAll(() => t?.close());

const appError = (code: string) => expect.objectContaining({ details: { applicationError: expect.objectContaining({ code }) } });

describe('reads and fieldsets', () => {
  it('a visitor sees only the PUBLIC fieldset of a public member, whatever it asks for', async () => {
    const res = await call(t.url, `${M}/${a.id}`, { auth: visitor, query: { fieldsets: ['FULL'] } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.member).sort()).toEqual(['activityStatus', 'contactId', 'createdDate', 'id', 'privacyStatus', 'profile', 'status', 'updatedDate']);
    expect(res.body.member).toMatchObject({ id: a.id, status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN', profile: { nickname: 'Ann L', slug: 'ann-l', title: 'Baker' } });
    expect(res.body.member.loginEmail).toBeUndefined();
    expect(res.body.member.contact).toBeUndefined();
  });

  it('another member also gets PUBLIC only; a private member is not found for them', async () => {
    const res = await call(t.url, `${M}/${a.id}`, { auth: b.token, query: { fieldsets: ['FULL'] } });
    expect(res.status).toBe(200);
    expect(res.body.member.contact).toBeUndefined();
    const priv = await call(t.url, `${M}/${hidden.id}`, { auth: b.token });
    expect(priv.status).toBe(404);
    expect(priv.body).toEqual({ message: `Member ${hidden.id} not found`, details: { applicationError: { code: 'MEMBER_NOT_FOUND', description: `Member ${hidden.id} not found`, data: { id: hidden.id } } } });
    expect((await call(t.url, `${M}/${hidden.id}`, { auth: visitor })).status).toBe(404);
  });

  it('a member sees FULL of themselves when asked, PUBLIC by default', async () => {
    const full = await call(t.url, `${M}/my`, { auth: a.token, query: { fieldsets: ['FULL'] } });
    expect(full.status).toBe(200);
    expect(full.body.member).toMatchObject({ id: a.id, loginEmail: 'ann@example.com', status: 'APPROVED', privacyStatus: 'PUBLIC', activityStatus: 'ACTIVE', contact: { firstName: 'Ann', lastName: 'Lee', phones: ['+1 555 0100'], emails: ['ann@example.com'] }, roles: ['MEMBER'] });
    const byDefault = await call(t.url, `${M}/my`, { auth: a.token });
    expect(byDefault.body.member.status).toBe('UNKNOWN');
    const extended = await call(t.url, `${M}/${a.id}`, { auth: a.token, query: { fieldsets: ['EXTENDED'] } });
    expect(extended.body.member).toMatchObject({ loginEmail: 'ann@example.com', status: 'APPROVED' });
    expect(extended.body.member.contact).toBeUndefined();
    // a private member sees themselves too
    expect((await call(t.url, `${M}/${hidden.id}`, { auth: hidden.token })).status).toBe(200);
  });

  it('the owner sees FULL of anyone, private ones included', async () => {
    const res = await call(t.url, `${M}/${hidden.id}`, { ...asOwner(t), query: { fieldsets: ['FULL'] } });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ loginEmail: 'hidden@example.com', privacyStatus: 'PRIVATE', status: 'APPROVED' });
  });

  it('lists and queries show visitors only public members, and a member themselves', async () => {
    const asVisitor = await call(t.url, M, { auth: visitor });
    expect(asVisitor.status).toBe(200);
    expect(asVisitor.body.members.map((m: { id: string }) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(asVisitor.body.metadata).toEqual({ count: 2, offset: 0, total: 2, tooManyToCount: false });
    const asHidden = await call(t.url, `${M}/query`, { auth: hidden.token, body: { fieldsets: ['FULL'] } });
    expect(asHidden.body.members.map((m: { id: string }) => m.id).sort()).toEqual([a.id, b.id, hidden.id].sort());
    const own = asHidden.body.members.find((m: { id: string }) => m.id === hidden.id);
    const other = asHidden.body.members.find((m: { id: string }) => m.id === a.id);
    expect(own.loginEmail).toBe('hidden@example.com');
    expect(other.loginEmail).toBeUndefined();
    const asOwnerRes = await call(t.url, `${M}/query`, { ...asOwner(t), body: {} });
    expect(asOwnerRes.body.metadata.total).toBe(3);
  });

  it('visitors cannot filter, sort or search on private fields', async () => {
    const filter = await call(t.url, `${M}/query`, { auth: visitor, body: { query: { filter: { loginEmail: 'ann@example.com' } } } });
    expect(filter.status).toBe(400);
    expect(filter.body.details.validationError.fieldViolations).toEqual([
      { field: 'query.filter.loginEmail', description: '"loginEmail" cannot be filtered on', violatedRule: 'FIELD_NOT_ALLOWED', data: { problem: 'UNKNOWN_FIELD' } },
    ]);
    const sort = await call(t.url, `${M}/query`, { auth: visitor, body: { query: { sorting: [{ fieldName: 'contact.lastName' }] } } });
    expect(sort.status).toBe(400);
    expect(sort.body.details.validationError.fieldViolations[0].field).toBe('query.sorting[0].fieldName');
    const search = await call(t.url, `${M}/query`, { auth: b.token, body: { search: { expression: 'ann', fields: ['loginEmail'] } } });
    expect(search.status).toBe(400);
    expect(search.body.details.validationError.fieldViolations).toEqual([
      { field: 'search.fields', description: '"loginEmail" can only be searched by the site owner', violatedRule: 'FIELD_NOT_ALLOWED', data: { field: 'loginEmail' } },
    ]);
    const ok = await call(t.url, `${M}/query`, { auth: visitor, body: { search: { expression: 'bo' } } });
    expect(ok.body.members.map((m: { id: string }) => m.id)).toEqual([b.id]);
  });
});

describe('object-level checks on writes', () => {
  it('member B cannot update member A; a private member reads as not found', async () => {
    const res = await call(t.url, `${M}/${a.id}`, { method: 'PATCH', auth: b.token, body: { member: { profile: { nickname: 'pwned' } } } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(appError('MEMBER_FORBIDDEN'));
    const priv = await call(t.url, `${M}/${hidden.id}`, { method: 'PATCH', auth: b.token, body: { member: { profile: { nickname: 'pwned' } } } });
    expect(priv.status).toBe(404);
    const vis = await call(t.url, `${M}/${a.id}`, { method: 'PATCH', auth: visitor, body: { member: { profile: { nickname: 'pwned' } } } });
    expect(vis.status).toBe(403);
    const after = await call(t.url, `${M}/${a.id}`, { auth: visitor });
    expect(after.body.member.profile.nickname).toBe('Ann L');
  });

  it('a member updates themselves; the body id must match the path', async () => {
    const res = await call(t.url, `${M}/${b.id}`, { method: 'PATCH', auth: b.token, body: { member: { id: b.id, profile: { title: 'Gardener' } } } });
    expect(res.status).toBe(200);
    expect(res.body.member.profile).toEqual({ nickname: 'Bob', slug: 'bob', title: 'Gardener' });
    const mismatch = await call(t.url, `${M}/${b.id}`, { method: 'PATCH', auth: b.token, body: { member: { id: a.id, profile: { title: 'x' } } } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.details.validationError.fieldViolations).toEqual([{ field: 'member.id', description: 'must match the member id of the path', violatedRule: 'FORMAT', data: {} }]);
  });

  it('members cannot set read-only fields (status, roles, dates) on themselves', async () => {
    const res = await call(t.url, `${M}/${b.id}`, { method: 'PATCH', auth: b.token, body: { member: { status: 'APPROVED', roles: ['OWNER'], createdDate: '2020-01-01T00:00:00Z' } } });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations.map((v: { field: string; violatedRule: string }) => [v.field, v.violatedRule])).toEqual([
      ['member.createdDate', 'FIELD_NOT_ALLOWED'], ['member.roles', 'FIELD_NOT_ALLOWED'], ['member.status', 'FIELD_NOT_ALLOWED'],
    ]);
  });

  it('members cannot call owner routes on anyone, themselves included', async () => {
    for (const [method, path, body] of [
      ['POST', `${M}/${b.id}/approve`, {}], ['POST', `${M}/${a.id}/block`, {}], ['POST', `${M}/${a.id}/mute`, {}],
      ['DELETE', `${M}/${a.id}`, undefined], ['DELETE', `${M}/${a.id}/phones`, undefined], ['POST', `${M}/${a.id}/slug`, { slug: 'x' }],
      ['POST', `${M}/bulk/delete`, { memberIds: [a.id] }], ['POST', `${M}/bulk/block-by-filter`, { filter: {} }], ['POST', M, { member: { loginEmail: 'x@example.com' } }],
    ] as const) {
      const res = await call(t.url, path, { method, auth: b.token, body });
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.body).toEqual(appError('ELEVATED_REQUIRED'));
    }
    const still = await call(t.url, `${M}/${a.id}`, { ...asOwner(t), query: { fieldsets: ['FULL'] } });
    expect(still.body.member).toMatchObject({ status: 'APPROVED', activityStatus: 'ACTIVE', contact: { phones: ['+1 555 0100'] } });
  });

  it('my-calls refuse visitors and owners', async () => {
    for (const [method, path] of [['GET', `${M}/my`], ['POST', `${M}/join-community`], ['POST', `${M}/my/slug`], ['DELETE', `${M}/my`]] as const) {
      const body = method === 'POST' ? { slug: 'abc' } : undefined;
      expect((await call(t.url, path, { method, auth: visitor, body })).status).toBe(403);
      expect((await call(t.url, path, { method, ...asOwner(t), body })).status).toBe(403);
      expect((await call(t.url, path, { method, body })).status).toBe(401);
    }
  });
});
