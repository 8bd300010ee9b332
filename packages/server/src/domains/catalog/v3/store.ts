import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../storage/database.js';
import { preparedQuery } from '../../../storage/prepared.js';
import type { Bool01 } from '../../../storage/schema.js';
import { jsonArrayHasObject, jsonAsText, lockForUpdate, readJson, toJson, type DialectName } from '../../../storage/dialect.js';
import { allowlist, compileFilter, FilterError, type FilterField, type FilterNode } from '../../../storage/filter.js';
import { searchHits } from '../store-search.js';
import { idsFirstPage } from '../store-page.js';
import { listingChanged } from '../store-listing.js';
import { ALL_PRODUCTS_CATEGORY_ID, type ProductV3 } from './model.js';

interface ProductsV3Table {
  id: string; site_id: string; slug: string; name: string; plain_description: string; visible: Bool01; product_type: string;
  brand_id: string | null; brand_name: string | null; ribbon_id: string | null; ribbon_name: string | null;
  min_price: number; max_price: number; availability_status: string; preorder_status: string; main_category_id: string | null;
  doc: unknown; revision: number; created_date: string; updated_date: string;
}
interface ChoicesTable { site_id: string; product_id: string; option_name: string; choice_name: string; choice_id: string | null }
interface CategoriesTable { site_id: string; product_id: string; category_id: string; position: number }
interface TagsTable { site_id: string; product_id: string; visibility: string; tag_id: string }
interface EntitiesTable { id: string; site_id: string; kind: string; name: string; doc: unknown; revision: number; created_date: string; updated_date: string }

declare module '../../../storage/schema.js' {
  interface Database {
    products_v3: ProductsV3Table;
    products_v3_choices: ChoicesTable;
    products_v3_categories: CategoriesTable;
    products_v3_tags: TagsTable;
    catalog_entities: EntitiesTable;
  }
}

type Doc = Omit<ProductV3, 'id' | 'revision' | 'createdDate' | 'updatedDate'>;

function row(siteId: string, p: ProductV3): ProductsV3Table {
  const { id, revision, createdDate, updatedDate, ...doc } = p;
  const prices = p.variantsInfo.variants.map((v) => Number(v.price.actualPrice.amount));
  return {
    id, site_id: siteId, slug: p.slug, name: p.name, plain_description: p.plainDescription, visible: p.visible ? 1 : 0, product_type: p.productType,
    brand_id: p.brand?.id ?? null, brand_name: p.brand?.name ?? null, ribbon_id: p.ribbon?.id ?? null, ribbon_name: p.ribbon?.name ?? null,
    min_price: prices.length ? Math.min(...prices) : 0, max_price: prices.length ? Math.max(...prices) : 0,
    availability_status: p.inventory.availabilityStatus, preorder_status: p.inventory.preorderStatus, main_category_id: p.mainCategoryId,
    doc: toJson(doc satisfies Doc), revision: Number(revision), created_date: createdDate, updated_date: updatedDate,
  };
}

function fromRow(r: ProductsV3Table): ProductV3 {
  return { id: r.id, revision: String(r.revision), createdDate: r.created_date, updatedDate: r.updated_date, ...readJson<Doc>(r.doc) };
}

/**
 * Writes the product row and its facet rows (choices, categories); the catalog's listing version is
 * raised once this commits (kept searches are answered anew, store-listing.ts).
 */
