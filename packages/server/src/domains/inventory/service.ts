import type { RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound, ValidationError, type FieldViolation } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { readRowsStayAsRead } from '../../storage/locks.js';
import { isUniqueViolation } from '../../storage/errors.js';
import {
  addPreorderUnits, DEFAULT_LOCATION_ID, deleteStaleReservations, findItem, findItemOf, findItemsByIds, findItemsOf, findItemsWithReserved, findReservation, giveUnits, insertUncountedLine,
  lockAndFindItems, reservedByItem, reserveUnits, setStock, takeUnits, transitionReservation, type InventoryRow, type ReservationLine, type StockPatch,
} from './store.js';

/** How long a reservation holds stock unless the caller says otherwise. */
export const RESERVATION_TTL_MS = 15 * 60_000;

export const INVENTORY_LIMITS = {
  /** Lines (changes) in one reserve / adjust call. */
  linesPerCall: 1_000,
  /** Units in one line, and the most a tracked quantity holds where a caller asks for a bound. */
  unitsMax: 99_999_999,
  /** The latest a reservation may expire, from now. */
  reservationTtlMaxMs: 24 * 60 * 60_000,
  /** Characters of a reservation id / owner. */
  reservationIdLength: 200,
  /** Committed reservations are kept this long by prune, so that a late release is still refused. */
  committedRetentionMs: 7 * 24 * 60 * 60_000,
} as const;

/** Names an item: by id, or a product's variant at a location (default: the default location). */
export type ItemRef = { inventoryItemId: string } | { productId: string; variantId: string; locationId?: string | undefined };

/** Why units could not be taken or held: names the first item that could not serve its line. */
export class InsufficientStockError extends ApplicationError {
  constructor(line: { productId: string; variantId: string; quantity: number }) {
    super(409, 'INSUFFICIENT_STOCK', `Not enough stock of product ${line.productId} variant ${line.variantId}`, { productId: line.productId, variantId: line.variantId, requested: line.quantity });
  }
}

/** An increment would take a quantity past the bound the caller gave. */
export class QuantityLimitError extends ApplicationError {
  constructor(item: InventoryRow, max: number) {
    super(409, 'MAX_QUANTITY_LIMIT_REACHED', `Item ${item.id} would hold more than ${max}`, { inventoryItemId: item.id, max });
  }
}

// ---------------------------------------------------------------------------------------------
// Listeners: the catalog keeps documents derived from stock (storefront availability). Inventory
// cannot import the catalog (the catalog imports inventory), so the catalog registers here and is
// told, inside the change's transaction, which items' on-hand stock changed.

/**
 * `raised`: some change may have added sellable stock (an increment or a set). A change that only
 * took stock (a sale, a committed reservation) cannot bring an item back, so listeners waiting for
 * that may skip their lookups.
 */
export type StockListener = (ctx: RequestContext, changed: InventoryRow[], how: { raised: boolean }) => Promise<void>;
const listeners: StockListener[] = [];

