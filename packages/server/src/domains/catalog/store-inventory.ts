import { sql, type Generated, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { escapeLike, ilike, type DialectName } from '../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode } from '../../storage/filter.js';
import type { Bool01 } from '../../storage/schema.js';
import { DEFAULT_LOCATION_ID, type Catalog, type StockRow } from './model.js';
import { directCategoryField } from './v3/store.js';

/**
 * Stock per variant and location, for both catalogs. Quantity is a column so a decrement is one
 * guarded UPDATE. Every variant has one row at DEFAULT_LOCATION_ID (written by product writes; the
 * storefront, V1 stock and decrementStock read only it); rows at other locations come from the V3
 * inventory calls. `sku` is the variant's SKU, copied onto every location's row.
 */
interface InventoryItemsTable {
  id: string;
  site_id: string;
  catalog: string;
  product_id: string;
  variant_id: string;
  /** Defaults to DEFAULT_LOCATION_ID (migration 0007), so inserts that predate locations still work. */
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

declare module '../../storage/schema.js' {
  interface Database {
    inventory_items: InventoryItemsTable;
  }
}


export interface InventoryRow extends StockRow {
  id: string;
  productId: string;
  locationId: string;
  sku: string | null;
  preorderCounter: number;
  preorderMessage: string | null;
  revision: number;
  createdDate: string;
  updatedDate: string;
}

function toRow(r: Selectable<InventoryItemsTable>): InventoryRow {
  return {
    id: r.id, productId: r.product_id, locationId: r.location_id, variantId: r.variant_id, sku: r.sku, trackQuantity: r.track_quantity === 1,
    quantity: r.quantity, inStock: r.in_stock === 1, preorderEnabled: r.preorder_enabled === 1, preorderLimit: r.preorder_limit,
    preorderCounter: r.preorder_counter, preorderMessage: r.preorder_message, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

/**
 * Replaces the default-location stock rows of a product with `rows`, keeping the item id and counters
 * of surviving variants. A removed variant loses its rows at every location; a changed SKU reaches
 * the variant's rows at other locations (their stock is theirs).
 */
export async function syncStockRows(db: Executor, siteId: string, catalog: Catalog, productId: string, rows: (StockRow & { sku: string | null })[], now: string, newId: () => string): Promise<void> {
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
  return rows.map(toRow);
}

export async function findStockRowsForProducts(db: Executor, siteId: string, productIds: string[]): Promise<Map<string, InventoryRow[]>> {
  const map = new Map<string, InventoryRow[]>();
  if (productIds.length === 0) return map;
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', 'in', productIds).where('location_id', '=', DEFAULT_LOCATION_ID).orderBy('product_id').orderBy('variant_id').execute();
  for (const r of rows) {
    const list = map.get(r.product_id) ?? [];
    list.push(toRow(r));
    map.set(r.product_id, list);
  }
  return map;
}

export async function findInventoryItem(db: Executor, siteId: string, id: string): Promise<InventoryRow | undefined> {
  const row = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
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

/**
 * Takes `quantity` from a tracked variant only when that much is there: one statement, so two
 * concurrent orders can never both take the last unit. Preorder-enabled items may go below zero up
 * to their preorder limit. Returns whether a row changed.
 */
export async function decrementRow(db: Executor, siteId: string, productId: string, variantId: string, quantity: number, now: string): Promise<boolean> {
  const result = await sql`UPDATE inventory_items
    SET quantity = quantity - ${quantity},
        in_stock = CASE WHEN quantity - ${quantity} > 0 THEN 1 ELSE 0 END,
        preorder_counter = preorder_counter + CASE WHEN quantity - ${quantity} < 0 THEN ${quantity} ELSE 0 END,
        revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND product_id = ${productId} AND variant_id = ${variantId} AND location_id = ${DEFAULT_LOCATION_ID} AND track_quantity = 1
      AND (quantity >= ${quantity} OR (preorder_enabled = 1 AND (preorder_limit IS NULL OR quantity - ${quantity} >= -preorder_limit)))`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function incrementRow(db: Executor, siteId: string, productId: string, variantId: string, quantity: number, now: string): Promise<boolean> {
  const result = await sql`UPDATE inventory_items
    SET quantity = quantity + ${quantity}, in_stock = CASE WHEN quantity + ${quantity} > 0 THEN 1 ELSE 0 END, revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND product_id = ${productId} AND variant_id = ${variantId} AND location_id = ${DEFAULT_LOCATION_ID} AND track_quantity = 1`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function updateInventoryRow(db: Executor, siteId: string, id: string, patch: { trackQuantity?: boolean; quantity?: number | null; inStock?: boolean; preorderEnabled?: boolean; preorderLimit?: number | null; preorderMessage?: string | null }, now: string): Promise<void> {
  const cur = await findInventoryItem(db, siteId, id);
  if (!cur) return;
  const track = patch.trackQuantity ?? cur.trackQuantity;
  const quantity = track ? (patch.quantity !== undefined ? patch.quantity ?? 0 : cur.quantity ?? 0) : null;
  const inStock = track ? (quantity ?? 0) > 0 : (patch.inStock ?? cur.inStock);
  await db.updateTable('inventory_items').set({
    track_quantity: track ? 1 : 0, quantity, in_stock: inStock ? 1 : 0,
    preorder_enabled: (patch.preorderEnabled ?? cur.preorderEnabled) ? 1 : 0,
    preorder_limit: patch.preorderLimit !== undefined ? patch.preorderLimit : cur.preorderLimit,
    preorder_message: patch.preorderMessage !== undefined ? patch.preorderMessage : cur.preorderMessage,
    revision: cur.revision + 1, updated_date: now,
  }).where('id', '=', id).execute();
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
  return { rows: rows.map(toRow), total };
}

// ---------------------------------------------------------------------------------------------
// Store variants (V1 queryStoreVariants): one row per variant, joined to its product.

function variantField(path: string): FilterField | undefined {
  const col = (expr: RawBuilder<unknown>, type: 'string' | 'number' | 'boolean', storedAs01 = false): FilterField => ({ expr, type, storedAs01 });
  switch (path) {
    case 'id': return col(sql`(ii.product_id || '-' || ii.variant_id)`, 'string');
    case 'productId': return col(sql.ref('ii.product_id'), 'string');
    case 'variantId': return col(sql.ref('ii.variant_id'), 'string');
    case 'sku': return col(sql.ref('ii.sku'), 'string');
    case 'productName': return col(sql.ref('p.name'), 'string');
    case 'stock.inStock': return col(sql.ref('ii.in_stock'), 'boolean', true);
    case 'stock.trackQuantity': return col(sql.ref('ii.track_quantity'), 'boolean', true);
    case 'stock.quantity': return col(sql.ref('ii.quantity'), 'number');
    default: return undefined;
  }
}

const VARIANT_SORT = allowlist<string>({ productId: 'ii.product_id', variantId: 'ii.variant_id', sku: 'ii.sku', productName: 'p.name', 'stock.quantity': 'ii.quantity' });
export function variantSortColumn(field: string): RawBuilder<unknown> | undefined {
  const c = VARIANT_SORT[field];
  return c ? sql.ref(c) : undefined;
}

export async function queryVariantRows(db: Executor, q: { siteId: string; filter: FilterNode | undefined; sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; onlyVisible: boolean; limit: number; offset: number; dialect: DialectName }): Promise<{ rows: { productId: string; variantId: string }[]; total: number }> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`ii.site_id = ${q.siteId}`, sql<boolean>`ii.catalog = 'v1'`, sql<boolean>`ii.location_id = ${DEFAULT_LOCATION_ID}`];
  if (q.onlyVisible) parts.push(sql<boolean>`p.visible = 1`);
  if (q.filter) parts.push(compileFilter(q.filter, { field: variantField }, q.dialect));
  const where = sql.join(parts, sql` AND `);
  const order = sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`ii.product_id ASC`, sql`ii.variant_id ASC`]);
  const from = sql`inventory_items ii JOIN products p ON p.id = ii.product_id AND p.site_id = ii.site_id`;
  const rows = await sql<{ productId: string; variantId: string }>`SELECT ii.product_id AS "productId", ii.variant_id AS "variantId" FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  const total = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// V3 inventory items at any location (v3/inventory-*.ts): create, delete, guarded changes, search.

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
  return rows.map(toRow);
}

/**
 * The V3 items of a variant id at a location (at most 2: V3 variant ids are UUIDs, so a second row
 * means two products share a caller-chosen id, which the caller must resolve).
 */
export async function findItemsAt(db: Executor, siteId: string, variantId: string, locationId: string): Promise<InventoryRow[]> {
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('variant_id', '=', variantId).where('location_id', '=', locationId).where('catalog', '=', 'v3').limit(2).execute();
  return rows.map(toRow);
}

/** Adds preordered units to an item's counter when preorder is on and the limit allows. */
export async function addPreorderUnits(db: Executor, siteId: string, id: string, units: number, now: string): Promise<boolean> {
  const result = await sql`UPDATE inventory_items SET preorder_counter = preorder_counter + ${units}, revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND id = ${id} AND preorder_enabled = 1 AND (preorder_limit IS NULL OR preorder_counter + ${units} <= preorder_limit)`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Adds `delta` to a tracked item's quantity in one statement. A negative delta with `restrict` only
 * applies when the quantity stays >= 0, or within the preorder limit of a preorderable item; a
 * positive one only up to `max`. Returns whether the row changed (false: untracked, gone, short, full).
 */
export async function changeItemQuantity(db: Executor, siteId: string, id: string, delta: number, restrict: boolean, now: string, max: number): Promise<boolean> {
  const guard = delta < 0 && restrict
    ? sql`AND (quantity + ${delta} >= 0 OR (preorder_enabled = 1 AND (preorder_limit IS NULL OR quantity + ${delta} >= -preorder_limit)))`
    : delta > 0 ? sql`AND quantity + ${delta} <= ${max}` : sql``;
  const result = await sql`UPDATE inventory_items
    SET quantity = quantity + ${delta},
        in_stock = CASE WHEN quantity + ${delta} > 0 THEN 1 ELSE 0 END,
        preorder_counter = preorder_counter + CASE WHEN quantity + ${delta} < 0 THEN ${Math.max(0, -delta)} ELSE 0 END,
        revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND id = ${id} AND track_quantity = 1 ${guard}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** What an item's availabilityStatus is, in SQL (the same rule as v3/inventory.ts presentItem). */
const AVAILABILITY = sql.raw(`(CASE WHEN (CASE WHEN ii.track_quantity = 1 THEN (CASE WHEN ii.quantity > 0 THEN 1 ELSE 0 END) ELSE ii.in_stock END) = 1 THEN 'IN_STOCK' WHEN ii.preorder_enabled = 1 THEN 'PREORDER' ELSE 'OUT_OF_STOCK' END)`);
const boolText = (column: string) => sql.raw(`(CASE WHEN ${column} = 1 THEN 'true' ELSE 'false' END)`);

/** Filterable fields of V3 inventory search (REST names; `_id`-style names of the client accepted too). */
function inventoryField(path: string, siteId: string, dialect: DialectName): FilterField | undefined {
  const col = (expr: RawBuilder<unknown>, type: 'string' | 'number' | 'boolean' | 'date', storedAs01 = false): FilterField => ({ expr, type, storedAs01 });
  switch (path) {
    case 'id': case '_id': return col(sql.ref('ii.id'), 'string');
    case 'productId': return col(sql.ref('ii.product_id'), 'string');
    case 'variantId': return col(sql.ref('ii.variant_id'), 'string');
    case 'locationId': return col(sql.ref('ii.location_id'), 'string');
    case 'trackQuantity': return col(sql.ref('ii.track_quantity'), 'boolean', true);
    case 'inStock': return col(sql.ref('ii.in_stock'), 'boolean', true);
    case 'quantity': return col(sql.ref('ii.quantity'), 'number');
    case 'availabilityStatus': return col(AVAILABILITY, 'string');
    case 'preorderInfo.enabled': return col(sql.ref('ii.preorder_enabled'), 'boolean', true);
    case 'createdDate': case '_createdDate': return col(sql.ref('ii.created_date'), 'date');
    case 'updatedDate': case '_updatedDate': return col(sql.ref('ii.updated_date'), 'date');
    case 'product.name': return col(sql.ref('p.name'), 'string');
    case 'product.variantSku': return col(sql.ref('ii.sku'), 'string');
    case 'product.brand.id': case 'product.brand._id': return col(sql.ref('p.brand_id'), 'string');
    // The product's own categories (the all-products one only when listed directly), as V3 products filter them.
    case 'product.directCategoryIds': return directCategoryField(siteId, dialect);
    default: return undefined;
  }
}

const INVENTORY_SORT = allowlist<RawBuilder<unknown>>({
  quantity: sql.ref('ii.quantity'), createdDate: sql.ref('ii.created_date'), updatedDate: sql.ref('ii.updated_date'), productId: sql.ref('ii.product_id'),
  trackQuantity: sql.ref('ii.track_quantity'), inStock: sql.ref('ii.in_stock'), availabilityStatus: AVAILABILITY, 'preorderInfo.enabled': sql.ref('ii.preorder_enabled'),
  'product.name': sql.ref('p.name'), 'product.variantSku': sql.ref('ii.sku'), 'product.brand.id': sql.ref('p.brand_id'),
});
export function inventorySortColumn(field: string): RawBuilder<unknown> | undefined {
  return INVENTORY_SORT[field];
}

/** Value-aggregatable fields: SQL giving the bucket value as text. */
const INVENTORY_VALUES = allowlist<RawBuilder<unknown>>({
  availabilityStatus: AVAILABILITY, locationId: sql.ref('ii.location_id'), productId: sql.ref('ii.product_id'), variantId: sql.ref('ii.variant_id'),
  trackQuantity: boolText('ii.track_quantity'), inStock: boolText('ii.in_stock'), 'preorderInfo.enabled': boolText('ii.preorder_enabled'),
  'product.brand.id': sql.ref('p.brand_id'), 'product.name': sql.ref('p.name'), 'product.variantSku': sql.ref('ii.sku'),
});
/** Scalar-aggregatable (numeric) fields. */
const INVENTORY_SCALARS = allowlist<RawBuilder<unknown>>({ quantity: sql.ref('ii.quantity') });
export const isInventoryValueField = (f: string) => INVENTORY_VALUES[f] !== undefined;
export const isInventoryScalarField = (f: string) => INVENTORY_SCALARS[f] !== undefined;

export interface InventorySearch {
  siteId: string; dialect: DialectName; filter: FilterNode | undefined;
  /** Lower-case terms, each matched as a substring of the product name and / or the variant SKU. */
  terms: string[]; termMode: 'AND' | 'OR'; termFields: ('name' | 'sku')[];
  /** Visitors: items of visible V3 products only (V1 items have no V3 product and drop out). */
  onlyVisible: boolean;
  /** Only items of V3 products (the by-filter jobs); elevated queries also list V1 products' items. */
  v3Only: boolean;
  /** Only items at this location (create-by-variant-filter selects variants by their default item). */
  location?: string;
}

/** The join to products_v3 gives product fields and visibility (NULL for V1 products' items). */
const SEARCH_FROM = sql`inventory_items ii LEFT JOIN products_v3 p ON p.id = ii.product_id AND p.site_id = ii.site_id`;

function searchWhere(q: InventorySearch): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`ii.site_id = ${q.siteId}`];
  if (q.v3Only) parts.push(sql<boolean>`ii.catalog = 'v3'`);
  if (q.onlyVisible) parts.push(sql<boolean>`p.visible = 1`);
  if (q.location !== undefined) parts.push(sql<boolean>`ii.location_id = ${q.location}`);
  if (q.filter) parts.push(compileFilter(q.filter, { field: (path) => inventoryField(path, q.siteId, q.dialect) }, q.dialect));
  if (q.terms.length > 0) {
    const columns = q.termFields.map((f) => sql.ref(f === 'name' ? 'p.name' : 'ii.sku'));
    const one = (t: string) => { const pattern = `%${escapeLike(t)}%`; return sql<boolean>`(${sql.join(columns.map((c) => ilike(q.dialect, c, pattern)), sql` OR `)})`; };
    parts.push(sql<boolean>`(${sql.join(q.terms.map(one), q.termMode === 'OR' ? sql` OR ` : sql` AND `)})`);
  }
  return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
}

/** One page of matching items in sort order (id breaks ties, so pages never overlap). */
export async function searchInventoryRows(db: Executor, q: InventorySearch & { sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number }): Promise<InventoryRow[]> {
  const order = sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`ii.id ASC`]);
  const rows = await sql<Selectable<InventoryItemsTable>>`SELECT ii.* FROM ${SEARCH_FROM} WHERE ${searchWhere(q)} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return rows.rows.map(toRow);
}

/** Ids of matching items in id order, at most `limit` (the by-filter jobs freeze these). */
export async function inventoryIdsMatching(db: Executor, q: InventorySearch, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }>`SELECT ii.id FROM ${SEARCH_FROM} WHERE ${searchWhere(q)} ORDER BY ii.id LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => r.id);
}

