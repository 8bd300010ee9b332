import { sql, type Generated, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { lockAndReadInIdOrder } from '../../storage/locks.js';
import type { Bool01 } from '../../storage/schema.js';

/** The location of the variant's own stock (the storefront's and V1's): every variant has an item there. */
export const DEFAULT_LOCATION_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Stock per variant and location, for both catalogs (created by the catalog's migrations, which
 * predate this domain). Quantity is a column so that taking stock is one guarded UPDATE. `sku` is the
 * variant's SKU, copied onto every location's row.
 */
export interface InventoryItemsTable {
  id: string;
  site_id: string;
  catalog: string;
  product_id: string;
  variant_id: string;
  /** Defaults to DEFAULT_LOCATION_ID, so inserts that predate locations still work. */
  location_id: Generated<string>;
  sku: string | null;
  track_quantity: Bool01;
  quantity: number | null;
  in_stock: Bool01;
  preorder_enabled: Bool01;
  preorder_limit: number | null;
  preorder_counter: number;
  preorder_message: string | null;
  revision: number;
  created_date: string;
  updated_date: string;
}

export type ReservationStatus = 'active' | 'committed' | 'released';

/** One line of a reservation: units of one item held for `reservation_id` until `expires_at`. */
interface InventoryReservationsTable {
  site_id: string;
  reservation_id: string;
  item_id: string;
  quantity: number;
  owner: string | null;
  status: ReservationStatus;
  expires_at: string;
  created_date: string;
  updated_date: string;
}

declare module '../../storage/schema.js' {
  interface Database {
    inventory_items: InventoryItemsTable;
    inventory_reservations: InventoryReservationsTable;
  }
}

export interface InventoryRow {
  id: string;
  /** The catalog whose product the item belongs to: a stock change refreshes only that catalog's document. */
  catalog: Catalog;
  productId: string;
  variantId: string;
  locationId: string;
  sku: string | null;
  trackQuantity: boolean;
  quantity: number | null;
  inStock: boolean;
  preorderEnabled: boolean;
  preorderLimit: number | null;
  preorderCounter: number;
  preorderMessage: string | null;
  revision: number;
  createdDate: string;
  updatedDate: string;
}

export function toInventoryRow(r: Selectable<InventoryItemsTable>): InventoryRow {
  return {
    id: r.id, catalog: r.catalog as Catalog, productId: r.product_id, locationId: r.location_id, variantId: r.variant_id, sku: r.sku, trackQuantity: r.track_quantity === 1,
    quantity: r.quantity, inStock: r.in_stock === 1, preorderEnabled: r.preorder_enabled === 1, preorderLimit: r.preorder_limit,
    preorderCounter: r.preorder_counter, preorderMessage: r.preorder_message, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

export async function findItem(db: Executor, siteId: string, id: string): Promise<InventoryRow | undefined> {
  const row = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row && toInventoryRow(row);
}

export async function findItemsByIds(db: Executor, siteId: string, ids: string[]): Promise<InventoryRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toInventoryRow);
}

/**
 * The items of many (product, variant, location) triples in one statement; missing ones are left out.
 * The site is repeated inside each branch so SQLite answers every branch from the unique index
 * (with `site_id = ? AND (a OR b)` it walked all of the site's items: 1.4 ms for a 1k catalog).
 */
export async function findItemsOf(db: Executor, siteId: string, refs: { productId: string; variantId: string; locationId: string }[]): Promise<InventoryRow[]> {
  if (refs.length === 0) return [];
  const rows = await sql<Selectable<InventoryItemsTable>>`SELECT * FROM inventory_items WHERE ${variantsAt(siteId, refs)}`.execute(db);
  return rows.rows.map(toInventoryRow);
}

/** `findItemsOf` with each item's actively reserved units (as `reservedByItem` counts them), in one statement. */
export async function findItemsWithReserved(db: Executor, siteId: string, refs: { productId: string; variantId: string; locationId: string }[], now: string): Promise<{ row: InventoryRow; reserved: number }[]> {
  if (refs.length === 0) return [];
  const rows = await sql<Selectable<InventoryItemsTable> & { reserved_units: number | string | null }>`
    SELECT i.*, (SELECT sum(r.quantity) FROM inventory_reservations r
      WHERE r.site_id = i.site_id AND r.item_id = i.id AND r.status = 'active' AND r.expires_at > ${now}) AS reserved_units
    FROM inventory_items i WHERE ${variantsAt(siteId, refs, 'i.')}`.execute(db);
  return rows.rows.map(({ reserved_units, ...row }) => ({ row: toInventoryRow(row), reserved: Number(reserved_units ?? 0) }));
}

/**
 * The items of some variants at some locations: an OR of one branch per item with the site in each,
 * so each branch is a search of the unique (site, product, variant, location) index (an equality on
 * the site outside the OR made SQLite walk all of the site's items). Written as SQL text rather than
 * with the query builder: for a 20-line cart the builder took about 170 us to build and compile the
 * 80 parameters, the text 35 us.
 */
function variantsAt(siteId: string, refs: { productId: string; variantId: string; locationId: string }[], alias: '' | 'i.' = ''): RawBuilder<boolean> {
  const col = (name: string) => sql.raw(`${alias}${name}`);
  return sql<boolean>`(${sql.join(refs.map((r) => sql`(${col('site_id')} = ${siteId} AND ${col('product_id')} = ${r.productId} AND ${col('variant_id')} = ${r.variantId} AND ${col('location_id')} = ${r.locationId})`), sql` OR `)})`;
}

/** The (product, variant) pairs among `refs` that have an item at any location, as `productId/variantId` keys, in one statement. */
export async function variantsWithItems(db: Executor, siteId: string, refs: { productId: string; variantId: string }[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  // A row-value IN, not an OR of pairs: SQLite answers an OR of (product, variant) pairs by walking
  // every item of the site (the pairs lack the index's leading site column), 28 ms per cart at 10,000
  // products; the tuple list is one index search per pair on both databases.
  const rows = await db.selectFrom('inventory_items').select(['product_id', 'variant_id']).where('site_id', '=', siteId)
    .where((eb) => eb(eb.refTuple('product_id', 'variant_id'), 'in', refs.map((r) => eb.tuple(r.productId, r.variantId))))
    .execute();
  return new Set(rows.map((r) => `${r.product_id}/${r.variant_id}`));
}

/** The item of a product's variant at a location (unique by index). */
export async function findItemOf(db: Executor, siteId: string, productId: string, variantId: string, locationId: string): Promise<InventoryRow | undefined> {
  const row = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', '=', productId)
    .where('variant_id', '=', variantId).where('location_id', '=', locationId).executeTakeFirst();
  return row && toInventoryRow(row);
}

// ---------------------------------------------------------------------------------------------
// Items as the catalog keeps them: one default-location item per variant (product writes), V3 items
// at other locations (create / delete), reads.

export type Catalog = 'v1' | 'v3';

/** A variant's stock as a product write gives it, with the variant's SKU. */
export interface VariantStock { variantId: string; sku: string | null; trackQuantity: boolean; quantity: number | null; inStock: boolean; preorderEnabled: boolean; preorderLimit: number | null }

/**
 * Replaces the default-location stock rows of a product with `rows`, keeping the item id and counters
 * of surviving variants. A removed variant loses its rows at every location; a changed SKU reaches
 * the variant's rows at other locations (their stock is theirs).
 */
export async function syncStockRows(db: Executor, siteId: string, catalog: Catalog, productId: string, rows: VariantStock[], now: string, newId: () => string): Promise<void> {
  const existing = await findStockRows(db, siteId, productId);
  const keep = new Set(rows.map((r) => r.variantId));
  const gone = existing.filter((e) => !keep.has(e.variantId)).map((e) => e.variantId);
  if (gone.length > 0) await db.deleteFrom('inventory_items').where('site_id', '=', siteId).where('product_id', '=', productId).where('variant_id', 'in', gone).execute();
  const skuChanged = rows.filter((r) => existing.some((e) => e.variantId === r.variantId && e.sku !== r.sku));
  for (const r of skuChanged) {
    await db.updateTable('inventory_items').set({ sku: r.sku }).where('site_id', '=', siteId).where('product_id', '=', productId).where('variant_id', '=', r.variantId).where('location_id', '<>', DEFAULT_LOCATION_ID).execute();
  }
  const byVariant = new Map(existing.map((e) => [e.variantId, e]));
  for (const r of rows) {
    const cur = byVariant.get(r.variantId);
    const values = {
      sku: r.sku, track_quantity: (r.trackQuantity ? 1 : 0) as Bool01, quantity: r.trackQuantity ? (r.quantity ?? 0) : null,
      in_stock: (r.trackQuantity ? ((r.quantity ?? 0) > 0 ? 1 : 0) : r.inStock ? 1 : 0) as Bool01,
      preorder_enabled: (r.preorderEnabled ? 1 : 0) as Bool01, preorder_limit: r.preorderLimit, updated_date: now,
    };
    if (cur) {
      const same = cur.sku === values.sku && cur.trackQuantity === r.trackQuantity && cur.quantity === values.quantity && cur.inStock === (values.in_stock === 1)
        && cur.preorderEnabled === r.preorderEnabled && cur.preorderLimit === r.preorderLimit;
      if (!same) await db.updateTable('inventory_items').set({ ...values, revision: cur.revision + 1 }).where('id', '=', cur.id).execute();
    } else {
      await db.insertInto('inventory_items').values({
        id: newId(), site_id: siteId, catalog, product_id: productId, variant_id: r.variantId, location_id: DEFAULT_LOCATION_ID, ...values,
        preorder_counter: 0, preorder_message: null, revision: 1, created_date: now,
      }).execute();
    }
  }
}

/** The default-location rows of a product: what its document's stock fields and checkout read. */
export async function findStockRows(db: Executor, siteId: string, productId: string): Promise<InventoryRow[]> {
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', '=', productId).where('location_id', '=', DEFAULT_LOCATION_ID).orderBy('variant_id').execute();
  return rows.map(toInventoryRow);
}

export async function findStockRowsForProducts(db: Executor, siteId: string, productIds: string[]): Promise<Map<string, InventoryRow[]>> {
  const map = new Map<string, InventoryRow[]>();
  if (productIds.length === 0) return map;
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', 'in', productIds).where('location_id', '=', DEFAULT_LOCATION_ID).orderBy('product_id').orderBy('variant_id').execute();
  for (const r of rows) {
    const list = map.get(r.product_id) ?? [];
    list.push(toInventoryRow(r));
    map.set(r.product_id, list);
  }
  return map;
}

export async function deleteStockRows(db: Executor, siteId: string, productId: string): Promise<void> {
  await db.deleteFrom('inventory_items').where('site_id', '=', siteId).where('product_id', '=', productId).execute();
}

/** Another product of the site already uses `sku` on some variant. */
export async function skuUsedElsewhere(db: Executor, siteId: string, skus: string[], productId: string): Promise<string | undefined> {
  if (skus.length === 0) return undefined;
  const row = await db.selectFrom('inventory_items').select('sku').where('site_id', '=', siteId).where('sku', 'in', skus).where('product_id', '<>', productId).executeTakeFirst();
  return row?.sku ?? undefined;
}


export interface InventoryQuery { siteId: string; productIds?: string[]; ids?: string[]; limit: number; offset: number; afterId?: string }

/** Inventory rows in id order (stable for offset and cursor paging alike). */
export async function queryInventoryRows(db: Executor, q: InventoryQuery): Promise<{ rows: InventoryRow[]; total: number }> {
  let base = db.selectFrom('inventory_items').where('site_id', '=', q.siteId);
  if (q.productIds) base = base.where('product_id', 'in', q.productIds.length ? q.productIds : ['\u0000']);
  if (q.ids) base = base.where('id', 'in', q.ids.length ? q.ids : ['\u0000']);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  let page = base.selectAll().orderBy('id');
  if (q.afterId) page = page.where('id', '>', q.afterId);
  const rows = await page.limit(q.limit).offset(q.offset).execute();
  return { rows: rows.map(toInventoryRow), total };
}


export interface NewInventoryItem {
  id: string; catalog: Catalog; productId: string; variantId: string; locationId: string; sku: string | null;
  trackQuantity: boolean; quantity: number | null; inStock: boolean;
  preorderEnabled: boolean; preorderLimit: number | null; preorderMessage: string | null;
}

export async function insertInventoryItem(db: Executor, siteId: string, item: NewInventoryItem, now: string): Promise<void> {
  await db.insertInto('inventory_items').values({
    id: item.id, site_id: siteId, catalog: item.catalog, product_id: item.productId, variant_id: item.variantId, location_id: item.locationId, sku: item.sku,
    track_quantity: item.trackQuantity ? 1 : 0, quantity: item.trackQuantity ? (item.quantity ?? 0) : null,
    in_stock: (item.trackQuantity ? (item.quantity ?? 0) > 0 : item.inStock) ? 1 : 0,
    preorder_enabled: item.preorderEnabled ? 1 : 0, preorder_limit: item.preorderLimit, preorder_counter: 0, preorder_message: item.preorderMessage,
    revision: 1, created_date: now, updated_date: now,
  }).execute();
}

export async function deleteInventoryItemRow(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('inventory_items').where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** The rows of one variant at every location (default first). */
export async function findVariantRows(db: Executor, siteId: string, productId: string, variantId: string): Promise<InventoryRow[]> {
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', '=', productId).where('variant_id', '=', variantId).orderBy('location_id').execute();
  return rows.map(toInventoryRow);
}

/**
 * The V3 items of a variant id at a location (at most 2: V3 variant ids are UUIDs, so a second row
 * means two products share a caller-chosen id, which the caller must resolve).
 */
export async function findItemsAt(db: Executor, siteId: string, variantId: string, locationId: string): Promise<InventoryRow[]> {
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('variant_id', '=', variantId).where('location_id', '=', locationId).where('catalog', '=', 'v3').limit(2).execute();
  return rows.map(toInventoryRow);
}


/** Locks the items in id order and reads them under the lock, in one statement (storage/locks.ts). */
export async function lockAndFindItems(db: Executor, siteId: string, ids: readonly string[]): Promise<InventoryRow[]> {
  return (await lockAndReadInIdOrder<Selectable<InventoryItemsTable>>(db, 'inventory_items', siteId, ids)).map(toInventoryRow);
}

// ---------------------------------------------------------------------------------------------
// The one availability guard. Every way of taking units (a permanent decrement, a reservation) is a
// single statement carrying this predicate, run after the rows are locked (lockAndFindItems): what is on
// hand, less the units of unexpired active reservations, less the request, must stay >= 0, or
// within the preorder limit of a preorder-enabled item (no limit: unbounded).

/** Units of `inventory_items.id` held by active, unexpired reservations. */
function reservedUnits(now: string): RawBuilder<number> {
  return sql<number>`(SELECT COALESCE(SUM(r.quantity), 0) FROM inventory_reservations r
    WHERE r.site_id = inventory_items.site_id AND r.item_id = inventory_items.id AND r.status = 'active' AND r.expires_at > ${now})`;
}

function canTake(units: number, now: string): RawBuilder<boolean> {
  const left = sql`inventory_items.quantity - ${units} - ${reservedUnits(now)}`;
  return sql<boolean>`inventory_items.track_quantity = 1 AND (${left} >= 0
    OR (inventory_items.preorder_enabled = 1 AND (inventory_items.preorder_limit IS NULL OR ${left} >= -inventory_items.preorder_limit)))`;
}

/**
 * Takes `units` from a tracked item for good. With `guard` only when they are available (see
 * canTake); without (`restrictInventory: false`) unconditionally. Units taken below zero count as
 * preordered. Returns whether the row changed (false: untracked, gone or short).
 */
/** Takes `units` from a tracked item (guarded unless `guard` is false); the row after, or undefined when refused. */
export async function takeUnits(db: Executor, siteId: string, id: string, units: number, guard: boolean, now: string): Promise<InventoryRow | undefined> {
  const { rows } = await sql<Selectable<InventoryItemsTable>>`UPDATE inventory_items
    SET quantity = quantity - ${units},
        in_stock = CASE WHEN quantity - ${units} > 0 THEN 1 ELSE 0 END,
        preorder_counter = preorder_counter + CASE WHEN quantity - ${units} < 0 THEN ${units} ELSE 0 END,
        revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND id = ${id} AND track_quantity = 1 AND ${guard ? canTake(units, now) : sql`1 = 1`}
    RETURNING *`.execute(db);
  return rows[0] ? toInventoryRow(rows[0]) : undefined;
}

/** Gives `units` back to a tracked item, up to `max` when given: the row after, or undefined when untracked, gone or full. */
export async function giveUnits(db: Executor, siteId: string, id: string, units: number, max: number | undefined, now: string): Promise<InventoryRow | undefined> {
  const { rows } = await sql<Selectable<InventoryItemsTable>>`UPDATE inventory_items
    SET quantity = quantity + ${units}, in_stock = CASE WHEN quantity + ${units} > 0 THEN 1 ELSE 0 END, revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND id = ${id} AND track_quantity = 1 ${max === undefined ? sql`` : sql`AND quantity + ${units} <= ${max}`}
    RETURNING *`.execute(db);
  return rows[0] ? toInventoryRow(rows[0]) : undefined;
}

/** Adds preordered units to an item's counter when preorder is on and the limit allows. */
export async function addPreorderUnits(db: Executor, siteId: string, id: string, units: number, now: string): Promise<boolean> {
  const result = await sql`UPDATE inventory_items SET preorder_counter = preorder_counter + ${units}, revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND id = ${id} AND preorder_enabled = 1 AND (preorder_limit IS NULL OR preorder_counter + ${units} <= preorder_limit)`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export interface StockPatch {
  trackQuantity?: boolean | undefined;
  quantity?: number | null | undefined;
  inStock?: boolean | undefined;
  preorderEnabled?: boolean | undefined;
  preorderLimit?: number | null | undefined;
  preorderMessage?: string | null | undefined;
}

/** Sets an item's stock fields (owner writes); tracked items derive in_stock from the quantity. */
export async function setStock(db: Executor, siteId: string, cur: InventoryRow, patch: StockPatch, now: string): Promise<void> {
  const track = patch.trackQuantity ?? cur.trackQuantity;
  const quantity = track ? (patch.quantity !== undefined ? patch.quantity ?? 0 : cur.quantity ?? 0) : null;
  const inStock = track ? (quantity ?? 0) > 0 : (patch.inStock ?? cur.inStock);
  await db.updateTable('inventory_items').set({
    track_quantity: track ? 1 : 0, quantity, in_stock: inStock ? 1 : 0,
    preorder_enabled: (patch.preorderEnabled ?? cur.preorderEnabled) ? 1 : 0,
    preorder_limit: patch.preorderLimit !== undefined ? patch.preorderLimit : cur.preorderLimit,
    preorder_message: patch.preorderMessage !== undefined ? patch.preorderMessage : cur.preorderMessage,
    revision: cur.revision + 1, updated_date: now,
  }).where('site_id', '=', siteId).where('id', '=', cur.id).execute();
}

// ---------------------------------------------------------------------------------------------
// Reservations.

export interface ReservationLine { reservationId: string; itemId: string; quantity: number; owner: string | null; status: ReservationStatus; expiresAt: string }

/**
 * Holds `units` of a tracked item for a reservation when they are available (the same guard as
 * takeUnits, in the same single statement). Returns whether the line was written.
 */
export async function reserveUnits(db: Executor, siteId: string, line: { reservationId: string; itemId: string; quantity: number; owner: string | null; expiresAt: string }, now: string): Promise<boolean> {
  const result = await sql`INSERT INTO inventory_reservations (site_id, reservation_id, item_id, quantity, owner, status, expires_at, created_date, updated_date)
    SELECT inventory_items.site_id, CAST(${line.reservationId} AS text), inventory_items.id, CAST(${line.quantity} AS integer), CAST(${line.owner} AS text),
      'active', CAST(${line.expiresAt} AS text), CAST(${now} AS text), CAST(${now} AS text)
    FROM inventory_items WHERE inventory_items.site_id = ${siteId} AND inventory_items.id = ${line.itemId} AND ${canTake(line.quantity, now)}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** A line that holds nothing back (an untracked item that is in stock): kept so commit / release see it. */
export async function insertUncountedLine(db: Executor, siteId: string, line: { reservationId: string; itemId: string; quantity: number; owner: string | null; expiresAt: string }, now: string): Promise<void> {
  await db.insertInto('inventory_reservations').values({
    site_id: siteId, reservation_id: line.reservationId, item_id: line.itemId, quantity: line.quantity, owner: line.owner,
    status: 'active', expires_at: line.expiresAt, created_date: now, updated_date: now,
  }).execute();
}

export async function findReservation(db: Executor, siteId: string, reservationId: string): Promise<ReservationLine[]> {
  const rows = await db.selectFrom('inventory_reservations').selectAll().where('site_id', '=', siteId).where('reservation_id', '=', reservationId).orderBy('item_id').execute();
  return rows.map((r) => ({ reservationId: r.reservation_id, itemId: r.item_id, quantity: r.quantity, owner: r.owner, status: r.status, expiresAt: r.expires_at }));
}

/** Moves a reservation's lines from one status to another; false when none was in `from`. */
export async function transitionReservation(db: Executor, siteId: string, reservationId: string, from: ReservationStatus, to: ReservationStatus, now: string): Promise<boolean> {
  const result = await db.updateTable('inventory_reservations').set({ status: to, updated_date: now })
    .where('site_id', '=', siteId).where('reservation_id', '=', reservationId).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Units held per item by active, unexpired reservations. */
export async function reservedByItem(db: Executor, siteId: string, itemIds: string[], now: string): Promise<Map<string, number>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db.selectFrom('inventory_reservations').select(['item_id', (eb) => eb.fn.sum<number | string>('quantity').as('units')])
    .where('site_id', '=', siteId).where('item_id', 'in', itemIds).where('status', '=', 'active').where('expires_at', '>', now).groupBy('item_id').execute();
  return new Map(rows.map((r) => [r.item_id, Number(r.units)]));
}

/**
 * Deletes reservation lines nobody needs: released ones, active ones expired before `now`, and
 * committed ones last changed before `committedBefore` (kept until then so a late release is refused).
 */
/** `siteId` null: every site's (the periodic housekeeping job). */
export async function deleteStaleReservations(db: Executor, siteId: string | null, now: string, committedBefore: string): Promise<number> {
  let query = db.deleteFrom('inventory_reservations');
  if (siteId !== null) query = query.where('site_id', '=', siteId);
  const result = await query.where((eb) => eb.or([
    eb('status', '=', 'released'),
    eb.and([eb('status', '=', 'active'), eb('expires_at', '<=', now)]),
    eb.and([eb('status', '=', 'committed'), eb('updated_date', '<', committedBefore)]),
  ])).executeTakeFirst();
  return Number(result.numDeletedRows);
}
