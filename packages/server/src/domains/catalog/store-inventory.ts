import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { escapeLike, ilike, type DialectName } from '../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode } from '../../storage/filter.js';
import { DEFAULT_LOCATION_ID, toInventoryRow as toRow, type InventoryItemsTable, type InventoryRow } from '../inventory/index.js';
import { directCategoryField } from './v3/store.js';

/**
 * The catalog's searches over `inventory_items` that join product tables (V1 store variants, V3
 * inventory search). The table and every other statement on it belong to domains/inventory; these
 * stay here until inventory search no longer needs product fields (docs/inventory.md).
 */

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
// V3 inventory items at any location (v3/inventory-*.ts): create, delete, search. Stock changes
// (decrement, increment, set, preorder units) are the inventory domain's (domains/inventory).

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
