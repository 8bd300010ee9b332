import { type Kysely, PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Database } from './schema.js';

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

/**
 * Case folding as PostgreSQL's lower() does it under our UTF-8 ctype (C.UTF-8 / any libc UTF-8
 * locale): each code point to its simple lowercase, one for one. JS toLowerCase() is the full,
 * context-sensitive mapping; it differs only for U+0130 'İ' (-> 'i' + U+0307) and a final capital
 * sigma (-> 'ς'), so those two are mapped first. Checked against PostgreSQL 15's lower() over every
 * code point: equal except letters added in Unicode 16 (newer in Node's ICU than in glibc).
 */
export function foldCase(text: string): string {
  return text.replace(FULL_MAPPING_ONLY, (ch) => (ch === '\u0130' ? 'i' : '\u03c3')).toLowerCase();
}
const FULL_MAPPING_ONLY = /[\u0130\u03a3]/g;

/** The SQLite function registered on every handle (database.ts): foldCase on text, NULL stays NULL. */
export const SQLITE_FOLD_FUNCTION = 'vitrine_fold';

/**
 * The only non-ASCII code points whose lowercase is ASCII ('İ' -> 'i', KELVIN SIGN -> 'k'): PostgreSQL
 * ILIKE matches them to an ASCII 'i' / 'k' in a pattern, SQLite's ASCII-only LIKE does not.
 */
const FOLDS_TO_ASCII = { i: '\u0130', k: '\u212a' } as const;
// eslint-disable-next-line no-control-regex -- \x00-\x7f is the ASCII range, not a stray control character
const NON_ASCII = /[^\x00-\x7f]/;

/** The non-ASCII letters that lower to a letter of `asciiLower` (an ASCII text, lower case). */
function foldingToAsciiIn(asciiLower: string): string[] {
  return (Object.keys(FOLDS_TO_ASCII) as (keyof typeof FOLDS_TO_ASCII)[]).filter((c) => asciiLower.includes(c)).map((c) => FOLDS_TO_ASCII[c]);
}

/**
 * `expr LIKE pattern ESCAPE '\'`, case-insensitive, with the same result on both dialects (the
 * pattern is built by the caller from escapeLike'd parts). PostgreSQL: ILIKE (lower() of both sides).
 * SQLite's LIKE folds ASCII only, so:
 *  - a pattern with a non-ASCII character compares vitrine_fold(expr) with the pattern folded here;
 *  - an ASCII pattern keeps the plain LIKE (no JS call per row). Only 'İ' and 'K' fold to ASCII, so
 *    when the pattern holds an 'i' or 'k' a row the plain LIKE misses is folded and retried only if
 *    it contains one of them (instr is C; such rows are rare).
 */
export function ilike(dialect: DialectName, expr: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
  if (dialect === 'postgres') return sql<boolean>`${expr} ILIKE ${pattern} ESCAPE '\\'`;
  const fold = sql.raw(SQLITE_FOLD_FUNCTION);
  if (NON_ASCII.test(pattern)) return sql<boolean>`${fold}(${expr}) LIKE ${foldCase(pattern)} ESCAPE '\\'`;
  const lower = pattern.toLowerCase();
  const specials = foldingToAsciiIn(lower);
  if (specials.length === 0) return sql<boolean>`${expr} LIKE ${pattern} ESCAPE '\\'`;
  const present = sql.join(specials.map((ch) => sql`instr(${expr}, ${ch}) > 0`), sql` OR `);
  return sql<boolean>`(${expr} LIKE ${pattern} ESCAPE '\\' OR ((${present}) AND ${fold}(${expr}) LIKE ${lower} ESCAPE '\\'))`;
}

/**
 * `lower(expr)` as PostgreSQL computes it, for an equality with `against` (already foldCase'd). On
 * SQLite the built-in ASCII-only lower() gives the same answer (without a JS call per row) when
 * `against` is ASCII with no i/k (see ilike); otherwise vitrine_fold.
 */
export function lowerFor(dialect: DialectName, expr: RawBuilder<unknown>, against: string): RawBuilder<string> {
  if (dialect === 'postgres' || (!NON_ASCII.test(against) && foldingToAsciiIn(against).length === 0)) return sql<string>`lower(${expr})`;
  return sql<string>`${sql.raw(SQLITE_FOLD_FUNCTION)}(${expr})`;
}

/** Column types a migration needs, named the same on both databases (see columnTypes in columns.ts). */
export function binaryType(dialect: DialectName): 'bytea' | 'blob' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/**
 * The row-lock suffix of a SELECT inside a transaction. PostgreSQL locks the rows (`skipLocked`: rows
 * another transaction holds are left out; `of`: only that table alias is locked). SQLite has one
 * writer at a time, so it needs no lock and gets an empty suffix.
 */
export function forUpdate(dialect: DialectName, options: { skipLocked?: boolean; of?: string } = {}): RawBuilder<unknown> {
  if (dialect !== 'postgres') return sql``;
  const of = options.of ? sql` OF ${sql.ref(options.of)}` : sql``;
  return options.skipLocked ? sql`FOR UPDATE${of} SKIP LOCKED` : sql`FOR UPDATE${of}`;
}

