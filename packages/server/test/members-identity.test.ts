import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, STRONG_PASSWORD, uniqueEmail, visitor } from './identity-helpers.js';
import { updateSite } from '../src/domains/sites/service.js';

/** Member status drives login: register (pending approval) -> approve -> login; block, disconnect, delete. */
let t: TestServer;
const M = '/members/v1/members';

beforeAll(async () => { t = await startTestServer({ trustedProxies: ['127.0.0.1'] }); });
afterAll(() => t?.close());

const login = async (email: string) => {
  const v = await visitor(t);
  return (await call(t.url, '/_api/iam/authentication/v2/login', as(v, { loginId: { email }, password: STRONG_PASSWORD }))).body;
};
const status = async (id: string) => (await call(t.url, `${M}/${id}`, { ...asOwner(t), query: { fieldsets: ['EXTENDED'] } })).body.member?.status;
const act = (id: string, action: string) => call(t.url, `${M}/${id}/${action}`, { ...asOwner(t), body: {} });

describe('members and login', () => {
  it('a registered member waits for approval, then logs in; block and disconnect stop login; approve lifts them', async () => {
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { requireOwnerApproval: true } });
    const email = uniqueEmail('owner-approval');
    const v = await visitor(t);
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD, profile: { nickname: 'Waiting Will' } }));
    expect(reg.body.state).toBe('REQUIRE_OWNER_APPROVAL');
    const id = reg.body.identity.id as string;
    expect(await status(id)).toBe('PENDING');
    expect((await login(email)).state).toBe('REQUIRE_OWNER_APPROVAL');

    const approved = await act(id, 'approve');
    expect(approved.body.member.status).toBe('APPROVED');
    expect(approved.body.member.lastLoginDate).toBeUndefined();
    expect((await login(email)).state).toBe('SUCCESS');
    const afterLogin = (await call(t.url, `${M}/${id}`, { ...asOwner(t), query: { fieldsets: ['FULL'] } })).body.member;
    expect(Date.now() - Date.parse(afterLogin.lastLoginDate)).toBeLessThan(60_000);

    expect((await act(id, 'block')).body.member.status).toBe('BLOCKED');
    const blocked = await login(email);
    expect(blocked.state).toBe('STATUS_CHECK');
    expect(blocked.sessionToken).toBeUndefined();

    expect((await act(id, 'approve')).body.member.status).toBe('APPROVED');
    expect((await login(email)).state).toBe('SUCCESS');

    expect((await act(id, 'disconnect')).body.member.status).toBe('OFFLINE');
    expect((await login(email)).state).toBe('STATUS_CHECK');
    expect((await act(id, 'approve')).body.member.status).toBe('APPROVED');
    expect((await login(email)).state).toBe('SUCCESS');
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: {} });
  });

  it('deleting a member deletes its identity: login fails and the e-mail can register again', async () => {
    const email = uniqueEmail('deleted');
    const v = await visitor(t);
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    expect(reg.body.state).toBe('SUCCESS');
    const id = reg.body.identity.id as string;
    expect(await status(id)).toBe('APPROVED');
    const del = await call(t.url, `${M}/${id}`, { method: 'DELETE', ...asOwner(t) });
    expect(del.status).toBe(200);
    const refused = await login(email);
    expect(refused).toEqual({ message: 'Invalid email or password', details: { applicationError: { code: '-19976', description: 'Invalid email or password', data: {} } } });
    const again = await call(t.url, '/_api/iam/authentication/v2/register', as(await visitor(t), { loginId: { email }, password: STRONG_PASSWORD }));
    expect(again.body.state).toBe('SUCCESS');
    expect(again.body.identity.id).not.toBe(id);
    expect(await status(again.body.identity.id)).toBe('APPROVED');
  });
});
