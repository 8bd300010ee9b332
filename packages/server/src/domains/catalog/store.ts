import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { dialectOf, lockForUpdate, orderedStringAgg, readJson, toJson, type DialectName } from '../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode, type FilterTarget } from '../../storage/filter.js';
import { ALL_PRODUCTS_COLLECTION_ID, type ProductV1, type PublicProductRow } from './model.js';
import { visitorProduct } from './present.js';
import { insertFullTextRows } from '../../storage/fulltext.js';
import { CATALOG_SEARCH, searchHits, searchRow } from './store-search.js';
import { cachedListingCount, listingChanged } from './store-listing.js';
import { idsFirstPage } from './store-page.js';
import { preparedQuery } from '../../storage/prepared.js';

interface ProductsTable {
  id: string;
  site_id: string;
  numeric_id: number;
  slug: string;
  name: string;
  description: string;
  sku: string | null;
  product_type: string;
  visible: Bool01;
  in_stock: Bool01;
  price: number;
  discounted_price: number;
  brand: string | null;
  ribbon: string | null;
  doc: unknown;
  /** JSON text of the visitor view without the column fields (`publicDocJson`). */
  public_doc: string;
  created_date: string;
  last_updated: string;
}

interface CollectionsTable {
  id: string;
  site_id: string;
  slug: string;
  name: string;
  visible: Bool01;
  doc: unknown;
  created_date: string;
  updated_date: string;
}

interface ProductCollectionsTable {
  site_id: string;
  collection_id: string;
  product_id: string;
  position: number;
}

declare module '../../storage/schema.js' {
  interface Database {
    products: ProductsTable;
    collections: CollectionsTable;
    product_collections: ProductCollectionsTable;
  }
}

/** The product document without the fields kept in their own columns or tables. */
type ProductDoc = Omit<ProductV1, 'id' | 'collectionIds' | 'createdDate' | 'lastUpdated'>;

/** The visitor view of a product as stored JSON text, without the fields kept in columns. */
export function publicDocJson(product: ProductV1): string {
  const { id: _id, collectionIds: _c, createdDate: _cd, lastUpdated: _lu, ...doc } = visitorProduct(product);
  return JSON.stringify(doc);
}

function productRow(siteId: string, product: ProductV1): ProductsTable {
  const { id, collectionIds: _c, createdDate, lastUpdated, ...doc } = product;
  return {
    id,
    site_id: siteId,
    numeric_id: Number(product.numericId),
    slug: product.slug,
    name: product.name,
    description: product.description,
    sku: product.sku ?? null,
    product_type: product.productType,
    visible: product.visible ? 1 : 0,
    in_stock: product.stock.inStock ? 1 : 0,
    price: product.priceData.price,
    discounted_price: product.priceData.discountedPrice,
    brand: product.brand ?? null,
    ribbon: product.ribbon ?? null,
    doc: toJson(doc satisfies ProductDoc),
    public_doc: publicDocJson(product),
    created_date: createdDate,
    last_updated: lastUpdated,
  };
}

export async function insertProduct(db: Executor, siteId: string, product: ProductV1): Promise<void> {
  await db.insertInto('products').values(productRow(siteId, product)).execute();
  await listingChanged(db, siteId);
}

export async function updateProductRow(db: Executor, siteId: string, product: ProductV1): Promise<void> {
  const { id: _id, site_id: _s, created_date: _c, ...row } = productRow(siteId, product);
  await db.updateTable('products').set(row).where('site_id', '=', siteId).where('id', '=', product.id).execute();
  await listingChanged(db, siteId);
}

export async function deleteProductRow(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('product_collections').where('site_id', '=', siteId).where('product_id', '=', id).execute();
  await db.deleteFrom('products').where('site_id', '=', siteId).where('id', '=', id).execute();
  await listingChanged(db, siteId);
}

