import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/database.js';
import { STATEMENT_TIMEOUT_CODE, isDatabaseUnavailable } from '../../src/storage/errors.js';
import { SQLITE_FOLD_FUNCTION } from '../../src/storage/dialect.js';

/**
 * SQLite's statement time bound (storage/database.ts): a long read stops with the timeout error (a
 * 503 at the HTTP layer), short ones are untouched, and the connection keeps working afterwards.
 */
const BOUND_MS = 100;
const ROWS = 3_000;

let storage: Storage;
let dir = '';
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bound-'));
  storage = await openStorage({ dataDir: dir, statementTimeoutMs: BOUND_MS });
  await sql`CREATE TABLE t (x TEXT)`.execute(storage.db);
  await sql.raw(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) INSERT INTO t SELECT 'Row ' || i FROM n`).execute(storage.db);
});
afterAll(async () => {
  await storage?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function timed(run: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await run();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe.skipIf(process.env.DATABASE_URL)('SQLite statement time bound', () => {
  it('stops a read that returns rows for too long (9 million rows of a cross join)', async () => {
    const { ms, error } = await timed(() => sql`SELECT a.x, b.x FROM t a CROSS JOIN t b`.execute(storage.db));
    expect((error as { code?: string }).code).toBe(STATEMENT_TIMEOUT_CODE);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // Stopped near the bound, not after the whole join (which takes many seconds).
    expect(ms).toBeLessThan(BOUND_MS * 20);
  });

  it('stops a case-insensitive scan that matches nothing (no rows come back, the fold function sees each)', async () => {
    const { error } = await timed(() => sql`SELECT count(*) AS n FROM t a CROSS JOIN t b WHERE ${sql.raw(SQLITE_FOLD_FUNCTION)}(a.x || b.x) = 'nothing'`.execute(storage.db));
    expect((error as { code?: string }).code).toBe(STATEMENT_TIMEOUT_CODE);
  });

  it('leaves short statements alone and the connection usable after a stop', async () => {
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(storage.db);
    expect(rows.rows).toEqual([{ n: ROWS }]);
    const some = await sql<{ x: string }>`SELECT x FROM t ORDER BY rowid LIMIT 2`.execute(storage.db);
    expect(some.rows).toEqual([{ x: 'Row 1' }, { x: 'Row 2' }]);
  });
});
