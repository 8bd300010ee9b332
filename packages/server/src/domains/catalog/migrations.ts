import type { Kysely, Migration } from 'kysely';
import { dialectOf, floatType, jsonType } from '../../storage/dialect.js';

export const catalogMigrations: Record<string, Migration> = {
  '0001_products_v1': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const dialect = dialectOf(db);
      const json = jsonType(dialect);
      const float = floatType(dialect);
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
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