export async function saveProductV3(db: Executor, siteId: string, p: ProductV3, mode: 'insert' | 'update'): Promise<void> {
  await listingChanged(db, siteId);
  const r = row(siteId, p);
  if (mode === 'insert') await db.insertInto('products_v3').values(r).execute();
  else {
    const { id: _i, site_id: _s, created_date: _c, ...rest } = r;
    await db.updateTable('products_v3').set(rest).where('site_id', '=', siteId).where('id', '=', p.id).execute();
    await db.deleteFrom('products_v3_choices').where('product_id', '=', p.id).execute();
    await db.deleteFrom('products_v3_categories').where('product_id', '=', p.id).execute();
    await db.deleteFrom('products_v3_tags').where('product_id', '=', p.id).execute();
  }
  const choices = p.options.flatMap((o) => o.choicesSettings.choices.map((c) => ({ site_id: siteId, product_id: p.id, option_name: o.name, choice_name: c.name, choice_id: c.choiceId })));
  if (choices.length) await db.insertInto('products_v3_choices').values(choices).execute();
  const cats = p.allCategoriesInfo.categories.map((c, i) => ({ site_id: siteId, product_id: p.id, category_id: c.id, position: i }));
  if (cats.length) await db.insertInto('products_v3_categories').values(cats).execute();
  const tags = (['publicTags', 'privateTags'] as const).flatMap((visibility) => [...new Set(p.tags?.[visibility]?.tagIds ?? [])].map((tagId) => ({ site_id: siteId, product_id: p.id, visibility, tag_id: tagId })));
  if (tags.length) await db.insertInto('products_v3_tags').values(tags).execute();
}

export async function deleteProductV3Row(db: Executor, siteId: string, id: string): Promise<void> {
  await listingChanged(db, siteId);
  await db.deleteFrom('products_v3_choices').where('product_id', '=', id).execute();
  await db.deleteFrom('products_v3_categories').where('product_id', '=', id).execute();
  await db.deleteFrom('products_v3_tags').where('product_id', '=', id).execute();
  await db.deleteFrom('products_v3').where('site_id', '=', siteId).where('id', '=', id).execute();
}

// A product get is a hot read: compiled once (storage/prepared.ts).
const productById = preparedQuery((db, p: { siteId: string; id: string }) => db.selectFrom('products_v3').selectAll().where('site_id', '=', p.siteId).where('id', '=', p.id));
const productBySlug = preparedQuery((db, p: { siteId: string; slug: string }) => db.selectFrom('products_v3').selectAll().where('site_id', '=', p.siteId).where('slug', '=', p.slug));

export async function findProductV3(db: Executor, siteId: string, by: { id: string } | { slug: string }, forUpdate?: DialectName): Promise<ProductV3 | undefined> {
  if (forUpdate && 'id' in by) await lockForUpdate(db, forUpdate, sql`SELECT id FROM products_v3 WHERE site_id = ${siteId} AND id = ${by.id}`);
  const stored = await findStoredProductV3(db, siteId, by);
  return stored && stored.product();
}

/**
 * A product row as read, its document parsed only when `product()` is called: a visitor's get may be
 * answered from text already encoded for the same stored document (present.ts).
 */
export interface StoredProductV3 {
  id: string; revision: number; updatedDate: string; visible: boolean;
  /** The stored document: text on SQLite, already parsed on PostgreSQL (jsonb). */
  doc: unknown;
  product(): ProductV3;
}

export async function findStoredProductV3(db: Executor, siteId: string, by: { id: string } | { slug: string }): Promise<StoredProductV3 | undefined> {
  const r = ('id' in by ? await productById.run(db, { siteId, id: by.id }) : await productBySlug.run(db, { siteId, slug: by.slug })).rows[0];
  return r && { id: r.id, revision: Number(r.revision), updatedDate: r.updated_date, visible: r.visible === 1, doc: r.doc, product: () => fromRow(r) };
}

export async function slugOwnerV3(db: Executor, siteId: string, slug: string): Promise<string | undefined> {
  return (await db.selectFrom('products_v3').select('id').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst())?.id;
}

export async function productIdsWithEntity(db: Executor, siteId: string, kind: 'brand' | 'ribbon', id: string): Promise<string[]> {
  const col = kind === 'brand' ? 'brand_id' : 'ribbon_id';
  return (await db.selectFrom('products_v3').select('id').where('site_id', '=', siteId).where(col, '=', id).execute()).map((r) => r.id);
}

export async function productIdsWithInfoSection(db: Executor, siteId: string, id: string, dialect: DialectName): Promise<string[]> {
  // Info sections live in the document; a LIKE on the id narrows, the service checks exactly.
  const expr = jsonAsText(dialect, sql`doc`);
  const r = await sql<{ id: string }>`SELECT id FROM products_v3 WHERE site_id = ${siteId} AND ${expr} LIKE ${`%${id}%`}`.execute(db);
  return r.rows.map((x) => x.id);
}

