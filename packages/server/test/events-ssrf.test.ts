import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { loadConfig } from '../src/config.js';
import { insertSubscription } from '../src/domains/events/store.js';
import { blockedAddressReason, BlockedTargetError, guardedLookup } from '../src/domains/events/target.js';

/**
 * The SSRF guard of webhook targets (OWASP API7, docs/events.md): on by default. Registration refuses
 * private, loopback and link-local targets (as addresses or as names resolving to them), other schemes
 * and credentials; delivery resolves again and refuses a target that is private now, failing the
 * delivery once with a reason instead of retrying. The switch turns the address checks off.
 */

const THING = 'test.ssrf.v1.thing';
const NEVER = 'test.ssrf.v1.never'; // no event of this type is recorded: subscriptions to public addresses stay idle

let t: TestServer;
let receiver: Receiver;

const subscriptions = async () => (await call(t.url, '/webhooks/v1/subscriptions', asOwner(t))).body.subscriptions as { id: string; url: string }[];
const create = (url: string, fqdn = NEVER) => call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url, eventTypes: [{ entityFqdn: fqdn, slug: '*' }] } } });

function expectUrlViolation(res: { status: number; body: any }, url: string): void { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const fields = res.body?.details?.validationError?.fieldViolations?.map((v: { field: string }) => v.field);
  expect({ url, status: res.status, fields }).toEqual({ url, status: 400, fields: ['subscription.url'] });
}

/** A subscription row written as if it had passed the registration check earlier (its name resolved publicly then). */
async function storedSubscription(url: string): Promise<string> {
  const now = new Date().toISOString();
  const id = randomUUID();
  await insertSubscription(t.server.deps.storage.db, {
    id, siteId: t.site.id, url, description: 'registered before the name re-bound', eventTypes: [{ entityFqdn: THING, slug: '*' }],
    secret: receiver.secret, alertEmail: null, status: 'ACTIVE', disabledReason: null, failureStreak: 0, failingSince: null, createdDate: now, updatedDate: now,
  });
  return id;
}

async function deliveriesOf(subscriptionId: string) {
  const res = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, asOwner(t));
  expect(res.status).toBe(200);
  return res.body.deliveries as { id: string; status: string; attemptCount: number; lastError: string | null; lastStatusCode: number | null }[];
}

beforeAll(async () => {
  t = await startTestServer({ events: FAST_EVENTS, webhooks: { allowPrivateTargets: false } });
  receiver = await new Receiver(() => 200).start();
  receiver.secret = 'whsec_test_secret_of_enough_length';
}, SLOW_START_MS);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('the switch', () => {
  it('is on by default and off only with VITRINE_WEBHOOKS_ALLOW_PRIVATE=true', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowPrivateTargets: false });
    expect(loadConfig({ VITRINE_WEBHOOKS_ALLOW_PRIVATE: 'true' }).webhooks).toEqual({ allowPrivateTargets: true });
    expect(loadConfig({ VITRINE_WEBHOOKS_ALLOW_PRIVATE: 'yes' }).webhooks).toEqual({ allowPrivateTargets: false });
    expect(t.server.deps.config.webhooks.allowPrivateTargets).toBe(false);
  });
});

describe('address classification', () => {
  it('names every private, loopback, link-local and special range, including IPv4 inside IPv6', () => {
    const blocked = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.255',
      '169.254.169.254', '169.254.0.1', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '198.18.0.1',
      '::1', '::', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', 'fc00::1', 'fdff:ffff::1', 'fe80::1', 'febf:ffff::1', 'fe80::1%eth0',
      'ff02::1', '64:ff9b::7f00:1', '2002:c0a8:101::1', '::127.0.0.1', '2001:db8::1',
    ];
    const open = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '192.169.0.1', '11.0.0.1', '100.128.0.1', '169.255.0.1',
      '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808', 'fbff::1', 'fec0::1'.replace('fec0', '2001')];
    expect(blocked.filter((a) => blockedAddressReason(a) === undefined)).toEqual([]);
    expect(open.filter((a) => blockedAddressReason(a) !== undefined)).toEqual([]);
    expect(blockedAddressReason('169.254.169.254')).toBe('link-local (cloud metadata)');
    expect(blockedAddressReason('::ffff:127.0.0.1')).toBe('loopback');
  });
});

