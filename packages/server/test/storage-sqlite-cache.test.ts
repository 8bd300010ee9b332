import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { SQLITE_CACHE_MB_DEFAULT } from '../src/storage/database.js';
import { sqliteFiles } from './sqlite-files.js';

/** SQLite's page cache size comes from SQLITE_CACHE_MB, else our default (not SQLite's 2 MiB). */
const sqliteOnly = !process.env.DATABASE_URL;
const files = sqliteFiles('vitrine-sqlite-cache-');

async function cacheKib(sqliteCacheMb: number | undefined): Promise<number> {
  const storage = await files.fresh({ sqliteCacheMb });
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
