import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../src/storage/database.js';
import { WAL_BACKSTOP_PAGES, WAL_CHECKPOINT_INTERVAL_MS } from '../src/storage/wal-checkpointer.js';

/**
 * WAL checkpoints run on their own thread (storage/wal-checkpointer.ts): the request thread's
 * connection only appends to the log, and the thread copies committed pages back into the database.
 * Read from the wal-index (-shm) file as SQLite lays it out (native byte order): the header's
 * mxFrame (last valid frame, offset 16) and the checkpoint info's nBackfill (frames copied back,
 * offset 96).
 */
const sqliteOnly = !process.env.DATABASE_URL;

function walIndex(file: string): { mxFrame: number; nBackfill: number } {
  const shm = fs.readFileSync(`${file}-shm`);
  return { mxFrame: shm.readUInt32LE(16), nBackfill: shm.readUInt32LE(96) };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe.runIf(sqliteOnly)('SQLite WAL checkpoints', () => {
  it('are taken off the request thread: commits only append, the checkpoint thread copies them back, close stops it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-wal-'));
    const file = path.join(dataDir, 'vitrine.sqlite');
    try {
      const storage = await openStorage({ dataDir, statementTimeoutMs: 10_000 });
      const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(storage.db);
      expect(rows[0]!.wal_autocheckpoint).toBe(WAL_BACKSTOP_PAGES);

      await sql`CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(storage.db);
      // 200 commits of a page each: far below the backstop, so only the checkpoint thread copies them
      // (the log may restart meanwhile, after a complete checkpoint: that is the thread's work too).
      for (let i = 0; i < 200; i++) await sql`INSERT INTO scratch (body) VALUES (${'x'.repeat(3000)})`.execute(storage.db);
      expect(walIndex(file).mxFrame).toBeGreaterThan(0);

      const copied = await until(() => {
        const now = walIndex(file);
        return now.nBackfill > 0 && now.nBackfill === now.mxFrame;
      }, WAL_CHECKPOINT_INTERVAL_MS * 25);
      expect(copied).toBe(true);

      await storage.close();
      // Both connections closed (the thread's too), so the last one folded the log in and removed it.
      expect(fs.existsSync(`${file}-wal`)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
