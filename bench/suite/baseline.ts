/**
 * The ceiling every figure is compared with: a bare Hono + better-sqlite3 server answering
 * `GET /p/:id` with one stored product-sized JSON document by primary key (no auth, no validation,
 * no presentation). Its own process and its own SQLite file, filled with `count` copies of a real
 * product document of our server (argv: template file, count, port); prints `ready` when listening.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import SQLite from 'better-sqlite3';

const [templateFile, countArg, portArg] = process.argv.slice(2);
const template = fs.readFileSync(templateFile!, 'utf8');
const count = Number(countArg);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-baseline-'));
const db = new SQLite(path.join(dir, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE products (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO products (id, doc) VALUES (?, ?)');
db.transaction(() => {
  for (let i = 0; i < count; i++) insert.run(`p${i}`, template.replace('"__ID__"', JSON.stringify(`p${i}`)));
})();

const byId = db.prepare('SELECT doc FROM products WHERE id = ?');
const app = new Hono();
app.get('/p/:id', (c) => {
  const row = byId.get(c.req.param('id')) as { doc: string } | undefined;
  return row ? c.body(`{"product":${row.doc}}`, 200, { 'content-type': 'application/json; charset=utf-8' }) : c.json({ message: 'not found' }, 404);
});
const server = serve({ fetch: app.fetch, port: Number(portArg), hostname: '127.0.0.1' }, () => process.stdout.write('ready\n'));
const stop = () => { server.close(); db.close(); fs.rmSync(dir, { recursive: true, force: true }); process.exit(0); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
