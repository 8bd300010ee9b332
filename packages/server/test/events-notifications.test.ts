import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { updateSite } from '../src/domains/sites/service.js';
import { recordEvents } from '../src/domains/events/service.js';
import { inTransaction } from '../src/storage/transaction.js';

const MEMBER = 'wix.members.v1.member';
const ORDER = 'wix.ecom.v1.order';

interface Mail { id: string; template: string; to: string; subject: string; html: string; text: string; status: string; attempts: number; eventId: string | null; lastError: string | null }

async function mailbox(t: TestServer, query: Record<string, string> = {}): Promise<Mail[]> {
  const res = await call(t.url, '/notifications/v1/mails', { ...asOwner(t), query: { limit: '100', ...query } });
  expect(res.status).toBe(200);
  return res.body.mails;
}

async function mailJobs(t: TestServer): Promise<{ payload: unknown; attempts: number }[]> {
  return t.server.deps.storage.db.selectFrom('jobs').select(['payload', 'attempts']).where('kind', '=', 'mail.send').execute();
}

describe('without SMTP: the mailbox', () => {
  let t: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestServer({ smtpUrl: undefined, events: { ...FAST_EVENTS, disableAfterFailures: 3, disableAfterMs: 0 } });
    receiver = await new Receiver(() => 500).start();
  }, SLOW_START_MS);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('renders member and order e-mails as HTML and text with user content escaped', async () => {
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { ...t.site.settings, ownerEmail: 'owner@shop.example' } });
    const ctx = ownerContext(t);
    await recordInTransaction(ctx, {
      entityFqdn: MEMBER, slug: 'created', entityId: 'm1',
      entity: { id: 'm1', loginEmail: 'ann@example.com', contact: { firstName: '<script>alert(1)</script>' } },
    });
    // An address list smuggled into a login e-mail gets no mail at all.
    await recordInTransaction(ctx, { entityFqdn: MEMBER, slug: 'created', entityId: 'm2', entity: { id: 'm2', loginEmail: 'eve@example.com,victim@example.com' } });
    await recordInTransaction(ctx, {
      entityFqdn: ORDER, slug: 'created', entityId: 'o1',
      entity: {
        id: 'o1', number: '10001', buyerInfo: { email: 'bob@example.com' },
        lineItems: [{ productName: { original: 'Mug <b>&</b>' }, quantity: 2, price: { amount: '5.00', formattedAmount: '$5.00' } }],
        priceSummary: { total: { amount: '10.00', formattedAmount: '$10.00' } },
      },
    });
    await recordInTransaction(ctx, { entityFqdn: ORDER, slug: 'canceled', entityId: 'o1', entity: { id: 'o1', number: '10001', buyerInfo: { email: 'bob@example.com' } }, data: { customMessage: 'Out of <stock>' } });
    await recordInTransaction(ctx, { entityFqdn: ORDER, slug: 'canceled', entityId: 'o2', entity: { id: 'o2', number: '10002', buyerInfo: { email: 'bob@example.com' } }, data: { sendOrderCanceledEmail: false } });
    await waitFor(async () => (await mailbox(t)).filter((m) => m.status === 'STORED').length >= 4, 10_000, 'four stored mails');
    const mails = await mailbox(t);
    const byTemplate = Object.fromEntries(mails.map((m) => [m.template, m]));
    expect(Object.keys(byTemplate).sort()).toEqual(['member-welcome', 'order-canceled', 'order-confirmation', 'owner-new-order']);
    expect(mails.filter((m) => m.template === 'member-welcome').map((m) => m.to)).toEqual(['ann@example.com']);
    expect(byTemplate['member-welcome']).toMatchObject({ to: 'ann@example.com', subject: `Welcome to ${t.site.name}`, status: 'STORED' });
    expect(byTemplate['member-welcome']!.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(byTemplate['member-welcome']!.html).not.toContain('<script>');
    expect(byTemplate['member-welcome']!.text).toContain('Hi <script>alert(1)</script>,');
    expect(byTemplate['order-confirmation']).toMatchObject({ to: 'bob@example.com', subject: `Your order #10001 at ${t.site.name}` });
    expect(byTemplate['order-confirmation']!.html).toContain('<td>Mug &lt;b&gt;&amp;&lt;/b&gt;</td><td>x 2</td><td>$5.00</td>');
    expect(byTemplate['order-confirmation']!.text).toContain('- Mug <b>&</b> x 2 $5.00\nTotal: $10.00');
    expect(byTemplate['owner-new-order']).toMatchObject({ to: 'owner@shop.example', subject: 'New order #10001' });
    expect(byTemplate['order-canceled']!.html).toContain('<p>Out of &lt;stock&gt;</p>');
    // The cancel with sendOrderCanceledEmail false sent nothing.
    expect(mails.filter((m) => m.template === 'order-canceled')).toHaveLength(1);
    const filtered = await mailbox(t, { template: 'order-confirmation' });
    expect(filtered.map((m) => m.template)).toEqual(['order-confirmation']);

    // The owner turns the welcome mail off: the next member gets none.
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { ...t.site.settings, ownerEmail: 'owner@shop.example', disabledMailTemplates: ['member-welcome'] } });
    await recordInTransaction(ctx, { entityFqdn: MEMBER, slug: 'created', entityId: 'm3', entity: { id: 'm3', loginEmail: 'dan@example.com' } });
    await recordInTransaction(ctx, { entityFqdn: ORDER, slug: 'created', entityId: 'o3', entity: { id: 'o3', number: '10003', buyerInfo: { email: 'dan@example.com' } } });
    await waitFor(async () => (await mailbox(t, { template: 'order-confirmation' })).length === 2, 10_000, 'the second confirmation');
    expect((await mailbox(t, { template: 'member-welcome' })).map((m) => m.to)).toEqual(['ann@example.com']);
    // Nothing could send them, so they were stored as they were queued: no mail.send job ran for any.
    expect((await mailbox(t)).map((m) => m.status).filter((status) => status !== 'STORED')).toEqual([]);
    expect(await mailJobs(t)).toEqual([]);
  });

  it('disables a subscription after a failure streak, tells the owner, and resumes when re-enabled', async () => {
    const created = await call(t.url, '/webhooks/v1/subscriptions', {
      ...asOwner(t), body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: 'test.notify.*', slug: '*' }], alertEmail: 'alerts@shop.example' } },
    });
    receiver.secret = created.body.secret;
    const id = created.body.subscription.id;
    await recordInTransaction(ownerContext(t), { entityFqdn: 'test.notify.v1.thing', slug: 'created', entityId: 'n1' });
    await waitFor(async () => (await call(t.url, `/webhooks/v1/subscriptions/${id}`, asOwner(t))).body.subscription.status === 'DISABLED', 10_000, 'the subscription to be disabled');
    const sub = (await call(t.url, `/webhooks/v1/subscriptions/${id}`, asOwner(t))).body.subscription;
    expect(sub).toMatchObject({ status: 'DISABLED', failureStreak: 3 });
    expect(sub.disabledReason).toMatch(/^3 consecutive failed attempts since /);
    await waitFor(async () => (await mailbox(t, { template: 'webhook-disabled' })).length === 1, 10_000, 'the alert mail');
    const [alert] = await mailbox(t, { template: 'webhook-disabled' });
    expect(alert).toMatchObject({ to: 'alerts@shop.example', subject: `Webhook disabled: ${receiver.url}`, status: 'STORED' });
    // While disabled, the pending delivery waits.
    const attemptsWhileDisabled = receiver.arrivals.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.arrivals.length).toBe(attemptsWhileDisabled);
    const deliveries = await call(t.url, `/webhooks/v1/subscriptions/${id}/deliveries`, asOwner(t));
    expect(deliveries.body.deliveries.map((d: { status: string; attemptCount: number }) => [d.status, d.attemptCount])).toEqual([['PENDING', 3]]);

    receiver.policy = () => 200;
    const enabled = await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'PATCH', body: { subscription: { status: 'ACTIVE' } } });
    expect(enabled.body.subscription).toMatchObject({ status: 'ACTIVE', failureStreak: 0, failingSince: null, disabledReason: null });
    await waitFor(() => receiver.accepted.size === 1, 10_000, 'the delivery after re-enabling');
  });
});