export function onStockChanged(listener: StockListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

async function notify(ctx: RequestContext, changed: InventoryRow[], how: { raised: boolean }): Promise<void> {
  if (changed.length === 0) return;
  for (const l of listeners) await l(ctx, changed, how);
}

// ---------------------------------------------------------------------------------------------

function checkUnits(units: number, field: string, v: FieldViolation[]): void {
  if (!Number.isInteger(units) || units < 1 || units > INVENTORY_LIMITS.unitsMax) {
    v.push({ field, description: `must be an integer from 1 to ${INVENTORY_LIMITS.unitsMax}`, violatedRule: 'MAX', data: { min: 1, max: INVENTORY_LIMITS.unitsMax } });
  }
}

function checkLineCount(count: number, field: string): void {
  if (count < 1 || count > INVENTORY_LIMITS.linesPerCall) {
    throw new ValidationError([{ field, description: `give 1 to ${INVENTORY_LIMITS.linesPerCall} lines`, violatedRule: 'MAX_SIZE', data: { max: INVENTORY_LIMITS.linesPerCall } }]);
  }
}

async function resolve(ctx: RequestContext, ref: ItemRef): Promise<InventoryRow | undefined> {
  if ('inventoryItemId' in ref) return findItem(ctx.db, ctx.site.id, ref.inventoryItemId);
  return findItemOf(ctx.db, ctx.site.id, ref.productId, ref.variantId, ref.locationId ?? DEFAULT_LOCATION_ID);
}

/** `resolve` for many refs with at most two statements (by item id, by product / variant / location); answers in ref order. */
async function resolveMany(ctx: RequestContext, refs: ItemRef[]): Promise<(InventoryRow | undefined)[]> {
  const byId = refs.flatMap((r) => ('inventoryItemId' in r ? [r.inventoryItemId] : []));
  const byVariant = refs.flatMap((r) => ('inventoryItemId' in r ? [] : [{ productId: r.productId, variantId: r.variantId, locationId: r.locationId ?? DEFAULT_LOCATION_ID }]));
  const [ids, variants] = [await findItemsByIds(ctx.db, ctx.site.id, [...new Set(byId)]), await findItemsOf(ctx.db, ctx.site.id, byVariant)];
  const idMap = new Map(ids.map((r) => [r.id, r]));
  const key = (p: string, v: string, l: string) => `${p}\u0000${v}\u0000${l}`;
  const variantMap = new Map(variants.map((r) => [key(r.productId, r.variantId, r.locationId), r]));
  return refs.map((r) => ('inventoryItemId' in r ? idMap.get(r.inventoryItemId) : variantMap.get(key(r.productId, r.variantId, r.locationId ?? DEFAULT_LOCATION_ID))));
}

function missing(ref: ItemRef): ApplicationError {
  if ('inventoryItemId' in ref) return notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${ref.inventoryItemId} not found`, { inventoryItemId: ref.inventoryItemId });
  const at = ref.locationId && ref.locationId !== DEFAULT_LOCATION_ID ? { locationId: ref.locationId } : {};
  return notFound('VARIANT_NOT_FOUND', `Product ${ref.productId} has no variant ${ref.variantId}`, { productId: ref.productId, variantId: ref.variantId, ...at });
}

/** Locks the items in id order and reads them under the lock (one statement). */
async function lockAndRead(ctx: RequestContext, ids: string[]): Promise<Map<string, InventoryRow>> {
  return new Map((await lockAndFindItems(ctx.db, ctx.site.id, ids)).map((r) => [r.id, r]));
}

/** `lockAndRead` of rows this transaction has just resolved; no second read where they stay as read (SQLite). */
async function lockResolved(ctx: RequestContext, resolved: InventoryRow[]): Promise<Map<string, InventoryRow>> {
  if (readRowsStayAsRead(ctx.db)) return new Map(resolved.map((r) => [r.id, r]));
  return lockAndRead(ctx, resolved.map((r) => r.id));
}

const short = (row: InventoryRow, quantity: number) => new InsufficientStockError({ productId: row.productId, variantId: row.variantId, quantity });

// ---------------------------------------------------------------------------------------------
// Owner and checkout stock calls.

export type StockChange = ItemRef & (
  /** Takes units for good; `restrict: false` lets a tracked quantity go below zero without bound. */
  | { decrement: number; restrict?: boolean | undefined }
  /** Gives units back; `max` bounds the resulting quantity (none: unbounded). Untracked items: no-op. */
  | { increment: number; max?: number | undefined }
  /** Counts preordered units on a preorder-enabled item (within its limit) without touching quantity. */
  | { preorder: number }
  | { set: StockPatch }
);

/**
 * Applies every change or none, in one transaction (the caller's, if any), the items locked in id
 * order first. Decrements honour active reservations and preorder limits; an untracked item takes a
 * decrement while in stock and ignores an increment. Throws InsufficientStockError (409) for the
 * first item in id order that cannot serve its change, QuantityLimitError past an increment's
 * `max`. `ignoreMissing`: changes naming no item are skipped (else 404). Returns the changed items
 * as they are now (the stock listeners have been told).
 */
export async function adjust(ctx: RequestContext, changes: StockChange[], opts: { ignoreMissing?: boolean } = {}): Promise<InventoryRow[]> {
  return (await applyChanges(ctx, changes, opts.ignoreMissing ?? false)).changed;
}

/**
 * `adjust` with `ignoreMissing`, also answering how many changes named an item: a caller that needs
 * to know whether any line has stock at all learns it from the same resolution (an order's stock).
 */
export async function adjustKnown(ctx: RequestContext, changes: StockChange[]): Promise<{ changed: InventoryRow[]; matched: number }> {
  return applyChanges(ctx, changes, true);
}

async function applyChanges(ctx: RequestContext, changes: StockChange[], ignoreMissing: boolean): Promise<{ changed: InventoryRow[]; matched: number }> {
  checkLineCount(changes.length, 'changes');
  const v: FieldViolation[] = [];
  changes.forEach((c, i) => {
    if ('decrement' in c) checkUnits(c.decrement, `changes[${i}].decrement`, v);
    else if ('increment' in c) checkUnits(c.increment, `changes[${i}].increment`, v);
    else if ('preorder' in c) checkUnits(c.preorder, `changes[${i}].preorder`, v);
  });
  if (v.length) throw new ValidationError(v);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const targets: { id: string; change: StockChange }[] = [];
    const resolved = await resolveMany(tctx, changes);
    changes.forEach((change, i) => {
      const row = resolved[i];
      if (row) targets.push({ id: row.id, change });
      else if (!ignoreMissing) throw missing(change);
    });
    const rows = await lockResolved(tctx, resolved.filter((r): r is InventoryRow => r !== undefined));
    // Id order (stable for one item's changes): the first failure is the same whichever order lines came in.
    targets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const now = new Date().toISOString();
    // Each changed item as it is now: from the statement that changed it, or read again after the others.
    const changed = new Map<string, InventoryRow | undefined>();
    for (const { id, change } of targets) {
      const row = rows.get(id);
      if (!row) throw missing(change); // deleted between resolving and locking
      let current: InventoryRow | undefined;
      if ('decrement' in change) {
        if (!row.trackQuantity) {
          if (!row.inStock) throw short(row, change.decrement);
          continue;
        }
        current = await takeUnits(trx, ctx.site.id, id, change.decrement, change.restrict ?? true, now);
        if (!current) throw short(row, change.decrement);
      } else if ('increment' in change) {
        if (!row.trackQuantity) continue;
        current = await giveUnits(trx, ctx.site.id, id, change.increment, change.max, now);
        if (!current) throw new QuantityLimitError(row, change.max ?? INVENTORY_LIMITS.unitsMax);
      } else if ('preorder' in change) {
        if (!(await addPreorderUnits(trx, ctx.site.id, id, change.preorder, now))) throw short(row, change.preorder);
      } else {
        await setStock(trx, ctx.site.id, row, change.set, now);
      }
      // Later changes of the same item (e.g. start tracking, then decrement) see this one.
      if (targets.some((t) => t.id === id && t.change !== change)) {
        current ??= await findItem(trx, ctx.site.id, id);
        if (current) rows.set(id, current);
      }
      changed.set(id, current);
    }
    const unknown = [...changed].filter(([, row]) => !row).map(([id]) => id);
    const reread = new Map((await findItemsByIds(trx, ctx.site.id, unknown)).map((r) => [r.id, r]));
    const after = [...changed].map(([id, row]) => row ?? reread.get(id)).filter((r): r is InventoryRow => r !== undefined)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await notify(tctx, after, { raised: targets.some((t) => 'increment' in t.change || 'set' in t.change) });
    return { changed: after, matched: targets.length };
  });
}

// ---------------------------------------------------------------------------------------------
// Reads.

export interface Availability {
  inventoryItemId: string; productId: string; variantId: string; locationId: string;
  trackQuantity: boolean;
  /** On hand (tracked items; may be negative after preorders). */
  quantity: number | null;
  /** Units held by active, unexpired reservations. */
  reserved: number;
  /** On hand less reserved (tracked items); null when untracked. */
  available: number | null;
  /** Something can be sold now without preordering. */
  inStock: boolean;
  preorder: { enabled: boolean; limit: number | null; counter: number; /** Units still sellable as preorders (null: unbounded or not tracked). */ remaining: number | null; available: boolean };
}

function availabilityOf(row: InventoryRow, reserved: number): Availability {
  const available = row.trackQuantity ? (row.quantity ?? 0) - reserved : null;
  const floor = row.preorderEnabled ? (row.preorderLimit === null ? null : -row.preorderLimit) : 0;
  // Preorder units are the ones below zero, down to the floor.
  const remaining = available === null || floor === null ? null : Math.max(0, Math.min(available, 0) - floor);
  return {
    inventoryItemId: row.id, productId: row.productId, variantId: row.variantId, locationId: row.locationId,
    trackQuantity: row.trackQuantity, quantity: row.trackQuantity ? row.quantity ?? 0 : null, reserved, available,
    inStock: available === null ? row.inStock : available > 0,
    preorder: {
      enabled: row.preorderEnabled, limit: row.preorderLimit, counter: row.preorderCounter,
      remaining: row.preorderEnabled ? remaining : 0,
      available: row.preorderEnabled && (available === null ? !row.inStock : floor === null || available > floor),
    },
  };
}

/** Availability of each named item, in the order asked (404 for a ref naming no item). */
type VariantRef = Exclude<ItemRef, { inventoryItemId: string }>;

/** Availability of variant refs (the cart's case): items and their reserved units in one statement. */
/**
 * Availability of each variant at its location, `undefined` where the variant has no inventory item
 * (one batched read; a cart asks this for every line on every read, and untracked lines are common).
 */
export async function variantAvailabilityIfTracked(ctx: RequestContext, refs: VariantRef[]): Promise<(Availability | undefined)[]> {
  checkLineCount(refs.length, 'items');
  const triples = refs.map((r) => ({ productId: r.productId, variantId: r.variantId, locationId: r.locationId ?? DEFAULT_LOCATION_ID }));
  const found = await findItemsWithReserved(ctx.db, ctx.site.id, triples, new Date().toISOString());
  const key = (p: string, v: string, l: string) => `${p}\u0000${v}\u0000${l}`;
  const byKey = new Map(found.map((f) => [key(f.row.productId, f.row.variantId, f.row.locationId), f]));
  return triples.map((t) => {
    const f = byKey.get(key(t.productId, t.variantId, t.locationId));
    return f ? availabilityOf(f.row, f.reserved) : undefined;
  });
}

async function variantAvailability(ctx: RequestContext, refs: VariantRef[]): Promise<Availability[]> {
  const found = await variantAvailabilityIfTracked(ctx, refs);
  return found.map((a, i) => {
    if (!a) throw missing(refs[i]!);
    return a;
  });
}

export async function availability(ctx: RequestContext, refs: ItemRef[]): Promise<Availability[]> {
  checkLineCount(refs.length, 'items');
  const variants = refs.filter((r): r is VariantRef => !('inventoryItemId' in r));
  if (variants.length === refs.length) return variantAvailability(ctx, variants);
  const rows: InventoryRow[] = [];
  const resolved = await resolveMany(ctx, refs);
  refs.forEach((ref, i) => {
    const row = resolved[i];
    if (!row) throw missing(ref);
    rows.push(row);
  });
  const reserved = await reservedByItem(ctx.db, ctx.site.id, [...new Set(rows.map((r) => r.id))], new Date().toISOString());
  return rows.map((r) => availabilityOf(r, reserved.get(r.id) ?? 0));
}

// ---------------------------------------------------------------------------------------------
// Reservations.

export interface ReserveLine { item: ItemRef; quantity: number }
export interface Reservation { reservationId: string; owner: string | null; expiresAt: string; lines: { inventoryItemId: string; productId: string; variantId: string; locationId: string; quantity: number }[] }

function checkReservationId(id: string, field: string): void {
  if (id.length < 1 || id.length > INVENTORY_LIMITS.reservationIdLength) {
    throw new ValidationError([{ field, description: `must have 1 to ${INVENTORY_LIMITS.reservationIdLength} characters`, violatedRule: 'MAX_LENGTH', data: { max: INVENTORY_LIMITS.reservationIdLength } }]);
  }
}

function expiryOf(expiresAt: Date | undefined, now: Date): string {
  const at = expiresAt ?? new Date(now.getTime() + RESERVATION_TTL_MS);
  const ms = at.getTime() - now.getTime();
  if (!Number.isFinite(ms) || ms <= 0 || ms > INVENTORY_LIMITS.reservationTtlMaxMs) {
    throw new ValidationError([{ field: 'expiresAt', description: `must be in the future, at most ${INVENTORY_LIMITS.reservationTtlMaxMs / 60_000} minutes from now`, violatedRule: 'MAX', data: { maxMs: INVENTORY_LIMITS.reservationTtlMaxMs } }]);
  }
  return at.toISOString();
}

/**
 * Holds stock for `reservationId` until `expiresAt` (default now + RESERVATION_TTL_MS): every line or
 * none, the items locked in id order, each line one guarded statement (tracked: the units must be
 * available, preorder limits included; untracked: the item must be in stock). Lines naming the same
 * item are added up. 409 RESERVATION_EXISTS when the id was used already; 409 INSUFFICIENT_STOCK
 * naming the first short item. Held units stop counting once the reservation expires.
 */
export async function reserve(ctx: RequestContext, lines: ReserveLine[], opts: { reservationId: string; owner?: string | undefined; expiresAt?: Date | undefined }): Promise<Reservation> {
  checkReservationId(opts.reservationId, 'reservationId');
  if (opts.owner !== undefined) checkReservationId(opts.owner, 'owner');
  checkLineCount(lines.length, 'lines');
  const v: FieldViolation[] = [];
  lines.forEach((l, i) => checkUnits(l.quantity, `lines[${i}].quantity`, v));
  if (v.length) throw new ValidationError(v);
  const now = new Date();
  const expiresAt = expiryOf(opts.expiresAt, now);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const units = new Map<string, number>();
    for (const l of lines) {
      const row = await resolve(tctx, l.item);
      if (!row) throw missing(l.item);
      units.set(row.id, (units.get(row.id) ?? 0) + l.quantity);
    }
    const rows = await lockAndRead(tctx, [...units.keys()]);
    if ((await findReservation(trx, ctx.site.id, opts.reservationId)).length > 0) {
      throw conflict('RESERVATION_EXISTS', `Reservation ${opts.reservationId} exists already`, { reservationId: opts.reservationId });
    }
    const at = now.toISOString();
    const result: Reservation = { reservationId: opts.reservationId, owner: opts.owner ?? null, expiresAt, lines: [] };
    for (const id of [...units.keys()].sort()) {
      const row = rows.get(id);
      const quantity = units.get(id)!;
      if (!row) throw notFound('INVENTORY_ITEM_NOT_FOUND', `Inventory item ${id} not found`, { inventoryItemId: id });
      const line = { reservationId: opts.reservationId, itemId: id, quantity, owner: opts.owner ?? null, expiresAt };
      try {
        if (!row.trackQuantity) {
          if (!row.inStock) throw short(row, quantity);
          await insertUncountedLine(trx, ctx.site.id, line, at);
        } else if (!(await reserveUnits(trx, ctx.site.id, line, at))) {
          throw short(row, quantity);
        }
      } catch (error) {
        // Two calls with one new id on different items both passed the check above: the key decides.
        if (isUniqueViolation(error)) throw conflict('RESERVATION_EXISTS', `Reservation ${opts.reservationId} exists already`, { reservationId: opts.reservationId });
        throw error;
      }
      result.lines.push({ inventoryItemId: id, productId: row.productId, variantId: row.variantId, locationId: row.locationId, quantity });
    }
    return result;
  });
}

async function linesOf(ctx: RequestContext, reservationId: string): Promise<ReservationLine[]> {
  checkReservationId(reservationId, 'reservationId');
  const lines = await findReservation(ctx.db, ctx.site.id, reservationId);
  if (lines.length === 0) throw notFound('RESERVATION_NOT_FOUND', `Reservation ${reservationId} not found`, { reservationId });
  return lines;
}

/**
 * Turns an active, unexpired reservation into a permanent decrement of every line, in one
 * transaction with the items locked in id order. Committing a committed reservation changes nothing
 * (a retried checkout gets the same answer). 409 RESERVATION_RELEASED / RESERVATION_EXPIRED; 409
 * INSUFFICIENT_STOCK only when the owner lowered the stock below what was held meanwhile (nothing
 * changes then and the reservation stays active). Returns the changed items.
 */
export async function commit(ctx: RequestContext, reservationId: string): Promise<InventoryRow[]> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const first = await linesOf(tctx, reservationId);
    const rows = await lockAndRead(tctx, first.map((l) => l.itemId));
    // Read again under the locks: a concurrent commit or release of the same id has finished by now.
    const lines = await linesOf(tctx, reservationId);
    const status = lines[0]!.status;
    const data = { reservationId };
    if (status === 'committed') return [];
    if (status === 'released') throw conflict('RESERVATION_RELEASED', `Reservation ${reservationId} was released`, data);
    const now = new Date().toISOString();
    if (lines[0]!.expiresAt <= now) throw conflict('RESERVATION_EXPIRED', `Reservation ${reservationId} expired at ${lines[0]!.expiresAt}`, { ...data, expiresAt: lines[0]!.expiresAt });
    // Committed first, so the guard no longer counts these lines as held by someone else.
    await transitionReservation(trx, ctx.site.id, reservationId, 'active', 'committed', now);
    const changed: string[] = [];
    for (const l of lines) {
      const row = rows.get(l.itemId);
      if (!row || !row.trackQuantity) continue; // a deleted item has nothing left to take; untracked: nothing counted
      if (!(await takeUnits(trx, ctx.site.id, l.itemId, l.quantity, true, now))) throw short(row, l.quantity);
      changed.push(l.itemId);
    }
    const after = await findItemsByIds(trx, ctx.site.id, changed);
    await notify(tctx, after, { raised: false });
    return after;
  });
}

/**
 * Gives a reservation's units back (also after it expired). Releasing twice changes nothing; a
 * committed reservation is refused with 409 RESERVATION_COMMITTED (give stock back with adjust).
 */
export async function release(ctx: RequestContext, reservationId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await linesOf(tctx, reservationId);
    const now = new Date().toISOString();
    // Conditional on 'active': a concurrent commit and release cannot both win.
    if (await transitionReservation(trx, ctx.site.id, reservationId, 'active', 'released', now)) return;
    const [line] = await linesOf(tctx, reservationId);
    if (line!.status === 'committed') throw conflict('RESERVATION_COMMITTED', `Reservation ${reservationId} was committed; give stock back with an increment`, { reservationId });
  });
}

/** The lines of a reservation with their status (404 when unknown). */
export async function getReservation(ctx: RequestContext, reservationId: string): Promise<ReservationLine[]> {
  return linesOf(ctx, reservationId);
}

/**
 * Deletes released and expired reservation lines, and committed ones older than
 * INVENTORY_LIMITS.committedRetentionMs. Housekeeping only: expired lines already stopped counting.
 */
export async function pruneReservations(ctx: RequestContext, now = new Date()): Promise<number> {
  return deleteStaleReservations(ctx.db, ctx.site.id, now.toISOString(), new Date(now.getTime() - INVENTORY_LIMITS.committedRetentionMs).toISOString());
}
