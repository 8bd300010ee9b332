import { type Kysely, PostgresAdapter, sql, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName { // eslint-disable-line @typescript-eslint/no-explicit-any -- works on any schema
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column type for a JSON document. */
export function jsonType(dialect: DialectName): 'jsonb' | 'text' {
  return dialect === 'postgres' ? 'jsonb' : 'text';
}

/** Column type for floating point numbers. */
export function floatType(dialect: DialectName): 'double precision' | 'real' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/** A JSON value as the driver wants it bound: PostgreSQL infers jsonb from text, SQLite stores the text. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/** A JSON column as read back: PostgreSQL's driver parses jsonb already, SQLite gives text. */
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** Case-insensitive LIKE with escaped metacharacters; `pattern` is built by the caller from escaped parts. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** `expr LIKE pattern ESCAPE '\'`, case-insensitive on both dialects. */
export function ilike(dialect: DialectName, expr: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
  return dialect === 'postgres'
    ? sql<boolean>`${expr} ILIKE ${pattern} ESCAPE '\\'`
    : sql<boolean>`${expr} LIKE ${pattern} ESCAPE '\\'`;
}