describe('registration (guard on)', () => {
  it('refuses private targets as addresses in every spelling, names resolving to them, other schemes and credentials; creates nothing', async () => {
    const before = await subscriptions();
    const refused = [
      'http://127.0.0.1/hook', 'http://127.0.0.1:8080/hook', 'https://127.1/', 'http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/',
      'http://10.0.0.5/', 'http://172.16.3.4/', 'http://172.31.0.1/', 'http://192.168.1.10/', 'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0:3000/', 'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[fc00::1]/',
      'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://localhost/hook', `http://localhost:${new URL(receiver.url).port}/hook`, 'http://LOCALHOST/',
      'http://unresolvable.invalid/hook',
      'ftp://93.184.215.14/x', 'file:///etc/passwd', 'gopher://93.184.215.14/', 'javascript:alert(1)', 'ws://93.184.215.14/',
      'https://user:secret@93.184.215.14/hook', 'https://user@93.184.215.14/hook', 'not a url',
    ];
    for (const url of refused) expectUrlViolation(await create(url), url);
    expect(await subscriptions()).toEqual(before);
    const one = await create('http://169.254.169.254/latest/meta-data/');
    expect(one.body.details.validationError.fieldViolations[0].description).toContain('169.254.169.254');
  });

  it('accepts public addresses (edges of the private ranges included)', async () => {
    const accepted = ['https://93.184.215.14/hook', 'http://8.8.8.8:8080/x', 'http://172.32.0.1/', 'http://172.15.255.255/', 'http://192.169.0.1/',
      'http://100.128.0.1/', 'https://[2606:4700:4700::1111]/hook', 'http://[::ffff:8.8.8.8]/'];
    const ids: string[] = [];
    for (const url of accepted) {
      const res = await create(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      ids.push(res.body.subscription.id);
    }
    for (const id of ids) expect((await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
  });

  it('refuses a private URL in a change and keeps the old one; an unknown id is still a 404', async () => {
    const created = await create('https://93.184.215.14/hook');
    expect(created.status).toBe(200);
    const id = created.body.subscription.id as string;
    for (const url of ['http://127.0.0.1/', 'http://[fe80::1]/', 'http://localhost/', 'https://u:p@93.184.215.14/']) {
      expectUrlViolation(await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'PATCH', body: { subscription: { url } } }), url);
    }
    expect((await call(t.url, `/webhooks/v1/subscriptions/${id}`, asOwner(t))).body.subscription.url).toBe('https://93.184.215.14/hook');
    const moved = await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'PATCH', body: { subscription: { url: 'https://8.8.4.4/hook' } } });
    expect(moved.body.subscription.url).toBe('https://8.8.4.4/hook');
    const unknown = await call(t.url, `/webhooks/v1/subscriptions/${randomUUID()}`, { ...asOwner(t), method: 'PATCH', body: { subscription: { url: 'http://127.0.0.1/' } } });
    expect({ status: unknown.status, code: unknown.body.details?.applicationError?.code }).toEqual({ status: 404, code: 'SUBSCRIPTION_NOT_FOUND' });
    await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'DELETE' });
  });
});

