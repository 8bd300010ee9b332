/**
 * The CLI's owner-account pieces: the demo site's first owner is made once with a generated password
 * that signs in (the start prints it), and `create-owner`'s role and area options refuse unknown values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import { DEMO_OWNER_EMAIL, ensureDemoOwner, parseAreas, parseRole } from '../src/cli/owner-accounts.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('demo owner and create-owner options', () => {
  it('makes the demo owner once; the printed password signs in to the dashboard API', async () => {
    const db = t.server.deps.storage.db;
    const first = await ensureDemoOwner(db, t.site.id);
    expect(first?.email).toBe(DEMO_OWNER_EMAIL);
    expect(first?.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // A second start finds an owner and prints nothing.
    expect(await ensureDemoOwner(db, t.site.id)).toBeUndefined();
    const signIn = await call(t.url, '/_api/vitrine/owners/v1/sign-in', { body: { email: DEMO_OWNER_EMAIL, password: first!.password } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.account).toMatchObject({ email: DEMO_OWNER_EMAIL, role: 'owner' });
    const wrong = await call(t.url, '/_api/vitrine/owners/v1/sign-in', { body: { email: DEMO_OWNER_EMAIL, password: `${first!.password}x` } });
    expect([wrong.status, wrong.body.details.applicationError.code]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('parses --role and --areas, refusing unknown values', () => {
    expect(parseRole(undefined)).toBe('owner');
    expect(parseRole('staff')).toBe('staff');
    expect(() => parseRole('admin')).toThrow('--role must be one of owner, staff');
    expect(parseAreas('catalog, orders')).toEqual(['catalog', 'orders']);
    expect(parseAreas(undefined)).toEqual([]);
    expect(() => parseAreas('catalog,billing')).toThrow('Unknown areas: billing');
  });
});
