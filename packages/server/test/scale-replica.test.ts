import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import { replicaUnavailable, startReplicaPair, type ReplicaPair } from './replica-cluster.js';

/**
 * Reads on a real streaming replica (DATABASE_READ_URL) with read-your-writes through
 * X-Wix-Consistent: a private primary and a `pg_basebackup -R` replica on random ports, built and
 * removed by this file. The replica is made to lag by pausing its WAL replay.
 */

const UNAVAILABLE = replicaUnavailable();
const COLLECTION = 'replicaNotes';
/** Write-then-read rounds of the read-your-writes property; replay is paused every other few rounds. */
const ROUNDS = 24;
const CONSISTENT = 'x-wix-consistent';

let pair: ReplicaPair;
let t: TestServer;
let itemId: string;

/** A client that echoes the last X-Wix-Consistent it was sent on every later call, as the SDK does. */
function client() {
  let token: string | undefined;
  const send = async (path: string, options: { body?: unknown; query?: Record<string, string> } = {}) => {
    const res = await call(t.url, path, { auth: t.apiKey, siteId: t.site.id, ...options, headers: token ? { [CONSISTENT]: token } : {} });
    const next = res.headers.get(CONSISTENT);
    if (next) token = next;
    return res;
  };
  return {
    token: () => token,
    async write(n: number) {
      const res = await send('/wix-data/v2/items/update', { body: { dataCollectionId: COLLECTION, dataItem: { id: itemId, data: { n } } } });
      expect(res.status).toBe(200);
    },
    async read(): Promise<number> {
      const res = await send(`/wix-data/v2/items/${itemId}`, { query: { dataCollectionId: COLLECTION } });
      expect(res.status).toBe(200);
      return res.body.dataItem.data.n as number;
    },
  };
}

describe.skipIf(UNAVAILABLE !== undefined)(`read replica with read-your-writes${UNAVAILABLE ? ` (skipped: ${UNAVAILABLE})` : ''}`, () => {
  beforeAll(async () => {
    pair = await startReplicaPair();
    t = await startTestServer({ databaseUrl: pair.primaryUrl, databaseReadUrl: pair.replicaUrl, databaseSchema: 'vitrine' });
    // The harness wrote the site and its API key on the primary, and a call without a token may read
    // them from the replica: on a loaded machine its replay can still be behind (401).
    await pair.waitForReplay();
    const created = await call(t.url, '/wix-data/v2/collections', {
      auth: t.apiKey, siteId: t.site.id,
      body: { collection: { id: COLLECTION, displayName: 'Notes', fields: [], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } },
    });
    expect(created.status).toBe(200);
    // The insert reads the collection's definition, without a token from the replica: wait for it.
    await pair.waitForReplay();
    const item = await call(t.url, '/wix-data/v2/items', { auth: t.apiKey, siteId: t.site.id, body: { dataCollectionId: COLLECTION, dataItem: { data: { n: 0 } } } });
    expect(item.status).toBe(200);
    itemId = item.body.dataItem.id;
    await pair.waitForReplay();
  }, 50_000);

  afterAll(async () => {
    await t?.close();
    await pair?.stop();
  });

  it('a write answers a WAL position token; reads without a token are served by the replica (stale while replay is paused)', async () => {
    const writer = client();
    await pair.pauseReplay();
    await writer.write(1);
    expect(writer.token()).toMatch(/^lsn:[0-9A-F]+\/[0-9A-F]+$/);
    // A caller that did not write reads the replica: it still has 0.
    expect(await client().read()).toBe(0);
    // The writer's token is ahead of the paused replica: its read goes to the primary.
    expect(await writer.read()).toBe(1);
    await pair.resumeReplay();
    await pair.waitForReplay();
    expect(await client().read()).toBe(1);
  });

  it(`a client never reads older data than it wrote: ${ROUNDS} write-then-read rounds while the replica lags and catches up`, async () => {
    const writer = client();
    let staleForOthers = 0;
    let paused = false;
    for (let i = 1; i <= ROUNDS; i++) {
      // Replay paused for three rounds, running for three, ...
      const pause = Math.floor(i / 3) % 2 === 0;
      if (pause !== paused) {
        await (pause ? pair.pauseReplay() : pair.resumeReplay());
        paused = pause;
      }
      const n = 100 + i;
      await writer.write(n);
      expect(await writer.read(), `round ${i} (replay ${paused ? 'paused' : 'running'})`).toBe(n);
      // Someone without the token may see an older value, never a newer one.
      const seen = await client().read();
      expect(seen).toBeLessThanOrEqual(n);
      if (seen < n) staleForOthers += 1;
    }
    await pair.resumeReplay();
    // The replica did lag during the run (else this proved nothing about lag).
    expect(staleForOthers).toBeGreaterThan(0);
  });

  it('once the replica has replayed a client\'s write, that client reads from the replica again', async () => {
    const writer = client();
    await writer.write(500);
    await pair.waitForReplay();
    await pair.pauseReplay();
    // Someone else writes 501; the replica, paused, keeps 500.
    await client().write(501);
    // The writer's token is satisfied by the replica, so the replica answers: 500, not the primary's 501.
    expect(await writer.read()).toBe(500);
    await pair.resumeReplay();
    await pair.waitForReplay();
  });

  it('a token that is not ours is ignored; one ahead of every replica sends the reads to the primary', async () => {
    await pair.pauseReplay();
    await client().write(600);
    const garbage = await call(t.url, `/wix-data/v2/items/${itemId}`, { auth: t.apiKey, siteId: t.site.id, query: { dataCollectionId: COLLECTION }, headers: { [CONSISTENT]: 'x'.repeat(5_000) } });
    expect(garbage.status).toBe(200);
    const ahead = await call(t.url, `/wix-data/v2/items/${itemId}`, { auth: t.apiKey, siteId: t.site.id, query: { dataCollectionId: COLLECTION }, headers: { [CONSISTENT]: 'lsn:FFFFFFFF/FFFFFFFF' } });
    expect(ahead.body.dataItem.data.n).toBe(600);
    await pair.resumeReplay();
    await pair.waitForReplay();
  });

  it('when the replica stops, reads fall back to the primary and keep answering', async () => {
    await client().write(700);
    await pair.stopReplica();
    expect(await client().read()).toBe(700);
    const writer = client();
    await writer.write(701);
    expect(await writer.read()).toBe(701);
  });
});
