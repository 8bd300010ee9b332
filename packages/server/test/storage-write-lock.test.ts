import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/database.js';
import { inTransaction } from '../src/storage/transaction.js';
import { sqliteFiles } from './sqlite-files.js';

/**
 * Two handles on one SQLite file stand for two processes (`--workers 2`). Every transaction begins
 * holding the database's write lock, and a begin that finds the lock taken waits for it without
 * blocking the thread (storage/database.ts, storage/transaction.ts).
 */
const sqliteOnly = !process.env.DATABASE_URL;
const files = sqliteFiles('vitrine-write-lock-');
/** Two handles on one file: two processes. */
const twoProcesses = async (file: string) => [await files.open(file), await files.open(file)] as const;

const counterOf = async (db: Storage['db']) => (await sql<{ n: number }>`select n from counter`.execute(db)).rows;

describe.runIf(sqliteOnly)('SQLite transactions and the write lock', () => {
  it('a transaction holds the write lock from its begin: another process cannot write under what it read', async () => {
    const [a, b] = await twoProcesses('holds.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);
    // The other process gives up quickly (both handles share this one thread, so it cannot wait here).
    await sql`pragma busy_timeout = 50`.execute(b.db);

    let runs = 0;
    const other: string[] = [];
    const seen = await inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      try {
        await sql`update counter set n = n + 100`.execute(b.db);
        other.push('written');
      } catch (error) {
        other.push((error as { code?: string }).code ?? String(error));
      }
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
      return rows[0]!.n;
    });
    expect(runs).toBe(1);
    expect(other).toEqual(['SQLITE_BUSY']);
    expect(seen).toBe(0);
    expect(await counterOf(b.db)).toEqual([{ n: 1 }]);
    // Once committed, the lock is free again.
    await sql`update counter set n = n + 100`.execute(b.db);
    expect(await counterOf(a.db)).toEqual([{ n: 101 }]);
  });

  it('a begin that finds another process writing waits for the lock without blocking the thread, then runs once', async () => {
    const [a, b] = await twoProcesses('waits.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);

    // b holds the write lock across awaits, as a request of another process would.
    let releaseB!: () => void;
    const bHolds = new Promise<void>((resolve) => { releaseB = resolve; });
    let bWrote!: () => void;
    const bHasLock = new Promise<void>((resolve) => { bWrote = resolve; });
    const bDone = inTransaction(b.db, async (trx) => {
      await sql`update counter set n = n + 10`.execute(trx);
      bWrote();
      await bHolds;
    });
    await bHasLock;

    let runs = 0;
    const events: string[] = [];
    const started = performance.now();
    const aDone = inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
      events.push('a committed');
      return rows[0]!.n;
    });
    // The thread stays free while a waits: a timer fires, and b finishes its transaction.
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.push('timer');
    releaseB();
    await bDone;
    expect(await aDone).toBe(10);
    expect(events).toEqual(['timer', 'a committed']);
    expect(runs).toBe(1); // refused at its begin: it never ran on what b was changing
    expect(performance.now() - started).toBeLessThan(2_000); // not SQLite's 5 s busy timeout
    expect(await counterOf(b.db)).toEqual([{ n: 11 }]);
  });
});
