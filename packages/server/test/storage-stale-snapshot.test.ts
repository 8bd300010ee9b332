import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../src/storage/database.js';
import { inTransaction, STALE_SNAPSHOT_ATTEMPTS } from '../src/storage/transaction.js';

/**
 * Two handles on one SQLite file stand for two processes (`--workers 2`): a transaction that read,
 * then lost its snapshot to the other's commit, runs again instead of failing with SQLITE_BUSY.
 */
const sqliteOnly = !process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-stale-snapshot-'));
const opened: Storage[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(sqliteOnly)('a SQLite transaction another process committed under', () => {
  it('runs again with a fresh snapshot, and gives up after STALE_SNAPSHOT_ATTEMPTS', async () => {
    const [a, b] = [await openStorage({ dataDir, statementTimeoutMs: 10_000 }), await openStorage({ dataDir, statementTimeoutMs: 10_000 })];
    opened.push(a, b);
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);

    let runs = 0;
    const result = await inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter where name = 'hits'`.execute(trx);
      if (runs === 1) await sql`update counter set n = n + 100 where name = 'hits'`.execute(b.db); // the other process commits
      await sql`update counter set n = ${rows[0]!.n + 1} where name = 'hits'`.execute(trx);
      return rows[0]!.n;
    });
    expect(runs).toBe(2);
    expect(result).toBe(100);
    expect((await sql<{ n: number }>`select n from counter`.execute(b.db)).rows).toEqual([{ n: 101 }]);

    let tries = 0;
    const always = inTransaction(a.db, async (trx) => {
      tries++;
      await sql`select n from counter`.execute(trx);
      await sql`update counter set n = n + 1`.execute(b.db);
      await sql`update counter set n = 0`.execute(trx);
    });
    await expect(always).rejects.toMatchObject({ code: 'SQLITE_BUSY_SNAPSHOT' });
    expect(tries).toBe(STALE_SNAPSHOT_ATTEMPTS);
    expect((await sql<{ n: number }>`select n from counter`.execute(b.db)).rows).toEqual([{ n: 101 + STALE_SNAPSHOT_ATTEMPTS }]);
  });
});