// ---------------------------------------------------------------------------------------------
// Query, search, count, aggregations

/** `tags.publicTags.tagIds` etc.: set fields over products_v3_tags (`tags` = either list). */
function tagField(siteId: string, visibilities: string[]): FilterField {
  const vis = sql.join(visibilities);
  return {
    type: 'set',
    hasSome: (values) => (values.length === 0 ? sql<boolean>`1=0` : sql<boolean>`EXISTS (SELECT 1 FROM products_v3_tags x WHERE x.product_id = p.id AND x.site_id = ${siteId} AND x.visibility IN (${vis}) AND x.tag_id IN (${sql.join(values.map(String))}))`),
    notEmpty: () => sql<boolean>`EXISTS (SELECT 1 FROM products_v3_tags x WHERE x.product_id = p.id AND x.visibility IN (${vis}))`,
  };
}

/**
 * `directCategoriesInfo.categories.id`: products_v3_categories holds ALL categories, and the
 * all-products row is there for every product, given directly or not (the rows cannot tell which).
 * Other category rows are direct ones; the all-products category counts only when the product's
 * document lists it directly. (This field used to match all categories: every product was "directly"
 * in the all-products category, and no product had empty direct categories.)
 */
export function directCategoryField(siteId: string, dialect: DialectName): FilterField {
  const rows = (values: string[]) => sql<boolean>`EXISTS (SELECT 1 FROM products_v3_categories x WHERE x.product_id = p.id AND x.site_id = ${siteId} AND x.category_id IN (${sql.join(values)}))`;
  const listsAll = jsonArrayHasObject(dialect, 'p.doc', ['directCategoriesInfo', 'categories'], 'id', ALL_PRODUCTS_CATEGORY_ID);
  return {
    type: 'set',
    hasSome: (values) => {
      const others = values.map(String).filter((v) => v !== ALL_PRODUCTS_CATEGORY_ID);
      const all = others.length < values.length;
      if (!others.length) return all ? listsAll : sql<boolean>`1=0`;
      return all ? sql<boolean>`(${rows(others)} OR ${listsAll})` : rows(others);
    },
    notEmpty: () => sql<boolean>`(EXISTS (SELECT 1 FROM products_v3_categories x WHERE x.product_id = p.id AND x.category_id <> ${ALL_PRODUCTS_CATEGORY_ID}) OR ${listsAll})`,
  };
}

function field(path: string, siteId: string, privateTags: boolean, dialect: DialectName): FilterField | undefined {
  const col = (name: string, type: 'string' | 'number' | 'boolean' | 'date', storedAs01 = false): FilterField => ({ expr: sql.ref(`p.${name}`), type, storedAs01 });
  const set = (table: 'products_v3_choices' | 'products_v3_categories', column: string): FilterField => ({
    type: 'set',
    hasSome: (values) => (values.length === 0 ? sql<boolean>`1=0` : sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.product_id = p.id AND x.site_id = ${siteId} AND ${sql.ref(`x.${column}`)} IN (${sql.join(values.map(String))}))`),
    notEmpty: () => sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.product_id = p.id)`,
  });
  switch (path) {
    case 'id': return col('id', 'string');
    case 'name': return col('name', 'string');
    case 'slug': return col('slug', 'string');
    case 'plainDescription': return col('plain_description', 'string');
    case 'visible': return col('visible', 'boolean', true);
    case 'productType': return col('product_type', 'string');
    case 'brand.id': return col('brand_id', 'string');
    case 'brand.name': return col('brand_name', 'string');
    case 'ribbon.id': return col('ribbon_id', 'string');
    case 'ribbon.name': return col('ribbon_name', 'string');
    case 'actualPriceRange.minValue.amount': return col('min_price', 'number');
    case 'actualPriceRange.maxValue.amount': return col('max_price', 'number');
    case 'inventory.availabilityStatus': return col('availability_status', 'string');
    case 'inventory.preorderStatus': return col('preorder_status', 'string');
    case 'mainCategoryId': return col('main_category_id', 'string');
    case 'createdDate': return col('created_date', 'date');
    case 'updatedDate': return col('updated_date', 'date');
    case 'allCategoriesInfo.categories': case 'allCategoriesInfo.categories.id': return set('products_v3_categories', 'category_id');
    case 'directCategoriesInfo.categories.id': return directCategoryField(siteId, dialect);
    case 'options.choicesSettings.choices.choiceId': return set('products_v3_choices', 'choice_id');
    case 'options.choicesSettings.choices.name': return set('products_v3_choices', 'choice_name');
    // Private tags are filterable by elevated callers only (a visitor could otherwise probe them).
    case 'tags.publicTags.tagIds': return tagField(siteId, ['publicTags']);
    case 'tags.privateTags.tagIds': return privateTags ? tagField(siteId, ['privateTags']) : undefined;
    case 'tags': return tagField(siteId, privateTags ? ['publicTags', 'privateTags'] : ['publicTags']);
    default: return undefined;
  }
}

