import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropSchema, openStorage, type Db } from '../src/storage/database.js';
import { getSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { DEMO_SITE_SLUG } from '../src/cli/demo-store.js';

/**
 * Whole server processes for tests that kill, restart or run several of them: the real CLI `start`
 * as a child (`node --import tsx`, so a signal hits the server itself), and a fresh database such a
 * process opens, read directly by the test between runs.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'packages/server/src/cli/main.ts');
const PG = process.env.DATABASE_URL || '';
/** How long a child may take to print its URL (migrations on a busy PostgreSQL included). */
const START_TIMEOUT_MS = 60_000;

export interface ServerProcess { child: ChildProcess; url: string; exited: Promise<void> }

/**
 * Starts `vitrine start` on a free port with `env` over the defaults (quiet log, this run's database),
 * resolving once it prints its storefront URL. One retry: storage/migrate.ts (Kysely's migrator)
 * introspects every schema of the database, and fails with "schema ... does not exist" when another
 * test drops its schema at that moment (seen on the shared PostgreSQL).
 */
export async function startServerProcess(env: Record<string, string>, label = 'server'): Promise<ServerProcess> {
  try {
    return await startOnce(env, label);
  } catch (err) {
    if (!/schema "[^"]+" does not exist/.test(String(err))) throw err;
    return startOnce(env, label);
  }
}

function startOnce(env: Record<string, string>, label: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: PG, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /storefront\s+(http:\/\/\S+?)\/\s/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!.replace('localhost', '127.0.0.1'), exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${label} exited with ${code}:\n${output}`)); });
  });
}

/** Sends `signal` unless the process already ended, and waits for the exit. */
export async function stopServerProcess(p: ServerProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

export interface FreshDatabase {
  /** Environment that points a server process at this database. */
  env: Record<string, string>;
  /** Opens the database, runs `fn`, closes it (a process may be running meanwhile). */
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** An owner API key of the demo site; call after a first process started (it seeds the site). */
  ownerKey(name: string): Promise<{ apiKey: string; siteId: string }>;
  /** Drops the PostgreSQL schema and removes the data folder. */
  drop(): Promise<void>;
}

/** A fresh database for child processes: a SQLite folder, or a PostgreSQL schema of its own. */
export function freshDatabase(tmpPrefix: string): FreshDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const schema = PG ? `t_${randomBytes(6).toString('hex')}` : '';
  const read = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const storage = await openStorage({ databaseUrl: PG || undefined, schema: schema || undefined, dataDir, statementTimeoutMs: 10_000 });
    try {
      return await fn(storage.db);
    } finally {
      await storage.close();
    }
  };
  return {
    env: { DATA_DIR: dataDir, DATABASE_SCHEMA: schema },
    read,
    ownerKey: (name) => read(async (db) => {
      const site = await getSite(db, DEMO_SITE_SLUG);
      if (!site) throw new Error('no demo site');
      const { apiKey } = await createApiKey(db, { siteId: site.id, name });
      return { apiKey, siteId: site.id };
    }),
    async drop() {
      if (PG && schema) await dropSchema(PG, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
