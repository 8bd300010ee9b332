import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/storage/transaction.js';
import { sqliteFiles } from './sqlite-files.js';

/**
 * Two handles on one SQLite file stand for two processes (`--workers 2`): a transaction that read,
 * then lost its snapshot to the other's commit, runs again instead of failing with SQLITE_BUSY.
 */
const sqliteOnly = !process.env.DATABASE_URL;
const files = sqliteFiles('vitrine-stale-snapshot-');
/** Two handles on one file: two processes. */
const twoProcesses = async (file: string) => [await files.open(file), await files.open(file)] as const;

describe.runIf(sqliteOnly)('a SQLite transaction another process committed under', () => {
  it('runs again with a fresh snapshot, holding the write lock from its begin', async () => {
    const [a, b] = await twoProcesses('stale.sqlite');
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

    // The second run holds the write lock from its begin: the other process's write now waits for it
    // (here it gives up after a short busy timeout, since both handles share this one thread).
    await sql`pragma busy_timeout = 50`.execute(b.db);
    let tries = 0;
    const other: string[] = [];
    await inTransaction(a.db, async (trx) => {
      tries++;
      await sql`select n from counter`.execute(trx);
      try {
        await sql`update counter set n = n + 1`.execute(b.db);
        other.push('written');
      } catch (error) {
        other.push((error as { code?: string }).code ?? String(error));
      }
      await sql`update counter set n = 0`.execute(trx);
    });
    expect(tries).toBe(2);
    expect(other).toEqual(['written', 'SQLITE_BUSY']);
    expect((await sql<{ n: number }>`select n from counter`.execute(b.db)).rows).toEqual([{ n: 0 }]);
  });

  it('a transaction that read, then found the other process writing (busy at once, no waiting), runs again holding the lock', async () => {
    const [a, b] = await twoProcesses('busy.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);

    let runs = 0;
    const refused: { code?: string; ms: number }[] = [];
    const seen = await inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      if (runs === 1) {
        await sql`begin immediate`.execute(b.db); // the other process is mid-write
        await sql`update counter set n = n + 10`.execute(b.db);
        const started = performance.now();
        try {
          await sql`update counter set n = n + 1`.execute(trx);
        } catch (error) {
          refused.push({ code: (error as { code?: string }).code, ms: performance.now() - started });
          await sql`commit`.execute(b.db); // ... and finishes before the run again
          throw error;
        }
      }
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
      return rows[0]!.n;
    });
    expect(runs).toBe(2);
    expect(refused.map((r) => r.code)).toEqual(['SQLITE_BUSY']);
    expect(refused[0]!.ms).toBeLessThan(1000); // not the 5 s busy timeout: SQLite does not wait here
    expect(seen).toBe(10);
    expect((await sql<{ n: number }>`select n from counter`.execute(b.db)).rows).toEqual([{ n: 11 }]);
  });

  it('a run again waits for the lock without blocking the thread: another handle of this process finishes its write meanwhile', async () => {
    const [a, b] = await twoProcesses('wait.sqlite');
    await sql`create table counter (name text primary key, n integer not null)`.execute(a.db);
    await sql`insert into counter values ('hits', 0)`.execute(a.db);

    // b holds the write lock across awaits, as a request of this same process would.
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
    const started = performance.now();
    const aDone = inTransaction(a.db, async (trx) => {
      runs++;
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
      return rows[0]!.n;
    });
    // a's first write is refused (b writes); its begin immediate then finds the lock taken and pauses
    // instead of blocking this thread, so b can go on and commit.
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseB();
    await bDone;
    expect(await aDone).toBe(10);
    expect(performance.now() - started).toBeLessThan(2_000); // not the 5 s busy timeout
    expect(runs).toBeGreaterThanOrEqual(2);
    expect((await sql<{ n: number }>`select n from counter`.execute(b.db)).rows).toEqual([{ n: 11 }]);
  });
});
