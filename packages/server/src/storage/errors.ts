/** Driver error codes of a unique or primary-key violation: PostgreSQL's SQLSTATE, better-sqlite3's codes. */
const UNIQUE_VIOLATION_CODES: ReadonlySet<unknown> = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/** A unique-constraint violation on either database (usually a lost race; callers map it to a 409). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && UNIQUE_VIOLATION_CODES.has(error.code);
}
