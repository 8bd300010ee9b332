import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { withUnreadLimit, type Storage } from '../src/storage/database.js';
import { sqliteFiles } from './sqlite-files.js';

/**
 * SQLite statements with `LIMIT ?` run as `LIMIT (? + 0)` (storage/database.ts): the planner would
 * otherwise read the bound limit and compile the statement again on every run. The rewrite must keep
 * every limit's meaning; bench/statement-limit.ts shows the time it saves.
 */
describe('LIMIT parameters on SQLite', () => {
  it('rewrites each bare LIMIT placeholder and nothing else', () => {
    expect(withUnreadLimit('select "id" from "t" where "a" = ? limit ?')).toBe('select "id" from "t" where "a" = ? limit (? + 0)');
    expect(withUnreadLimit('SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?')).toBe('SELECT id FROM t ORDER BY id limit (? + 0) OFFSET ?');
    expect(withUnreadLimit('SELECT COUNT(*) FROM (SELECT 1 FROM t WHERE a = ? LIMIT\n  ?) c')).toBe('SELECT COUNT(*) FROM (SELECT 1 FROM t WHERE a = ? limit (? + 0)) c');
    expect(withUnreadLimit('SELECT id FROM t LIMIT 20 OFFSET ?')).toBe('SELECT id FROM t LIMIT 20 OFFSET ?');
    expect(withUnreadLimit('SELECT sublimit FROM t WHERE sublimit = ?')).toBe('SELECT sublimit FROM t WHERE sublimit = ?');
  });

  describe('through a SQLite storage', () => {
    const files = sqliteFiles('vitrine-limit-');
    let storage: Storage;
    beforeAll(async () => {
      storage = await files.fresh();
      await sql`CREATE TABLE numbers (n integer PRIMARY KEY)`.execute(storage.db);
      await sql`INSERT INTO numbers (n) VALUES (1), (2), (3), (4), (5)`.execute(storage.db);
    });
    const numbers = (rows: { n: number }[]) => rows.map((r) => r.n);

    it('pages with bound limits and offsets exactly, run after run', async () => {
      for (const [limit, offset, expected] of [[2, 0, [1, 2]], [2, 3, [4, 5]], [3, 1, [2, 3, 4]], [2, 0, [1, 2]], [10, 4, [5]], [1, 5, []]] as const) {
        const raw = await sql<{ n: number }>`SELECT n FROM numbers ORDER BY n LIMIT ${limit} OFFSET ${offset}`.execute(storage.db);
        expect(numbers(raw.rows)).toEqual(expected);
        const built = await storage.db.withTables<{ numbers: { n: number } }>().selectFrom('numbers').select('n').orderBy('n').limit(limit).offset(offset).execute();
        expect(numbers(built)).toEqual(expected);
      }
    });

    it('keeps a negative limit meaning no limit, and a capped count counting to its cap', async () => {
      const all = await sql<{ n: number }>`SELECT n FROM numbers ORDER BY n DESC LIMIT ${-1}`.execute(storage.db);
      expect(numbers(all.rows)).toEqual([5, 4, 3, 2, 1]);
      const capped = await sql<{ c: number }>`SELECT COUNT(*) AS c FROM (SELECT 1 FROM numbers WHERE n > ${1} LIMIT ${3}) x`.execute(storage.db);
      expect(capped.rows[0]!.c).toBe(3);
    });
  });
});