/** Locks the product row for the rest of the transaction on PostgreSQL (SQLite serializes writers anyway). */
export async function findProductForUpdate(db: Executor, siteId: string, id: string, dialect: DialectName): Promise<ProductV1 | undefined> {
  await lockForUpdate(db, dialect, sql`SELECT id FROM products WHERE site_id = ${siteId} AND id = ${id}`);
  return findProduct(db, siteId, id);
}

export async function findProductsByIds(db: Executor, siteId: string, ids: string[]): Promise<ProductV1[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('products').select(['id', 'doc', 'created_date', 'last_updated']).where('site_id', '=', siteId).where('id', 'in', ids).orderBy('id').execute();
  const collections = await collectionIdsFor(db, rows.map((r) => r.id));
  return rows.map((row) => toProduct(row, collections.get(row.id) ?? []));
}

export async function existingProductIds(db: Executor, siteId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('products').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Columns a product query may filter on, by V1 field path. Anything else is refused. */
function productField(path: string, siteId: string): FilterField | undefined {
  const col = (name: string, type: 'string' | 'number' | 'boolean' | 'date', storedAs01 = false): FilterField => ({ expr: sql.ref(`p.${name}`), type, storedAs01 });
  switch (path) {
    case 'id': return col('id', 'string');
    case 'name': return col('name', 'string');
    case 'description': return col('description', 'string');
    case 'sku': return col('sku', 'string');
    case 'slug': return col('slug', 'string');
    case 'brand': return col('brand', 'string');
    case 'ribbon': return col('ribbon', 'string');
    case 'productType': return col('product_type', 'string');
    case 'visible': return col('visible', 'boolean', true);
    case 'stock.inStock': case 'inStock': return col('in_stock', 'boolean', true);
    case 'numericId': return col('numeric_id', 'number');
    case 'price': case 'price.price': case 'priceData.price': return col('price', 'number');
    case 'discountedPrice': case 'price.discountedPrice': case 'priceData.discountedPrice': return col('discounted_price', 'number');
    case 'lastUpdated': return col('last_updated', 'date');
    case 'createdDate': return col('created_date', 'date');
    case 'collections.id': case 'collectionIds':
      return {
        type: 'set',
        hasSome: (values) => values.includes(ALL_PRODUCTS_COLLECTION_ID) ? sql<boolean>`1=1` : values.length === 0 ? sql<boolean>`1=0` : sql<boolean>`EXISTS (SELECT 1 FROM product_collections pc WHERE pc.product_id = p.id AND pc.site_id = ${siteId} AND pc.collection_id IN (${sql.join(values.map(String))}))`,
        notEmpty: () => sql<boolean>`EXISTS (SELECT 1 FROM product_collections pc WHERE pc.product_id = p.id AND pc.site_id = ${siteId})`,
      };
    default: return undefined;
  }
}

export function productFilterTarget(siteId: string): FilterTarget {
  return { field: (path) => productField(path, siteId) };
}

const SORTABLE = allowlist<string>({
  id: 'id', name: 'name', sku: 'sku', slug: 'slug', numericId: 'numeric_id',
  price: 'price', 'price.price': 'price', 'priceData.price': 'price', formattedPrice: 'price',
  discountedPrice: 'discounted_price', 'priceData.discountedPrice': 'discounted_price',
  lastUpdated: 'last_updated', createdDate: 'created_date',
});

export function productSortColumn(field: string): RawBuilder<unknown> | undefined {
  const column = SORTABLE[field];
  return column ? sql.ref(`p.${column}`) : undefined;
}

export interface ProductQuery {
  siteId: string;
  filter: FilterNode | undefined;
  onlyVisible: boolean;
  sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[];
  limit: number;
  offset: number;
  dialect: DialectName;
  /** Full-text terms; matches only, best first unless a sort is given. */
  searchTerms?: string[];
  /** Skip the COUNT(*) (cursor pages do not report totals). */
  skipTotal?: boolean;
  /** The listing version the caller already read (store-listing.ts), saving the count cache a read. */
  listingVersion?: number;
}

function whereClause(q: ProductQuery): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`p.site_id = ${q.siteId}`];
  if (q.onlyVisible) parts.push(sql<boolean>`p.visible = 1`);
  if (q.filter) parts.push(compileFilter(q.filter, productFilterTarget(q.siteId), q.dialect));
  return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
}

