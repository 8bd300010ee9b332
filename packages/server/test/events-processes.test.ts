import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { call } from './harness.js';
import { FAST_EVENTS_ENV, Receiver, waitFor } from './events-support.js';
import { listAttempts } from '../src/domains/events/store.js';
import { freshDatabase as freshChildDatabase, startServerProcess, stopServerProcess, type ServerProcess } from './child-server.js';

/**
 * Whole server processes (the real CLI `start`), killed with SIGKILL mid-burst and run side by side on
 * one PostgreSQL database. Each process is one `node --import tsx` process, so SIGKILL hits the server itself.
 */
const PG = process.env.DATABASE_URL || '';
const PRODUCT = 'wix.stores.catalog.v1.product';

type Proc = ServerProcess;
const running: Proc[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const proc = await startServerProcess({ ...FAST_EVENTS_ENV, ...env });
  running.push(proc);
  return proc;
}

async function stopProcess(p: Proc, signal: NodeJS.Signals): Promise<void> {
  await stopServerProcess(p, signal);
  running.splice(running.indexOf(p), 1);
}

/** A fresh database (SQLite folder, or PostgreSQL schema) and an owner key of its demo site, made after the first start. */
function freshDatabase() {
  const db = freshChildDatabase('vitrine-events-');
  cleanups.push(() => db.drop());
  return { env: db.env, read: db.read, ownerKey: () => db.ownerKey('events-test') };
}

async function subscribe(url: string, owner: { apiKey: string; siteId: string }, receiver: Receiver): Promise<string> {
  const res = await call(url, '/webhooks/v1/subscriptions', {
    auth: owner.apiKey, siteId: owner.siteId,
    body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: PRODUCT, slug: 'created' }] } },
  });
  expect(res.status).toBe(200);
  receiver.secret = res.body.secret;
  return res.body.subscription.id;
}

/** Ids of the products whose name starts with `prefix`, read through the API. */
async function productIds(url: string, owner: { apiKey: string; siteId: string }, prefix: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const res = await call(url, '/stores-reader/v1/products/query-platformized', {
      auth: owner.apiKey, siteId: owner.siteId,
      body: { query: { filter: { name: { $startsWith: prefix } }, paging: { limit: 100, offset } } },
    });
    expect(res.status).toBe(200);
    for (const p of res.body.products as { id: string }[]) ids.add(p.id);
    if (res.body.products.length < 100) return ids;
  }
}

/**
 * Creates `count` products through the owner API with `concurrency` callers spread over `urls`;
 * `onOk` may stop the burst (returns false). Returns how many creates answered 200.
 */
async function burst(urls: string[], owner: { apiKey: string; siteId: string }, prefix: string, count: number, concurrency: number, onOk: (ok: number) => boolean = () => true): Promise<number> {
  let next = 0;
  let ok = 0;
  let stop = false;
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    while (!stop && next < count) {
      const i = next++;
      try {
        const res = await call(urls[w % urls.length]!, '/stores/v1/products', { auth: owner.apiKey, siteId: owner.siteId, body: { product: { name: `${prefix}${i}`, priceData: { price: 1 + (i % 50) } } } });
        if (res.status !== 200) throw new Error(`create answered ${res.status}`);
        ok++;
        if (!onOk(ok)) stop = true;
      } catch {
        stop = true; // the server is gone
      }
    }
  }));
  return ok;
}

afterEach(async () => {
  for (const p of [...running]) await stopProcess(p, 'SIGTERM');
});

afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('server processes', () => {
  it('a SIGKILL mid-burst loses no committed change\'s event and invents none', async () => {
    const db = freshDatabase();
    // The receiver refuses everything until the crash, so every committed event is still pending (or
    // leased by the dying process) when it is killed.
    let crashed = false;
    const receiver = await new Receiver(() => (crashed ? 200 : 503)).start();
    try {
      const first = await startProcess(db.env);
      const owner = await db.ownerKey();
      await subscribe(first.url, owner, receiver);
      let killed: Promise<void> | undefined;
      const ok = await burst([first.url], owner, 'Burst ', 1000, 8, (n) => {
        if (n >= 250 && !killed) killed = stopProcess(first, 'SIGKILL');
        return !killed;
      });
      await killed;
      crashed = true;
      expect(receiver.accepted.size).toBe(0);
      expect(receiver.arrivals.length).toBeGreaterThan(0);
      expect(ok).toBeGreaterThanOrEqual(250);
      expect(ok).toBeLessThan(1000);

      const second = await startProcess(db.env);
      const committed = await productIds(second.url, owner, 'Burst ');
      // Every create that answered 200 committed; a few in flight at the kill may have committed too.
      expect(committed.size).toBeGreaterThanOrEqual(ok);
      const delivered = () => new Set([...receiver.accepted.values()].filter((e) => e.entityFqdn === PRODUCT && String((e.entity as { name?: string }).name).startsWith('Burst ')).map((e) => e.entityId));
      await waitFor(() => delivered().size >= committed.size, 60_000, `${committed.size} product events`);
      await new Promise((r) => setTimeout(r, 300));
      expect([...delivered()].sort()).toEqual([...committed].sort());
      expect(receiver.badSignatures).toEqual([]);
      // One event per product after de-duplication by event id (a retry after the crash may repeat one).
      const events = [...receiver.accepted.values()].filter((e) => committed.has(e.entityId));
      expect(events.length).toBe(committed.size);
      expect(events.every((e) => e.entityEventSequence === 1 && e.slug === 'created')).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 180_000);

  it.skipIf(!PG)('two processes on one PostgreSQL deliver each event exactly once', async () => {
    const db = freshDatabase();
    const receiver = await new Receiver((_e, _attempt, index) => (index < 10 ? 503 : 200)).start();
    try {
      // Generous timeout and lease (nobody crashes here), so a repeat can only come from a double claim.
      const env = { ...db.env, WEBHOOK_TIMEOUT_MS: '15000', EVENTS_LEASE_MS: '30000' };
      const a = await startProcess(env);
      const b = await startProcess(env);
      const owner = await db.ownerKey();
      const subscriptionId = await subscribe(a.url, owner, receiver);
      const COUNT = 200;
      const ok = await burst([a.url, b.url], owner, 'Pair ', COUNT, 8);
      expect(ok).toBe(COUNT);
      const created = await productIds(a.url, owner, 'Pair ');
      expect(created.size).toBe(COUNT);
      const delivered = () => [...receiver.accepted.values()].filter((e) => created.has(e.entityId));
      await waitFor(() => delivered().length === COUNT, 60_000, 'every product event');
      // Let any duplicate that is still in flight arrive before counting.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(delivered().length).toBe(COUNT);
      expect([...receiver.acceptCounts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      expect(receiver.badSignatures).toEqual([]);
      // Both processes' workers did part of the work (the attempt log names the worker).
      const deliveryIds: string[] = [];
      for (let offset = 0; offset < COUNT; offset += 100) {
        const page = await call(a.url, `/webhooks/v1/subscriptions/${subscriptionId}/deliveries`, { auth: owner.apiKey, siteId: owner.siteId, query: { limit: '100', offset: String(offset) } });
        deliveryIds.push(...(page.body.deliveries as { id: string }[]).map((d) => d.id));
      }
      expect(deliveryIds).toHaveLength(COUNT);
      const attempts = await db.read((storage) => listAttempts(storage, deliveryIds));
      expect(new Set(attempts.map((x) => x.worker_id)).size).toBe(2);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
