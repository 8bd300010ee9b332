import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CommitWatch } from './commit-watch.js';
import { Kysely, sql, type QueryResult, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { LruMap } from '../lru-map.js';
import { foldCase, SQLITE_FOLD_FUNCTION, type DialectName } from './dialect.js';
import { countStatement, noteQuery } from './query-counter.js';
import { OwnSchemaPostgresDialect } from './own-schema-dialect.js';
import { createReadRouting, RoutingPostgresDialect, type ReadRouting } from './read-routing.js';
import { isSqliteBusy, STATEMENT_TIMEOUT_CODE } from './errors.js';
import { LockWaitingSqliteDialect, SQLITE_LOCK_WAIT_MS } from './sqlite-lock-wait.js';
import { startWalCheckpointer, WAL_BACKSTOP_PAGES } from './wal-checkpointer.js';
import { nameStatementsOn } from './named-statements.js';

export type Db = Kysely<Database>;
/** What services run their SQL on: the database, or the transaction they were handed. */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface Storage {
  db: Db;
  dialect: DialectName;
  /** Present when reads may go to a streaming replica (DATABASE_READ_URL; read-routing.ts). */
  reads?: ReadRouting;
  close(): Promise<void>;
}

export interface StorageOptions {
  databaseUrl?: string | undefined;
  /** A streaming replica of databaseUrl for plain reads (PostgreSQL only). */
  readUrl?: string | undefined;
  /** PostgreSQL schema; created when missing. */
  schema?: string | undefined;
  dataDir: string;
  statementTimeoutMs: number;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
  /** SQLite page cache of this process, in MiB (SQLITE_CACHE_MB_DEFAULT when absent). */
  sqliteCacheMb?: number | undefined;
  /** Report every statement to query-counter.ts (query budgets in tests); off by default. */
  countQueries?: boolean | undefined;
  /** PostgreSQL: the hot statements as named prepared statements (named-statements.ts); on unless false. */
  namedStatements?: boolean | undefined;
}

// COUNT(*) and BIGINT come back from pg as strings; every count we read fits in a double.
pg.types.setTypeParser(20, (v) => Number(v));
// NUMERIC likewise: we keep amounts as doubles in SQL and format them at the edge.
pg.types.setTypeParser(1700, (v) => Number(v));

/** Connections per pool, per process (the replica gets a pool of its own of the same size). */
export const POSTGRES_POOL_SIZE = 10;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The Kysely `log` hook when statements are counted; nothing otherwise (no per-statement cost). */
function counting(options: StorageOptions): { log?: typeof noteQuery } {
  return options.countQueries ? { log: noteQuery } : {};
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.readUrl && !options.databaseUrl) throw new Error('DATABASE_READ_URL needs DATABASE_URL: a read replica is a PostgreSQL feature');
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
  // Only while opening: from then on SQLite never waits for a lock on this thread (see below).
  handle.pragma(`busy_timeout = ${SQLITE_LOCK_WAIT_MS}`);
  handle.pragma(`cache_size = -${Math.round((options.sqliteCacheMb ?? SQLITE_CACHE_MB_DEFAULT) * 1024)}`); // negative: KiB
  // Checkpoints run on a thread of their own (wal-checkpointer.ts); this connection's only past the backstop.
  handle.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
  const stopCheckpointer = startWalCheckpointer(file);
  // Unicode case folding for ilike (dialect.ts); deterministic so SQLite may use it in indexes and factor it.
  const bound = new StatementBound(options.statementTimeoutMs);
  handle.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (value: unknown) => {
    bound.check();
    return typeof value === 'string' ? foldCase(value) : value;
  });
  // A statement that finds another process's write lock fails at once; the driver waits for the lock
  // off the thread and runs it again (sqlite-lock-wait.ts). Readers never wait for it (WAL).
  handle.pragma('busy_timeout = 0');
  const stopOptimizing = keepPlannerStatistics(handle);
  const statements = withStatementCache(handle, bound);
  const dialect = new LockWaitingSqliteDialect({ database: statements }, () => handle.inTransaction);
  const db = new Kysely<Database>({ dialect, ...counting(options) });
  directRunners.set(db, (text, parameters) => {
    // An open transaction holds the one connection: a statement now would run inside it (a read would see its uncommitted rows).
    if (handle.inTransaction) return undefined;
    const stmt = statements.prepare(text);
    let busy = false;
    try {
      if (stmt.reader) return { rows: stmt.all(parameters) };
      const { changes, lastInsertRowid } = stmt.run(parameters);
      return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
    } catch (error) {
      // Another process holds the write lock: not run; Kysely's driver waits for the lock off the thread (sqlite-lock-wait.ts).
      busy = isSqliteBusy(error);
      if (busy) return undefined;
      throw error;
    } finally {
      if (options.countQueries && !busy) countStatement(text, parameters);
    }
  });
  // After the first statements: the `-shm` file exists once a connection reads in WAL mode.
  const watch = CommitWatch.open(file);
  if (watch) commitWatches.set(db, watch);
  return {
    db, dialect: 'sqlite',
    close: async () => {
      stopOptimizing();
      await stopCheckpointer();
      await db.destroy();
      watch?.close();
    },
  };
}

