import { isElevated, type RequestContext } from '../../http/context.js';
import { EncodedJson } from '../../http/wire.js';
import { cachedListingPage, readListingVersion } from './store-listing.js';

/**
 * A catalog listing answer (a query page, a search with its aggregations), encoded, kept while the
 * site's listing version holds (store-listing.ts): the same request answers from memory until a
 * catalog write commits. `parts` is everything of the request the answer depends on besides who asks
 * (visitors see visible products only, elevated callers more) and the origin (absolute media URLs).
 * `build` gets the version it is built under (undefined inside a transaction, where nothing is kept).
 */
export async function listingAnswer(ctx: RequestContext, parts: unknown[], build: (version: number | undefined) => Promise<string>): Promise<EncodedJson> {
  const version = await readListingVersion(ctx.db, ctx.site.id);
  if (version === undefined) return new EncodedJson(await build(undefined));
  const key = JSON.stringify([isElevated(ctx.caller), ctx.origin, ...parts]);
  return cachedListingPage(ctx.db, ctx.site.id, version, key, () => build(version));
}
