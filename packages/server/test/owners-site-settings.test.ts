/**
 * Site settings over HTTP (`/_api/vitrine/settings/v1/site`): the store's name, notice e-mail and
 * member sign-up rules; a change takes effect on the next registration; bad input changes nothing;
 * staff need the settings area. Real server, real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createAccount, type OwnerArea } from '../src/domains/owners/index.js';
import { STRONG_PASSWORD } from './identity-helpers.js';

const SITE = '/_api/vitrine/settings/v1/site';
let t: TestServer;

const get = () => call(t.url, SITE, asOwner(t));
const patch = (site: unknown, auth: { auth: string; siteId: string } = asOwner(t) as { auth: string; siteId: string }) => call(t.url, SITE, { ...auth, method: 'PATCH', body: { site } });

async function staffSession(email: string, permissions: OwnerArea[]): Promise<{ auth: string; siteId: string }> {
  const password = 'lantern-meadow-58-copper';
  await createAccount(t.server.deps.storage.db, t.site.id, { email, password, name: email, role: 'staff', permissions });
  const res = await call(t.url, '/_api/vitrine/owners/v1/sign-in', { body: { email, password } });
  expect(res.status).toBe(200);
  return { auth: res.body.sessionToken, siteId: t.site.id };
}

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('site settings', () => {
  it('answers the details, merges a change, and the next registration follows the approval rule', async () => {
    const before = await get();
    expect(before.status).toBe(200);
    expect(before.body.site).toMatchObject({ id: t.site.id, currency: 'USD', requireOwnerApproval: false, requireEmailVerification: false, captcha: 'off' });

    const changed = await patch({ name: 'Harbor Coffee', ownerEmail: 'orders@harbor.test', requireOwnerApproval: true });
    expect(changed.status).toBe(200);
    expect(changed.body.site).toEqual({ ...before.body.site, name: 'Harbor Coffee', ownerEmail: 'orders@harbor.test', requireOwnerApproval: true });
    expect((await get()).body.site).toEqual(changed.body.site);

    const v = await visitorTokens(t);
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', { auth: v.accessToken, body: { loginId: { email: 'new.member@harbor.test' }, password: STRONG_PASSWORD } });
    expect(reg.body.state).toBe('REQUIRE_OWNER_APPROVAL');

    // Only the given fields change; an empty ownerEmail removes it.
    const cleared = await patch({ ownerEmail: '', requireOwnerApproval: false });
    expect(cleared.body.site).toEqual({ ...changed.body.site, ownerEmail: '', requireOwnerApproval: false });
  });

  it('keeps every change when owners save different fields at the same moment', async () => {
    // Each round sends the four fields at once from four requests; a read-modify-write without a row lock loses some.
    for (let round = 0; round < 5; round++) {
      const want = { name: `Round ${round}`, ownerEmail: `r${round}@harbor.test`, requireOwnerApproval: round % 2 === 0, captcha: round % 2 === 0 ? 'visible' : 'off' };
      const answers = await Promise.all(Object.entries(want).map(([k, v]) => patch({ [k]: v })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect((await get()).body.site).toMatchObject(want);
    }
  });

  it('refuses bad input with field violations and changes nothing', async () => {
    const stored = (await get()).body.site;
    const cases: [unknown, string][] = [
      [{ captcha: 'sometimes' }, 'site.captcha'],
      [{ ownerEmail: 'not an e-mail' }, 'site.ownerEmail'],
      [{ name: '' }, 'site.name'],
      [{ name: 'x'.repeat(101) }, 'site.name'],
      [{ currency: 'EUR' }, 'site.currency'],
      [{ requireOwnerApproval: 'yes' }, 'site.requireOwnerApproval'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field), JSON.stringify(body)).toContain(field);
    }
    expect((await get()).body.site).toEqual(stored);
  });

  it('is for owners, API keys and staff with the settings area only', async () => {
    const v = await visitorTokens(t);
    expect((await call(t.url, SITE, { auth: v.accessToken })).status).toBe(403);
    const catalogOnly = await staffSession('catalog.staff@harbor.test', ['catalog']);
    const refused = await patch({ name: 'Staff rename' }, catalogOnly);
    expect([refused.status, refused.body.details.applicationError.code]).toEqual([403, 'OWNER_PERMISSION_REQUIRED']);
    const settingsStaff = await staffSession('settings.staff@harbor.test', ['settings']);
    const allowed = await patch({ captcha: 'invisible' }, settingsStaff);
    expect([allowed.status, allowed.body.site.captcha]).toEqual([200, 'invisible']);
    expect((await get()).body.site.name).not.toBe('Staff rename');
  });
});
