import { sql } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { COUNT_KEY_MAX, CountsWhileUnchanged, SiteVersion, STALE_BOUND_MS } from '../../storage/site-versions.js';
import { LruMap, LruMaps } from '../../lru-map.js';
import { EncodedJson } from '../../http/wire.js';

/**
 * Counts and encoded pages of V1 product queries, reused while the site's listing has not changed.
 *
 * A query page's COUNT(*) walks every matching index entry, so it grows with the catalog (a quarter
 * of 100,000 products for one brand filter) while the page itself stays 20 rows. Each site has a
 * listing version (`catalog_versions`, storage/site-versions.ts says why reuse under it is exact),
 * raised after every committed write to `products` or `product_collections` (stock changes
 * included: they rewrite the product row). A count is cached under (site, version, SQL,
 * parameters); an encoded page (what a visitor's offset-paged query answers) under (site, version,
 * the query and who asks).
 */

/** Cached counts per database handle (least recently used dropped beyond this many). */
export const LISTING_COUNT_CACHE_SIZE = 2000;

declare module '../../storage/schema.js' {
  interface Database {
    catalog_versions: { site_id: string; version: number };
  }
}

const listing = new SiteVersion('catalog_versions');
const counts = new CountsWhileUnchanged(listing, LISTING_COUNT_CACHE_SIZE);

/** Records that this write changes the site's product listing (raised once the write commits). */
export async function listingChanged(db: Executor, siteId: string): Promise<void> {
  await listing.changed(db, siteId);
}

/**
 * The site's listing version as this handle sees it now, or undefined inside a transaction (which
 * may see its own uncommitted writes, so nothing it reads is cached). One indexed read; on SQLite
 * none while nothing at all was committed since this handle last read it (storage/vouched-reads.ts):
 * every kept catalog answer is this read and a lookup, and the statement was the larger part.
 */
export async function readListingVersion(db: Executor, siteId: string): Promise<number | undefined> {
  const version = await listing.read(db, siteId);
  return version === undefined ? undefined : noteListingVersion(db, siteId, version);
}

/** Sites whose last read listing version a database handle remembers (least recently used dropped first). */
export const SEEN_LISTING_VERSIONS = 10_000;
const seenVersions = new LruMaps<string, number>(() => new LruMap(SEEN_LISTING_VERSIONS));

/**
 * Remembers `version` as the site's listing version this handle read last (outside a transaction,
 * whose reads may be its own uncommitted writes) and answers it. Every read of the version notes it.
 */
export function noteListingVersion(db: Executor, siteId: string, version: number): number {
  if (db.isTransaction) return version;
  // Product gets read the version on every call: an unchanged one is not set again (a set reorders the map).
  const seen = seenVersions.of(db);
  if (seen.get(siteId) !== version) seen.set(siteId, version);
  return version;
}

/**
 * The listing version this handle read last for the site, or undefined: possibly stale (another
 * process or request may have raised it since), so only for a write whose statement checks that the
 * version is still this one (cart/store.ts#updateCart), never for an answer by itself.
 */
export function seenListingVersion(db: Executor, siteId: string): number | undefined {
  return db.isTransaction ? undefined : seenVersions.of(db).get(siteId);
}

/**
 * The listing version as a scalar subquery (0 when the site never wrote one), for a statement that
 * reads it beside other versions in one go: a cart's estimate reads it with the cart's revision and
 * the pricing version (cart/estimate.ts), one round trip instead of three.
 */
export const listingVersionSubquery = (siteId: unknown) => sql<number>`COALESCE((SELECT version FROM catalog_versions WHERE site_id = ${siteId}), 0)`;

/**
 * `count()` for `key`, from the cache while the site's listing version is unchanged. `version` is
 * the one the caller already read (readListingVersion), else it is read here.
 */
export async function cachedListingCount(db: Executor, siteId: string, key: string, count: () => Promise<number>, version?: number): Promise<number> {
  return counts.count(db, siteId, key, count, version);
}

/** Bytes of encoded pages kept per database handle (least recently used dropped beyond it). */
export const LISTING_PAGE_CACHE_BYTES = 4 * 1024 * 1024;
/** Largest encoded page kept; bigger ones are built every time so a few cannot push out the rest. */
export const LISTING_PAGE_MAX_BYTES = 256 * 1024;

interface KeptPage { answer: EncodedJson; at: number }
const pageCaches = new LruMaps<string, KeptPage>(() => new LruMap(LISTING_PAGE_CACHE_BYTES, (page) => page.answer.bytes().length));

/**
 * The encoded page for `key` under listing `version` (readListingVersion): from the cache while the
 * version is unchanged and the entry younger than STALE_BOUND_MS, else built by `build` and
 * kept. Keys longer than COUNT_KEY_MAX are never kept. A kept page is its UTF-8 bytes only:
 * a page of 20 products is tens of kilobytes, which were encoded again for every answer when the
 * text was kept.
 */
export async function cachedListingPage(db: Executor, siteId: string, version: number, key: string, build: () => Promise<string>): Promise<EncodedJson> {
  if (key.length > COUNT_KEY_MAX) return new EncodedJson(await build());
  const fullKey = `${siteId}\u0000${version}\u0000${key}`;
  const cache = pageCaches.of(db);
  const now = Date.now();
  const hit = cache.get(fullKey);
  if (hit && now - hit.at < STALE_BOUND_MS) return hit.answer;
  const answer = new EncodedJson(await build()).toKeep();
  if (answer.bytes().length > LISTING_PAGE_MAX_BYTES) cache.delete(fullKey);
  else cache.set(fullKey, { answer, at: now });
  return answer;
}
