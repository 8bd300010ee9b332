import { sql, type RawBuilder } from 'kysely';
import type { MigrationDb } from './columns.js';
import type { Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';

/**
 * Full-text indexes on both databases: an FTS5 table on SQLite, a weighted tsvector with a GIN index
 * on PostgreSQL. A domain describes its index once (a FullTextIndex) and writes and searches it with
 * these functions; table and column names come from that description, never from callers' input.
 */
export interface FullTextIndex {
  table: string;
  /** The row's key (primary key on PostgreSQL). */
  key: string;
  /** Plain text columns every search is restricted by (e.g. site id), in this order. */
  scope: readonly string[];
  /** Searched text, in this order: PostgreSQL weight class and SQLite bm25 column weight of each. */
  fields: readonly { name: string; weight: 'A' | 'B' | 'C' | 'D'; bm25: number }[];
}

/** One row: its key, the scope values and the field texts, each in the index's order. */
export interface FullTextRow { key: string; scope: readonly string[]; fields: readonly string[] }

/** PostgreSQL ts_rank weights of classes D, C, B, A. */
const PG_CLASS_WEIGHTS = '{0.1, 0.2, 0.6, 1.0}';
/** A search term is a word of letters and digits (no engine syntax reaches a query). */
const TERM = /^[\p{L}\p{N}]+$/u;

export async function createFullTextIndex(db: MigrationDb, index: FullTextIndex): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    let table = db.schema.createTable(index.table).addColumn(index.key, 'text', (c) => c.primaryKey());
    for (const column of index.scope) table = table.addColumn(column, 'text', (c) => c.notNull());
    await table.addColumn('document', sql`tsvector`, (c) => c.notNull()).execute();
    await sql`CREATE INDEX ${sql.id(`${index.table}_document`)} ON ${sql.table(index.table)} USING GIN (document)`.execute(db);
    await db.schema.createIndex(`${index.table}_${index.scope[0]!.replace(/_id$/, '')}`).on(index.table).columns([...index.scope]).execute();
    return;
  }
  const columns = [index.key, ...index.scope].map((c) => `${c} UNINDEXED`).concat(index.fields.map((f) => f.name)).join(', ');
  await sql`CREATE VIRTUAL TABLE ${sql.table(index.table)} USING fts5(${sql.raw(columns)}, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  await addFullTextKeyMap(db, index);
}

/**
 * SQLite only (a no-op on PostgreSQL, whose key is the primary key): the map from a row's key to its
 * FTS5 rowid, with the row's scope values, `<table>_keys`. FTS5 cannot index an UNINDEXED column, so
 * finding a row by its key scanned the whole index (2.9 ms per product write at 10,000 products,
 * growing with the catalog); and reading a match's key or scope from the FTS5 table loads its stored
 * text, which made a search's join to its table two to three times slower than the match itself.
 * Idempotent, so a migration can add it to an index made before it (rows already there are mapped;
 * a key found twice keeps its first row and the others are dropped).
 */
export async function addFullTextKeyMap(db: MigrationDb, index: FullTextIndex): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  const fts = sql.table(index.table);
  const keys = sql.table(keyMapOf(index));
  const key = sql.ref(index.key);
  const scope = index.scope.map((c) => sql.ref(c));
  const scopeColumns = sql.join(index.scope.map((c) => sql`${sql.ref(c)} TEXT NOT NULL`));
  await sql`CREATE TABLE IF NOT EXISTS ${keys} (row INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, ${scopeColumns})`.execute(db);
  // min(rowid) with bare columns: SQLite takes the scope values from the row holding that minimum.
  await sql`INSERT OR IGNORE INTO ${keys} (row, key, ${sql.join(scope)}) SELECT min(rowid), ${key}, ${sql.join(scope)} FROM ${fts} GROUP BY ${key}`.execute(db);
  await sql`DELETE FROM ${fts} WHERE rowid NOT IN (SELECT row FROM ${keys})`.execute(db);
}

const keyMapOf = (index: FullTextIndex) => `${index.table}_keys`;

/**
 * Inserts rows whose keys are not in the index yet. A key already there is an error, unless
 * `skipExisting`, which leaves that row as it is (replace a row with deleteFullTextRows first).
 */
export async function insertFullTextRows(db: Executor | MigrationDb, index: FullTextIndex, rows: readonly FullTextRow[], options: { skipExisting?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  const head = [index.key, ...index.scope].map((c) => sql.ref(c));
  if (dialectOf(db) === 'postgres') {
    const values = rows.map((r) => {
      const document = sql.join(index.fields.map((f, i) => sql`setweight(to_tsvector('simple', ${r.fields[i] ?? ''}), ${sql.lit(f.weight)})`), sql` || `);
      return sql`(${sql.join([...[r.key, ...r.scope].map((v) => sql`${v}`), document])})`;
    });
    const conflict = options.skipExisting ? sql` ON CONFLICT (${sql.ref(index.key)}) DO NOTHING` : sql``;
    await sql`INSERT INTO ${sql.table(index.table)} (${sql.join([...head, sql.ref('document')])}) VALUES ${sql.join(values)}${conflict}`.execute(db);
    return;
  }
  // SQLite: each key gets its FTS5 rowid from the key map first (unique there, as on PostgreSQL).
  const conflict = options.skipExisting ? sql` ON CONFLICT (key) DO NOTHING` : sql``;
  const mapColumns = sql.join([sql.ref('key'), ...index.scope.map((c) => sql.ref(c))]);
  const mapValues = rows.map((r) => sql`(${sql.join([r.key, ...index.scope.map((_, i) => r.scope[i] ?? '')].map((v) => sql`${v}`))})`);
  const mapped = await sql<{ row: number; key: string }>`INSERT INTO ${sql.table(keyMapOf(index))} (${mapColumns}) VALUES ${sql.join(mapValues)}${conflict} RETURNING row, key`.execute(db);
  const rowOf = new Map(mapped.rows.map((m) => [m.key, m.row]));
  const values = rows.filter((r) => rowOf.has(r.key)).map((r) => sql`(${sql.join([rowOf.get(r.key), r.key, ...r.scope, ...index.fields.map((_, i) => r.fields[i] ?? '')].map((v) => sql`${v}`))})`);
  if (values.length === 0) return;
  await sql`INSERT INTO ${sql.table(index.table)} (rowid, ${sql.join([...head, ...index.fields.map((f) => sql.ref(f.name))])}) VALUES ${sql.join(values)}`.execute(db);
}

/** Removes the rows of these keys (keys without a row are ignored). */
export async function deleteFullTextRows(db: Executor, index: FullTextIndex, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const list = sql.join(keys.map((k) => sql`${k}`));
  if (dialectOf(db) === 'postgres') {
    await sql`DELETE FROM ${sql.table(index.table)} WHERE ${sql.ref(index.key)} IN (${list})`.execute(db);
    return;
  }
  const map = sql.table(keyMapOf(index));
  await sql`DELETE FROM ${sql.table(index.table)} WHERE rowid IN (SELECT row FROM ${map} WHERE key IN (${list}))`.execute(db);
  await sql`DELETE FROM ${map} WHERE key IN (${list})`.execute(db);
}

/** `SELECT <key> AS <keyAs>, <rank> AS rank FROM ... WHERE <scope and every term matches as a prefix>`; rank: higher is better. */
function hitsSelect(dialect: DialectName, index: FullTextIndex, scope: readonly string[], terms: readonly string[], keyAs: string, ranked = true): RawBuilder<unknown> {
  const words = terms.filter((t) => TERM.test(t));
  const table = sql.table(index.table);
  const key = sql`${sql.ref(index.key)} AS ${sql.ref(keyAs)}`;
  const inScope = sql.join(index.scope.map((c, i) => sql`${sql.ref(c)} = ${scope[i] ?? ''}`), sql` AND `);
  if (words.length === 0) return sql`SELECT ${key}, 0 AS rank FROM ${table} WHERE 1 = 0`;
  if (dialect === 'postgres') {
    const query = words.map((t) => `${t}:*`).join(' & ');
    if (!ranked) return sql`SELECT ${key}, 0 AS rank FROM ${table} WHERE ${inScope} AND document @@ to_tsquery('simple', ${query})`;
    return sql`SELECT ${key}, ts_rank(${PG_CLASS_WEIGHTS}, document, to_tsquery('simple', ${query})) AS rank
      FROM ${table} WHERE ${inScope} AND document @@ to_tsquery('simple', ${query})`;
  }
  // SQLite: the key and scope come from the key map by rowid, so no match loads its stored text.
  const match = words.map((t) => `"${t}"*`).join(' ');
  const map = sql.table(keyMapOf(index));
  const mapKey = sql`k.key AS ${sql.ref(keyAs)}`;
  const mapScope = sql.join(index.scope.map((c, i) => sql`${sql.ref(`k.${c}`)} = ${scope[i] ?? ''}`), sql` AND `);
  const from = sql`${table} JOIN ${map} k ON k.row = ${table}.rowid WHERE ${table} MATCH ${match} AND ${mapScope}`;
  if (!ranked) return sql`SELECT ${mapKey}, 0 AS rank FROM ${from}`;
  // bm25 is lower-is-better and takes a weight per column (0 for the key and scope columns).
  const weights = [...[index.key, ...index.scope].map(() => 0), ...index.fields.map((f) => f.bm25)].map((w) => sql.lit(w));
  return sql`SELECT ${mapKey}, -bm25(${table}, ${sql.join(weights)}) AS rank FROM ${from}`;
}

/**
 * A subquery of matches as rows `(<key>, rank)`, to join and order by; every term must match as a
 * prefix. `ranked: false` leaves rank 0: ranking costs per match, and counts and facets ignore it.
 */
export function fullTextHits(dialect: DialectName, index: FullTextIndex, scope: readonly string[], terms: readonly string[], options: { ranked?: boolean } = {}): RawBuilder<unknown> {
  return sql`(${hitsSelect(dialect, index, scope, terms, index.key, options.ranked ?? true)})`;
}

/** Keys of the best matches, best first (ties by key), at most `limit`. */
export async function fullTextSearch(db: Executor, index: FullTextIndex, scope: readonly string[], terms: readonly string[], limit: number): Promise<{ id: string; rank: number }[]> {
  if (terms.length === 0) return [];
  const select = hitsSelect(dialectOf(db), index, scope, terms, 'id');
  const r = await sql<{ id: string; rank: number }>`${select} ORDER BY rank DESC, id ASC LIMIT ${limit}`.execute(db);
  return r.rows;
}
