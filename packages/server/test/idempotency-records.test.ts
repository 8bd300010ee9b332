import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import type { Executor } from '../src/storage/database.js';
import {
  canonicalJson, findIdempotencyRecord, hashRequest, pruneIdempotencyRecords, withIdempotency,
  IDEMPOTENCY_LEASE_MS, type IdempotencySpec,
} from '../src/storage/idempotency.js';

/** withIdempotency on a real database (SQLite, or PostgreSQL with DATABASE_URL): claims, leases, expiry, pruning. */

type Writes = { idem_test_writes: { id: string; note: string } };
const writes = (db: Executor) => db.withTables<Writes>();

let t: TestServer;
const db = () => t.server.deps.storage.db;
const spec = (key: string, extra: Partial<IdempotencySpec> = {}): IdempotencySpec => ({ siteId: t.site.id, scope: 'test:records', key, requestHash: 'h1', ...extra });
const notes = async (prefix: string): Promise<string[]> =>
  (await writes(db()).selectFrom('idem_test_writes').select('note').where('note', 'like', `${prefix}%`).orderBy('note').execute()).map((r) => r.note);
const write = (note: string) => async (exec: Executor) => {
  await writes(exec).insertInto('idem_test_writes').values({ id: crypto.randomUUID(), note }).execute();
  return { status: 201, body: { note } };
};

beforeAll(async () => {
  t = await startTestServer();
  await writes(db()).schema.createTable('idem_test_writes').addColumn('id', 'text', (c) => c.primaryKey()).addColumn('note', 'text', (c) => c.notNull()).execute();
});
afterAll(() => t?.close());

describe('withIdempotency', () => {
  it('stores the first response and replays it; a failing first attempt leaves nothing behind', async () => {
    await expect(withIdempotency(db(), spec('fail-then-ok'), async (exec) => {
      await write('fail-')(exec);
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await findIdempotencyRecord(db(), t.site.id, 'test:records', 'fail-then-ok')).toBeUndefined();
    expect(await notes('fail-')).toEqual([]); // the work rolled back with the attempt

    const first = await withIdempotency(db(), spec('fail-then-ok'), write('ok-1'));
    const second = await withIdempotency(db(), spec('fail-then-ok'), write('ok-2'));
    expect(first).toEqual({ status: 201, body: { note: 'ok-1' }, replayed: false });
    expect(second).toEqual({ status: 201, body: { note: 'ok-1' }, replayed: true });
    expect(await notes('ok-')).toEqual(['ok-1']);
    expect(await findIdempotencyRecord(db(), t.site.id, 'test:records', 'fail-then-ok')).toMatchObject({ state: 'COMPLETED', response_status: 201, claim: null });
  });

  it('refuses another request hash under a key, while running and after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const running = withIdempotency(db(), { ...spec('hash'), transactional: false }, async (exec) => { await gate; return write('hash-1')(exec); });
    await waitForRecord('hash');
    await expect(withIdempotency(db(), spec('hash', { requestHash: 'h2' }), write('hash-2'))).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    release();
    await running;
    await expect(withIdempotency(db(), spec('hash', { requestHash: 'h2' }), write('hash-2'))).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await notes('hash-')).toEqual(['hash-1']);
  });

  it('a repeat waits for the running first attempt, and answers IDEMPOTENCY_KEY_IN_USE past its wait', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const running = withIdempotency(db(), { ...spec('wait'), transactional: false }, async (exec) => { await gate; return write('wait-1')(exec); });
    await waitForRecord('wait');
    await expect(withIdempotency(db(), spec('wait', { waitMs: 100 }), write('wait-2'))).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    const waiting = withIdempotency(db(), spec('wait'), write('wait-3'));
    setTimeout(release, 200);
    expect(await waiting).toEqual({ status: 201, body: { note: 'wait-1' }, replayed: true });
    expect(await running).toEqual({ status: 201, body: { note: 'wait-1' }, replayed: false });
    expect(await notes('wait-')).toEqual(['wait-1']);
  });

  it('a claim whose holder is gone is taken over after its lease; the old holder then cannot complete', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    // On SQLite the stalled holder must not keep the only connection in a transaction, so it runs
    // non-transactionally there: its write then stays (such work must be safe to repeat), only its record loses.
    const transactional = t.server.deps.storage.dialect === 'postgres';
    const stalled = withIdempotency(db(), { ...spec('lease'), transactional }, async (exec) => { await gate; return write('lease-old')(exec); });
    await waitForRecord('lease');
    const takeover = await withIdempotency(db(), spec('lease', { clock: () => Date.now() + IDEMPOTENCY_LEASE_MS + 1_000 }), write('lease-new'));
    expect(takeover).toEqual({ status: 201, body: { note: 'lease-new' }, replayed: false });
    release();
    await expect(stalled).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(await withIdempotency(db(), spec('lease'), write('lease-3'))).toEqual({ status: 201, body: { note: 'lease-new' }, replayed: true });
    expect(await notes('lease-')).toEqual(transactional ? ['lease-new'] : ['lease-new', 'lease-old']);
  });

  it('an expired record no longer answers: the next call runs again; pruning deletes expired records only', async () => {
    const past = Date.now() - 2_000;
    await withIdempotency(db(), spec('old', { ttlMs: 1_000, clock: () => past }), write('old-1'));
    expect(await withIdempotency(db(), spec('old'), write('old-2'))).toMatchObject({ replayed: false, body: { note: 'old-2' } });
    await withIdempotency(db(), spec('old-a', { ttlMs: 1_000, clock: () => past }), write('old-a'));
    await withIdempotency(db(), spec('old-b', { ttlMs: 1_000, clock: () => past }), write('old-b'));
    await withIdempotency(db(), spec('young', { ttlMs: 60_000 }), write('young'));
    expect(await pruneIdempotencyRecords(db())).toBe(2);
    expect(await findIdempotencyRecord(db(), t.site.id, 'test:records', 'old-a')).toBeUndefined();
    expect(await findIdempotencyRecord(db(), t.site.id, 'test:records', 'young')).toMatchObject({ state: 'COMPLETED' });
    expect(await findIdempotencyRecord(db(), t.site.id, 'test:records', 'old')).toMatchObject({ state: 'COMPLETED' });
    expect(await pruneIdempotencyRecords(db())).toBe(0);
  });

  it('refuses a transaction as its database handle and malformed keys', async () => {
    await expect(db().transaction().execute((trx) => withIdempotency(trx, spec('trx'), write('trx')))).rejects.toThrow('not a transaction');
    await expect(withIdempotency(db(), spec('has space'), write('bad'))).rejects.toThrow('invalid key');
  });
});

describe('request hashes', () => {
  it('ignore object key order and undefined fields, and see every value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(hashRequest('POST', '/x', { a: 1, b: 2 })).toBe(hashRequest('POST', '/x', { b: 2, a: 1 }));
    expect(hashRequest('POST', '/x', { a: 1 })).not.toBe(hashRequest('POST', '/x', { a: 2 }));
    expect(hashRequest('POST', '/x', { a: 1 })).not.toBe(hashRequest('POST', '/y', { a: 1 }));
  });
});

async function waitForRecord(key: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await findIdempotencyRecord(db(), t.site.id, 'test:records', key)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no record for ${key}`);
}