describe('with SMTP', () => {
  let t: TestServer;
  let mail: Mailbox;
  let received: Mailbox['messages'];
  /** Reply codes for the next messages: each refuses one (451 for now, 550 for good). */
  let refuse: number[] = [];

  beforeAll(async () => {
    mail = await startMailbox({ refuseMessage: () => refuse.shift() });
    received = mail.messages;
    t = await startTestServer({ smtpUrl: mail.url, events: FAST_EVENTS });
  }, SLOW_START_MS);
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('sends through SMTP, retries a temporary refusal, and gives up on a permanent one', async () => {
    refuse = [451];
    const ctx = ownerContext(t);
    await recordInTransaction(ctx, { entityFqdn: MEMBER, slug: 'created', entityId: 'm-smtp', entity: { id: 'm-smtp', loginEmail: 'carol@example.com', profile: { nickname: 'Carol' } } });
    await waitFor(async () => (await mailbox(t)).some((m) => m.status === 'SENT'), 10_000, 'the mail to be sent');
    const [sent] = await mailbox(t);
    expect(sent).toMatchObject({ template: 'member-welcome', to: 'carol@example.com', status: 'SENT', attempts: 2 });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['carol@example.com']);
    expect(received[0]!.raw).toContain(`Subject: Welcome to ${t.site.name}`);
    expect(received[0]!.raw).toContain('text/html');
    expect(received[0]!.raw).toContain('text/plain');
    // One Message-ID per outbox row, the same on every attempt: a receiver can drop a resend.
    expect(received[0]!.raw).toContain(`Message-ID: <${sent!.id}@localhost>`);

    refuse = [550];
    await recordInTransaction(ctx, { entityFqdn: MEMBER, slug: 'created', entityId: 'm-bad', entity: { id: 'm-bad', loginEmail: 'nobody@example.com' } });
    await waitFor(async () => (await mailbox(t)).some((m) => m.status === 'FAILED'), 10_000, 'the mail to fail');
    const failed = (await mailbox(t, { status: 'FAILED' }))[0]!;
    expect(failed).toMatchObject({ to: 'nobody@example.com', attempts: 1 });
    expect(failed.lastError).toContain('mailbox unavailable');
    expect(received).toHaveLength(1);
  });

  it("sends an event's mails with one job; a refused mail does not hold up the other, and a retry resends only what is left", async () => {
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { ...t.site.settings, ownerEmail: 'owner@shop.example' } });
    const before = received.length;
    refuse = [550, 451]; // the buyer's confirmation refused for good, the owner's notice once for now
    await recordInTransaction(ownerContext(t), { entityFqdn: ORDER, slug: 'created', entityId: 'o-batch', entity: { id: 'o-batch', number: '10077', buyerInfo: { email: 'erin@example.com' } } });
    await waitFor(async () => (await mailbox(t)).some((m) => m.to === 'owner@shop.example' && m.status === 'SENT'), 10_000, "the owner's notice");
    const mails = (await mailbox(t)).filter((m) => m.subject.includes('10077'));
    expect(mails.map((m) => [m.to, m.status, m.attempts]).sort()).toEqual([['erin@example.com', 'FAILED', 1], ['owner@shop.example', 'SENT', 2]]);
    expect(received.slice(before).map((r) => r.to)).toEqual([['owner@shop.example']]);
    const jobs = await mailJobs(t);
    const ids = mails.map((m) => m.id).sort();
    const theJob = jobs.filter((j) => ids.some((id) => JSON.stringify(j.payload).includes(id)));
    expect(theJob).toHaveLength(1);
    expect(theJob[0]!.attempts).toBe(2);
  });

  it('sends the mails of events committed together with one job (a paid order: confirmation and payment mails)', async () => {
    refuse = [];
    const before = received.length;
    const order = { id: 'o-paid', number: '10078', buyerInfo: { email: 'fay@example.com' } };
    const ctx = ownerContext(t);
    await inTransaction(ctx.db, (trx) => recordEvents({ ...ctx, db: trx }, [
      { entityFqdn: ORDER, slug: 'created', entityId: order.id, entity: order },
      { entityFqdn: ORDER, slug: 'payment_status_updated', entityId: order.id, entity: order, data: { mail: 'PAID' } },
    ]));
    await waitFor(async () => (await mailbox(t)).filter((m) => m.subject.includes('10078') && m.status === 'SENT').length === 3, 10_000, 'the three mails');
    const mails = (await mailbox(t)).filter((m) => m.subject.includes('10078'));
    expect(mails.map((m) => [m.template, m.to]).sort()).toEqual([
      ['order-confirmation', 'fay@example.com'], ['order-paid', 'fay@example.com'], ['owner-new-order', 'owner@shop.example'],
    ]);
    expect(received.slice(before).map((r) => r.to[0]).sort()).toEqual(['fay@example.com', 'fay@example.com', 'owner@shop.example']);
    const theJobs = (await mailJobs(t)).filter((j) => mails.some((m) => JSON.stringify(j.payload).includes(m.id)));
    expect(theJobs).toHaveLength(1);
    const payload = theJobs[0]!.payload;
    // JSON text on SQLite, a jsonb value on PostgreSQL.
    const { mailIds } = (typeof payload === 'string' ? JSON.parse(payload) : payload) as { mailIds: string[] };
    expect([...mailIds].sort()).toEqual(mails.map((m) => m.id).sort());
  });
});
