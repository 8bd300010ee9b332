/**
 * A commit that records events fans them out in the same process at once, without a job row per
 * commit; the periodic events.dispatch job stays for other processes' events, and is queued only
 * when something waits. Real server, real database, a real webhook receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { localFanOutSettled, stopLocalFanOut } from '../src/domains/events/jobs.js';

const THING = 'test.events.v1.local';
/** The periodic fan-out waits this long: anything delivered sooner came from the local fan-out. */
const SLOW_POLL_MS = 600_000;

let t: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({ events: { ...FAST_EVENTS, pollIntervalMs: SLOW_POLL_MS } });
  receiver = await new Receiver(() => 200).start();
  const res = await call(t.url, '/webhooks/v1/subscriptions', {
    ...asOwner(t),
    body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: THING, slug: '*' }], description: 'local fan-out' } },
  });
  expect(res.status).toBe(200);
  receiver.secret = res.body.secret;
}, SLOW_START_MS);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('local fan-out', () => {
  it('delivers committed events at once, in order, with no events.dispatch job per commit', async () => {
    const db = t.server.deps.storage.db;
    const dispatchJobs = async () => Number((await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'events.dispatch').executeTakeFirstOrThrow()).n);
    const jobsBefore = await dispatchJobs();
    const ctx = ownerContext(t);
    // Twenty commits in quick succession, most while a fan-out pass is running: they coalesce.
    await Promise.all(Array.from({ length: 20 }, (_, i) => recordInTransaction(ctx, { entityFqdn: THING, slug: 'updated', entityId: 'thing-1', entity: { n: i } })));
    await waitFor(() => receiver.accepted.size === 20, 10_000, 'twenty deliveries');
    const sequences = receiver.arrivals.filter((a) => a.status === 200).map((a) => a.sequence);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect([...receiver.acceptCounts.values()].every((n) => n === 1)).toBe(true);
    const pending = await db.selectFrom('outbox_events').select('id').where('entity_fqdn', '=', THING).where('dispatched', '=', 0).execute();
    expect(pending).toEqual([]);
    expect(await dispatchJobs()).toBe(jobsBefore);
  });

  it('a pass still waiting when the process stops runs at the stop; settled waits for a waiting pass', async () => {
    const other = await startTestServer({ events: { ...FAST_EVENTS, pollIntervalMs: SLOW_POLL_MS, record: 'all' } }); // no subscription there
    try {
      const db = other.server.deps.storage.db;
      const undispatched = async () => (await db.selectFrom('outbox_events').select('id').where('entity_fqdn', '=', THING).where('dispatched', '=', 0).execute()).length;
      await recordInTransaction(ownerContext(other), { entityFqdn: THING, slug: 'updated', entityId: 'thing-2', entity: { n: 1 } });
      expect(await undispatched()).toBe(1); // the pass waits LOCAL_FAN_OUT_DELAY_MS
      await localFanOutSettled(other.server.deps);
      expect(await undispatched()).toBe(0);
      await recordInTransaction(ownerContext(other), { entityFqdn: THING, slug: 'updated', entityId: 'thing-2', entity: { n: 2 } });
      await stopLocalFanOut(other.server.deps);
      expect(await undispatched()).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('periodic fan-out', () => {
  it('queues no dispatch or delivery job while nothing waits, and still fans out an event no local pass took', async () => {
    const other = await startTestServer({ events: FAST_EVENTS });
    const hooks = await new Receiver(() => 200).start();
    try {
      const res = await call(other.url, '/webhooks/v1/subscriptions', {
        ...asOwner(other),
        body: { subscription: { url: hooks.url, eventTypes: [{ entityFqdn: THING, slug: '*' }], description: 'periodic fan-out' } },
      });
      expect(res.status).toBe(200);
      hooks.secret = res.body.secret;
      const db = other.server.deps.storage.db;
      const periodicJobs = async () => (await db.selectFrom('jobs').select('id').where('kind', 'in', ['events.dispatch', 'webhooks.deliver']).execute()).length;
      await localFanOutSettled(other.server.deps);
      const idle = await periodicJobs();
      // Fifteen poll intervals (20 ms) with an empty outbox and no delivery due: not one job row.
      await new Promise((resolve) => setTimeout(resolve, 15 * FAST_EVENTS.pollIntervalMs));
      expect(await periodicJobs()).toBe(idle);
      // An event no local pass will take (as another process's commit): the periodic jobs find it.
      await stopLocalFanOut(other.server.deps);
      await recordInTransaction(ownerContext(other), { entityFqdn: THING, slug: 'updated', entityId: 'thing-3', entity: { n: 1 } });
      await waitFor(() => hooks.accepted.size === 1, 10_000, 'the delivery through the periodic jobs');
      expect([...hooks.accepted.values()].map((e) => [e.entityId, e.slug])).toEqual([['thing-3', 'updated']]);
      expect(await periodicJobs()).toBeGreaterThan(idle);
    } finally {
      await other.close();
      await hooks.close();
    }
  });
});
