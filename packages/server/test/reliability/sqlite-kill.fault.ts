import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../harness.js';
import { PG_URL, sleep, startFleet, type Fleet } from './support.js';

/**
 * SQLite under SIGKILL: a process takes bulk inserts from several clients at once and is killed in
 * the middle. The file passes `PRAGMA integrity_check`, every batch is in it whole or not at all, and
 * every batch the server acknowledged with a 200 is there (WAL with synchronous=NORMAL loses nothing
 * on a process crash; only a power cut may drop the last commits, which no test here can cause).
 */
const WRITERS = 4;
const BATCH = 250;
/** How long the writers run before the kill: long enough for several batches to commit. */
const KILL_AFTER_MS = 2_500;

let fleet: Fleet | undefined;
afterAll(async () => { await fleet?.stop(); });

describe.skipIf(PG_URL)('SQLite: SIGKILL during bulk writes', () => {
  it('leaves a consistent file with each batch whole or absent and every acknowledged batch present', async () => {
    fleet = await startFleet(1, 'vitrine-sqlite-kill-');
    const f = fleet;
    const proc = f.procs[0]!;
    const create = await call(proc.url, '/wix-data/v2/collections', { ...f.owner, body: { collection: { id: 'bulk', displayName: 'bulk', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } } });
    expect(create.status).toBe(200);

    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const batch = `w${w}-b${n}`;
        sent++;
        const dataItems = Array.from({ length: BATCH }, (_, i) => ({ id: `${batch}-${i}`, data: { batch, i, text: 'x'.repeat(200) } }));
        try {
          const res = await call(proc.url, '/wix-data/v2/bulk/items/insert', { ...f.owner, body: { dataCollectionId: 'bulk', dataItems } });
          if (res.status === 200) acknowledged.push(batch);
          else throw new Error(`bulk insert answered ${res.status}`);
        } catch (err) {
          if (!stop) throw err;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await sleep(KILL_AFTER_MS);
    stop = true;
    proc.child.kill('SIGKILL');
    await proc.exited;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(0);

    const file = new SQLite(path.join(f.db.env.DATA_DIR!, 'vitrine.sqlite'));
    try {
      expect(file.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(file.pragma('foreign_key_check')).toEqual([]);
      const rows = file.prepare(`SELECT json_extract(data, '$.batch') AS batch, count(*) AS n FROM data_items WHERE collection_id = 'bulk' GROUP BY 1`).all() as { batch: string; n: number }[];
      const torn = rows.filter((r) => r.n !== BATCH);
      expect(torn).toEqual([]);
      const stored = new Set(rows.map((r) => r.batch));
      expect(acknowledged.filter((b) => !stored.has(b))).toEqual([]);
      // At most the batches in flight at the kill are stored without their answer having arrived.
      expect(stored.size - acknowledged.length).toBeLessThanOrEqual(WRITERS);
      expect(stored.size).toBeLessThanOrEqual(sent);
    } finally {
      file.close();
    }
  });
});
