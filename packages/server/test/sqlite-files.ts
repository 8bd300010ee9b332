import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openStorage, type Storage, type StorageOptions } from '../src/storage/database.js';

type HandleOptions = Pick<StorageOptions, 'sqliteCacheMb' | 'countQueries'>;

/**
 * SQLite files of one storage test file, in a temporary directory: every handle opened is closed and
 * the directory removed after the file's tests. `open(file)` opens a handle on that file (two handles
 * on one file stand for two processes); `fresh()` opens a handle on a file of its own.
 */
export function sqliteFiles(prefix: string): { open(file: string, options?: HandleOptions): Promise<Storage>; fresh(options?: HandleOptions): Promise<Storage> } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const opened: Storage[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const open = async (file: string, options: HandleOptions = {}) => {
    const storage = await openStorage({ dataDir, sqliteFile: file, statementTimeoutMs: 10_000, ...options });
    opened.push(storage);
    return storage;
  };
  return { open, fresh: (options) => open(`fresh-${opened.length}.sqlite`, options) };
}
