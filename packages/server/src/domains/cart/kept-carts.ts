import { deepFreeze } from '../../deep-freeze.js';
import { LruMap, LruMaps } from '../../lru-map.js';
import type { Executor } from '../../storage/database.js';
import type { StoredCart } from './model.js';

/**
 * Carts this process read or wrote last, per owner, frozen. Never an answer by themselves: a read
 * answers a kept cart only when the row is at the kept id and revision (store.ts), and a write that
 * starts from one without reading (service.ts) is the guarded update at that revision, which fails
 * when any process wrote the cart since, and is then made again from the row. What they save is the
 * document's text: read, parsed and rebuilt on every call (about 4 KB for a 20-line cart).
 *
 * Kept per database handle (a test process serves several databases), and only for the handle
 * itself: what a transaction reads or writes may still roll back, so it neither takes nor leaves one.
 */

/**
 * What is kept per database handle, in lines (a cart weighs its lines plus one; least recently used
 * dropped first): 250 carts of 20 lines, or fewer big ones (a cart may hold 300). A kept line holds on
 * to its resolution and wire bytes too (catalog-lines.ts, present.ts), about 3 KB in
 * all, so this is about 15 MB at most; the RSS target is 200 MB (docs/performance.md).
 */
export const KEPT_CART_LINES = 5_000;

const kept = new LruMaps<string, StoredCart>(() => new LruMap(KEPT_CART_LINES, (cart) => cart.doc.lineItems.length + 1));

const keyOf = (siteId: string, ownerKey: string) => `${siteId}\u0000${ownerKey}`;

const cartsOf = (db: Executor): LruMap<string, StoredCart> | undefined => (db.isTransaction ? undefined : kept.of(db));

/** The owner's cart as this process last saw it, or undefined; possibly stale (see above). */
export function keptCart(db: Executor, siteId: string, ownerKey: string): StoredCart | undefined {
  return cartsOf(db)?.get(keyOf(siteId, ownerKey));
}

/** Keeps `cart` (frozen: callers build changed carts as new objects) and answers it. */
export function keepCart(db: Executor, siteId: string, cart: StoredCart): StoredCart {
  const carts = cartsOf(db);
  if (!carts) return cart;
  const frozen = deepFreeze(cart);
  carts.set(keyOf(siteId, cart.ownerKey), frozen);
  return frozen;
}

/** Drops what is kept for an owner (its cart was deleted or moved). */
export function forgetCart(db: Executor, siteId: string, ownerKey: string): void {
  cartsOf(db)?.delete(keyOf(siteId, ownerKey));
}
