import { randomBytes, randomUUID } from 'node:crypto';
import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';
import { DEFAULT_LOCATION_ID, type ProductV1 } from './model.js';
import { addFullTextKeyMap, createFullTextIndex, insertFullTextRows } from '../../storage/fulltext.js';
import { publicDocJson } from './store.js';
import { CATALOG_SEARCH, searchRow } from './store-search.js';

export const catalogMigrations: Record<string, Migration> = {
  '0001_products_v1': {
    async up(db: MigrationDb) {
      const { json, float, binary } = columnTypes(db);
      await db.schema
        .createTable('products')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('numeric_id', 'bigint', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sku', 'text')
        .addColumn('product_type', 'text', (c) => c.notNull())
        .addColumn('visible', 'integer', (c) => c.notNull())
        .addColumn('in_stock', 'integer', (c) => c.notNull())
        .addColumn('price', float, (c) => c.notNull())
        .addColumn('discounted_price', float, (c) => c.notNull())
        .addColumn('brand', 'text')
        .addColumn('ribbon', 'text')
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('last_updated', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_site_slug').on('products').columns(['site_id', 'slug']).unique().execute();
      await db.schema.createIndex('products_site_price').on('products').columns(['site_id', 'price']).execute();
      await db.schema.createIndex('products_site_name').on('products').columns(['site_id', 'name']).execute();
      await db.schema.createIndex('products_site_updated').on('products').columns(['site_id', 'last_updated']).execute();
      await db.schema.createIndex('products_site_numeric').on('products').columns(['site_id', 'numeric_id']).execute();

      await db.schema
        .createTable('collections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('visible', 'integer', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collections_site_slug').on('collections').columns(['site_id', 'slug']).unique().execute();

      await db.schema
        .createTable('product_collections')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull().references('collections.id').onDelete('cascade'))
        .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_collections_pk', ['collection_id', 'product_id'])
        .execute();
      await db.schema.createIndex('product_collections_product').on('product_collections').columns(['product_id', 'collection_id']).execute();

      await db.schema
        .createTable('media_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
    },
  },

  /**
   * Inventory (stock as columns so a decrement is one guarded UPDATE), full-text search, V3 products
   * with their facet side tables, V3 ribbons / brands / info sections, and the cursor-signing secret.
   */
  '0002_catalog_full': {
    async up(db: MigrationDb) {
      const { json, float } = columnTypes(db);
      await db.schema
        .createTable('inventory_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('catalog', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('variant_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text')
        .addColumn('track_quantity', 'integer', (c) => c.notNull())
        .addColumn('quantity', 'integer')
        .addColumn('in_stock', 'integer', (c) => c.notNull())
        .addColumn('preorder_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('preorder_limit', 'integer')
        .addColumn('preorder_counter', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('preorder_message', 'text')
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('inventory_items_variant').on('inventory_items').columns(['site_id', 'product_id', 'variant_id']).unique().execute();
      await db.schema.createIndex('inventory_items_sku').on('inventory_items').columns(['site_id', 'sku']).execute();

      await db.schema
        .createTable('products_v3')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plain_description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('visible', 'integer', (c) => c.notNull())
        .addColumn('product_type', 'text', (c) => c.notNull())
        .addColumn('brand_id', 'text')
        .addColumn('brand_name', 'text')
        .addColumn('ribbon_id', 'text')
        .addColumn('ribbon_name', 'text')
        .addColumn('min_price', float, (c) => c.notNull())
        .addColumn('max_price', float, (c) => c.notNull())
        .addColumn('availability_status', 'text', (c) => c.notNull())
        .addColumn('preorder_status', 'text', (c) => c.notNull())
        .addColumn('main_category_id', 'text')
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_v3_site_slug').on('products_v3').columns(['site_id', 'slug']).unique().execute();
      await db.schema.createIndex('products_v3_site_created').on('products_v3').columns(['site_id', 'created_date', 'id']).execute();
      await db.schema.createIndex('products_v3_site_price').on('products_v3').columns(['site_id', 'min_price']).execute();

      // One row per (product, option, choice): facet counts and choice filters without scanning documents.
      await db.schema
        .createTable('products_v3_choices')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull().references('products_v3.id').onDelete('cascade'))
        .addColumn('option_name', 'text', (c) => c.notNull())
        .addColumn('choice_name', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_v3_choices_product').on('products_v3_choices').columns(['product_id']).execute();
      await db.schema.createIndex('products_v3_choices_facet').on('products_v3_choices').columns(['site_id', 'option_name', 'choice_name']).execute();

      await db.schema
        .createTable('products_v3_categories')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull().references('products_v3.id').onDelete('cascade'))
        .addColumn('category_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('products_v3_categories_pk', ['product_id', 'category_id'])
        .execute();
      await db.schema.createIndex('products_v3_categories_cat').on('products_v3_categories').columns(['site_id', 'category_id']).execute();

      // Ribbons, brands and info sections (V3): small named entities of one shape.
      await db.schema
        .createTable('catalog_entities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('catalog_entities_name').on('catalog_entities').columns(['site_id', 'kind', 'name']).unique().execute();

      // Full-text search over both catalogs, written in the transaction of every product write.
      await createFullTextIndex(db, CATALOG_SEARCH);

      await db.schema
        .createTable('catalog_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('catalog_secrets').values({ name: 'cursor', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
  /** Choice ids beside names in the V3 facet table (facets and filters by choice id). */
  '0003_v3_choice_ids': {
    async up(db: MigrationDb) {
      await db.schema.alterTable('products_v3_choices').addColumn('choice_id', 'text').execute();
      await db.schema.createIndex('products_v3_choices_id').on('products_v3_choices').columns(['site_id', 'choice_id']).execute();
    },
  },
  /**
   * Indexes for visitor reads (visible = 1 is always part of their filter): price order, newest
   * first, and brand + price, each able to answer COUNT(*) without touching the documents.
   */
  '0004_visitor_indexes': {
    async up(db: MigrationDb) {
      await db.schema.createIndex('products_site_visible_price').on('products').columns(['site_id', 'visible', 'price']).execute();
      await db.schema.createIndex('products_site_visible_numeric').on('products').columns(['site_id', 'visible', 'numeric_id']).execute();
      await db.schema.createIndex('products_site_visible_brand_price').on('products').columns(['site_id', 'visible', 'brand', 'price']).execute();
    },
  },
  /**
   * Backfill for databases created before 0002: stock rows from each V1 product's variants and search
   * rows, so decrements and search work on products seeded earlier. New databases have none to fill.
   */
  '0005_backfill_stock_and_search': {
    async up(db: MigrationDb) {
      const rows = await db.selectFrom('products').select(['id', 'site_id', 'name', 'description', 'brand', 'doc', 'created_date']).execute() as { id: string; site_id: string; name: string; description: string; brand: string | null; doc: unknown; created_date: string }[];
      for (const row of rows) {
        const has = await db.selectFrom('inventory_items').select('id').where('product_id', '=', row.id).executeTakeFirst();
        if (has) continue;
        const doc = (typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc) as { variants?: { id: string; variant?: { sku?: string }; stock?: { trackQuantity?: boolean; quantity?: number; inStock?: boolean } }[] };
        const skus: string[] = [];
        for (const v of doc.variants ?? []) {
          const track = v.stock?.trackQuantity ?? false;
          if (v.variant?.sku) skus.push(v.variant.sku);
          await db.insertInto('inventory_items').values({
            id: randomUUID(), site_id: row.site_id, catalog: 'v1', product_id: row.id, variant_id: v.id, sku: v.variant?.sku ?? null,
            track_quantity: track ? 1 : 0, quantity: track ? (v.stock?.quantity ?? 0) : null, in_stock: (track ? (v.stock?.quantity ?? 0) > 0 : v.stock?.inStock ?? true) ? 1 : 0,
            preorder_enabled: 0, preorder_limit: null, preorder_counter: 0, preorder_message: null, revision: 1, created_date: row.created_date, updated_date: row.created_date,
          }).execute();
        }
        const sku = [...new Set(skus)].join(' ');
        const description = row.description.replace(/<[^>]*>/g, ' ');
        await insertFullTextRows(db, CATALOG_SEARCH, [searchRow(row.site_id, { id: row.id, catalog: 'v1', name: row.name, sku, brand: row.brand ?? '', description })], { skipExisting: true });
      }
    },
  },
  /** Catalog bulk jobs (jobs.ts); 0007_v3_tags: V3 product tags. */
  '0006_jobs': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      // The item ids of a job are frozen into catalog_job_items when the job starts (the starter's
      // transaction), so a restart resumes exactly where it stopped.
      await db.schema
        .createTable('catalog_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('params', json, (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('processed', 'integer', (c) => c.notNull())
        .addColumn('succeeded', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('errors', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addColumn('finished_date', 'text')
        .execute();
      await db.schema.createIndex('catalog_jobs_status').on('catalog_jobs').columns(['status', 'created_date']).execute();
      await db.schema
        .createTable('catalog_job_items')
        .addColumn('job_id', 'text', (c) => c.notNull().references('catalog_jobs.id').onDelete('cascade'))
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error', json)
        .addPrimaryKeyConstraint('catalog_job_items_pk', ['job_id', 'item_id'])
        .execute();
      await db.schema.createIndex('catalog_job_items_state').on('catalog_job_items').columns(['job_id', 'state', 'position']).execute();
    },
  },
  '0007_v3_tags': {
    async up(db: MigrationDb) {
      // V3 product tags: one row per (product, visibility, tag) for `tags.*.tagIds` filters; the
      // product document keeps the tags as sent.
      await db.schema
        .createTable('products_v3_tags')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('visibility', 'text', (c) => c.notNull())
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('products_v3_tags_pk', ['product_id', 'visibility', 'tag_id'])
        .execute();
      await db.schema.createIndex('products_v3_tags_site_tag').on('products_v3_tags').columns(['site_id', 'visibility', 'tag_id']).execute();
    },
  },
  /**
   * Multi-location stock (docs/catalog-inventory.md): `inventory_items.location_id`, existing rows at
   * the default location, one item per (site, product, variant, location).
   */
  '0007_inventory_locations': {
    async up(db: MigrationDb) {
      // The default fills existing rows and any insert that does not name a location (bulk seeding).
      await db.schema.alterTable('inventory_items').addColumn('location_id', 'text', (c) => c.notNull().defaultTo(DEFAULT_LOCATION_ID)).execute();
      await db.schema.dropIndex('inventory_items_variant').execute();
      await db.schema.createIndex('inventory_items_variant_location').on('inventory_items').columns(['site_id', 'product_id', 'variant_id', 'location_id']).unique().execute();
      // The by-variant-and-location calls name no product.
      await db.schema.createIndex('inventory_items_variant_at').on('inventory_items').columns(['site_id', 'variant_id', 'location_id']).execute();
    },
  },
  /**
   * Uploads with thumbnails and secure (digital) files (docs/catalog-media.md): `media_files.secure`
   * (never served by the public /media route), `media_thumbnails` (WebP sizes of uploaded images), and
   * the HMAC key of signed download URLs in `catalog_secrets`.
   */
  '0008_media_thumbnails': {
    async up(db: MigrationDb) {
      const { binary } = columnTypes(db);
      await db.schema.alterTable('media_files').addColumn('secure', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('media_thumbnails')
        .addColumn('media_id', 'text', (c) => c.notNull().references('media_files.id').onDelete('cascade'))
        // The size class asked for (MEDIA_LIMITS.thumbnailWidths); width is the real one (never upscaled).
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('media_thumbnails_pk', ['media_id', 'size'])
        .execute();
      await db.insertInto('catalog_secrets').values({ name: 'media-download', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
  /**
   * `products.public_doc`: the visitor view of each V1 product as JSON text, written with the document
   * (see present.ts `visitorProduct`), so visitor reads send stored text. Text on both databases: a
   * jsonb column would be parsed by the driver and reordered. Existing rows are filled here.
   */
  '0009_products_public_doc': {
    async up(db: MigrationDb) {
      await db.schema.alterTable('products').addColumn('public_doc', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      const BATCH = 500;
      for (let after = ''; ;) {
        const rows = await db.selectFrom('products').select(['id', 'doc']).where('id', '>', after).orderBy('id').limit(BATCH).execute() as { id: string; doc: unknown }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          const doc = (typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc) as Omit<ProductV1, 'id'>;
          await db.updateTable('products').set({ public_doc: publicDocJson({ ...doc, id: row.id } as ProductV1) }).where('id', '=', row.id).execute();
        }
        after = rows[rows.length - 1]!.id;
      }
    },
  },
  /** The listing version of each site (store-listing.ts): raised after writes, keys cached counts. */
  '0010_catalog_versions': {
    async up(db: MigrationDb) {
      await db.schema.createTable('catalog_versions')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * The visitor indexes of 0004 end with `id`, so a page's ids (ordered by the column, then id) come
   * from the index alone; the page then reads just its own rows (store.ts productPage).
   */
  '0011_visitor_indexes_with_id': {
    async up(db: MigrationDb) {
      for (const [name, columns] of [
        ['products_site_visible_price', ['site_id', 'visible', 'price', 'id']],
        ['products_site_visible_numeric', ['site_id', 'visible', 'numeric_id', 'id']],
        ['products_site_visible_brand_price', ['site_id', 'visible', 'brand', 'price', 'id']],
      ] as const) {
        await db.schema.dropIndex(name).execute();
        await db.schema.createIndex(name).on('products').columns([...columns]).execute();
      }
    },
  },
  /** SQLite: product writes find their search row through a key map instead of scanning the index (storage/fulltext.ts). */
  '0012_search_key_map': {
    async up(db: MigrationDb) {
      await addFullTextKeyMap(db, CATALOG_SEARCH);
    },
  },
};
