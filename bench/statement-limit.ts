/**
 * What a bound `LIMIT ?` costs a cached SQLite statement: with the statistics the server keeps
 * (sqlite_stat1 only), SQLite's planner reads the bound limit and compiles the statement again whenever
 * it is bound, so every run re-parses and re-plans it (not with full sqlite_stat4 samples). The server
 * prepares `LIMIT (? + 0)` instead (`withUnreadLimit`, storage/database.ts). Three forms of one page
 * query (20 newest of 2,000 rows of one site, the shape of an owner's member or order page) alternate
 * in rounds so machine load hits them alike; the literal `LIMIT 20` is the baseline. Prints figures only.
 *
 *   npx tsx bench/statement-limit.ts [--seconds 5]
 */
import Database from 'better-sqlite3';
import { SQLITE_ANALYSIS_LIMIT, withUnreadLimit } from '../packages/server/src/storage/database.js';

const i = process.argv.indexOf('--seconds');
const SECONDS = Math.min(Math.max(i > 0 ? Number(process.argv[i + 1]) : 5, 1), 60);
const ROUND_MS = 250;
const ROWS = 2_000;

const db = new Database(':memory:');
db.exec('CREATE TABLE items (site_id text NOT NULL, id text NOT NULL, created_date text NOT NULL, body text NOT NULL, PRIMARY KEY (site_id, id))');
db.exec('CREATE INDEX items_site_created ON items (site_id, created_date)');
const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?)');
db.transaction(() => {
  for (let n = 0; n < ROWS; n++) insert.run(n % 2 ? 'site-a' : 'site-b', `item-${n}`, new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(), `{"n":${n}}`);
})();
// Statistics as the server keeps them (`PRAGMA optimize` under an analysis limit: sqlite_stat1 only).
db.pragma(`analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`);
db.exec('ANALYZE');

const page = 'SELECT id, created_date, body FROM items WHERE site_id = ? ORDER BY created_date DESC, id ASC';
const forms = [
  { name: 'LIMIT 20 (literal, baseline)', statement: db.prepare(`${page} LIMIT 20 OFFSET ?`), args: ['site-a', 0] },
  { name: 'LIMIT ? (bound)', statement: db.prepare(`${page} LIMIT ? OFFSET ?`), args: ['site-a', 20, 0] },
  { name: 'LIMIT (? + 0) (as the server prepares it)', statement: db.prepare(withUnreadLimit(`${page} LIMIT ? OFFSET ?`)), args: ['site-a', 20, 0] },
];
const totals = forms.map(() => ({ runs: 0, ns: 0n }));

for (const f of forms) for (let n = 0; n < 2_000; n++) f.statement.all(...f.args);
const end = Date.now() + SECONDS * 1000;
while (Date.now() < end) {
  forms.forEach((f, k) => {
    const stop = Date.now() + ROUND_MS / forms.length;
    const start = process.hrtime.bigint();
    let runs = 0;
    while (Date.now() < stop) { f.statement.all(...f.args); runs++; }
    totals[k]!.ns += process.hrtime.bigint() - start;
    totals[k]!.runs += runs;
  });
}
const micros = totals.map((t) => Number(t.ns) / t.runs / 1000);
console.log(`SQLite ${db.prepare('select sqlite_version() AS v').pluck().get() as string}, ${ROWS.toLocaleString('en-US')} rows, ${SECONDS} s`);
forms.forEach((f, k) => console.log(`  ${f.name.padEnd(42)} ${micros[k]!.toFixed(2).padStart(7)} us per run  ${(micros[k]! / micros[0]!).toFixed(2)}x the baseline`));
