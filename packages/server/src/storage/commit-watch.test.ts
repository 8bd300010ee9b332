import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommitWatch } from './commit-watch.js';

let dir: string;
let file: string;
let db: SQLite.Database;
let watch: CommitWatch;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-commit-watch-'));
  file = path.join(dir, 'db.sqlite');
  db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER)');
  watch = CommitWatch.open(file)!;
});

afterEach(() => {
  watch.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('CommitWatch', () => {
  it('vouches for a mark until a commit of this connection or another', () => {
    const mark = watch.mark()!;
    db.prepare('SELECT count(*) FROM t').get();
    expect(watch.unchangedSince(mark)).toBe(true);
    expect(watch.unchangedSince(mark)).toBe(true);

    const other = new SQLite(file);
    other.prepare('SELECT count(*) FROM t').get();
    expect(watch.unchangedSince(mark)).toBe(true);
    other.prepare('INSERT INTO t VALUES (1)').run();
    expect(watch.unchangedSince(mark)).toBe(false);
    other.close();

    const next = watch.mark()!;
    db.prepare('INSERT INTO t VALUES (2)').run();
    expect(watch.unchangedSince(next)).toBe(false);
  });

  it('sees a commit made by another process', () => {
    const mark = watch.mark()!;
    const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}); d.prepare('INSERT INTO t VALUES (3)').run(); d.close();`;
    execFileSync(process.execPath, ['-e', script], { cwd: process.cwd() });
    expect(watch.unchangedSince(mark)).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
  });

  it('sees a commit after the WAL was checkpointed and started over', () => {
    db.prepare('INSERT INTO t VALUES (4)').run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const mark = watch.mark()!;
    expect(watch.unchangedSince(mark)).toBe(true);
    db.prepare('INSERT INTO t VALUES (5)').run();
    expect(watch.unchangedSince(mark)).toBe(false);
  });

  it('is not made for a database without a WAL index', () => {
    expect(CommitWatch.open(path.join(dir, 'missing.sqlite'))).toBeUndefined();
  });
});
