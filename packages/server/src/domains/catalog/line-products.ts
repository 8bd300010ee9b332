/**
 * V1 products as cart and checkout lines read them: the visitor view (media URLs absolute), without
 * collection ids (a line never shows them, and reading them was a statement of its own). Kept per
 * process: the parse and presentation of a document whose stored text is unchanged (an add-to-cart of
 * a 20-line cart parsed and presented all 20 documents each time, about 0.4 ms of its 4 ms), and the
 * catalog listing version it was read at. Outside a transaction, when every product asked for was read
 * at the site's current listing version, that version is the only statement: reading 20 documents
 * was the largest statement of an add-to-cart. Every product write raises the version after it
 * commits and before it answers, as for the cached listing pages (docs/catalog.md). Inside a
 * transaction (placing an order) the rows are always read, so what is charged is the row as it is.
 */
import type { ProductV1 as WireProductV1 } from '@vitrine/types/stores';
import { deepFreeze } from '../../deep-freeze.js';
import { LruMap } from '../../lru-map.js';
import { isElevated, type RequestContext } from '../../http/context.js';
import { presentProduct } from './present.js';
import { toProduct } from './store.js';
import { findProductRowsForLines, type LineProductRow } from './store-lines.js';
import { readListingVersion } from './store-listing.js';

/** A product for a line: the visitor view without `collectionIds`. Shared between calls: never change it. */
export type LineProductV1 = Readonly<Omit<WireProductV1, 'collectionIds'>>;

/** Documents kept per process (least recently used dropped first); a cart's products are a store's popular few. */
export const LINE_PRODUCTS_CACHE_MAX = 1_000;

interface Entry {
  siteId: string;
  /** The stored text (SQLite); null where the driver hands the document over parsed (PostgreSQL jsonb). */
  doc: string | null; createdDate: string; lastUpdated: string; origin: string; product: LineProductV1; visible: boolean;
  /** The listing version read before the row, or undefined for a row read inside a transaction. */
  version: number | undefined;
}
/**
 * Keyed by product id alone (the products table's primary key, unique across sites; the entry's site
 * is compared all the same): a key joining site and id is a new string on every lookup, hashed
 * whole each time (several lookups per cart line).
 */
const presented = new LruMap<string, Entry>(LINE_PRODUCTS_CACHE_MAX);

/**
 * Products of `ids` the caller may see (visible ones, all for elevated callers), in no particular order.
 * `version` is the site's listing version when the caller read it just before (readListingVersion).
 */
export async function getProductsForLines(ctx: RequestContext, ids: string[], version?: number): Promise<LineProductV1[]> {
  const elevated = isElevated(ctx.caller);
  version ??= await readListingVersion(ctx.db, ctx.site.id);
  const kept = version === undefined ? undefined : keptAt(ctx, ids, version);
  if (kept) return kept.filter((e) => e.visible || elevated).map((e) => e.product);
  const rows = await findProductRowsForLines(ctx.db, ctx.site.id, ids);
  const out: LineProductV1[] = [];
  // Hidden products are kept too (their entry says so): a cart holding one would otherwise miss the
  // kept path and read every row of the cart on each call.
  for (const row of rows) {
    const product = lineProduct(ctx, row, version);
    if (row.visible === 1 || elevated) out.push(product);
  }
  return out;
}

/** The entries of `ids` when every one was read at `version` for this origin, else undefined. */
function keptAt(ctx: RequestContext, ids: string[], version: number): Entry[] | undefined {
  const out: Entry[] = [];
  for (const id of new Set(ids)) {
    const hit = presented.get(id);
    if (!hit || hit.siteId !== ctx.site.id || hit.version !== version || hit.origin !== ctx.origin) return undefined;
    out.push(hit);
  }
  return out;
}

function lineProduct(ctx: RequestContext, row: LineProductRow, version: number | undefined): LineProductV1 {
  // PostgreSQL hands jsonb over parsed: no text to compare, so such an entry serves only its version.
  const text = typeof row.doc === 'string' ? row.doc : null;
  if (text === null && version === undefined) return present(ctx, row);
  const hit = presented.get(row.id);
  if (hit && hit.siteId === ctx.site.id && text !== null && hit.doc === text && hit.createdDate === row.created_date && hit.lastUpdated === row.last_updated && hit.origin === ctx.origin && hit.visible === (row.visible === 1)) {
    if (version !== undefined) hit.version = version;
    return hit.product;
  }
  const product = deepFreeze(present(ctx, row));
  presented.set(row.id, { siteId: ctx.site.id, doc: text, createdDate: row.created_date, lastUpdated: row.last_updated, origin: ctx.origin, product, visible: row.visible === 1, version });
  return product;
}

function present(ctx: RequestContext, row: LineProductRow): LineProductV1 {
  const { collectionIds: _none, ...product } = presentProduct(ctx, toProduct(row, []), false);
  return product;
}