/**
 * The commit watch of a root SQLite handle (storage/commit-watch.ts), or undefined: PostgreSQL, a
 * transaction's executor (which may see its own uncommitted writes), a `-shm` that could not be read.
 */
export function commitWatchOf(db: Executor): CommitWatch | undefined {
  return commitWatches.get(db);
}
const commitWatches = new WeakMap<Executor, CommitWatch>();

/**
 * Runs a statement at once on the root SQLite handle, or answers undefined (a PostgreSQL handle, a
 * transaction's executor, a transaction open on the connection, a write that found another process
 * holding the write lock: Kysely's driver waits for that one). better-sqlite3 runs every statement
 * synchronously anyway; going through Kysely adds its connection lock and a chain of promises per
 * statement, which under load cost more than the statement itself for a product get
 * (docs/performance-log.md, "The direct lane, and reads outside Kysely"), and about a tenth of the
 * allocations of an add-to-cart (its one statement is an update). Used by preparedQuery (prepared.ts).
 */
export function runDirectly(db: Executor, sqlText: string, parameters: readonly unknown[]): QueryResult<unknown> | undefined {
  return directRunners.get(db)?.(sqlText, parameters);
}
const directRunners = new WeakMap<Executor, (sqlText: string, parameters: readonly unknown[]) => QueryResult<unknown> | undefined>();

/**
 * SQLite's page cache per process, in MiB (SQLite's own default is 2). A search at 10,000 products
 * joins about 1,700 matches to product rows spread over the whole table: with 2 MiB most pages came
 * from the OS through a read call each. 16 MiB: 46 -> 64 searches/s; 8 MiB was no better than 2 (the
 * pages still did not fit); 32 MiB no better than 16. Costs at most this much memory per process.
 */
export const SQLITE_CACHE_MB_DEFAULT = 16;

/** Rows ANALYZE samples per index when `PRAGMA optimize` refreshes statistics (bounds its time on big tables). */
export const SQLITE_ANALYSIS_LIMIT = 1000;
/** How often a running process lets SQLite refresh statistics of tables that grew or shrank a lot. */
export const SQLITE_OPTIMIZE_INTERVAL_MS = 15 * 60_000;

/**
 * Keeps SQLite's planner statistics current, as SQLite advises for long-lived connections: on open
 * and then periodically. Without statistics the planner takes `site_id = ?` to match about ten rows,
 * so `site_id = ? AND id IN (8 ids)` walked every product of the site instead of 8 primary-key
 * lookups (19 ms per call at 10,000 products). `optimize` analyzes only tables whose size changed a
 * lot since their last analysis, so it costs nothing on a steady database.
 */
