import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openStorage, SQLITE_CACHE_MB_DEFAULT, type Storage } from '../src/storage/database.js';

/** SQLite's page cache size comes from SQLITE_CACHE_MB, else our default (not SQLite's 2 MiB). */
const sqliteOnly = !process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-sqlite-cache-'));
const opened: Storage[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function cacheKib(sqliteCacheMb: number | undefined): Promise<number> {
  const storage = await openStorage({ dataDir, sqliteFile: `${opened.length}.sqlite`, statementTimeoutMs: 10_000, sqliteCacheMb });
  opened.push(storage);
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(storage.db);
  return -rows[0]!.cache_size; // negative: KiB
}

describe.runIf(sqliteOnly)('SQLite page cache', () => {
  it('is SQLITE_CACHE_MB MiB, or the default when unset', async () => {
    expect(loadConfig({ SQLITE_CACHE_MB: '48' }).sqliteCacheMb).toBe(48);
    expect(loadConfig({}).sqliteCacheMb).toBeUndefined();
    expect(await cacheKib(loadConfig({ SQLITE_CACHE_MB: '48' }).sqliteCacheMb)).toBe(48 * 1024);
    expect(await cacheKib(undefined)).toBe(SQLITE_CACHE_MB_DEFAULT * 1024);
    expect(SQLITE_CACHE_MB_DEFAULT).toBe(16);
  });
});