export interface ProductRowOut { product: ProductV1 }

export function toProduct(row: Pick<ProductsTable, 'id' | 'doc' | 'created_date' | 'last_updated'>, collectionIds: string[]): ProductV1 {
  const doc = readJson<ProductDoc>(row.doc);
  return { id: row.id, ...doc, collectionIds, createdDate: row.created_date, lastUpdated: row.last_updated };
}

async function collectionIdsFor(db: Executor, productIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (productIds.length === 0) return map;
  const rows = await db
    .selectFrom('product_collections')
    .select(['product_id', 'collection_id'])
    .where('product_id', 'in', productIds)
    .orderBy('collection_id')
    .execute();
  for (const row of rows) {
    const list = map.get(row.product_id) ?? [];
    list.push(row.collection_id);
    map.set(row.product_id, list);
  }
  return map;
}

/** One page of products (full documents) and, unless skipped, the number of matches. */
export async function queryProductRows(db: Executor, q: ProductQuery): Promise<{ products: ProductV1[]; total: number }> {
  const { rows, total } = await productPage<ProductsTable & { collection_ids: string | null }>(db, q, sql`${FULL_COLUMNS}`);
  return { products: rows.map(({ collection_ids, ...row }) => toProduct(row, splitIds(collection_ids))), total };
}

/** A product as visitors see it, as stored: the visitor document text plus the column fields. */

/** One page of products as `public_doc` text (nothing parsed), and the number of matches. */
export async function queryPublicProductRows(db: Executor, q: ProductQuery): Promise<{ rows: PublicProductRow[]; total: number }> {
  const { rows, total } = await productPage<PublicColumns>(db, q, PUBLIC_COLUMNS);
  return { rows: rows.map(toPublicRow), total };
}

const publicProduct = preparedQuery((db, p: { siteId: string; id: string }) =>
  sql<PublicColumns & { visible: Bool01 }>`SELECT ${PUBLIC_COLUMNS}, p.visible, ${collectionIdsColumn(dialectOf(db))} AS collection_ids FROM products p WHERE p.site_id = ${p.siteId} AND p.id = ${p.id}`);

export async function findPublicProduct(db: Executor, siteId: string, id: string): Promise<(PublicProductRow & { visible: boolean }) | undefined> {
  const row = (await publicProduct.run(db, { siteId, id })).rows[0];
  return row && { ...toPublicRow(row), visible: row.visible === 1 };
}

/** Everything `toProduct` reads (not `public_doc`). */
const FULL_COLUMNS = sql.raw('p.id, p.doc, p.created_date, p.last_updated');
const PUBLIC_COLUMNS = sql.raw('p.id, p.public_doc, p.created_date, p.last_updated');
type PublicColumns = Pick<ProductsTable, 'id' | 'public_doc' | 'created_date' | 'last_updated'> & { collection_ids: string | null };

function toPublicRow(row: PublicColumns): PublicProductRow {
  return { id: row.id, publicDoc: row.public_doc, collectionIds: splitIds(row.collection_ids), createdDate: row.created_date, lastUpdated: row.last_updated };
}

