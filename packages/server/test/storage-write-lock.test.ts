import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/database.js';
import { SQLITE_LOCK_WAIT_MS } from '../src/storage/sqlite-lock-wait.js';
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

    let runs = 0;
    const events: string[] = [];
    let otherWrite: Promise<unknown> | undefined;
    const seen = await inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      // The other process's write waits for the lock (off the thread: this timer still fires).
      otherWrite = sql`update counter set n = n + 100`.execute(b.db).then(() => events.push('other wrote'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push('timer');
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
      events.push('committing');
      return rows[0]!.n;
    });
    await otherWrite;
    expect(runs).toBe(1);
    expect(seen).toBe(0);
    expect(events).toEqual(['timer', 'committing', 'other wrote']);
    expect(await counterOf(a.db)).toEqual([{ n: 101 }]);
  });

  it('a begin that finds another process writing waits for the lock without blocking the thread, then runs once', async () => {
    const [a, b] = await twoProcesses('waits.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);

    // b holds the write lock across awaits, as a request of another process would.
    const { release: releaseB, done } = holdLock(b.db, sql`update counter set n = n + 10`);
    await done.holding;

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
    await done.committed;
    expect(await aDone).toBe(10);
    expect(events).toEqual(['timer', 'a committed']);
    expect(runs).toBe(1); // refused at its begin: it never ran on what b was changing
    expect(performance.now() - started).toBeLessThan(2_000); // not SQLite's 5 s busy timeout
    expect(await counterOf(b.db)).toEqual([{ n: 11 }]);
  });
  it('a statement outside any transaction (an autocommit write) waits for the lock the same way', async () => {
    const [a, b] = await twoProcesses('autocommit.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);
    const { release, done } = holdLock(b.db, sql`update counter set n = n + 10`);
    await done.holding;

    const events: string[] = [];
    const write = sql`update counter set n = n * 2`.execute(a.db).then(() => events.push('a wrote'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.push('timer');
    release();
    await done.committed;
    await write;
    expect(events).toEqual(['timer', 'a wrote']);
    expect(await counterOf(a.db)).toEqual([{ n: 20 }]); // after the other's commit, on what it wrote
  });

  it(`a statement waits for the lock at most SQLITE_LOCK_WAIT_MS (${SQLITE_LOCK_WAIT_MS} ms), then fails with SQLITE_BUSY and writes nothing`, async () => {
    const [a, b] = await twoProcesses('bound.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);
    const { release, done } = holdLock(b.db, sql`update counter set n = n + 10`);
    await done.holding;

    const started = performance.now();
    const failure = await sql`update counter set n = n + 1`.execute(a.db).then(() => 'written', (error: { code?: string }) => error.code);
    const waited = performance.now() - started;
    release();
    await done.committed;
    expect(failure).toBe('SQLITE_BUSY');
    expect(waited).toBeGreaterThanOrEqual(SQLITE_LOCK_WAIT_MS - 1);
    expect(await counterOf(a.db)).toEqual([{ n: 10 }]);
  }, SQLITE_LOCK_WAIT_MS + 10_000);
});

/** `statement` run in a transaction of `db` that keeps the write lock until `release()`. */
function holdLock(db: Storage['db'], statement: { execute(db: Storage['db']): Promise<unknown> }) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let holding!: () => void;
  const holds = new Promise<void>((resolve) => { holding = resolve; });
  const committed = inTransaction(db, async (trx) => {
    await statement.execute(trx);
    holding();
    await released;
  });
  return { release, done: { holding: holds, committed } };
}
