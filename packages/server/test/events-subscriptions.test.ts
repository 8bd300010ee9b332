import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';
import type { WebhookEvent } from '@vitrine/sdk/webhooks';

const THING = 'test.subs.v1.thing';

let t: TestServer;
let receiver: Receiver;
/** What the receiver answers per entity id: a list consumed one answer per request, then 200. */
const script = new Map<string, number[]>();

async function subscribe(body: Record<string, unknown>) {
  const res = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: THING, slug: '*' }], ...body } } });
  expect(res.status).toBe(200);
  receiver.secret = res.body.secret;
  return res.body.subscription as { id: string };
}

async function deliveriesOf(subscriptionId: string, entityId: string) {
  const res = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, { ...asOwner(t), query: { limit: '100' } });
  expect(res.status).toBe(200);
  return (res.body.deliveries as { id: string; entityId: string; entityEventSequence: number; status: string; attemptCount: number; lastError: string | null; redeliveryOf: string | null; eventId: string }[])
    .filter((d) => d.entityId === entityId).sort((a, b) => a.entityEventSequence - b.entityEventSequence);
}

beforeAll(async () => {
  t = await startTestServer({ events: { ...FAST_EVENTS, retryWindowMs: 1_500 } });
  receiver = await new Receiver((event: WebhookEvent) => script.get(event.entityId)?.shift() ?? 200).start();
}, SLOW_START_MS);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('subscription API', () => {
  it('refuses bad input with field violations and creates nothing', async () => {
    const before = await call(t.url, '/webhooks/v1/subscriptions', asOwner(t));
    const res = await call(t.url, '/webhooks/v1/subscriptions', {
      ...asOwner(t),
      body: { subscription: { url: 'ftp://example.com/x', eventTypes: [{ entityFqdn: 'Bad Name', slug: 'created' }], secret: 'short' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual([
      'subscription.eventTypes[0].entityFqdn', 'subscription.secret', 'subscription.url',
    ]);
    const empty = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: receiver.url, eventTypes: [] } } });
    expect(empty.status).toBe(400);
    const after = await call(t.url, '/webhooks/v1/subscriptions', asOwner(t));
    expect(after.body.subscriptions).toEqual(before.body.subscriptions);
  });

  it('creates, reads, changes and deletes; the secret is shown once; other sites see nothing', async () => {
    const created = await call(t.url, '/webhooks/v1/subscriptions', {
      ...asOwner(t), body: { subscription: { url: 'https://hooks.example.com/a', eventTypes: [{ entityFqdn: 'wix.stores.*', slug: '*' }], secret: 'my-own-secret-of-24-chars!!' } },
    });
    expect(created.status).toBe(200);
    expect(created.body.secret).toBe('my-own-secret-of-24-chars!!');
    const id = created.body.subscription.id;
    const got = await call(t.url, `/webhooks/v1/subscriptions/${id}`, asOwner(t));
    expect(got.body.subscription).toMatchObject({ id, url: 'https://hooks.example.com/a', status: 'ACTIVE', secretHint: '…rs!!' });
    expect(JSON.stringify(got.body)).not.toContain('my-own-secret');

    const patched = await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'PATCH', body: { subscription: { status: 'DISABLED', description: 'paused' } } });
    expect(patched.body.subscription).toMatchObject({ status: 'DISABLED', description: 'paused' });

    const other = await createSite(t.server.deps.storage.db, { slug: `other-${Date.now()}`, name: 'Other' });
    const otherKey = await createApiKey(t.server.deps.storage.db, { siteId: other.id, name: 'other' });
    const foreign = await call(t.url, `/webhooks/v1/subscriptions/${id}`, { auth: otherKey.apiKey, siteId: other.id });
    expect(foreign.status).toBe(404);
    const foreignList = await call(t.url, '/webhooks/v1/subscriptions', { auth: otherKey.apiKey, siteId: other.id });
    expect(foreignList.body.subscriptions).toEqual([]);

    const deleted = await call(t.url, `/webhooks/v1/subscriptions/${id}`, { ...asOwner(t), method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const gone = await call(t.url, `/webhooks/v1/subscriptions/${id}`, asOwner(t));
    expect(gone.status).toBe(404);
    expect(gone.body.details.applicationError.code).toBe('SUBSCRIPTION_NOT_FOUND');
  });
});