describe('delivery (guard on)', () => {
  it('refuses a target that is private at delivery time: FAILED once with the reason, nothing sent, no retries', async () => {
    // An address stored before the guard, and a name that now resolves to loopback (what DNS re-binding yields).
    const literal = await storedSubscription(receiver.url);
    const rebound = await storedSubscription(`http://localhost:${new URL(receiver.url).port}/hook`);
    const ctx = ownerContext(t);
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'created', entityId: 'e1', entity: { id: 'e1' } });
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'updated', entityId: 'e1', entity: { id: 'e1' } });
    const finished = async (id: string) => (await deliveriesOf(id)).filter((d) => d.status !== 'PENDING').length === 2;
    await waitFor(async () => (await finished(literal)) && (await finished(rebound)), 15_000, 'both deliveries of both subscriptions to fail');
    // Several backoff periods (50 ms base) later: still one attempt each.
    await new Promise((r) => setTimeout(r, 500));
    for (const [id, reason] of [[literal, /^blocked: 127\.0\.0\.1 is loopback/], [rebound, /^blocked: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/]] as const) {
      const deliveries = await deliveriesOf(id);
      expect(deliveries.map((d) => [d.status, d.attemptCount, d.lastStatusCode])).toEqual([['FAILED', 1, null], ['FAILED', 1, null]]);
      for (const d of deliveries) expect(d.lastError).toMatch(reason);
      const detail = await call(t.url, `/webhooks/v1/deliveries/${deliveries[0]!.id}`, asOwner(t));
      expect(detail.body.delivery.attempts).toHaveLength(1);
      expect(detail.body.delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: null, responseExcerpt: null });
      expect(detail.body.delivery.attempts[0].error).toMatch(reason);
    }
    expect(receiver.arrivals).toEqual([]);
    for (const id of [literal, rebound]) await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'DELETE' });
  });

  it('connects only to the addresses it checked: the lookup hook refuses private answers, and passes the checked ones through when allowed', async () => {
    const lookup = (allow: boolean, all: boolean) => new Promise<{ err: NodeJS.ErrnoException | null; result: string | LookupAddress[] }>((resolve) => {
      guardedLookup(allow)('localhost', { all }, (err, result) => resolve({ err, result }));
    });
    const refused = await lookup(false, true);
    expect(refused.err).toBeInstanceOf(BlockedTargetError);
    const allowedAll = await lookup(true, true);
    expect(allowedAll.err).toBeNull();
    expect((allowedAll.result as LookupAddress[]).every((a) => blockedAddressReason(a.address) === 'loopback')).toBe(true);
    const allowedOne = await lookup(true, false);
    expect(blockedAddressReason(allowedOne.result as string)).toBe('loopback');
  });
});

describe('switch off (VITRINE_WEBHOOKS_ALLOW_PRIVATE=true)', () => {
  it('registers and delivers to a private target, by address and by name', async () => {
    const open = await startTestServer({ events: FAST_EVENTS, webhooks: { allowPrivateTargets: true } });
    const local = await new Receiver(() => 200).start();
    try {
      const port = new URL(local.url).port;
      const ids: string[] = [];
      for (const url of [local.url, `http://localhost:${port}/hook`]) {
        const res = await call(open.url, '/webhooks/v1/subscriptions', { ...asOwner(open), body: { subscription: { url, eventTypes: [{ entityFqdn: THING, slug: '*' }], secret: 'whsec_shared_secret_for_both_hooks' } } });
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        ids.push(res.body.subscription.id);
      }
      local.secret = 'whsec_shared_secret_for_both_hooks';
      // Still refused with the switch off: other schemes and credentials.
      expectUrlViolation(await call(open.url, '/webhooks/v1/subscriptions', { ...asOwner(open), body: { subscription: { url: 'file:///etc/passwd', eventTypes: [{ entityFqdn: THING, slug: '*' }] } } }), 'file:///etc/passwd');
      expectUrlViolation(await call(open.url, '/webhooks/v1/subscriptions', { ...asOwner(open), body: { subscription: { url: `http://a:b@127.0.0.1:${port}/`, eventTypes: [{ entityFqdn: THING, slug: '*' }] } } }), 'credentials');
      await recordInTransaction(ownerContext(open), { entityFqdn: THING, slug: 'created', entityId: 'e2', entity: { id: 'e2' } });
      await waitFor(() => local.arrivals.length === 2, 15_000, 'one delivery per subscription');
      expect(local.badSignatures).toEqual([]);
      expect(local.arrivals.map((a) => a.status)).toEqual([200, 200]);
      for (const id of ids) {
        await waitFor(async () => (await call(open.url, `/webhooks/v1/subscriptions/${id}/deliveries`, asOwner(open))).body.deliveries[0]?.status === 'SUCCEEDED', 15_000, 'SUCCEEDED');
      }
    } finally {
      await open.close();
      await local.close();
    }
  }, SLOW_START_MS);
});