/**
 * Whether a transaction must lock rows for concurrent changes of them to take turns. Not on SQLite:
 * every transaction there begins holding the database's one write lock (database.ts), so a second
 * change, in this process or another, waits at its begin and then reads what the first committed.
 */
export function needsRowLocks(dialect: DialectName): boolean {
  return dialect === 'postgres';
}

/** Runs `select` with a row lock on PostgreSQL (the rows stay locked until commit); nothing on SQLite. */
export async function lockForUpdate(db: Kysely<Database>, dialect: DialectName, select: RawBuilder<unknown>): Promise<void> {
  if (dialect === 'postgres') await sql`${select} FOR UPDATE`.execute(db);
}

/**
 * `SELECT columns FROM table alias <pageClause>`, where `pageClause` picks a page (WHERE ... ORDER BY
 * `order` LIMIT ... OFFSET ...) and `columns` are costly per row (a jsonb document as text).
 * PostgreSQL computes the select list for every candidate row before a top-N sort, so there the page
 * is chosen first (a materialized CTE) and `columns` computed for its rows only; SQLite computes
 * them for the rows it returns, and copying the page through a temporary table would only add work.
 */
export function selectPage(dialect: DialectName, p: { table: string; alias: string; columns: RawBuilder<unknown>; pageClause: RawBuilder<unknown>; order: RawBuilder<unknown> }): RawBuilder<unknown> {
  const table = sql.table(p.table);
  const alias = sql.ref(p.alias);
  return dialect === 'postgres'
    ? sql`WITH page AS MATERIALIZED (SELECT ${alias}.* FROM ${table} ${alias} ${p.pageClause}) SELECT ${p.columns} FROM page ${alias} ORDER BY ${p.order}`
    : sql`SELECT ${p.columns} FROM ${table} ${alias} ${p.pageClause}`;
}

/** A top-level field of a JSON document column as text (NULL when absent or null). */
export function jsonTextField(dialect: DialectName, column: string, field: string): RawBuilder<string | null> {
  const path = sql.lit(dialect === 'postgres' ? field : `$.${field}`);
  return dialect === 'postgres' ? sql<string | null>`(${sql.ref(column)} ->> ${path})` : sql<string | null>`json_extract(${sql.ref(column)}, ${path})`;
}

/** A JSON document column as text (for a LIKE over the whole document). */
export function jsonAsText(dialect: DialectName, column: RawBuilder<unknown>): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`${column}::text` : column;
}

/** `expr` compared in byte order (PostgreSQL collates text by locale unless told otherwise; SQLite's default is bytes). */
export function byteOrder(dialect: DialectName, expr: RawBuilder<unknown>): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`${expr} COLLATE "C"` : expr;
}

/** `column` in an ORDER BY without letting SQLite pick its index for the walk (unary +); PostgreSQL plans by cost. */
export function notIndexed(dialect: DialectName, column: string): RawBuilder<unknown> {
  return dialect === 'sqlite' ? sql`+${sql.ref(column)}` : sql.ref(column);
}

/**
 * One text column joining `alias.column` over the rows of `from` (a FROM clause naming `alias`), in
 * the column's order, with `separator`. NULL when there are none.
 */
export function orderedStringAgg(dialect: DialectName, q: { alias: string; column: string; from: RawBuilder<unknown>; separator: string }): RawBuilder<string | null> {
  const col = sql.ref(`${q.alias}.${q.column}`);
  return dialect === 'postgres'
    ? sql<string | null>`(SELECT string_agg(${col}, ${q.separator} ORDER BY ${col}) FROM ${q.from})`
    : sql<string | null>`(SELECT group_concat(${sql.ref(q.column)}, ${q.separator}) FROM (SELECT ${col} FROM ${q.from} ORDER BY ${col}))`;
}

/** True when the JSON array at `path` of the document `column` holds an object whose `key` equals `value`. */
export function jsonArrayHasObject(dialect: DialectName, column: string, path: string[], key: string, value: string): RawBuilder<boolean> {
  if (dialect === 'postgres') {
    const at = sql.join(path.map((p) => sql.lit(p)), sql`->`);
    return sql<boolean>`(${sql.ref(column)}->${at} @> ${JSON.stringify([{ [key]: value }])}::jsonb)`;
  }
  return sql<boolean>`EXISTS (SELECT 1 FROM json_each(${sql.ref(column)}, ${sql.lit(`$.${path.join('.')}`)}) j WHERE json_extract(j.value, ${sql.lit(`$.${key}`)}) = ${value})`;
}

/**
 * A fixed state written into the statement's text instead of bound as a parameter, for queries served
 * by a partial index (`... WHERE status = 'QUEUED'`): a planner uses such an index only when the
 * query's text states its condition, and SQLite, given a bound value, would compile the statement
 * again on every run to check it. Only for the code's own constants, never for input.
 */
export function indexedState<T extends string | number>(value: T): RawBuilder<T> {
  return sql.lit(value);
}
