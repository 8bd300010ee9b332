/** The code of the error a SQLite statement gets when it runs past its time bound (database.ts). */
export const STATEMENT_TIMEOUT_CODE = 'VITRINE_STATEMENT_TIMEOUT';

/** Driver error codes of a unique or primary-key violation: PostgreSQL's SQLSTATE, better-sqlite3's codes. */
const UNIQUE_VIOLATION_CODES: ReadonlySet<unknown> = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * SQLite found the write lock taken by another connection. The server's handle does not wait inside
 * SQLite (busy timeout 0): its driver waits and runs the statement again (sqlite-lock-wait.ts), and
 * answers this error once SQLITE_LOCK_WAIT_MS have passed.
 */
export function isSqliteBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_BUSY';
}

/** A unique-constraint violation on either database (usually a lost race; callers map it to a 409). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && UNIQUE_VIOLATION_CODES.has(error.code);
}

/**
 * The database cannot answer right now: it is down, restarting, refusing connections, or a statement
 * ran past its time bound (PostgreSQL's statement_timeout, SQLite's bound in database.ts, a lock held
 * past SQLITE_LOCK_WAIT_MS). Such a request is answered 503 and may be retried; the process keeps
 * running and the pool reconnects by itself once the database is back.
 */
const UNAVAILABLE_CODES: ReadonlySet<unknown> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN',
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash, not yet accepting), 57014 (statement timeout).
  '08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '57014',
  'SQLITE_BUSY', 'SQLITE_INTERRUPT', STATEMENT_TIMEOUT_CODE,
]);
/** What pg throws when a connection breaks without a code of its own. */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|Client was closed/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('code' in error && UNAVAILABLE_CODES.has(error.code)) return true;
  return error instanceof Error && UNAVAILABLE_MESSAGES.test(error.message);
}
