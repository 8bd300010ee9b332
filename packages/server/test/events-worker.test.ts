import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, SLOW_START_MS, ownerContext, recordInTransaction, waitFor } from './events-support.js';
import { eventsJobKinds, MAX_IN_FLIGHT_PER_SUBSCRIPTION } from '../src/domains/events/jobs.js';
import type { EventsSettings } from '../src/domains/events/settings.js';
import { JobKinds } from '../src/jobs/kinds.js';
import { JobRunner } from '../src/jobs/runner.js';

/** The events job kinds on runners started by hand (the server's runner has none of them): graceful stop and restart. */
let t: TestServer;
let hook: http.Server;
let hang = true;
let requests = 0;
const hanging: http.ServerResponse[] = [];
const slowHanging: http.ServerResponse[] = [];
let fastDelivered = 0;

beforeAll(async () => {
  t = await startTestServer({ events: { ...FAST_EVENTS, workerEnabled: false } });
  hook = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/fair/slow') {
      slowHanging.push(res);
      return;
    }
    if (req.url === '/fair/fast') {
      fastDelivered++;
      res.writeHead(204).end();
      return;
    }
    requests++;
    if (hang) hanging.push(res);
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
}, SLOW_START_MS);

/** A job runner with only the events kinds, as a process with EVENTS_WORKER on would run them. */
function eventsRunner(events: EventsSettings): JobRunner {
  const deps = { ...t.server.deps, config: { ...t.server.deps.config, events } };
  const runner = new JobRunner(deps, new JobKinds(eventsJobKinds), deps.config.jobs);
  runner.start();
  return runner;
}

afterAll(async () => {
  await t?.close();
  hook?.closeAllConnections();
  await new Promise((resolve) => hook?.close(resolve));
});

describe('worker lifecycle', () => {
  it('stopping mid-request hands the delivery back untouched; the next worker sends it', async () => {
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const created = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url, eventTypes: [{ entityFqdn: 'test.worker.*', slug: '*' }] } } });
    const subscriptionId = created.body.subscription.id;
    await recordInTransaction(ownerContext(t), { entityFqdn: 'test.worker.v1.thing', slug: 'created', entityId: 'w1' });

    const first = eventsRunner(FAST_EVENTS);
    await waitFor(() => hanging.length === 1, 10_000, 'the request to hang');
    await first.stop();
    const list = await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, asOwner(t));
    expect(list.body.deliveries.map((d: { status: string; attemptCount: number; lastError: string | null }) => [d.status, d.attemptCount, d.lastError])).toEqual([['PENDING', 0, null]]);
    const detail = await call(t.url, `/webhooks/v1/deliveries/${list.body.deliveries[0].id}`, asOwner(t));
    expect(detail.body.delivery.attempts).toEqual([]);

    hang = false;
    const second = eventsRunner(FAST_EVENTS);
    try {
      // Claimable at once: the lease was released, not left to expire (FAST_EVENTS.leaseMs is 30 s).
      await waitFor(async () => (await call(t.url, `/webhooks/v1/deliveries/${list.body.deliveries[0].id}`, asOwner(t))).body.delivery.status === 'SUCCEEDED', 3_000, 'the delivery');
    } finally {
      await second.stop();
    }
    const done = await call(t.url, `/webhooks/v1/deliveries/${list.body.deliveries[0].id}`, asOwner(t));
    expect(done.body.delivery.attempts.map((a: { attempt: number; statusCode: number; workerId: string }) => [a.attempt, a.statusCode, a.workerId])).toEqual([[1, 204, second.owner]]);
    expect(requests).toBe(2);
  });

  it('caps the requests in flight per subscription, so a hanging receiver leaves room for others', async () => {
    const base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/fair`;
    const slow = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: `${base}/slow`, eventTypes: [{ entityFqdn: 'test.fair.v1.slow', slug: '*' }] } } });
    const fast = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: `${base}/fast`, eventTypes: [{ entityFqdn: 'test.fair.v1.fast', slug: '*' }] } } });
    expect([slow.status, fast.status]).toEqual([200, 200]);
    const ctx = ownerContext(t);
    for (let i = 0; i < 15; i++) await recordInTransaction(ctx, { entityFqdn: 'test.fair.v1.slow', slug: 'created', entityId: `s${i}` });
    for (let i = 0; i < 3; i++) await recordInTransaction(ctx, { entityFqdn: 'test.fair.v1.fast', slug: 'created', entityId: `f${i}` });
    // 12 slots: without the cap the 15 hanging deliveries would take all of them.
    const worker = eventsRunner({ ...FAST_EVENTS, batchSize: 12 });
    try {
      await waitFor(() => fastDelivered === 3 && slowHanging.length === MAX_IN_FLIGHT_PER_SUBSCRIPTION, 10_000, 'the fast receiver beside the hanging one');
      await new Promise((r) => setTimeout(r, 200));
      expect(slowHanging.length).toBe(MAX_IN_FLIGHT_PER_SUBSCRIPTION);
    } finally {
      await worker.stop();
    }
    const pending = await call(t.url, `/webhooks/v1/subscriptions/${slow.body.subscription.id}/deliveries`, { ...asOwner(t), query: { status: 'PENDING' } });
    expect(pending.body.metadata.total).toBe(15);
  });
});
