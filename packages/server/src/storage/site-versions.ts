import { sql } from 'kysely';
import type { Executor } from './database.js';
import { preparedQuery, type PreparedQuery } from './prepared.js';
import { afterCommit } from './transaction.js';
import { VouchedReads } from './vouched-reads.js';
import { LruMap, LruMaps } from '../lru-map.js';

/**
 * A per-site version of one kind of rows (a site's products, its members), raised after every
 * committed write to them, so that what was computed from those rows (a count, an encoded page) can be
 * reused while the version is the one it was computed under.
 *
 * Why a reuse stays exact: readers read the version BEFORE computing, writers raise it AFTER their
 * commit (and before they answer, so a client reads its own writes). What was cached under version v
 * was therefore computed no earlier than v was current, and every write it could have missed raises
 * the version past v once committed. Reads inside a transaction never use it (they may see their own
 * uncommitted writes). If a process dies between its commit and the raise, what other processes keep
 * stays stale for at most STALE_BOUND_MS.
 */

/** Upper bound of staleness if a version raise is lost (process killed right after a commit). */
export const STALE_BOUND_MS = 30_000;

/** Sites whose version a database handle keeps as read (least recently used dropped first). */
const VOUCHED_SITES = 10_000;

export class SiteVersion {
  /** Versions read, per site, current while nothing is committed (storage/vouched-reads.ts). */
  private readonly vouched = new VouchedReads<number>(VOUCHED_SITES);
  private readonly select: PreparedQuery<{ siteId: string }, { version: number }>;

  /**
   * `table`: the domain's table of versions, one row per site (`site_id` text primary key, `version`
   * integer, made by the domain's migration); no row reads as version 0.
   */
  constructor(private readonly table: string) {
    this.select = preparedQuery((_db, p: { siteId: string }) => sql<{ version: number }>`SELECT version FROM ${sql.table(table)} WHERE site_id = ${p.siteId}`);
  }

  /** Records that this write changes the site's rows of this kind (the version is raised once the write commits). */
  async changed(db: Executor, siteId: string): Promise<void> {
    await afterCommit(db, async (root) => {
      try {
        await sql`INSERT INTO ${sql.table(this.table)} (site_id, version) VALUES (${siteId}, 1)
          ON CONFLICT (site_id) DO UPDATE SET version = ${sql.table(this.table)}.version + 1`.execute(root);
      } catch {
        // The write itself is committed; a lost raise only leaves what was cached for STALE_BOUND_MS.
      }
    });
  }

  /**
   * The site's version as this handle sees it now, or undefined inside a transaction (which may see
   * its own uncommitted writes, so nothing it reads is reused). One indexed read; on SQLite none while
   * nothing at all was committed since this handle last read it.
   */
  async read(db: Executor, siteId: string): Promise<number | undefined> {
    if (db.isTransaction) return undefined;
    return this.vouched.read(db, siteId, async () => (await this.select.run(db, { siteId })).rows[0]?.version ?? 0);
  }
}

/** Longest count key kept; longer ones (e.g. a filter with 1,000 `$in` values) are counted each time, so a cache stays within its size x this many characters. */
export const COUNT_KEY_MAX = 4096;

/**
 * Counts (a page's total) kept per database handle under the site's version of the rows they count:
 * a COUNT(*) walks every matching index entry, so it grows with the site while the page beside it
 * stays one page.
 */
export class CountsWhileUnchanged {
  private readonly caches: LruMaps<string, { total: number; at: number }>;

  /** `size`: counts kept per database handle, least recently used dropped first. */
  constructor(private readonly version: SiteVersion, size: number) {
    this.caches = new LruMaps(() => new LruMap(size));
  }

  /**
   * `count()` for `key` (whatever decides the count besides the site: the statement and its
   * parameters), from the cache while the site's version is unchanged. `version`: the one the caller
   * already read (SiteVersion#read), else it is read here.
   */
  async count(db: Executor, siteId: string, key: string, count: () => Promise<number>, version?: number): Promise<number> {
    if (db.isTransaction || key.length > COUNT_KEY_MAX) return count();
    const fullKey = `${siteId}\u0000${version ?? await this.version.read(db, siteId)}\u0000${key}`;
    const cache = this.caches.of(db);
    const now = Date.now();
    const hit = cache.get(fullKey);
    if (hit && now - hit.at < STALE_BOUND_MS) return hit.total;
    const total = await count();
    cache.set(fullKey, { total, at: now });
    return total;
  }
}
