import { LruMap } from '../../lru-map.js';

/**
 * Resolved cart lines kept per process, one entry per cart line.
 *
 * A V1 line is resolved from a product object the catalog keeps, frozen, while the product's stored
 * document is unchanged (catalog/line-products.ts): the same object means the same document. So what
 * a line resolves to (variant, prices, description, image, url) holds while the product object,
 * quantity, catalog reference, currency and origin it was made from are the ones asked for now. An
 * add-to-cart of a 20-line cart resolved and presented all 20 lines every time; now only the line that
 * changed is made again (its wire bytes are kept with it: present.ts).
 */

/**
 * Cart lines kept (least recently used dropped first): the lines of 50 busy carts of 20 lines, or 250
 * of 4. About 3 KB each with their wire bytes (3.3 MB more heap than without, measured full): at
 * 2,000 the server passed its RSS target of 200 MB in the bench (docs/performance-log.md).
 */
export const KEPT_CART_LINES_MAX = 1_000;

/** Everything a kept line was made from besides its id. */
export interface LineSource {
  /** The catalog's kept product object (compared by identity). */
  product: object;
  quantity: number;
  /** The stored catalog reference as JSON text (variant, options, custom text fields). */
  reference: string;
  currency: string;
  origin: string;
}

const sameSource = (a: LineSource, b: LineSource) =>
  a.product === b.product && a.quantity === b.quantity && a.reference === b.reference && a.currency === b.currency && a.origin === b.origin;

export class KeptLines<T> {
  private readonly entries: LruMap<string, { source: LineSource; value: T }>;

  constructor(max = KEPT_CART_LINES_MAX) {
    this.entries = new LruMap(max);
  }

  /**
   * The value kept for `key` (a line id) when it was made from `source`, else `make(...)` (kept in its
   * place), given what was kept for the key before when only the quantity differs: the rest of the
   * value still holds then. The key needs no site: a kept product object belongs to one site
   * (line-products.ts).
   */
  get(key: string, source: LineSource, make: (sameButQuantity?: T) => T): T {
    const hit = this.entries.get(key);
    if (hit && sameSource(hit.source, source)) return hit.value;
    const value = make(hit && sameSource(hit.source, { ...source, quantity: hit.source.quantity }) ? hit.value : undefined);
    this.entries.set(key, { source, value });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