export async function countInventorySearch(db: Executor, q: InventorySearch): Promise<number> {
  const rows = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${SEARCH_FROM} WHERE ${searchWhere(q)}`.execute(db);
  return Number(rows.rows[0]?.n ?? 0);
}

/** Buckets of a value aggregation (count order or value order), at most `limit`. */
export async function inventoryValueBuckets(db: Executor, q: InventorySearch, field: string, limit: number, sortType: 'COUNT' | 'VALUE', direction: 'ASC' | 'DESC'): Promise<{ value: string; count: number }[]> {
  const expr = INVENTORY_VALUES[field]!;
  // Ordinals: PostgreSQL would not match a grouped expression to its repeat in SELECT.
  const order = sortType === 'COUNT' ? sql.raw(`2 ${direction}, 1 ASC`) : sql.raw(`1 ${direction}`);
  const rows = await sql<{ value: string | number | null; n: number | string }>`SELECT ${expr} AS value, COUNT(*) AS n FROM ${SEARCH_FROM} WHERE ${searchWhere(q)} AND ${expr} IS NOT NULL GROUP BY 1 ORDER BY ${order} LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({ value: String(r.value), count: Number(r.n) }));
}

export async function inventoryScalar(db: Executor, q: InventorySearch, field: string, type: 'MIN' | 'MAX' | 'COUNT_DISTINCT'): Promise<number> {
  const expr = INVENTORY_SCALARS[field]!;
  const agg = type === 'COUNT_DISTINCT' ? sql`COUNT(DISTINCT ${expr})` : sql`${sql.raw(type)}(${expr})`;
  const rows = await sql<{ v: number | string | null }>`SELECT ${agg} AS v FROM ${SEARCH_FROM} WHERE ${searchWhere(q)}`.execute(db);
  return Number(rows.rows[0]?.v ?? 0);
}
