import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/database.js';
import { addFullTextKeyMap, createFullTextIndex, deleteFullTextRows, fullTextHits, fullTextSearch, insertFullTextRows, type FullTextIndex } from '../src/storage/fulltext.js';
import { sqliteFiles } from './sqlite-files.js';

/**
 * SQLite's full-text rows are found by key through `<table>_keys` (FTS5 cannot index a key column):
 * replacing or deleting one row is a lookup, not a scan of the whole index, and the map stays exact.
 */
const sqliteOnly = !process.env.DATABASE_URL;
const files = sqliteFiles('vitrine-fulltext-');

const index = (table: string): FullTextIndex => ({ table, key: 'entity_id', scope: ['site_id'], fields: [{ name: 'name', weight: 'A', bm25: 1 }] });
const row = (key: string, name: string, site = 's1') => ({ key, scope: [site], fields: [name] });

const open = (): Promise<Storage> => files.fresh();

async function mapAndIndex(db: Storage['db'], table: string) {
  const map = await sql<{ key: string; row: number }>`SELECT key, row FROM ${sql.table(`${table}_keys`)} ORDER BY key`.execute(db);
  const fts = await sql<{ entity_id: string; rowid: number }>`SELECT entity_id, rowid FROM ${sql.table(table)} ORDER BY entity_id`.execute(db);
  return { map: map.rows.map((r) => [r.key, r.row]), fts: fts.rows.map((r) => [r.entity_id, r.rowid]) };
}

describe.runIf(sqliteOnly)('full-text key map (SQLite)', () => {
  it('rows are replaced and deleted by key; search sees only the current text; skipExisting leaves a row alone', async () => {
    const { db } = await open();
    const ix = index('words');
    await createFullTextIndex(db, ix);
    await insertFullTextRows(db, ix, [row('a', 'kettle copper'), row('b', 'grinder'), row('c', 'kettle steel', 's2')]);

    await deleteFullTextRows(db, ix, ['a']);
    await insertFullTextRows(db, ix, [row('a', 'dripper glass')]);
    await insertFullTextRows(db, ix, [row('b', 'never written')], { skipExisting: true });

    expect(await fullTextSearch(db, ix, ['s1'], ['kettle'], 10)).toEqual([]);
    expect((await fullTextSearch(db, ix, ['s1'], ['dripper'], 10)).map((h) => h.id)).toEqual(['a']);
    expect((await fullTextSearch(db, ix, ['s1'], ['grinder'], 10)).map((h) => h.id)).toEqual(['b']);
    expect(await fullTextSearch(db, ix, ['s1'], ['never'], 10)).toEqual([]);
    expect((await fullTextSearch(db, ix, ['s2'], ['kettle'], 10)).map((h) => h.id)).toEqual(['c']);

    await deleteFullTextRows(db, ix, ['b', 'c', 'missing']);
    const { map, fts } = await mapAndIndex(db, 'words');
    expect(map).toEqual(fts);
    expect(map.map(([key]) => key)).toEqual(['a']);
    await expect(insertFullTextRows(db, ix, [row('a', 'twice')])).rejects.toThrow(/UNIQUE/);
  });

  it('a delete by key searches the map and the index by rowid: no scan of the index', async () => {
    const { db } = await open();
    const ix = index('plans');
    await createFullTextIndex(db, ix);
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN DELETE FROM plans WHERE rowid IN (SELECT row FROM plans_keys WHERE key IN ('x'))`.execute(db);
    const details = plan.rows.map((r) => r.detail);
    // FTS5 reports every access as SCAN; `:=` in its index string is a rowid equality handed to it (one lookup).
    expect(details.filter((d) => d.startsWith('SCAN plans '))).toEqual([expect.stringMatching(/^SCAN plans VIRTUAL TABLE INDEX \d+:=$/)]);
    expect(details.some((d) => /SEARCH plans_keys USING .*\(key=\?\)/.test(d))).toBe(true);
    // What the key lookup used to be: FTS5 gets no constraint and reads every row.
    const before = await sql<{ detail: string }>`EXPLAIN QUERY PLAN DELETE FROM plans WHERE entity_id = 'x'`.execute(db);
    expect(before.rows.map((r) => r.detail)).toEqual([expect.stringMatching(/^SCAN plans VIRTUAL TABLE INDEX \d+:$/)]);
  });

  it('the migration maps an index made before the map; a key found twice keeps its first row', async () => {
    const { db } = await open();
    const ix = index('legacy');
    await sql`CREATE VIRTUAL TABLE legacy USING fts5(entity_id UNINDEXED, site_id UNINDEXED, name)`.execute(db);
    await sql`INSERT INTO legacy (rowid, entity_id, site_id, name) VALUES (5, 'a', 's1', 'first'), (6, 'b', 's1', 'other'), (7, 'c', 's2', 'other'), (9, 'a', 's1', 'stale copy')`.execute(db);

    await addFullTextKeyMap(db, ix);
    await addFullTextKeyMap(db, ix); // runs again harmlessly

    expect(await mapAndIndex(db, 'legacy')).toEqual({ map: [['a', 5], ['b', 6], ['c', 7]], fts: [['a', 5], ['b', 6], ['c', 7]] });
    // Each key's scope came along: a search of one site does not see the other's row of the same word.
    expect((await sql<{ key: string; site_id: string }>`SELECT key, site_id FROM legacy_keys ORDER BY key`.execute(db)).rows)
      .toEqual([{ key: 'a', site_id: 's1' }, { key: 'b', site_id: 's1' }, { key: 'c', site_id: 's2' }]);
    expect((await fullTextSearch(db, ix, ['s2'], ['other'], 10)).map((h) => h.id)).toEqual(['c']);
    await deleteFullTextRows(db, ix, ['a']);
    expect(await fullTextSearch(db, ix, ['s1'], ['first'], 10)).toEqual([]);
    expect(await fullTextSearch(db, ix, ['s1'], ['stale'], 10)).toEqual([]);
    expect((await fullTextSearch(db, ix, ['s1'], ['other'], 10)).map((h) => h.id)).toEqual(['b']);
  });

  it('a search reads the key and scope of each match from the map by rowid, not from the stored text', async () => {
    const { db } = await open();
    const ix = index('reads');
    await createFullTextIndex(db, ix);
    await insertFullTextRows(db, ix, [row('a', 'kettle copper'), row('b', 'kettle steel'), row('c', 'kettle iron', 's2')]);
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT * FROM ${fullTextHits('sqlite', ix, ['s1'], ['kettle'], { ranked: false })} h`.execute(db);
    expect(plan.rows.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^SCAN reads VIRTUAL TABLE INDEX \d+:M\d+$/),
      'SEARCH k USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    expect((await fullTextSearch(db, ix, ['s1'], ['kettle'], 10)).map((h) => h.id).sort()).toEqual(['a', 'b']);
    expect((await fullTextSearch(db, ix, ['s2'], ['kettle'], 10)).map((h) => h.id)).toEqual(['c']);
  });
});
