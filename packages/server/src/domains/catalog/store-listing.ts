import { sql } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { afterCommit } from '../../storage/transaction.js';

/**
 * Counts of V1 product queries, reused while the site's listing has not changed.
 *
 * A query page's COUNT(*) walks every matching index entry, so it grows with the catalog (a quarter
 * of 100,000 products for one brand filter) while the page itself stays 20 rows. Each site has a
 * listing version (`catalog_versions`), raised after every committed write to `products` or
 * `product_collections` (stock changes included: they rewrite the product row). A count is cached
 * under (site, version, SQL, parameters).
 *
 * Why it stays exact: readers read the version BEFORE counting, writers raise it AFTER their commit.
 * A count cached under version v was therefore taken no earlier than v was current, and every write
 * it could have missed raises the version past v once committed. Reads inside a transaction never use
 * the cache (they may see their own uncommitted writes). If a process dies between its commit and the
 * raise, entries of other processes stay stale for at most LISTING_COUNT_TTL_MS.
 */

/** Cached counts per database handle (least recently used dropped beyond this many). */
export const LISTING_COUNT_CACHE_SIZE = 2000;
/** Longest query key cached (SQL + parameters); longer ones (e.g. 1000 `$in` values) are counted each time, so the cache stays within ~LISTING_COUNT_CACHE_SIZE x this many characters. */
export const LISTING_COUNT_KEY_MAX = 4096;
/** Upper bound of staleness if a version raise is lost (process killed right after a commit). */
export const LISTING_COUNT_TTL_MS = 30_000;

declare module '../../storage/schema.js' {
  interface Database {
    catalog_versions: { site_id: string; version: number };
  }
}

/** Records that this write changes the site's product listing (raised once the write commits). */
export async function listingChanged(db: Executor, siteId: string): Promise<void> {
  await afterCommit(db, async (root) => {
    try {
      await sql`INSERT INTO catalog_versions (site_id, version) VALUES (${siteId}, 1)
        ON CONFLICT (site_id) DO UPDATE SET version = catalog_versions.version + 1`.execute(root);
    } catch {
      // The write itself is committed; a lost raise only leaves cached counts for the TTL.
    }
  });
}

interface Entry { total: number; at: number }
const caches = new WeakMap<object, Map<string, Entry>>();

/** `count()` for `key`, from the cache while the site's listing version is unchanged. */
export async function cachedListingCount(db: Executor, siteId: string, key: string, count: () => Promise<number>): Promise<number> {
  if (db.isTransaction || key.length > LISTING_COUNT_KEY_MAX) return count();
  const row = await db.selectFrom('catalog_versions').select('version').where('site_id', '=', siteId).executeTakeFirst();
  const fullKey = `${siteId}\u0000${row?.version ?? 0}\u0000${key}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(fullKey);
  if (hit && now - hit.at < LISTING_COUNT_TTL_MS) {
    cache.delete(fullKey);
    cache.set(fullKey, hit);
    return hit.total;
  }
  const total = await count();
  if (hit) cache.delete(fullKey);
  else if (cache.size >= LISTING_COUNT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(fullKey, { total, at: now });
  return total;
}
