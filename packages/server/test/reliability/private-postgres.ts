import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of the test's own, made with Debian's binaries under /tmp on a random port, so
 * a test may stop and start it; the shared server on 5432 is never touched. Needs root (the binaries
 * run as user postgres through runuser).
 */
const PORT_MIN = 20_000;
const PORT_SPAN = 10_000;

export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root) || process.getuid?.() !== 0) return undefined;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb'))).sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? path.join(root, newest, 'bin') : undefined;
}

export interface PrivatePostgres { url: string; start(): void; stop(): void; destroy(): void }

export function createPrivatePostgres(bin: string): PrivatePostgres {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-pg-'));
  const data = path.join(dir, 'data');
  fs.chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const port = PORT_MIN + Math.floor(Math.random() * PORT_SPAN);
  const asPostgres = (tool: string, args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'pipe' });
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const pgCtl = (args: string[]) => asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), ...args]);
  const start = () => { pgCtl(['-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-w', 'start']); };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => { pgCtl(['-m', 'fast', '-w', 'stop']); },
    destroy: () => {
      try { pgCtl(['-m', 'immediate', '-w', 'stop']); } catch { /* already stopped */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idOf(flag: '-u' | '-g', user: string): number {
  return Number(execFileSync('id', [flag, user]).toString().trim());
}
const uidOf = (user: string) => idOf('-u', user);
const gidOf = (user: string) => idOf('-g', user);