describe('retry policy', () => {
  it('does not retry a 4xx, retries 408 and 429, and keeps per-entity order past an abandoned event', async () => {
    const sub = await subscribe({});
    const ctx = ownerContext(t);
    script.set('no-retry', [400]);
    script.set('retry-408', [408, 429]);
    script.set('abandon', [410]);
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'created', entityId: 'no-retry' });
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'created', entityId: 'retry-408' });
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'created', entityId: 'abandon' });
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'updated', entityId: 'abandon' });
    const finished = async (entityId: string, count: number) => {
      const list = await deliveriesOf(sub.id, entityId);
      return list.length === count && list.every((d) => d.status !== 'PENDING');
    };
    await waitFor(async () => await finished('abandon', 2) && await finished('retry-408', 1) && await finished('no-retry', 1), 15_000, 'deliveries to finish');
    expect((await deliveriesOf(sub.id, 'no-retry')).map((d) => [d.status, d.attemptCount, d.lastError])).toEqual([['FAILED', 1, 'HTTP 400']]);
    expect((await deliveriesOf(sub.id, 'retry-408')).map((d) => [d.status, d.attemptCount])).toEqual([['SUCCEEDED', 3]]);
    expect((await deliveriesOf(sub.id, 'abandon')).map((d) => [d.entityEventSequence, d.status, d.attemptCount])).toEqual([[1, 'FAILED', 1], [2, 'SUCCEEDED', 1]]);
    expect(receiver.orderViolations()).toEqual([]);
    await call(t.url, `/webhooks/v1/subscriptions/${sub.id}`, { ...asOwner(t), method: 'DELETE' });
  });

  it('gives up on network errors and 5xx only after the retry window, then sends the next event', async () => {
    const sub = await subscribe({});
    const ctx = ownerContext(t);
    script.set('down', Array.from({ length: 200 }, () => 503));
    const started = Date.now();
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'created', entityId: 'down' });
    await recordInTransaction(ctx, { entityFqdn: THING, slug: 'updated', entityId: 'down' });
    await waitFor(async () => (await deliveriesOf(sub.id, 'down'))[0]?.status === 'FAILED', 10_000, 'the first delivery to be abandoned');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    const [first] = await deliveriesOf(sub.id, 'down');
    expect(first!.attemptCount).toBeGreaterThanOrEqual(3);
    expect(first!.lastError).toBe('HTTP 503; gave up after the retry window');
    script.set('down', []);
    await waitFor(async () => (await deliveriesOf(sub.id, 'down'))[1]?.status === 'SUCCEEDED', 10_000, 'the second delivery');
    await call(t.url, `/webhooks/v1/subscriptions/${sub.id}`, { ...asOwner(t), method: 'DELETE' });
  });
});

describe('manual redelivery', () => {
  it('sends a finished delivery again with the same event id, and refuses a pending one', async () => {
    const sub = await subscribe({});
    await recordInTransaction(ownerContext(t), { entityFqdn: THING, slug: 'created', entityId: 'again' });
    await waitFor(async () => (await deliveriesOf(sub.id, 'again'))[0]?.status === 'SUCCEEDED', 10_000, 'the delivery');
    const [original] = await deliveriesOf(sub.id, 'again');
    const before = receiver.acceptCounts.get(original!.eventId);
    const res = await call(t.url, `/webhooks/v1/deliveries/${original!.id}/redeliver`, { ...asOwner(t), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ status: 'PENDING', eventId: original!.eventId, redeliveryOf: original!.id, attemptCount: 0 });
    await waitFor(() => receiver.acceptCounts.get(original!.eventId) === (before ?? 0) + 1, 10_000, 'the redelivery');
    // The receiver answered; the worker writes the result just after.
    const copyOf = async () => (await call(t.url, `/webhooks/v1/deliveries/${res.body.delivery.id}`, asOwner(t))).body.delivery;
    await waitFor(async () => (await copyOf()).status !== 'PENDING', 10_000, 'the redelivery result');
    expect(await copyOf()).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    script.set('slow', Array.from({ length: 200 }, () => 503));
    await recordInTransaction(ownerContext(t), { entityFqdn: THING, slug: 'created', entityId: 'slow' });
    await waitFor(async () => (await deliveriesOf(sub.id, 'slow')).length === 1, 10_000, 'a pending delivery');
    const pending = (await deliveriesOf(sub.id, 'slow'))[0]!;
    const refused = await call(t.url, `/webhooks/v1/deliveries/${pending.id}/redeliver`, { ...asOwner(t), body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.details.applicationError.code).toBe('DELIVERY_PENDING');
    const unknown = await call(t.url, '/webhooks/v1/deliveries/00000000-0000-4000-8000-000000000000/redeliver', { ...asOwner(t), body: {} });
    expect(unknown.status).toBe(404);
    script.set('slow', []);
    await call(t.url, `/webhooks/v1/subscriptions/${sub.id}`, { ...asOwner(t), method: 'DELETE' });
  });
});

describe('secret rotation', () => {
  it('signs later deliveries with the new secret, returned once', async () => {
    const sub = await subscribe({});
    const old = receiver.secret;
    const res = await call(t.url, `/webhooks/v1/subscriptions/${sub.id}/rotate-secret`, { ...asOwner(t), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.secret).not.toBe(old);
    expect(res.body.subscription.secretHint).toBe(`…${res.body.secret.slice(-4)}`);
    receiver.secret = res.body.secret;
    const badBefore = receiver.badSignatures.length;
    await recordInTransaction(ownerContext(t), { entityFqdn: THING, slug: 'created', entityId: 'rotated' });
    await waitFor(() => [...receiver.accepted.values()].some((e) => e.entityId === 'rotated'), 10_000, 'the delivery');
    expect(receiver.badSignatures.length).toBe(badBefore);
    const short = await call(t.url, `/webhooks/v1/subscriptions/${sub.id}/rotate-secret`, { ...asOwner(t), body: { secret: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['secret']);
    const after = await call(t.url, `/webhooks/v1/subscriptions/${sub.id}`, asOwner(t));
    expect(after.body.subscription.secretHint).toBe(`…${res.body.secret.slice(-4)}`);
    await call(t.url, `/webhooks/v1/subscriptions/${sub.id}`, { ...asOwner(t), method: 'DELETE' });
  });
});