const SORT = allowlist<string>({
  id: 'id', name: 'name', slug: 'slug', createdDate: 'created_date', updatedDate: 'updated_date',
  'actualPriceRange.minValue.amount': 'min_price', 'actualPriceRange.maxValue.amount': 'max_price', 'brand.name': 'brand_name',
});
export function sortColumnV3(f: string): RawBuilder<unknown> | undefined {
  // Products without a brand sort as the empty name (first ascending, last descending) on both
  // databases: a bare NULL sorted first on SQLite and last on PostgreSQL. Brand names are never empty.
  if (f === 'brand.name') return sql`COALESCE(p.brand_name, '')`;
  return SORT[f] ? sql.ref(`p.${SORT[f]}`) : undefined;
}

export interface QueryV3 {
  siteId: string; dialect: DialectName; filter: FilterNode | undefined; onlyVisible: boolean;
  sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number; searchTerms?: string[];
  /** Whether `tags.privateTags.tagIds` may be filtered on (elevated callers). */
  privateTags?: boolean;
}

/** The listing's join and conditions; `ranked`: the search hits carry the engine's rank (only an order by rank needs it). */
function parts(q: QueryV3, ranked = false): { join: RawBuilder<unknown>; where: RawBuilder<unknown> } {
  const w: RawBuilder<boolean>[] = [sql<boolean>`p.site_id = ${q.siteId}`];
  if (q.onlyVisible) w.push(sql<boolean>`p.visible = 1`);
  if (q.filter) w.push(compileFilter(q.filter, { field: (path) => field(path, q.siteId, q.privateTags ?? false, q.dialect) }, q.dialect));
  const join = q.searchTerms ? sql`JOIN ${searchHits(q.dialect, q.siteId, 'v3', q.searchTerms, ranked)} h ON h.entity_id = p.id` : sql``;
  return { join, where: sql.join(w, sql` AND `) };
}

export async function queryProductsV3(db: Executor, q: QueryV3): Promise<ProductV3[]> {
  const byRank = q.sort.length === 0 && q.searchTerms !== undefined;
  const { join, where } = parts(q, byRank);
  const keys = q.sort.length > 0 ? q.sort : [{ expr: byRank ? sql`h.rank` : sql`p.created_date`, order: 'DESC' as const }];
  const page = idsFirstPage({ table: 'products_v3', columns: sql`p.*`, join, where, keys, limit: q.limit, offset: q.offset });
  const r = await sql<ProductsV3Table>`${page}`.execute(db);
  return r.rows.map(fromRow);
}

