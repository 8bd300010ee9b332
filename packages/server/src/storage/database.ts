import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { foldCase, SQLITE_FOLD_FUNCTION, type DialectName } from './dialect.js';
import { noteQuery } from './query-counter.js';

export type Db = Kysely<Database>;
/** What services run their SQL on: the database, or the transaction they were handed. */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface Storage {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface StorageOptions {
  databaseUrl?: string | undefined;
  /** PostgreSQL schema; created when missing. */
  schema?: string | undefined;
  dataDir: string;
  statementTimeoutMs: number;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
  /** Report every statement to query-counter.ts (query budgets in tests); off by default. */
  countQueries?: boolean | undefined;
}

// COUNT(*) and BIGINT come back from pg as strings; every count we read fits in a double.
pg.types.setTypeParser(20, (v) => Number(v));
// NUMERIC likewise: we keep amounts as doubles in SQL and format them at the edge.
pg.types.setTypeParser(1700, (v) => Number(v));

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The Kysely `log` hook when statements are counted; nothing otherwise (no per-statement cost). */
function counting(options: StorageOptions): { log?: typeof noteQuery } {
  return options.countQueries ? { log: noteQuery } : {};
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openSqlite(options);
}

function openSqlite(options: StorageOptions): Storage {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, options.sqliteFile ?? 'vitrine.sqlite');
  const handle = new SQLite(file);
  handle.pragma('journal_mode = WAL');
  handle.pragma('synchronous = NORMAL');
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  // Unicode case folding for ilike (dialect.ts); deterministic so SQLite may use it in indexes and factor it.
  handle.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldCase(value) : value));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(handle) }), ...counting(options) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Prepared statements kept per SQL text (least recently used dropped beyond this many). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; compiling SQL is a measurable share of a catalog page (see
 * docs/catalog.md, bench). Statements only run synchronously here (`all`/`run`, no streaming), so one
 * statement object can serve every query with the same text; SQLite re-prepares it by itself after a
 * schema change.
 */
function withStatementCache(handle: SQLite.Database): { prepare(sql: string): SQLite.Statement; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text);
      } else {
        stmt = handle.prepare(text);
        if (cache.size >= SQLITE_STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, stmt);
      return stmt;
    },
    close: () => handle.close(),
  };
}

async function openPostgres(url: string, options: StorageOptions): Promise<Storage> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const searchPath = schema ? ` -c search_path=${schema}` : '';
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c statement_timeout=${options.statementTimeoutMs}${searchPath}`,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...counting(options) });
  await sql`select 1`.execute(db);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Drops a PostgreSQL schema created for a test run. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

/** One round trip to the database (health checks): throws when it cannot answer. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
