import type { Kysely, Migration } from 'kysely';
import { dialectOf, jsonType } from '../../storage/dialect.js';

/**
 * Catalog bulk jobs (jobs.ts) and V3 product tags. Spread into catalogMigrations (migrations.ts).
 */
export const catalogJobMigrations: Record<string, Migration> = {
  '0006_jobs': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const json = jsonType(dialectOf(db));
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
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
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
};