/** Ids of the products matching `q` (oldest first), at most `limit` (by-filter jobs freeze these). */
export async function productIdsV3(db: Executor, q: QueryV3, limit: number): Promise<string[]> {
  const { join, where } = parts(q);
  const r = await sql<{ id: string }>`SELECT p.id FROM products_v3 p ${join} WHERE ${where} ORDER BY p.created_date ASC, p.id ASC LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => x.id);
}

export async function countProductsV3(db: Executor, q: QueryV3): Promise<number> {
  const { join, where } = parts(q);
  const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM products_v3 p ${join} WHERE ${where}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

const VALUE_COLUMNS = allowlist<string>({
  'brand.id': 'p.brand_id', 'brand.name': 'p.brand_name', 'ribbon.id': 'p.ribbon_id', 'ribbon.name': 'p.ribbon_name', productType: 'p.product_type',
  'inventory.availabilityStatus': 'p.availability_status', 'inventory.preorderStatus': 'p.preorder_status', mainCategoryId: 'p.main_category_id',
});
const NUMERIC_COLUMNS = allowlist<string>({ 'actualPriceRange.minValue.amount': 'p.min_price', 'actualPriceRange.maxValue.amount': 'p.max_price' });

export type AggregationSpec =
  | { kind: 'value'; fieldPath: string; limit: number; sortType: 'COUNT' | 'VALUE'; sortDirection: 'ASC' | 'DESC' }
  | { kind: 'range'; fieldPath: string; buckets: { from?: number | null | undefined; to?: number | null | undefined }[] }
  | { kind: 'scalar'; fieldPath: string; type: 'COUNT_DISTINCT' | 'MIN' | 'MAX' };

/** One aggregation over the products matching `q` (facet counts, price buckets, min / max). */
export async function aggregateV3(db: Executor, q: QueryV3, a: AggregationSpec, index: number): Promise<unknown> {
  const { join, where } = parts(q);
  const bad = () => new FilterError('UNKNOWN_FIELD', `"${a.fieldPath}" cannot be aggregated`, `aggregations[${index}].fieldPath`);
  if (a.kind === 'value') {
    const choices = a.fieldPath === 'options.choicesSettings.choices.name' || a.fieldPath === 'options.choicesSettings.choices.choiceId';
    const dir = sql.raw(a.sortDirection);
    if (choices) {
      const c = a.fieldPath.endsWith('choiceId') ? sql.ref('c.choice_id') : sql.ref('c.choice_name');
      const order = a.sortType === 'VALUE' ? sql`value ${dir}` : sql`count ${dir}, value ASC`;
      const r = await sql<{ value: string; count: number }>`SELECT ${c} AS value, COUNT(DISTINCT p.id) AS count FROM products_v3 p ${join}
        JOIN products_v3_choices c ON c.product_id = p.id WHERE ${where} GROUP BY ${c} ORDER BY ${order} LIMIT ${a.limit}`.execute(db);
      return r.rows.map((x) => ({ value: String(x.value), count: Number(x.count) }));
    }
    const col = VALUE_COLUMNS[a.fieldPath];
    if (!col) throw bad();
    const e = sql.ref(col);
    const order = a.sortType === 'VALUE' ? sql`value ${dir}` : sql`count ${dir}, value ASC`;
    const r = await sql<{ value: string; count: number }>`SELECT ${e} AS value, COUNT(*) AS count FROM products_v3 p ${join}
      WHERE ${where} AND ${e} IS NOT NULL GROUP BY ${e} ORDER BY ${order} LIMIT ${a.limit}`.execute(db);
    return r.rows.map((x) => ({ value: String(x.value), count: Number(x.count) }));
  }
  if (a.kind === 'range') {
    const col = NUMERIC_COLUMNS[a.fieldPath];
    if (!col) throw bad();
    const e = sql.ref(col);
    const cases = a.buckets.map((b, i) => {
      const conds = [b.from != null ? sql`${e} >= ${b.from}` : sql`1=1`, b.to != null ? sql`${e} < ${b.to}` : sql`1=1`];
      return sql`SUM(CASE WHEN ${sql.join(conds, sql` AND `)} THEN 1 ELSE 0 END) AS ${sql.ref(`b${i}`)}`;
    });
    const r = await sql<Record<string, number>>`SELECT ${sql.join(cases)} FROM products_v3 p ${join} WHERE ${where}`.execute(db);
    const out = r.rows[0] ?? {};
    return a.buckets.map((b, i) => ({ ...(b.from != null ? { from: b.from } : {}), ...(b.to != null ? { to: b.to } : {}), count: Number(out[`b${i}`] ?? 0) }));
  }
  const col = NUMERIC_COLUMNS[a.fieldPath] ?? VALUE_COLUMNS[a.fieldPath];
  if (!col || (a.type !== 'COUNT_DISTINCT' && !NUMERIC_COLUMNS[a.fieldPath])) throw bad();
  const e = sql.ref(col);
  const fn = a.type === 'MIN' ? sql`MIN(${e})` : a.type === 'MAX' ? sql`MAX(${e})` : sql`COUNT(DISTINCT ${e})`;
  const r = await sql<{ v: number | null }>`SELECT ${fn} AS v FROM products_v3 p ${join} WHERE ${where}`.execute(db);
  return Number(r.rows[0]?.v ?? 0);
}

export { ALL_PRODUCTS_CATEGORY_ID };

// ---------------------------------------------------------------------------------------------
// Ribbons, brands, info sections

export type EntityKind = 'ribbon' | 'brand' | 'infoSection';
export interface EntityRow { id: string; name: string; doc: Record<string, unknown>; revision: number; createdDate: string; updatedDate: string }

function entity(r: EntitiesTable): EntityRow {
  return { id: r.id, name: r.name, doc: readJson<Record<string, unknown>>(r.doc), revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date };
}

export async function insertEntity(db: Executor, siteId: string, kind: EntityKind, e: EntityRow): Promise<void> {
  await db.insertInto('catalog_entities').values({ id: e.id, site_id: siteId, kind, name: e.name, doc: toJson(e.doc), revision: e.revision, created_date: e.createdDate, updated_date: e.updatedDate }).execute();
}

export async function updateEntity(db: Executor, siteId: string, kind: EntityKind, e: EntityRow): Promise<void> {
  await db.updateTable('catalog_entities').set({ name: e.name, doc: toJson(e.doc), revision: e.revision, updated_date: e.updatedDate })
    .where('site_id', '=', siteId).where('kind', '=', kind).where('id', '=', e.id).execute();
}

export async function deleteEntity(db: Executor, siteId: string, kind: EntityKind, id: string): Promise<boolean> {
  const r = await db.deleteFrom('catalog_entities').where('site_id', '=', siteId).where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function findEntity(db: Executor, siteId: string, kind: EntityKind, by: { id: string } | { name: string }): Promise<EntityRow | undefined> {
  let q = db.selectFrom('catalog_entities').selectAll().where('site_id', '=', siteId).where('kind', '=', kind);
  q = 'id' in by ? q.where('id', '=', by.id) : q.where('name', '=', by.name);
  const r = await q.executeTakeFirst();
  return r && entity(r);
}

function entityField(path: string, kind: EntityKind): FilterField | undefined {
  const col = (name: string, type: 'string' | 'date'): FilterField => ({ expr: sql.ref(`e.${name}`), type });
  switch (path) {
    case 'id': return col('id', 'string');
    case 'name': return kind === 'infoSection' ? undefined : col('name', 'string');
    case 'uniqueName': return kind === 'infoSection' ? col('name', 'string') : undefined;
    case 'createdDate': return col('created_date', 'date');
    case 'updatedDate': return col('updated_date', 'date');
    default: return undefined;
  }
}

const ENTITY_SORT = allowlist<string>({ id: 'id', name: 'name', uniqueName: 'name', createdDate: 'created_date', updatedDate: 'updated_date' });

export function entitySortColumn(f: string): RawBuilder<unknown> | undefined {
  const column = ENTITY_SORT[f];
  return column ? sql.ref(`e.${column}`) : undefined;
}

export async function queryEntities(db: Executor, q: { siteId: string; kind: EntityKind; dialect: DialectName; filter: FilterNode | undefined; sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number; countOnly?: boolean }): Promise<{ rows: EntityRow[]; count: number }> {
  const w = [sql<boolean>`e.site_id = ${q.siteId}`, sql<boolean>`e.kind = ${q.kind}`];
  if (q.filter) w.push(compileFilter(q.filter, { field: (p) => entityField(p, q.kind) }, q.dialect));
  const where = sql.join(w, sql` AND `);
  if (q.countOnly) {
    const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM catalog_entities e WHERE ${where}`.execute(db);
    return { rows: [], count: Number(r.rows[0]?.n ?? 0) };
  }
  const order = sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`e.created_date ASC`, sql`e.id ASC`]);
  const r = await sql<EntitiesTable>`SELECT e.* FROM catalog_entities e WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return { rows: r.rows.map(entity), count: r.rows.length };
}
