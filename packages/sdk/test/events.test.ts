import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { FAST_EVENTS, Receiver } from '../../server/test/events-support.js';
import { ownerCreateMember } from '../../server/test/member-tokens.js';
import { ApiKeyStrategy, createClient, VitrineError } from '../src/index.js';
import { mailbox, webhooks } from '../src/modules/events/index.js';
import { recordingFetch } from './helpers.js';

/** `@vitrine/sdk/events` (webhook subscriptions, delivery log, redelivery, mailbox) over real HTTP. */
let t: TestServer;
let receiver: Receiver;
let rec: ReturnType<typeof recordingFetch>;
const admin = () => createClient({ modules: { webhooks, mailbox }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: rec.fetch });

beforeAll(async () => {
  t = await startTestServer({ events: FAST_EVENTS });
  receiver = await new Receiver(() => 200).start();
  rec = recordingFetch();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
  for (let i = 0; i < 100; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in 10 s');
};

describe('webhooks', () => {
  it('creates, lists, delivers, logs, redelivers, disables and deletes a subscription', async () => {
    const a = admin();
    const { subscription, secret } = await a.webhooks.createSubscription({ url: receiver.url, eventTypes: [{ entityFqdn: 'wix.members.v1.member', slug: 'created' }], description: 'sdk' });
    expect(rec.calls.at(-1)!.body).toEqual({ subscription: { url: receiver.url, eventTypes: [{ entityFqdn: 'wix.members.v1.member', slug: 'created' }], description: 'sdk' } });
    expect(subscription).toMatchObject({ url: receiver.url, status: 'ACTIVE', description: 'sdk', failureStreak: 0, failingSince: null, secretHint: `…${secret.slice(-4)}` });
    expect(subscription._createdDate).toBeInstanceOf(Date);
    expect((subscription as { id?: string }).id).toBeUndefined();
    receiver.secret = secret;

    expect((await a.webhooks.listSubscriptions()).subscriptions.map((s) => s._id)).toEqual([subscription._id]);
    expect(await a.webhooks.getSubscription(subscription._id)).toEqual(subscription);

    const member = await ownerCreateMember(t, { loginEmail: 'hook@sdk.test' });
    const page = await until(() => a.webhooks.listDeliveries(subscription._id, { limit: 10 }), (p) => p.deliveries[0]?.status === 'SUCCEEDED');
    expect(rec.calls.at(-1)!.url.pathname).toBe(`/webhooks/v1/subscriptions/${subscription._id}/deliveries`);
    expect(page.metadata).toEqual({ count: 1, offset: 0, total: 1 });
    const [delivery] = page.deliveries;
    expect(delivery).toMatchObject({ subscriptionId: subscription._id, entityFqdn: 'wix.members.v1.member', slug: 'created', entityId: member.id, attemptCount: 1, lastStatusCode: 200, redeliveryOf: null, nextAttemptDate: null });
    expect(delivery!._createdDate).toBeInstanceOf(Date);
    expect(delivery!.giveUpAfter).toBeInstanceOf(Date);

    const detail = await a.webhooks.getDelivery(delivery!._id);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
    expect(detail.attempts[0]!.startedDate).toBeInstanceOf(Date);

    const again = await a.webhooks.redeliver(delivery!._id);
    expect(again).toMatchObject({ subscriptionId: subscription._id, eventId: delivery!.eventId, redeliveryOf: delivery!._id });
    expect(again._id).not.toBe(delivery!._id);
    const succeeded = await a.webhooks.listDeliveries(subscription._id, { status: 'SUCCEEDED' });
    expect(rec.calls.at(-1)!.url.searchParams.get('status')).toBe('SUCCEEDED');
    expect(succeeded.deliveries.every((d) => d.status === 'SUCCEEDED')).toBe(true);

    const disabled = await a.webhooks.updateSubscription(subscription._id, { status: 'DISABLED' });
    expect(disabled).toMatchObject({ _id: subscription._id, status: 'DISABLED' });
    const rotated = await a.webhooks.rotateSecret(subscription._id);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.subscription.secretHint).toBe(`…${rotated.secret.slice(-4)}`);

    await a.webhooks.deleteSubscription(subscription._id);
    expect(rec.calls.at(-1)!.method).toBe('DELETE');
    expect((await a.webhooks.listSubscriptions()).subscriptions).toEqual([]);
    const gone = await a.webhooks.getSubscription(subscription._id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VitrineError);
    expect(gone).toMatchObject({ status: 404 });
  });

  it('reports the server violation of a bad subscription and refuses visitors', async () => {
    const bad = await admin().webhooks.createSubscription({ url: 'ftp://example.com/hook', eventTypes: [{ entityFqdn: 'wix.members.v1.member', slug: '*' }] }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'validation', code: 'INVALID_ARGUMENT', status: 400, message: 'INVALID_ARGUMENT: "subscription.url" must be an absolute http(s) URL without credentials' });
    const anonymous = createClient({ modules: { webhooks }, host: t.url });
    const refused = await anonymous.webhooks.listSubscriptions().catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401 });
  });
});

describe('mailbox', () => {
  it('lists the mails of the site newest first, by status', async () => {
    const a = admin();
    await ownerCreateMember(t, { loginEmail: 'mail@sdk.test' });
    // Wait until the worker has handled the mail: a PENDING one changes status between the two reads below.
    const all = await until(() => a.mailbox.listMails({ limit: 5 }), (p) => p.mails.some((m) => m.to === 'mail@sdk.test' && m.status !== 'PENDING'));
    const mail = all.mails.find((m) => m.to === 'mail@sdk.test')!;
    expect(mail).toMatchObject({ template: 'member-welcome', subject: 'Welcome to Vitrine Demo Store' });
    expect(mail._createdDate).toBeInstanceOf(Date);
    expect(all.metadata).toMatchObject({ offset: 0, count: all.mails.length, total: all.mails.length });
    const stored = await a.mailbox.listMails({ status: mail.status });
    expect(stored.mails.map((m) => m._id)).toContain(mail._id);
    const none = await a.mailbox.listMails({ status: mail.status === 'FAILED' ? 'SENT' : 'FAILED' });
    expect(none.mails.map((m) => m._id)).not.toContain(mail._id);
    const bad = await a.mailbox.listMails({ limit: 0 }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'validation', status: 400 });
  });
});
