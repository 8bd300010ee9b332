/**
 * A preload that times every SQLite statement of the server by its SQL text and, when the process
 * exits, writes the 40 costliest (total time, calls, time per call) to $SQL_TIMING_OUT
 * (default: sql-timing.txt in the working directory; with --workers, one file per worker, its pid
 * before the extension). It is how the cart's costs in docs/performance-log.md were found: a CPU
 * profile shows "the database" as one block, this says which statement. Only the server process
 * (`vitrine.js`) is wrapped; the bench's seed and baseline are not.
 *
 *   npm run bench -- --no-build --scenarios add-to-cart --node-flags=--require=./bench/sql-timing.cjs
 *
 * The wrapping adds a few microseconds per statement, so compare statements with each other, not the
 * run's req/s with an unwrapped run.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const TOP = 40;

if (process.argv[1] && path.basename(process.argv[1]) === 'vitrine.js') {
  const Database = require(require.resolve('better-sqlite3', { paths: [process.cwd()] }));
  /** @type {Map<string, { calls: number, ns: number }>} */
  const byText = new Map();
  const note = (text, ns) => {
    const entry = byText.get(text) ?? { calls: 0, ns: 0 };
    entry.calls += 1;
    entry.ns += ns;
    byText.set(text, entry);
  };
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function timedPrepare(sqlText) {
    const stmt = prepare.call(this, sqlText);
    const text = sqlText.replace(/\s+/g, ' ').trim().slice(0, 120);
    for (const method of ['run', 'get', 'all']) {
      const inner = stmt[method];
      stmt[method] = function timed(...args) {
        const start = process.hrtime.bigint();
        try {
          return inner.apply(this, args);
        } finally {
          note(text, Number(process.hrtime.bigint() - start));
        }
      };
    }
    // Rows are stepped lazily: the statement's time is the whole walk, so the rows are read here.
    const iterate = stmt.iterate;
    stmt.iterate = function timedIterate(...args) {
      const start = process.hrtime.bigint();
      const rows = [...iterate.apply(this, args)];
      note(text, Number(process.hrtime.bigint() - start));
      return rows[Symbol.iterator]();
    };
    return stmt;
  };
  process.on('exit', () => {
    const lines = [...byText].sort((a, b) => b[1].ns - a[1].ns).slice(0, TOP).map(([text, s]) =>
      `${(s.ns / 1e6).toFixed(0).padStart(7)} ms ${String(s.calls).padStart(8)} x ${(s.ns / s.calls / 1e3).toFixed(1).padStart(8)} us  ${text}`);
    let calls = 0;
    let ns = 0;
    for (const s of byText.values()) { calls += s.calls; ns += s.ns; }
    // With --workers each worker writes a file of its own (the primary runs no statements worth one).
    const out = process.env.SQL_TIMING_OUT ?? 'sql-timing.txt';
    const file = require('node:cluster').isWorker ? out.replace(/(\.txt)?$/, `.${process.pid}$1`) : out;
    fs.writeFileSync(file, `all statements: ${(ns / 1e6).toFixed(0)} ms in ${calls} calls\n${lines.join('\n')}\n`);
  });
}
