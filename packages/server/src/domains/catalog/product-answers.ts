import { isElevated, type PeekContext, type RequestContext } from '../../http/context.js';
import type { Executor } from '../../storage/database.js';
import type { EncodedJson } from '../../http/wire.js';
import { LruMap, LruMaps } from '../../lru-map.js';
import { readListingVersion } from './store-listing.js';
import { STALE_BOUND_MS } from '../../storage/site-versions.js';

/**
 * A visitor's answer to a product get (V1 or V3), encoded, kept while the site's listing version
 * holds: a repeated get is the version read and a map lookup, where it was the product's statement
 * (a correlated subquery for its collections on V1), the document's presentation and its encoding
 * into bytes. The version says when an answer may be stale, exactly as for kept query pages
 * (store-listing.ts): every write to a product row or its collections raises it once committed, and
 * the version is read before the product, so an answer is never older than the version it is kept
 * under. Elevated callers (who see hidden products and merchant data) are answered fresh every time.
 * Kept apart from the query pages' cache (cachedListingPage): an entry per product is replaced in
 * place when the version moves (a page's key holds its version, so old pages wait for the bound), and
 * it keeps the answer's bytes, which the direct lane sends as they are.
 */

/** Bytes of kept answers per database handle (an answer is kept as its UTF-8 bytes only, as sent). */
export const PRODUCT_ANSWERS_BYTES = 2 * 1024 * 1024;

interface Kept { siteId: string; version: number; origin: string; at: number; answer: EncodedJson }
const caches = new LruMaps<string, Kept>(() => new LruMap(PRODUCT_ANSWERS_BYTES, (kept) => kept.answer.bytes().length));

/** The answer kept under `key` that still holds at `version`, if any. */
function stillKept(db: Executor, key: string, siteId: string, origin: string, version: number, now: number): EncodedJson | undefined {
  const kept = caches.of(db).get(key);
  return kept && kept.version === version && kept.siteId === siteId && kept.origin === origin && now - kept.at < STALE_BOUND_MS ? kept.answer : undefined;
}

/**
 * The answer kept under `key` (the catalog, the product and whatever else the answer depends on
 * besides who asks and the origin), or the one `build` makes, kept when the caller is a visitor or
 * member. `build` throws for a product the caller may not see; nothing is kept then.
 */
export async function keptProductAnswer(ctx: RequestContext, key: string, build: () => Promise<EncodedJson>): Promise<EncodedJson> {
  if (isElevated(ctx.caller)) return build();
  const version = await readListingVersion(ctx.db, ctx.site.id);
  if (version === undefined) return build();
  const now = Date.now();
  const kept = stillKept(ctx.db, key, ctx.site.id, ctx.origin, version, now);
  if (kept) return kept;
  const answer = (await build()).toKeep();
  caches.of(ctx.db).set(key, { siteId: ctx.site.id, version, origin: ctx.origin, at: now, answer });
  return answer;
}

/**
 * The answer `keptProductAnswer` would send now for `key` without building one: the kept answer
 * when it still holds for this caller (the listing version read now), else undefined.
 */
export async function peekProductAnswer(peek: PeekContext, key: string): Promise<EncodedJson | undefined> {
  if (isElevated(peek.caller)) return undefined;
  const version = await readListingVersion(peek.db, peek.site.id);
  return version === undefined ? undefined : stillKept(peek.db, key, peek.site.id, peek.origin, version, Date.now());
}