async function productPage<Row>(db: Executor, q: ProductQuery, columns: RawBuilder<unknown>): Promise<{ rows: Row[]; total: number }> {
  const where = whereClause(q);
  const searching = q.searchTerms !== undefined;
  // Only a page in search order needs the engine's rank; counting the matches does not.
  const hits = (ranked: boolean) => (searching ? sql`JOIN ${searchHits(q.dialect, q.siteId, 'v1', q.searchTerms!, ranked)} h ON h.entity_id = p.id` : sql``);
  const keys = q.sort.length > 0 ? q.sort : [{ expr: searching ? sql`h.rank` : sql`p.numeric_id`, order: 'DESC' as const }];
  const pageSql = idsFirstPage({
    table: 'products', columns: sql`${columns}, ${collectionIdsColumn(q.dialect)} AS collection_ids`, join: hits(q.sort.length === 0),
    where, keys, limit: q.limit, offset: q.offset,
  });
  const rows = (await sql<Row>`${pageSql}`.execute(db)).rows;
  if (q.skipTotal) return { rows, total: -1 };
  const countQuery = sql<{ total: number }>`SELECT COUNT(*) AS total FROM products p ${hits(false)} WHERE ${where}`;
  const compiled = countQuery.compile(db);
  const total = await cachedListingCount(db, q.siteId, `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`,
    async () => Number((await countQuery.execute(db)).rows[0]?.total ?? 0), q.listingVersion);
  return { rows, total };
}

/** The product's collection ids as one comma-joined column (ids are UUIDs), so a get is one statement. */
function collectionIdsColumn(dialect: DialectName): RawBuilder<string | null> {
  return orderedStringAgg(dialect, { alias: 'pc', column: 'collection_id', from: sql`product_collections pc WHERE pc.product_id = p.id`, separator: ',' });
}

const splitIds = (joined: string | null): string[] => (joined ? joined.split(',') : []);

export async function findProduct(db: Executor, siteId: string, id: string): Promise<ProductV1 | undefined> {
  const r = await sql<ProductsTable & { collection_ids: string | null }>`SELECT ${FULL_COLUMNS}, ${collectionIdsColumn(dialectOf(db))} AS collection_ids FROM products p WHERE p.site_id = ${siteId} AND p.id = ${id}`.execute(db);
  const row = r.rows[0];
  return row && toProduct(row, splitIds(row.collection_ids));
}

export interface CollectionV1 { id: string; name: string; slug: string; visible: boolean; description?: string; media?: unknown; numberOfProducts?: number }

export async function insertCollection(db: Executor, siteId: string, collection: CollectionV1, now: string): Promise<void> {
  const { id, name, slug, visible, ...doc } = collection;
  await db.insertInto('collections').values({
    id, site_id: siteId, slug, name, visible: visible ? 1 : 0, doc: toJson(doc), created_date: now, updated_date: now,
  }).execute();
}

function toCollection(row: CollectionsTable): CollectionV1 {
  const doc = readJson<Omit<CollectionV1, 'id' | 'name' | 'slug' | 'visible'>>(row.doc);
  return { id: row.id, name: row.name, slug: row.slug, visible: row.visible === 1, ...doc };
}

// A collection get is a hot read: compiled once (storage/prepared.ts).
const collectionById = preparedQuery((db, p: { siteId: string; id: string }) => db.selectFrom('collections').selectAll().where('site_id', '=', p.siteId).where('id', '=', p.id));
const collectionBySlug = preparedQuery((db, p: { siteId: string; slug: string }) => db.selectFrom('collections').selectAll().where('site_id', '=', p.siteId).where('slug', '=', p.slug));

export async function findCollection(db: Executor, siteId: string, by: { id: string } | { slug: string }): Promise<CollectionV1 | undefined> {
  const row = ('id' in by ? await collectionById.run(db, { siteId, id: by.id }) : await collectionBySlug.run(db, { siteId, slug: by.slug })).rows[0];
  return row && toCollection(row);
}

