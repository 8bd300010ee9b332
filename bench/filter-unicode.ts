/**
 * Cost of case-insensitive matching (storage/dialect.ts `ilike`) over ROWS text rows, through the
 * storage layer (the SQLite handle with vitrine_fold registered; PostgreSQL too when DATABASE_URL is
 * set): `SELECT count(*) ... WHERE <ilike(name, '%pattern%')>`, a full scan each time, median of RUNS.
 * Patterns: ASCII without i/k (plain LIKE), ASCII with i/k (plain LIKE + instr guard), non-ASCII
 * (vitrine_fold per row), and the pre-change plain LIKE of the non-ASCII pattern as the baseline.
 * Prints figures only.
 *
 *   npx tsx bench/filter-unicode.ts [--rows 100000] [--runs 15]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dropSchema, openStorage, type Storage } from '../packages/server/src/storage/database.js';
import { ilike, escapeLike } from '../packages/server/src/storage/dialect.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = Math.min(arg('rows', 100_000), 1_000_000);
const RUNS = Math.min(arg('runs', 15), 100);
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'zeta', 'Émile', 'éclair', 'straße', 'Ωmega', 'café', 'naïve', 'İstanbul', 'shirt', 'kettle'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a bench table outside the app schema
type AnyDb = Kysely<any>;

async function fill(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE bench_names (id integer PRIMARY KEY, name text NOT NULL)`.execute(db);
  let seed = 11;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let start = 0; start < ROWS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ROWS - start) }, (_, i) => sql`(${start + i}, ${`${WORDS[rnd(WORDS.length)]} ${WORDS[rnd(WORDS.length)]} ${start + i}`})`);
    await sql`INSERT INTO bench_names (id, name) VALUES ${sql.join(rows)}`.execute(db);
  }
}

async function time(db: AnyDb, where: RawBuilder<boolean>): Promise<{ ms: number; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = await sql<{ n: number }>`SELECT count(*) AS n FROM bench_names WHERE ${where}`.execute(db);
    times.push(performance.now() - t0);
    count = Number(r.rows[0]!.n);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, count };
}

async function run(storage: Storage): Promise<void> {
  const db = storage.db as unknown as AnyDb;
  const t0 = performance.now();
  await fill(db);
  console.log(`${storage.dialect}: ${ROWS} rows filled in ${Math.round(performance.now() - t0)} ms; median of ${RUNS} full scans`);
  const name = sql.ref('name');
  const contains = (p: string) => `%${escapeLike(p)}%`;
  const lite = storage.dialect === 'sqlite';
  const how = (sqliteWay: string) => (lite ? sqliteWay : 'ILIKE');
  const cases: [string, RawBuilder<boolean>][] = [
    [`ASCII "ome" (${how('plain LIKE')})`, ilike(storage.dialect, name, contains('ome'))],
    [`ASCII "kett" (${how('LIKE + instr guard')})`, ilike(storage.dialect, name, contains('kett'))],
    [`ASCII "ist" (${how('LIKE + instr guard')})`, ilike(storage.dialect, name, contains('ist'))],
    [`non-ASCII "émi" (${how('vitrine_fold')})`, ilike(storage.dialect, name, contains('émi'))],
    [`non-ASCII "Ω" (${how('vitrine_fold')})`, ilike(storage.dialect, name, contains('Ω'))],
  ];
  if (lite) {
    cases.push(['if ASCII were folded too: "ome" (vitrine_fold)', sql<boolean>`vitrine_fold(name) LIKE ${contains('ome')} ESCAPE '\\'`]);
    cases.push(['before: plain LIKE "émi" (ASCII-only fold)', sql<boolean>`name LIKE ${contains('émi')} ESCAPE '\\'`]);
  }
  for (const [label, where] of cases) {
    const { ms, count } = await time(db, where);
    console.log(`  ${label.padEnd(48)} ${ms.toFixed(1).padStart(7)} ms  (${count} rows)`);
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-fold-'));
try {
  const sqlite = await openStorage({ dataDir, statementTimeoutMs: 60_000 });
  try { await run(sqlite); } finally { await sqlite.close(); }
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_fold_${randomBytes(4).toString('hex')}`;
    const pg = await openStorage({ databaseUrl: url, schema, dataDir, statementTimeoutMs: 60_000 });
    try { await run(pg); } finally { await pg.close(); await dropSchema(url, schema); }
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