function keepPlannerStatistics(handle: SQLite.Database): () => void {
  handle.pragma(`analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`);
  const optimize = (mask: string) => {
    // Without waiting (the handle's busy timeout is 0): another process's writes may hold the write
    // lock back to back for a while (a batch job), and a wait would stop this thread meanwhile.
    try {
      handle.pragma(`optimize = ${mask}`);
    } catch {
      // Another process holds the write lock; the next round will do it.
    }
  };
  optimize('0x10002'); // 0x10000: every table, not only those this connection has used yet.
  const timer = setInterval(() => optimize('0xfffe'), SQLITE_OPTIMIZE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Prepared statements kept per SQL text (least recently used dropped beyond this many). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; compiling SQL is a measurable share of a catalog page (see
 * docs/catalog.md, bench). Statements only run synchronously here (`all`/`run`, no streaming), so one
 * statement object can serve every query with the same text; SQLite re-prepares it by itself after a
 * schema change.
 */
function withStatementCache(handle: SQLite.Database, bound: StatementBound): { prepare(sql: string): BoundedStatement; close(): void } {
  const cache = new LruMap<string, SQLite.Statement>(SQLITE_STATEMENT_CACHE_SIZE);
  /**
   * Every transaction asks for the write lock at its begin (`BEGIN IMMEDIATE`), not at its first write:
   * when another process holds it, the begin fails at once and the driver tries again after a pause,
   * while this process's other requests go on (sqlite-lock-wait.ts). Begun with a plain `begin`, a
   * transaction's first write waited for the lock, and one that had read first failed at its first
   * write whenever the other process had committed meanwhile (stale snapshot) and ran again whole.
   * Holding the lock from the begin, nothing can commit under a transaction. One process alone never
   * finds the lock taken (the checkpoint thread does not take it).
   */
  const beginHoldingLock = bound.wrap(handle.prepare('begin immediate'));
  return {
    // Kysely opens every transaction with a plain `begin`: see beginHoldingLock.
    prepare: (text: string) => (text === 'begin' ? beginHoldingLock : bound.wrap(prepareCached(text))),
    close: () => handle.close(),
  };
  function prepareCached(text: string): SQLite.Statement {
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = handle.prepare(withUnreadLimit(text));
      cache.set(text, stmt);
    }
    return stmt;
  }
}

/**
 * With the statistics the server keeps (sqlite_stat1 under an analysis limit, or none yet), SQLite's
 * planner reads the value bound to a bare `LIMIT ?` and, to keep the plan right for the next value,
 * marks the statement to be compiled again whenever that parameter is bound: every run of a cached
 * statement with `LIMIT ?` parsed and planned it anew (the member page query 24 -> 18 us, a primary-key
 * read with `LIMIT ?` 5.0 -> 1.5 us, in a loop on SQLite 3.53; bench/statement-limit.ts). `LIMIT (? + 0)`
 * is the same limit as an expression the planner does not look into, so the statement stays compiled.
 */
export function withUnreadLimit(text: string): string {
  return text.replace(/\blimit\s+\?/gi, 'limit (? + 0)');
}

/** Rows a reading statement returns between two looks at the clock. */
export const SQLITE_ROWS_PER_DEADLINE_CHECK = 256;

/** What Kysely's SQLite driver calls on a prepared statement. */
interface BoundedStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A time bound on SQLite statements, as PostgreSQL has statement_timeout. better-sqlite3 offers no
 * progress handler or interrupt, and runs each statement synchronously, so the clock is read where
 * control comes back to JavaScript: between result rows (readers step row by row instead of `all()`)
 * and inside our SQL function (case folding, called once per row a text filter looks at). A statement
 * past its bound stops with a STATEMENT_TIMEOUT_CODE error (a 503 at the HTTP layer). What it cannot
 * stop: one step that does all its work inside SQLite (a sort or aggregate over a huge scan without a
 * text filter); the request bounds (page size, filter depth, string length) keep those small.
 */
class StatementBound {
  private deadline = 0;
  constructor(private readonly timeoutMs: number) {}

  check(): void {
    if (this.deadline !== 0 && performance.now() > this.deadline) {
      throw Object.assign(new Error(`SQLite statement ran longer than ${this.timeoutMs} ms`), { code: STATEMENT_TIMEOUT_CODE });
    }
  }

  wrap(stmt: SQLite.Statement): BoundedStatement {
    return {
      reader: stmt.reader,
      all: (parameters) => this.timed(() => {
        const rows: unknown[] = [];
        for (const row of stmt.iterate(...parameters)) {
          rows.push(row);
          if (rows.length % SQLITE_ROWS_PER_DEADLINE_CHECK === 0) this.check();
        }
        return rows;
      }),
      run: (parameters) => this.timed(() => stmt.run(...parameters)),
      iterate: (parameters) => stmt.iterate(...parameters),
    };
  }

  private timed<T>(fn: () => T): T {
    // Statements run one at a time on this thread; a nested one (none today) keeps the outer deadline.
    const outer = this.deadline;
    if (outer === 0) this.deadline = performance.now() + this.timeoutMs;
    try {
      return fn();
    } finally {
      this.deadline = outer;
    }
  }
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
  const poolOf = (connectionString: string) => {
    const made = new pg.Pool({
      connectionString,
      max: POSTGRES_POOL_SIZE,
      options: `-c statement_timeout=${options.statementTimeoutMs}${searchPath}`,
    });
    // A connection the server drops (restart, failover, replica stopped) reports an 'error' event: on
    // the pool while idle, on the client while checked out (a transaction between statements). Without
    // listeners Node would end the process. The statement in flight fails (a 503, http/app.ts); the
    // pool discards a broken client when it comes back and connects anew on demand.
    made.on('error', () => undefined);
    made.on('connect', (client) => {
      client.on('error', () => undefined);
      if (options.namedStatements !== false) nameStatementsOn(client);
    });
    return made;
  };
  const pool = poolOf(url);
  const replica = options.readUrl ? poolOf(options.readUrl) : undefined;
  const dialect = replica ? new RoutingPostgresDialect({ primary: pool, replica }) : new OwnSchemaPostgresDialect({ pool });
  const db = new Kysely<Database>({ dialect, ...counting(options) });
  await sql`select 1`.execute(db);
  if (replica) await replica.query('select 1');
  return { db, dialect: 'postgres', ...(replica ? { reads: createReadRouting(pool, replica) } : {}), close: () => db.destroy() };
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

/** Runs one request under the read routing of `storage` (nothing to route without a replica). */
export function routeReads<T>(storage: Storage, token: string | undefined, fn: () => Promise<T>): Promise<T> {
  return storage.reads ? storage.reads.run(token, fn) : fn();
}

/**
 * The `X-Wix-Consistent` value for the end of a request: with a replica, the primary's WAL position
 * when the request wrote (clients echo it; read-routing.ts); without one, a timestamp on every
 * non-GET answer as before (single database: every read is consistent anyway).
 */
export async function consistencyToken(storage: Storage, writeMethod: boolean): Promise<string | undefined> {
  if (storage.reads) return storage.reads.tokenAfterWrites();
  return writeMethod ? String(Date.now()) : undefined;
}