export async function updateCollectionRow(db: Executor, siteId: string, collection: CollectionV1, now: string): Promise<void> {
  const { id, name, slug, visible, numberOfProducts: _n, ...doc } = collection;
  await db.updateTable('collections').set({ name, slug, visible: visible ? 1 : 0, doc: toJson(doc), updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).execute();
}

export async function deleteCollectionRow(db: Executor, siteId: string, id: string): Promise<void> {
  await db.deleteFrom('product_collections').where('site_id', '=', siteId).where('collection_id', '=', id).execute();
  await listingChanged(db, siteId);
  await db.deleteFrom('collections').where('site_id', '=', siteId).where('id', '=', id).execute();
}

export async function existingCollectionIds(db: Executor, siteId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('collections').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function collectionSlugOwner(db: Executor, siteId: string, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('collections').select('id').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}

/** Products per collection (visible ones only when `onlyVisible`). */
export async function countCollectionProducts(db: Executor, siteId: string, ids: string[], onlyVisible: boolean): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  if (ids.length === 0) return map;
  let q = db.selectFrom('product_collections as pc').innerJoin('products as p', 'p.id', 'pc.product_id')
    .select(['pc.collection_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('pc.site_id', '=', siteId).where('pc.collection_id', 'in', ids);
  if (onlyVisible) q = q.where('p.visible', '=', 1);
  for (const row of await q.groupBy('pc.collection_id').execute()) map.set(row.collection_id, Number(row.n));
  return map;
}

export async function countProducts(db: Executor, siteId: string, onlyVisible: boolean): Promise<number> {
  let q = db.selectFrom('products').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId);
  if (onlyVisible) q = q.where('visible', '=', 1);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

function collectionField(path: string): FilterField | undefined {
  const col = (name: string, type: 'string' | 'boolean' | 'date', storedAs01 = false): FilterField => ({ expr: sql.ref(`c.${name}`), type, storedAs01 });
  switch (path) {
    case 'id': return col('id', 'string');
    case 'name': return col('name', 'string');
    case 'slug': return col('slug', 'string');
    case 'visible': return col('visible', 'boolean', true);
    default: return undefined;
  }
}

const COLLECTION_SORTABLE = allowlist<string>({ id: 'id', name: 'name', slug: 'slug' });
export function collectionSortColumn(field: string): RawBuilder<unknown> | undefined {
  const column = COLLECTION_SORTABLE[field];
  return column ? sql.ref(`c.${column}`) : undefined;
}

export async function queryCollectionRows(db: Executor, q: { siteId: string; filter: FilterNode | undefined; onlyVisible: boolean; sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[]; limit: number; offset: number; dialect: DialectName }): Promise<{ collections: CollectionV1[]; total: number }> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`c.site_id = ${q.siteId}`];
  if (q.onlyVisible) parts.push(sql<boolean>`c.visible = 1`);
  if (q.filter) parts.push(compileFilter(q.filter, { field: collectionField }, q.dialect));
  const where = sql.join(parts, sql` AND `);
  const order = sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)}`), sql`c.created_date ASC`, sql`c.id ASC`]);
  const rows = await sql<CollectionsTable>`SELECT c.* FROM collections c WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  const total = await sql<{ total: number }>`SELECT COUNT(*) AS total FROM collections c WHERE ${where}`.execute(db);
  return { collections: rows.rows.map(toCollection), total: Number(total.rows[0]?.total ?? 0) };
}

export async function addProductsToCollectionRows(db: Executor, siteId: string, collectionId: string, productIds: string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const present = await db.selectFrom('product_collections').select(['product_id']).where('collection_id', '=', collectionId).where('product_id', 'in', productIds).execute();
  const have = new Set(present.map((r) => r.product_id));
  const top = await db.selectFrom('product_collections').select((eb) => eb.fn.max<number>('position').as('m')).where('collection_id', '=', collectionId).executeTakeFirst();
  let position = Number(top?.m ?? -1) + 1;
  const added: string[] = [];
  for (const productId of productIds) {
    if (have.has(productId)) continue;
    have.add(productId);
    await addProductToCollection(db, siteId, collectionId, productId, position++);
    added.push(productId);
  }
  return added;
}

