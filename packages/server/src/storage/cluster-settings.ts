import { sql } from 'kysely';
import type { Storage } from './database.js';

/**
 * Settings of the PostgreSQL cluster that the server's query plans depend on but cannot change itself,
 * as warnings for the operator at start. None on SQLite: the server keeps SQLite's statistics itself
 * (`PRAGMA optimize`, storage/database.ts).
 *
 * Without autovacuum nothing refreshes the planner's statistics: a table that grew from empty keeps
 * the plan of an empty table. Measured on a data collection of 10,000 items: an indexed equality
 * query walked every item (7.6 ms) until an ANALYZE made it use its index (0.08 ms).
 */
export async function clusterSettingWarnings(storage: Storage): Promise<string[]> {
  if (storage.dialect !== 'postgres') return [];
  const { rows } = await sql<{ autovacuum: string }>`SELECT current_setting('autovacuum') AS autovacuum`.execute(storage.db);
  if (rows[0]?.autovacuum === 'on') return [];
  return ['PostgreSQL runs without autovacuum: planner statistics go stale as tables grow and queries fall back to full scans. '
    + 'Turn autovacuum on, or run ANALYZE after large imports and regularly (docs/deploy.md).'];
}
