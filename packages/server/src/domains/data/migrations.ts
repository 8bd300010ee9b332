import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const dataMigrations: Record<string, Migration> = {
  '0001_collections_items': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      await db.schema
        .createTable('data_collections')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_collections_pk', ['site_id', 'id'])
        .execute();

      await db.schema
        .createTable('data_items')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text')
        .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_items_pk', ['site_id', 'collection_id', 'id'])
        .execute();
      await db.schema.createIndex('data_items_created').on('data_items').columns(['site_id', 'collection_id', 'created_date', 'id']).execute();
      await db.schema.createIndex('data_items_owner').on('data_items').columns(['site_id', 'collection_id', 'owner_id']).execute();

      // Multi-reference links (REFERENCE fields keep the id inside the item itself).
      await db.schema
        .createTable('data_references')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('referring_id', 'text', (c) => c.notNull())
        .addColumn('referenced_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_references_pk', ['site_id', 'collection_id', 'field', 'referring_id', 'referenced_id'])
        .execute();
      await db.schema.createIndex('data_references_referenced').on('data_references').columns(['site_id', 'collection_id', 'field', 'referenced_id']).execute();

      await db.schema
        .createTable('data_indexes')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sql_name', 'text', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_indexes_pk', ['site_id', 'collection_id', 'name'])
        .execute();

      await db.schema
        .createTable('data_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('request', json, (c) => c.notNull())
        .addColumn('success_count', 'integer', (c) => c.notNull())
        .addColumn('failure_count', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();

      // One HMAC secret per site for paging cursors (tamper-proof and bound to the site).
      await db.schema
        .createTable('data_cursor_keys')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .execute();
    },
  },
  /** The frozen ids of a by-filter job, so a job claimed again after a crash resumes with the ones not done (bulk.ts). */
  '0002_job_items': {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('data_job_items')
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_job_items_pk', ['job_id', 'item_id'])
        .execute();
    },
  },
};
