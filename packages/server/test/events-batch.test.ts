import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { loadConfig } from '../src/config.js';
import { createCollection, ok, ownerAuth } from './data-support.js';
import { recordEvent, recordEvents } from '../src/domains/events/service.js';
import { inTransaction } from '../src/storage/transaction.js';
import type { RequestContext } from '../src/http/context.js';

let t: TestServer;
// The worker stays off: these tests read the outbox rows themselves.
beforeAll(async () => { t = await startTestServer({ events: { ...loadConfig({}).events, workerEnabled: false, record: 'all' } }); });
afterAll(() => t?.close());

const outbox = (entityFqdn: string) => t.server.deps.storage.db.selectFrom('outbox_events')
  .select(['entity_id', 'slug', 'sequence']).where('site_id', '=', t.site.id).where('entity_fqdn', '=', entityFqdn)
  .orderBy('entity_id').orderBy('sequence').execute();

describe('batched outbox writes', () => {
  it('a bulk insert records one created event per inserted item, none for refused items', async () => {
    await createCollection(t, 'batch_notes');
    const res = await ok(t, ownerAuth(t), '/bulk/items/insert', {
      dataCollectionId: 'batch_notes',
      dataItems: [{ id: 'n1', data: { title: 'one' } }, { id: 'n2', data: { title: 'two' } }, { id: 'n1', data: { title: 'dup' } }],
    });
    expect(res.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1 });
    const rows = (await outbox('wix.data.v2.data_item')).filter((r) => r.entity_id === 'n1' || r.entity_id === 'n2');
    expect(rows.map((r) => [r.entity_id, r.slug, Number(r.sequence)])).toEqual([['n1', 'created', 1], ['n2', 'created', 1]]);
  });

  it('numbers several events of one entity in list order, after the ones it already has', async () => {
    const ctx = ownerCtx();
    const fqdn = 'vitrine.test.thing';
    await recordEvents(ctx, [{ entityFqdn: fqdn, slug: 'created', entityId: 'b' }]);
    await recordEvents(ctx, [
      { entityFqdn: fqdn, slug: 'updated', entityId: 'b' },
      { entityFqdn: fqdn, slug: 'created', entityId: 'a' },
      { entityFqdn: fqdn, slug: 'deleted', entityId: 'b' },
    ]);
    expect((await outbox(fqdn)).map((r) => [r.entity_id, r.slug, Number(r.sequence)])).toEqual([
      ['a', 'created', 1], ['b', 'created', 1], ['b', 'updated', 2], ['b', 'deleted', 3],
    ]);
  });

  it('a transaction writes its events once, before it commits: in recorded order, each entity as it was when recorded', async () => {
    const ctx = ownerCtx();
    const fqdn = 'vitrine.test.deferred';
    const seen: number[] = [];
    await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      const entity = { step: 1 };
      await recordEvent(tctx, { entityFqdn: fqdn, slug: 'created', entityId: 'x', entity });
      entity.step = 2; // a later change of the object is not what the first event says
      await recordEvent(tctx, { entityFqdn: fqdn, slug: 'updated', entityId: 'x', entity });
      await recordEvents(tctx, [{ entityFqdn: fqdn, slug: 'created', entityId: 'y' }, { entityFqdn: fqdn, slug: 'updated', entityId: 'x', entity: { step: 3 } }]);
      // Not written yet: the rows go out with the commit.
      seen.push((await trx.selectFrom('outbox_events').select('id').where('entity_fqdn', '=', fqdn).execute()).length);
    });
    const rows = await t.server.deps.storage.db.selectFrom('outbox_events').select(['entity_id', 'slug', 'sequence', 'payload'])
      .where('site_id', '=', t.site.id).where('entity_fqdn', '=', fqdn).orderBy('entity_id').orderBy('sequence').execute();
    const payload = (p: unknown) => (typeof p === 'string' ? JSON.parse(p) : p) as { entity: unknown };
    expect(seen).toEqual([0]);
    expect(rows.map((r) => [r.entity_id, r.slug, Number(r.sequence), payload(r.payload).entity])).toEqual([
      ['x', 'created', 1, { step: 1 }], ['x', 'updated', 2, { step: 2 }], ['x', 'updated', 3, { step: 3 }], ['y', 'created', 1, null],
    ]);
  });

  it('a transaction that rolls back writes none of its events and takes no sequence numbers', async () => {
    const ctx = ownerCtx();
    const fqdn = 'vitrine.test.rolledback';
    await expect(inTransaction(ctx.db, async (trx) => {
      await recordEvent({ ...ctx, db: trx }, { entityFqdn: fqdn, slug: 'created', entityId: 'z' });
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(await outbox(fqdn)).toEqual([]);
    await recordEvent(ctx, { entityFqdn: fqdn, slug: 'created', entityId: 'z' });
    expect((await outbox(fqdn)).map((r) => [r.entity_id, r.slug, Number(r.sequence)])).toEqual([['z', 'created', 1]]);
  });
});

function ownerCtx(): RequestContext {
  return {
    requestId: 'test', deps: t.server.deps, db: t.server.deps.storage.db, dialect: t.server.deps.storage.dialect,
    caller: { kind: 'owner', apiKeyId: 'test' }, origin: t.url, ip: '127.0.0.1', log: t.server.deps.log, site: t.site,
  };
}
