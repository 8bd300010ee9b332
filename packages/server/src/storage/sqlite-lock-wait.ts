import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDialectConfig, type TransactionSettings } from 'kysely';
import { isSqliteBusy } from './errors.js';

/** How long a SQLite statement waits for another process's write lock, in all, before failing with SQLITE_BUSY (503, retryable). */
export const SQLITE_LOCK_WAIT_MS = 5_000;
/** Longest pause before asking again for a write lock another process holds (pauses double from 2 ms, jittered). */
export const LOCK_RETRY_MAX_PAUSE_MS = 25;

/**
 * Kysely's SQLite driver, with every wait for another process's write lock taken off the thread.
 *
 * The handle runs with `busy_timeout = 0`: a statement that needs the write lock while another
 * process (`vitrine start --workers N`, a CLI import) holds it fails with SQLITE_BUSY at once. Left
 * to SQLite, it would wait in SQLite's busy handler, which sleeps on this process's only thread, so
 * every other request of the process waited too: under a checkout load on two workers, a job's
 * one-statement write slept 28-42 ms on average, and the visitor token issue, which writes its
 * refresh token outside any transaction, answered 2,000-2,100/s on two workers (2,650-2,800/s now).
 * Here such a statement (an autocommit write, or a transaction's
 * `BEGIN IMMEDIATE`: database.ts) hands the connection back, pauses, takes the connection again and
 * runs again, until SQLITE_LOCK_WAIT_MS have passed; meanwhile the process answers other requests.
 * Inside a transaction nothing can be refused the lock (the transaction holds it from its begin), so
 * a busy error there is not retried.
 */
export class LockWaitingSqliteDriver implements Driver {
  readonly #inner: Driver;
  readonly #inTransaction: () => boolean;
  #connection: DatabaseConnection | undefined;

  /** `inner`: Kysely's SqliteDriver (one connection behind a mutex); `inTransaction`: whether the handle has a transaction open. */
  constructor(inner: Driver, inTransaction: () => boolean) {
    this.#inner = inner;
    this.#inTransaction = inTransaction;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    this.#connection ??= this.#waiting(connection);
    return this.#connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.#inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) => this.#inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.#inner.releaseSavepoint!(connection, name, compile);

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }

  #waiting(inner: DatabaseConnection): DatabaseConnection {
    const executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      // Kysely's SQLite connection runs the statement synchronously and throws synchronously: the
      // statement that gets the lock (every one, in a process alone) costs no promise of ours.
      try {
        return inner.executeQuery<R>(query);
      } catch (error) {
        if (!this.#mayWait(error)) throw error;
        return this.#runWhenLockFree(inner, query, performance.now() + SQLITE_LOCK_WAIT_MS);
      }
    };
    return { executeQuery, streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize) };
  }

  /** A busy error outside a transaction: the statement ran alone, so the connection can serve others while it waits. */
  #mayWait(error: unknown): boolean {
    return isSqliteBusy(error) && !this.#inTransaction();
  }

  async #runWhenLockFree<R>(inner: DatabaseConnection, query: CompiledQuery, deadline: number): Promise<QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      await this.#inner.releaseConnection(inner);
      try {
        await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_RETRY_MAX_PAUSE_MS, 2 ** attempt) * (0.5 + Math.random() / 2)));
      } finally {
        await this.#inner.acquireConnection();
      }
      try {
        return await inner.executeQuery<R>(query);
      } catch (error) {
        if (!this.#mayWait(error) || performance.now() >= deadline) throw error;
      }
    }
  }
}

/** Kysely's SQLite dialect on a LockWaitingSqliteDriver. */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #inTransaction: () => boolean;

  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#inTransaction = inTransaction;
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(super.createDriver(), this.#inTransaction);
  }
}
