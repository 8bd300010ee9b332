import { sql } from 'kysely';
import type { Db } from '../../src/storage/database.js';

/**
 * Per-table counts of changed rows, kept by triggers the fuzzer installs on every table of its own
 * test database: one cheap read after each request tells whether a refused request changed any row
 * (a checksum of every table after each of 10,000 requests would take far longer). The triggers run
 * inside the request's transaction, so a rolled-back change is not counted.
 */
export const COUNTER_TABLE = 'fuzz_row_changes';

async function tablesOf(db: Db, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  if (dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'`.execute(db);
    const virtual = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'`.execute(db);
    // fts5 keeps its data in shadow tables named after the virtual table; those take no triggers.
    const shadows = virtual.rows.map((v) => `${v.name}_`);
    return rows.rows.map((r) => r.name).filter((n) => n !== COUNTER_TABLE && !shadows.some((s) => n.startsWith(s)));
  }
  const rows = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  return rows.rows.map((r) => r.name).filter((n) => n !== COUNTER_TABLE);
}

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

export async function installChangeCounters(db: Db, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const tables = await tablesOf(db, dialect);
  await sql`CREATE TABLE ${sql.table(COUNTER_TABLE)} (name text PRIMARY KEY, n integer NOT NULL)`.execute(db);
  if (dialect === 'postgres') {
    await sql.raw(`CREATE FUNCTION fuzz_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE ${COUNTER_TABLE} SET n = n + 1 WHERE name = TG_TABLE_NAME; RETURN NULL; END $$`).execute(db);
  }
  for (const table of tables) {
    if (!SAFE_NAME.test(table)) throw new Error(`unexpected table name ${table}`);
    await sql`INSERT INTO ${sql.table(COUNTER_TABLE)} (name, n) VALUES (${table}, 0)`.execute(db);
    if (dialect === 'postgres') {
      await sql.raw(`CREATE TRIGGER fuzz_count_${table} AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION fuzz_count_change()`).execute(db);
    } else {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        await sql.raw(`CREATE TRIGGER fuzz_count_${table}_${op.toLowerCase()} AFTER ${op} ON "${table}" BEGIN UPDATE ${COUNTER_TABLE} SET n = n + 1 WHERE name = '${table}'; END`).execute(db);
      }
    }
  }
  return tables;
}

/** Rows changed per table so far. */
export async function readChangeCounters(db: Db): Promise<Map<string, number>> {
  const rows = await sql<{ name: string; n: number }>`SELECT name, n FROM ${sql.table(COUNTER_TABLE)} WHERE n > 0`.execute(db);
  return new Map(rows.rows.map((r) => [r.name, Number(r.n)]));
}

/** Tables whose counts differ between two readings. */
export function changedTables(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([name, n]) => (before.get(name) ?? 0) !== n).map(([name]) => name).sort();
}
