import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindModule, createClient, VitrineError } from '@vitrine/sdk';
import { account, credentials, staff } from '@vitrine/sdk/owners';
import { webhooks } from '@vitrine/sdk/events';
import { startTestServer, type TestServer } from './harness.js';
import { createAccount } from '../src/domains/owners/index.js';

const EMAIL = 'sdk-owner@example.test';
const PASSWORD = 'mosaic-river-72-tundra';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await createAccount(t.server.deps.storage.db, t.site.id, { email: EMAIL, password: PASSWORD, role: 'owner', name: 'Sid' });
});
afterAll(() => t.close());

describe('@vitrine/sdk/owners against the server', () => {
  it('signs in, uses the session for owner modules, manages keys and staff, signs out', async () => {
    const anonymous = bindModule(account, createClient({ host: t.url }));
    const signedIn = await anonymous.signIn({ email: EMAIL, password: PASSWORD });
    expect(signedIn.siteId).toBe(t.site.id);
    expect(signedIn.expiresDate).toBeInstanceOf(Date);
    expect(signedIn.account).toMatchObject({ email: EMAIL, name: 'Sid', role: 'owner', totpEnabled: false });
    expect(signedIn.account._createdDate).toBeInstanceOf(Date);

    const client = createClient({ host: t.url, auth: account.ownerSessionAuth(signedIn) });
    const me = await bindModule(account, client).getMe();
    expect(me._id).toBe(signedIn.account._id);
    expect(await bindModule(webhooks, client).listSubscriptions()).toEqual({ subscriptions: [] });

    const creds = bindModule(credentials, client);
    const created = await creds.createApiKey('CI');
    expect(created.key).toMatch(/^vtr_/);
    expect(created.apiKey._createdDate).toBeInstanceOf(Date);
    expect((await creds.listApiKeys()).map((k) => k.name)).toEqual(['CI', 'test']);
    await creds.revokeApiKey(created.apiKey._id);
    expect((await creds.listApiKeys()).find((k) => k._id === created.apiKey._id)?.revokedDate).toBeInstanceOf(Date);

    const added = await bindModule(staff, client).createAccount({ email: 'helper@example.test', password: 'pepper-lagoon-55-orbit', role: 'staff', permissions: ['catalog'] });
    expect(added.permissions).toEqual(['catalog']);
    expect((await bindModule(staff, client).listAccounts()).map((a) => a.email)).toEqual([EMAIL, 'helper@example.test']);

    await bindModule(account, client).signOut();
    const refused = await bindModule(account, client).getMe().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VitrineError);
    expect((refused as VitrineError).status).toBe(401);
  });

  it('a wrong password is a VitrineError with the server code and message', async () => {
    const error = await bindModule(account, createClient({ host: t.url })).signIn({ email: EMAIL, password: 'wrong-password-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VitrineError);
    expect((error as VitrineError).status).toBe(401);
    expect((error as VitrineError).details).toMatchObject({ applicationError: { code: 'INVALID_CREDENTIALS', description: 'The e-mail or password is wrong' } });
  });
});
