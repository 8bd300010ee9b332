/**
 * V1 products as cart and checkout lines read them: the visitor view (media URLs absolute), without
 * collection ids (a line never shows them, and reading them was a statement of its own). Every call
 * reads the stored documents, so a price is never older than the row; what is kept per process is
 * only the parse and presentation of a document whose stored text is unchanged: an add-to-cart of a
 * 20-line cart parsed and presented all 20 documents each time (about 0.4 ms of its 4 ms).
 */
import type { ProductV1 as WireProductV1 } from '@vitrine/types/stores';
import { isElevated, type RequestContext } from '../../http/context.js';
import { presentProduct } from './present.js';
import { toProduct } from './store.js';
import { findProductRowsForLines, type LineProductRow } from './store-lines.js';

/** A product for a line: the visitor view without `collectionIds`. Shared between calls: never change it. */
export type LineProductV1 = Readonly<Omit<WireProductV1, 'collectionIds'>>;

/** Documents kept per process (oldest dropped first); a cart's products are a store's popular few. */
export const LINE_PRODUCTS_CACHE_MAX = 1_000;

interface Entry { doc: string; createdDate: string; lastUpdated: string; origin: string; product: LineProductV1 }
const presented = new Map<string, Entry>();

/** Products of `ids` the caller may see (visible ones, all for elevated callers), in no particular order. */
export async function getProductsForLines(ctx: RequestContext, ids: string[]): Promise<LineProductV1[]> {
  const rows = await findProductRowsForLines(ctx.db, ctx.site.id, ids);
  const elevated = isElevated(ctx.caller);
  const out: LineProductV1[] = [];
  for (const row of rows) if (row.visible === 1 || elevated) out.push(lineProduct(ctx, row));
  return out;
}

function lineProduct(ctx: RequestContext, row: LineProductRow): LineProductV1 {
  // PostgreSQL hands jsonb over parsed: nothing to save there, and no text to compare.
  if (typeof row.doc !== 'string') return present(ctx, row);
  const key = `${ctx.site.id}\u0000${row.id}`;
  const hit = presented.get(key);
  if (hit && hit.doc === row.doc && hit.createdDate === row.created_date && hit.lastUpdated === row.last_updated && hit.origin === ctx.origin) return hit.product;
  const product = deepFreeze(present(ctx, row));
  presented.delete(key);
  if (presented.size >= LINE_PRODUCTS_CACHE_MAX) presented.delete(presented.keys().next().value!);
  presented.set(key, { doc: row.doc, createdDate: row.created_date, lastUpdated: row.last_updated, origin: ctx.origin, product });
  return product;
}

function present(ctx: RequestContext, row: LineProductRow): LineProductV1 {
  const { collectionIds: _none, ...product } = presentProduct(ctx, toProduct(row, []), false);
  return product;
}

/** Frozen all the way down, so a caller that changed a shared product would fail loudly instead of changing the next caller's. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
