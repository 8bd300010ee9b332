import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode } from '../../storage/filter.js';
import type { Bool01 } from '../../storage/schema.js';
import type { StockRow } from './model.js';

/** Stock per variant, for both catalogs. Quantity is a column so a decrement is one guarded UPDATE. */
interface InventoryItemsTable {
  id: string;
  site_id: string;
  catalog: string;
  product_id: string;
  variant_id: string;
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

export type Catalog = 'v1' | 'v3';

export interface InventoryRow extends StockRow {
  id: string;
  productId: string;
  sku: string | null;
  preorderCounter: number;
  preorderMessage: string | null;
  revision: number;
  createdDate: string;
  updatedDate: string;
}

function toRow(r: InventoryItemsTable): InventoryRow {
  return {
    id: r.id, productId: r.product_id, variantId: r.variant_id, sku: r.sku, trackQuantity: r.track_quantity === 1,
    quantity: r.quantity, inStock: r.in_stock === 1, preorderEnabled: r.preorder_enabled === 1, preorderLimit: r.preorder_limit,
    preorderCounter: r.preorder_counter, preorderMessage: r.preorder_message, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

/** Replaces the stock rows of a product with `rows`, keeping the item id and counters of surviving variants. */
export async function syncStockRows(db: Executor, siteId: string, catalog: Catalog, productId: string, rows: (StockRow & { sku: string | null })[], now: string, newId: () => string): Promise<void> {
  const existing = await findStockRows(db, siteId, productId);
  const keep = new Set(rows.map((r) => r.variantId));
  const gone = existing.filter((e) => !keep.has(e.variantId)).map((e) => e.id);
  if (gone.length > 0) await db.deleteFrom('inventory_items').where('site_id', '=', siteId).where('id', 'in', gone).execute();
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
        id: newId(), site_id: siteId, catalog, product_id: productId, variant_id: r.variantId, ...values,
        preorder_counter: 0, preorder_message: null, revision: 1, created_date: now,
      }).execute();
    }
  }
}

export async function findStockRows(db: Executor, siteId: string, productId: string): Promise<InventoryRow[]> {
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', '=', productId).orderBy('variant_id').execute();
  return rows.map(toRow);
}

export async function findStockRowsForProducts(db: Executor, siteId: string, productIds: string[]): Promise<Map<string, InventoryRow[]>> {
  const map = new Map<string, InventoryRow[]>();
  if (productIds.length === 0) return map;
  const rows = await db.selectFrom('inventory_items').selectAll().where('site_id', '=', siteId).where('product_id', 'in', productIds).orderBy('product_id').orderBy('variant_id').execute();
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
    WHERE site_id = ${siteId} AND product_id = ${productId} AND variant_id = ${variantId} AND track_quantity = 1
      AND (quantity >= ${quantity} OR (preorder_enabled = 1 AND (preorder_limit IS NULL OR quantity - ${quantity} >= -preorder_limit)))`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function incrementRow(db: Executor, siteId: string, productId: string, variantId: string, quantity: number, now: string): Promise<boolean> {
  const result = await sql`UPDATE inventory_items
    SET quantity = quantity + ${quantity}, in_stock = CASE WHEN quantity + ${quantity} > 0 THEN 1 ELSE 0 END, revision = revision + 1, updated_date = ${now}
    WHERE site_id = ${siteId} AND product_id = ${productId} AND variant_id = ${variantId} AND track_quantity = 1`.execute(db);
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
  const parts: RawBuilder<boolean>[] = [sql<boolean>`ii.site_id = ${q.siteId}`, sql<boolean>`ii.catalog = 'v1'`];
  if (q.onlyVisible) parts.push(sql<boolean>`p.visible = 1`);
  if (q.filter) parts.push(compileFilter(q.filter, { field: variantField }, q.dialect));
  const where = sql.join(parts, sql` AND `);
  const order = sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`ii.product_id ASC`, sql`ii.variant_id ASC`]);
  const from = sql`inventory_items ii JOIN products p ON p.id = ii.product_id AND p.site_id = ii.site_id`;
  const rows = await sql<{ productId: string; variantId: string }>`SELECT ii.product_id AS "productId", ii.variant_id AS "variantId" FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  const total = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}
