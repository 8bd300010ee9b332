import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A private PostgreSQL primary and a streaming replica of it, built for one test with Debian's
 * binaries: `initdb`, `pg_ctl` and `pg_basebackup -R`, run as the `postgres` user (through
 * `runuser` when the test runs as root, as CI does), data under a fresh /tmp folder, ports picked at
 * random in 20000-29999. The shared PostgreSQL on 5432 is never touched.
 */

const run = promisify(execFile);
const PORT_LOW = 20_000;
const PORT_SPAN = 10_000;
/** pg_ctl waits this long for a server to start or stop. */
const PG_CTL_TIMEOUT_S = 30;
/** How long waitForReplay waits for the replica to reach a position. */
const REPLAY_WAIT_MS = 15_000;

/** The folder of Debian's PostgreSQL binaries, newest version first; undefined when none is installed. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((x, y) => Number(y) - Number(x));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => fs.existsSync(path.join(bin, b)))) return bin;
  }
  return undefined;
}

/** Why a replica cannot be built here (the test skips with this message), or undefined when it can. */
export function replicaUnavailable(): string | undefined {
  if (!postgresBinaries()) return 'no PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin (apt-get install postgresql)';
  const user = os.userInfo().username;
  if (user !== 'postgres' && process.getuid?.() !== 0) return 'initdb must run as user postgres: run the tests as root (runuser) or as postgres';
  if (user !== 'postgres' && !fs.existsSync('/usr/sbin/runuser') && !fs.existsSync('/sbin/runuser')) return 'runuser is missing';
  return undefined;
}

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops replaying WAL on the replica (it keeps receiving it): the replica lags from now on. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  waitForReplay(): Promise<void>;
  /** Runs one statement on the replica, or the primary. */
  query<R extends pg.QueryResultRow>(on: 'primary' | 'replica', text: string, values?: unknown[]): Promise<R[]>;
  /** Stops the replica server (the primary keeps running). */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

function randomPort(): number {
  return PORT_LOW + Math.floor(Math.random() * PORT_SPAN);
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries');
  const asPostgres = async (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    return os.userInfo().username === 'postgres' ? run(full, args) : run('runuser', ['-u', 'postgres', '--', full, ...args]);
  };
  const dir = fs.mkdtempSync(path.join('/tmp', 'vitrine-replica-'));
  fs.chmodSync(dir, 0o755);
  if (os.userInfo().username !== 'postgres') await run('chown', ['postgres:postgres', dir]);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const primaryPort = randomPort();
  let replicaPort = randomPort();
  while (replicaPort === primaryPort) replicaPort = randomPort();
  // Sockets in our own folder; fsync off (a test cluster, thrown away); streaming needs wal senders.
  const serverOptions = (port: number) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_wal_senders=4 -c hot_standby=on`;
  const started: string[] = [];
  const stop = async () => {
    for (const d of started.reverse()) await asPostgres('pg_ctl', ['-D', d, '-m', 'immediate', '-w', '-t', String(PG_CTL_TIMEOUT_S), 'stop']).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await asPostgres('pg_ctl', ['-D', primaryDir, '-l', path.join(dir, 'primary.log'), '-w', '-t', String(PG_CTL_TIMEOUT_S), '-o', serverOptions(primaryPort), 'start']);
    started.push(primaryDir);
    await asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
    await asPostgres('pg_ctl', ['-D', replicaDir, '-l', path.join(dir, 'replica.log'), '-w', '-t', String(PG_CTL_TIMEOUT_S), '-o', serverOptions(replicaPort), 'start']);
    started.push(replicaDir);
  } catch (err) {
    await stop();
    throw err;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const query = async <R extends pg.QueryResultRow>(on: 'primary' | 'replica', text: string, values: unknown[] = []): Promise<R[]> => {
    const client = new pg.Client({ connectionString: on === 'primary' ? primaryUrl : replicaUrl });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const pair: ReplicaPair = {
    primaryUrl,
    replicaUrl,
    pauseReplay: async () => { await query('replica', 'select pg_wal_replay_pause()'); },
    resumeReplay: async () => { await query('replica', 'select pg_wal_replay_resume()'); },
    async waitForReplay() {
      const [{ lsn }] = await query<{ lsn: string }>('primary', 'select pg_current_wal_lsn()::text as lsn') as [{ lsn: string }];
      const deadline = Date.now() + REPLAY_WAIT_MS;
      for (;;) {
        const [row] = await query<{ caught: boolean }>('replica', 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught', [lsn]);
        if (row?.caught) return;
        if (Date.now() > deadline) throw new Error(`replica did not replay up to ${lsn}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    query,
    async stopReplica() {
      await asPostgres('pg_ctl', ['-D', replicaDir, '-m', 'fast', '-w', '-t', String(PG_CTL_TIMEOUT_S), 'stop']);
    },
    stop,
  };
  // The replica streams: it is in recovery and has replayed what the primary wrote so far.
  const [recovering] = await query<{ r: boolean }>('replica', 'select pg_is_in_recovery() as r');
  if (!recovering?.r) throw new Error('the replica is not in recovery');
  await pair.waitForReplay();
  return pair;
}
