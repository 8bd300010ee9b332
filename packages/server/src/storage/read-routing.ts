import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import {
  CompiledQuery, PostgresDriver,
  type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings,
} from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema-dialect.js';

/**
 * Reads on a streaming replica (DATABASE_READ_URL), with read-your-writes.
 *
 * The database handle services use is one Kysely over a routing driver: every statement goes to the
 * primary except a plain SELECT run outside a transaction inside a request that may read from the
 * replica. A request may, when it carries no consistency token, or when the replica has replayed the
 * WAL up to the token. The token is the primary's WAL position (LSN) taken after a request that
 * wrote; the response carries it in `X-Wix-Consistent` and clients echo the last one they saw
 * (the SDK does), so a client that wrote reads from the primary until the replica has caught up with
 * its write, and never reads older data than it wrote. Once a request writes, its own later reads go
 * to the primary too. Work outside a request (jobs, migrations, the CLI) always uses the primary.
 * A replica statement that fails (replica down, recovery conflict) is run again on the primary.
 */

/** What one request may do with the replica, and whether it wrote. */
interface ReadScope { replica: boolean; wrote: boolean }

const scopes = new AsyncLocalStorage<ReadScope>();

/** Runs `fn` outside any request's read scope: background work always reads the primary and marks no request as written. */
export function outsideReadScope<T>(fn: () => T): T {
  return scopes.exit(fn);
}

/** `lsn:<hi>/<lo>`: the primary's WAL position after a write, as PostgreSQL prints an LSN. */
const TOKEN = /^lsn:([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;
/** Longest consistency header we parse (a token is at most 20 characters; anything longer is ignored). */
export const CONSISTENCY_TOKEN_MAX = 32;

/** A statement the replica may answer: a plain SELECT (no row locks). Anything else is a write. */
export function isPlainRead(text: string): boolean {
  return /^\s*select\b/i.test(text) && !/\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i.test(text);
}

/** An LSN (`16/B374D848`) as one number, so two positions compare. */
export function lsnValue(lsn: string): bigint | undefined {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn);
  return m ? (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`) : undefined;
}

/** The LSN a client's token names; undefined for no token or one that is not ours (ignored: the replica may serve). */
export function tokenValue(token: string | undefined): bigint | undefined {
  if (!token || token.length > CONSISTENCY_TOKEN_MAX) return undefined;
  const m = TOKEN.exec(token.trim());
  return m ? lsnValue(`${m[1]}/${m[2]}`) : undefined;
}

export interface ReadRouting {
  /** Runs one request: its plain reads go to the replica when `token` allows (see above). */
  run<T>(token: string | undefined, fn: () => Promise<T>): Promise<T>;
  /** After the request: a token for the client when the request wrote, else undefined. */
  tokenAfterWrites(): Promise<string | undefined>;
}

export function createReadRouting(primary: pg.Pool, replica: pg.Pool): ReadRouting {
  // Replay positions only grow: a token at or below the highest one seen needs no round trip.
  let replayed = 0n;
  const replicaHas = async (wanted: bigint): Promise<boolean> => {
    if (wanted <= replayed) return true;
    try {
      const { rows } = await replica.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
      const now = rows[0]?.lsn ? lsnValue(rows[0].lsn) : undefined;
      if (now !== undefined && now > replayed) replayed = now;
    } catch {
      return false; // replica unreachable: the primary answers
    }
    return wanted <= replayed;
  };
  return {
    async run(token, fn) {
      const wanted = tokenValue(token);
      const scope: ReadScope = { replica: wanted === undefined ? true : await replicaHas(wanted), wrote: false };
      return scopes.run(scope, fn);
    },
    async tokenAfterWrites() {
      if (!scopes.getStore()?.wrote) return undefined;
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      return `lsn:${rows[0]!.lsn}`;
    },
  };
}

/**
 * One connection as Kysely sees it: plain reads of a replica-allowed request borrow a replica
 * connection per statement; everything else, and everything after `begin`, runs on one primary
 * connection taken on first use.
 */
class RoutedConnection implements DatabaseConnection {
  primary: DatabaseConnection | undefined;
  inTransaction = false;

  constructor(private readonly primaryDriver: Driver, private readonly replicaDriver: Driver) {}

  async onPrimary(): Promise<DatabaseConnection> {
    this.primary ??= await this.primaryDriver.acquireConnection();
    return this.primary;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const scope = scopes.getStore();
    const read = isPlainRead(query.sql);
    if (scope && !read) scope.wrote = true;
    if (scope?.replica && !scope.wrote && read && !this.inTransaction) {
      const replica = await this.replicaDriver.acquireConnection().catch(() => undefined);
      if (replica) {
        try {
          return await replica.executeQuery<R>(query);
        } catch {
          // Recovery conflict, replica restarting: the primary answers the same read.
        } finally {
          await this.replicaDriver.releaseConnection(replica);
        }
      }
    }
    return (await this.onPrimary()).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const scope = scopes.getStore();
    if (scope) scope.wrote ||= !isPlainRead(query.sql);
    yield* (await this.onPrimary()).streamQuery<R>(query, chunkSize);
  }
}

class RoutingDriver implements Driver {
  constructor(private readonly primary: Driver, private readonly replica: Driver) {}

  async init(): Promise<void> {
    await this.primary.init();
    await this.replica.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new RoutedConnection(this.primary, this.replica));
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const routed = connection as RoutedConnection; // only this driver's connections come back here
    routed.inTransaction = true;
    const scope = scopes.getStore();
    if (scope) scope.wrote = true;
    await this.primary.beginTransaction(await routed.onPrimary(), settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    await this.primary.commitTransaction(await routed.onPrimary());
    routed.inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    await this.primary.rollbackTransaction(await routed.onPrimary());
    routed.inTransaction = false;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    if (routed.primary) await this.primary.releaseConnection(routed.primary);
    routed.primary = undefined;
  }

  async destroy(): Promise<void> {
    await this.primary.destroy();
    await this.replica.destroy();
  }
}

/** PostgreSQL with reads routed as above; the adapter and compiler stay PostgreSQL's own, introspection its own schema's. */
export class RoutingPostgresDialect extends OwnSchemaPostgresDialect {
  constructor(private readonly pools: { primary: pg.Pool; replica: pg.Pool }) {
    super({ pool: pools.primary });
  }

  override createDriver(): Driver {
    return new RoutingDriver(new PostgresDriver({ pool: this.pools.primary }), new PostgresDriver({ pool: this.pools.replica }));
  }
}
