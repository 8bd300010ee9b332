import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './harness.js';
import { freshDatabase, startServerProcess, stopServerProcess } from './child-server.js';
import { parseCsv } from '../src/cli/csv.js';

/**
 * `vitrine seed` and `vitrine import` as a user runs them: the real CLI in a child process over a fresh
 * database. A seed killed part-way leaves nothing and the next one seeds all. A product
 * import SIGKILLed part-way and run again ends with every row exactly once; an item import run twice
 * creates each item once; bad rows are reported by row number and change nothing.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'packages/server/src/cli/main.ts');
const PG = process.env.DATABASE_URL || '';
const PRODUCT_ROWS = 300;
const ITEM_ROWS = 2_500;
/** Several CLI processes, each migrating and opening the database, on a busy two-core machine. */
const CLI_TEST_TIMEOUT_MS = 300_000;

const db = freshDatabase('vitrine-import-');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-import-files-'));
afterAll(async () => {
  await db.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface CliRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs the CLI; `killWhen` sees stderr as it grows and SIGKILLs the process once it returns true. */
function cli(args: string[], killWhen?: (stderr: string) => boolean): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: PG, ...db.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (killWhen?.(stderr) && child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

describe(`vitrine import (${PG ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('reads quoted, multi-line CSV fields and refuses malformed files', () => {
    expect(parseCsv('name,note\r\n"Mug, large","He said ""hi""\nthen left"\nCup,\n')).toEqual([
      { name: 'Mug, large', note: 'He said "hi"\nthen left' },
      { name: 'Cup' },
    ]);
    expect(() => parseCsv('a,b\n"open,1\n')).toThrow('a quoted field is not closed');
    expect(() => parseCsv('a,a\n1,2\n')).toThrow('CSV header names "a" twice');
    expect(() => parseCsv('a\n1,2\n')).toThrow('CSV row 2 has 2 fields, the header 1');
  });

  it('seeds the demo store in one transaction: a seed killed part-way leaves nothing, the next one all', async () => {
    const killed = await cli(['seed'], (err) => /seeding the demo store: \d+\/\d+ \([2-9]\d%\)/.test(err));
    expect(killed.signal).toBe('SIGKILL');
    const counts = () => db.read(async (d) => {
      const sites = await sql<{ n: number | string }>`select count(*) as n from sites where slug = 'demo'`.execute(d);
      const products = await sql<{ n: number | string }>`select count(*) as n from products`.execute(d);
      return { sites: Number(sites.rows[0]!.n), products: Number(products.rows[0]!.n) };
    });
    expect(await counts()).toEqual({ sites: 0, products: 0 });
    const seeded = await cli(['seed']);
    expect([seeded.code, seeded.stdout.trim()]).toEqual([0, 'Demo store created']);
    expect(seeded.stderr).toContain('seeding the demo store: 32/32 (100%)');
    expect(await counts()).toEqual({ sites: 1, products: 26 });
  }, CLI_TEST_TIMEOUT_MS);

  it('resumes a product import killed part-way: every row exactly once, bad rows named', async () => {
    const lines = ['name,price,sku,description,quantity'];
    for (let i = 0; i < PRODUCT_ROWS; i++) lines.push([`Imported "item", no ${i}`, `${(i % 40) + 1}.25`, `IMP-${i}`, 'Line one\nline two', String(i % 5)].map(csvCell).join(','));
    lines.push(',abc,BAD-ROW,,');
    const file = path.join(tmp, 'products.csv');
    fs.writeFileSync(file, lines.join('\n'));

    const first = await cli(['import', 'products', '--site', 'demo', '--file', file], (err) => /importing products: \d+\/301 \(20%\)/.test(err));
    expect(first.signal).toBe('SIGKILL');
    const countImported = () => db.read(async (d) => {
      const rows = await sql<{ n: number | string; distinct_skus: number | string }>`select count(*) as n, count(distinct sku) as distinct_skus from products where sku like 'IMP-%'`.execute(d);
      return { n: Number(rows.rows[0]!.n), distinctSkus: Number(rows.rows[0]!.distinct_skus) };
    });
    const partial = await countImported();
    expect(partial.n).toBeGreaterThanOrEqual(60);
    expect(partial.n).toBeLessThan(PRODUCT_ROWS);

    const second = await cli(['import', 'products', '--site', 'demo', '--file', file]);
    expect(second.code).toBe(1); // one bad row
    const summary = JSON.parse(second.stdout.trim().split('\n').pop()!) as { total: number; created: number; alreadyImported: number; failed: number };
    expect(summary.total).toBe(PRODUCT_ROWS + 1);
    expect(summary.failed).toBe(1);
    // A row in flight at the kill either committed with its record (already imported) or not at all (created now).
    expect(summary.created + summary.alreadyImported).toBe(PRODUCT_ROWS);
    expect(summary.alreadyImported).toBeGreaterThanOrEqual(partial.n);
    expect(second.stderr).toContain('row 301: name: Invalid input: expected string, received undefined; priceData.price: Invalid input: expected number, received NaN');
    expect(await countImported()).toEqual({ n: PRODUCT_ROWS, distinctSkus: PRODUCT_ROWS });
    const sample = await db.read((d) => sql<{ name: string; description: string }>`select name, description from products where sku = 'IMP-7'`.execute(d));
    expect(sample.rows).toEqual([{ name: 'Imported "item", no 7', description: 'Line one\nline two' }]);

    const third = await cli(['import', 'products', '--site', 'demo', '--file', file]);
    expect(JSON.parse(third.stdout.trim().split('\n').pop()!)).toEqual({ total: PRODUCT_ROWS + 1, created: 0, alreadyImported: PRODUCT_ROWS, failed: 1 });
    expect(await countImported()).toEqual({ n: PRODUCT_ROWS, distinctSkus: PRODUCT_ROWS });
  }, CLI_TEST_TIMEOUT_MS);

  it('imports JSON data items in batches, once, with progress', async () => {
    const server = await startServerProcess({ ...db.env, DATABASE_URL: PG }, 'import-items');
    try {
      const key = await db.ownerKey('import-test');
      const created = await call(server.url, '/wix-data/v2/collections', {
        auth: key.apiKey, siteId: key.siteId,
        body: { collection: { id: 'imports', displayName: 'imports', fields: [], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } },
      });
      expect(created.status).toBe(200);
    } finally {
      await stopServerProcess(server, 'SIGTERM');
    }
    const file = path.join(tmp, 'items.json');
    fs.writeFileSync(file, JSON.stringify(Array.from({ length: ITEM_ROWS }, (_, i) => ({ n: i, title: `item ${i}` }))));

    const first = await cli(['import', 'items', '--site', 'demo', '--collection', 'imports', '--file', file]);
    expect({ code: first.code, stdout: first.stdout }).toEqual({ code: 0, stdout: expect.any(String) as string });
    expect(JSON.parse(first.stdout.trim())).toEqual({ total: ITEM_ROWS, created: ITEM_ROWS, alreadyImported: 0, failed: 0 });
    expect(first.stderr.trim().split('\n')).toEqual([
      `importing items: 1000/${ITEM_ROWS} (40%)`, `importing items: 2000/${ITEM_ROWS} (80%)`, `importing items: ${ITEM_ROWS}/${ITEM_ROWS} (100%)`,
    ]);
    const again = await cli(['import', 'items', '--site', 'demo', '--collection', 'imports', '--file', file]);
    expect(JSON.parse(again.stdout.trim())).toEqual({ total: ITEM_ROWS, created: 0, alreadyImported: ITEM_ROWS, failed: 0 });
    const count = await db.read((d) => sql<{ n: number | string; sum: number | string }>`select count(*) as n from data_items where collection_id = 'imports'`.execute(d));
    expect(Number(count.rows[0]!.n)).toBe(ITEM_ROWS);

    const missing = await cli(['import', 'items', '--site', 'demo', '--file', file]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('importing items needs --collection');
  }, CLI_TEST_TIMEOUT_MS);
});
