import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { listOutboxEvents } from '../src/domains/events/store.js';
import { createProduct } from '../src/domains/catalog/service.js';
import { inTransaction } from '../src/storage/transaction.js';
import { pruneEventHistory } from '../src/domains/events/jobs.js';

const THING = 'test.events.v1.thing';
const PRODUCT = 'wix.stores.catalog.v1.product';

let t: TestServer;
let receiver: Receiver;
let subscriptionId: string;

beforeAll(async () => {
  t = await startTestServer({ events: { ...FAST_EVENTS, record: 'all' } }); // the sequence tests read events of types no subscription here matches
  // Fails every event's first attempt (503, or a cut connection for every third request), and the
  // second attempt of every fifth event with a 500: each event needs retries, some several.
  receiver = await new Receiver((event, attempt, index) => {
    if (attempt === 1) return index % 3 === 0 ? 'destroy' : 503;
    if (attempt === 2 && event.entityEventSequence % 5 === 0) return 500;
    return 200;
  }).start();
  const res = await call(t.url, '/webhooks/v1/subscriptions', {
    ...asOwner(t),
    body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: 'test.events.*', slug: '*' }, { entityFqdn: PRODUCT, slug: 'created' }], description: 'test' } },
  });
  expect(res.status).toBe(200);
  subscriptionId = res.body.subscription.id;
  receiver.secret = res.body.secret;
  expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
}, SLOW_START_MS);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('outbox sequence', () => {
  it('numbers concurrent events of one entity 1..n without gaps or duplicates', async () => {
    const ctx = ownerContext(t);
    await Promise.all(Array.from({ length: 20 }, (_, i) => recordInTransaction(ctx, { entityFqdn: 'test.seq.v1.counter', slug: 'bumped', entityId: 'c1', data: { i } })));
    const events = await listOutboxEvents(t.server.deps.storage.db, t.site.id, { entityFqdn: 'test.seq.v1.counter', entityId: 'c1' }, 100);
    expect(events.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(events.every((e) => e.actorType === 'WIX_USER' && e.actorId === 'test-key' && e.siteId === t.site.id)).toBe(true);
  });

  it('writes no event for a change that fails inside its transaction after recordEvent', async () => {
    const ctx = ownerContext(t);
    await expect(inTransaction(ctx.db, async (trx) => {
      await createProduct({ ...ctx, db: trx }, { name: 'Rolled Back Lamp', priceData: { price: 10 } } as Parameters<typeof createProduct>[1]);
      throw new Error('payment step failed');
    })).rejects.toThrow('payment step failed');
    const query = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { filter: { name: 'Rolled Back Lamp' } } } });
    expect(query.body.metadata.total).toBe(0);
    const events = await listOutboxEvents(t.server.deps.storage.db, t.site.id, { entityFqdn: PRODUCT }, 1000);
    expect(events.filter((e) => (e.payload.entity as { name?: string } | null)?.name === 'Rolled Back Lamp')).toEqual([]);
  });
});

describe('webhook delivery', () => {
  it('delivers every event once, in order per entity, signed, through failures', async () => {
    const ctx = ownerContext(t);
    const ENTITIES = 8;
    const PER_ENTITY = 6;
    // Entities written concurrently, each entity's changes one after another.
    await Promise.all(Array.from({ length: ENTITIES }, async (_, e) => {
      for (let n = 1; n <= PER_ENTITY; n++) {
        await recordInTransaction(ctx, { entityFqdn: THING, slug: n === 1 ? 'created' : 'updated', entityId: `thing-${e}`, entity: { id: `thing-${e}`, n } });
      }
    }));
    const products: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: `Webhook Mug ${i}`, priceData: { price: 5 + i } } } });
      expect(res.status).toBe(200);
      products.push(res.body.product.id);
    }
    const expected = ENTITIES * PER_ENTITY + products.length;
    const ours = () => [...receiver.accepted.values()].filter((e) => e.entityFqdn === THING || products.includes(e.entityId));
    await waitFor(() => ours().length === expected, 20_000, `${expected} events`);

    expect(receiver.badSignatures).toEqual([]);
    expect(receiver.orderViolations()).toEqual([]);
    const seqs = receiver.sequencesByEntity();
    for (let e = 0; e < ENTITIES; e++) expect(seqs.get(`${THING}/thing-${e}`)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const id of products) expect(seqs.get(`${PRODUCT}/${id}`)).toEqual([1]);
    // Exactly once: each event answered 2xx once (no crash here, so no duplicate at all).
    for (const e of ours()) expect(receiver.acceptCounts.get(e.id)).toBe(1);
    const mug = ours().find((e) => e.entityId === products[0])!;
    expect(mug).toMatchObject({ siteId: t.site.id, slug: 'created', actor: { type: 'WIX_USER' }, entity: { id: products[0], name: 'Webhook Mug 0' } });
    expect(mug.eventTime).toBeInstanceOf(Date);
    // Events outside the subscription's types were not sent.
    expect([...receiver.accepted.values()].some((e) => e.entityFqdn === 'test.seq.v1.counter')).toBe(false);
  });

  it('keeps a delivery log with every attempt and the receiver answers', async () => {
    // The receiver has every event; the worker writes the last results just after it answered.
    await waitFor(async () => (await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, { ...asOwner(t), query: { status: 'PENDING' } })).body.metadata.total === 0, 10_000, 'no pending delivery');
    const list = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, { ...asOwner(t), query: { limit: '100' } });
    expect(list.status).toBe(200);
    expect(list.body.metadata.total).toBeGreaterThanOrEqual(52);
    expect(list.body.deliveries.every((d: { status: string }) => d.status === 'SUCCEEDED')).toBe(true);
    const fifth = list.body.deliveries.find((d: { entityFqdn: string; entityEventSequence: number }) => d.entityFqdn === THING && d.entityEventSequence === 5);
    const one = await call(t.url, `/webhooks/v1/deliveries/${fifth.id}`, asOwner(t));
    expect(one.status).toBe(200);
    const attempts = one.body.delivery.attempts as { attempt: number; statusCode: number | null; error: string | null; responseExcerpt: string | null }[];
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]).toMatchObject({ statusCode: 500, responseExcerpt: 'answer 500' });
    expect(attempts[2]).toMatchObject({ statusCode: 200, responseExcerpt: 'answer 200', error: null });
    expect(attempts[0]!.statusCode === 503 || attempts[0]!.error !== null).toBe(true);
    expect(one.body.delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 3, lastStatusCode: 200, nextAttemptDate: null });
  });

  it('prunes finished history, keeps sequences counting and order working', async () => {
    const farFuture = Date.now() + 100 * 86_400_000;
    const pruned = await pruneEventHistory(t.server.deps.storage.db, farFuture);
    expect(pruned.deliveries).toBeGreaterThanOrEqual(52);
    expect(pruned.events).toBeGreaterThanOrEqual(52 + 20);
    const list = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, asOwner(t));
    expect(list.body.metadata.total).toBe(0);
    await recordInTransaction(ownerContext(t), { entityFqdn: THING, slug: 'updated', entityId: 'thing-0', entity: { id: 'thing-0', n: 7 } });
    await waitFor(() => receiver.sequencesByEntity().get(`${THING}/thing-0`)?.length === 7, 10_000, 'event 7 of thing-0');
    expect(receiver.sequencesByEntity().get(`${THING}/thing-0`)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
