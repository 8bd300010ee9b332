import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from './database.js';
import { inTransaction } from './transaction.js';
import { VouchedReads } from './vouched-reads.js';

let dir: string;
let storage: Storage;
let other: Storage;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-vouched-'));
  storage = await openStorage({ dataDir: dir, statementTimeoutMs: 10_000 });
  await sql`CREATE TABLE counters (n INTEGER)`.execute(storage.db);
  await sql`INSERT INTO counters VALUES (1)`.execute(storage.db);
  other = await openStorage({ dataDir: dir, statementTimeoutMs: 10_000 });
});

afterEach(async () => {
  await other.close();
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A read of the counter that counts how often it ran. */
function counterRead(db: Storage['db'], runs: { n: number }) {
  return async () => {
    runs.n += 1;
    return Number((await sql<{ n: number }>`SELECT n FROM counters`.execute(db)).rows[0]!.n);
  };
}

describe('VouchedReads on SQLite', () => {
  it('reads again only after a commit, by this handle or another one', async () => {
    const reads = new VouchedReads<number>(10);
    const runs = { n: 0 };
    const read = () => reads.read(storage.db, 'k', counterRead(storage.db, runs));
    expect([await read(), await read(), await read()]).toEqual([1, 1, 1]);
    expect(runs.n).toBe(1);

    await sql`UPDATE counters SET n = 2`.execute(other.db);
    expect([await read(), await read()]).toEqual([2, 2]);
    expect(runs.n).toBe(2);

    // Any commit, of any table, makes the next call read again: the watch knows no tables.
    await sql`CREATE TABLE unrelated (x INTEGER)`.execute(storage.db);
    expect(await read()).toBe(2);
    expect(runs.n).toBe(3);
  });

  it('keeps answers per key, and reads every time inside a transaction', async () => {
    const reads = new VouchedReads<number>(10);
    const runs = { n: 0 };
    await reads.read(storage.db, 'a', counterRead(storage.db, runs));
    await reads.read(storage.db, 'b', counterRead(storage.db, runs));
    await reads.read(storage.db, 'a', counterRead(storage.db, runs));
    expect(runs.n).toBe(2);
    await inTransaction(storage.db, async (trx) => {
      await sql`UPDATE counters SET n = 3`.execute(trx);
      // The transaction sees its own uncommitted write: never an answer kept outside it.
      expect(await reads.read(trx, 'a', counterRead(trx, runs))).toBe(3);
      expect(await reads.read(trx, 'a', counterRead(trx, runs))).toBe(3);
    });
    expect(runs.n).toBe(4);
    expect(await reads.read(storage.db, 'a', counterRead(storage.db, runs))).toBe(3);
  });
});