export async function removeProductsFromCollectionRows(db: Executor, siteId: string, collectionId: string, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  await db.deleteFrom('product_collections').where('site_id', '=', siteId).where('collection_id', '=', collectionId).where('product_id', 'in', productIds).execute();
  await listingChanged(db, siteId);
}

export async function setProductCollections(db: Executor, siteId: string, productId: string, collectionIds: string[]): Promise<void> {
  await db.deleteFrom('product_collections').where('site_id', '=', siteId).where('product_id', '=', productId).execute();
  for (const [i, id] of collectionIds.entries()) await addProductToCollection(db, siteId, id, productId, 1_000_000 + i);
  await listingChanged(db, siteId);
}

export async function addProductToCollection(db: Executor, siteId: string, collectionId: string, productId: string, position: number): Promise<void> {
  await db.insertInto('product_collections').values({ site_id: siteId, collection_id: collectionId, product_id: productId, position }).execute();
  await listingChanged(db, siteId);
}

export async function findProductIdBySlug(db: Executor, siteId: string, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('products').select('id').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}

/**
 * Many new products at once (seeding and benchmarks): multi-row inserts of products, stock rows and
 * search rows. Records no events and checks no slugs or SKUs: callers pass products they built.
 */
export async function insertProductsBulk(db: Executor, siteId: string, items: { product: ProductV1; stock: { variantId: string; trackQuantity: boolean; quantity: number | null; inStock: boolean }[] }[], now: string, newId: () => string): Promise<void> {
  const CHUNK = 200;
  for (let i = 0; i < items.length; i += CHUNK) {
    const part = items.slice(i, i + CHUNK);
    await db.insertInto('products').values(part.map((x) => productRow(siteId, x.product))).execute();
    await listingChanged(db, siteId);
    const stock = part.flatMap(({ product, stock }) => stock.map((s) => ({
      id: newId(), site_id: siteId, catalog: 'v1', product_id: product.id, variant_id: s.variantId,
      sku: product.variants.find((v) => v.id === s.variantId)?.variant.sku ?? null,
      track_quantity: (s.trackQuantity ? 1 : 0) as Bool01, quantity: s.trackQuantity ? (s.quantity ?? 0) : null,
      in_stock: (s.trackQuantity ? ((s.quantity ?? 0) > 0 ? 1 : 0) : s.inStock ? 1 : 0) as Bool01,
      preorder_enabled: 0 as Bool01, preorder_limit: null, preorder_counter: 0, preorder_message: null, revision: 1, created_date: now, updated_date: now,
    })));
    if (stock.length) await db.insertInto('inventory_items').values(stock).execute();
    await insertFullTextRows(db, CATALOG_SEARCH, part.map(({ product: p }) => searchRow(siteId, {
      id: p.id, catalog: 'v1', name: p.name, sku: [...new Set(p.variants.map((v) => v.variant.sku).filter(Boolean))].join(' '), brand: p.brand ?? '', description: p.description.replace(/<[^>]*>/g, ' '),
    })));
  }
}

declare module '../../storage/schema.js' {
  interface Database {
    catalog_secrets: { name: string; value: string };
  }
}

/** A server secret of this domain (the cursor key), made by a migration. */
export async function findCatalogSecret(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom('catalog_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

const secretKeys = new WeakMap<object, Map<string, Buffer>>();

/** A catalog secret as key bytes (cursor and download-URL HMAC keys), read once per database handle. */
export async function catalogSecretKey(db: Executor, name: string): Promise<Buffer> {
  let byName = secretKeys.get(db);
  if (!byName) secretKeys.set(db, (byName = new Map()));
  const cached = byName.get(name);
  if (cached) return cached;
  const key = Buffer.from(await findCatalogSecret(db, name), 'base64url');
  byName.set(name, key);
  return key;
}
