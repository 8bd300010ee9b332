import { sql, type Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../../storage/columns.js';

export const backInStockMigrations: Record<string, Migration> = {
  /**
   * One row per notification request. `open_key` (e-mail + item) is set while the request waits or its
   * mail is on its way, and unique per site: one open request per e-mail and item; cleared once settled,
   * so the same person may ask again the next time the item runs out.
   */
  '0001_back_in_stock_requests': {
    async up(db: MigrationDb) {
      const t = columnTypes(db);
      await db.schema
        .createTable('back_in_stock_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('catalog_item_id', 'text', (c) => c.notNull())
        .addColumn('variant_id', 'text')
        .addColumn('options', t.json)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('auto_notified', 'integer', (c) => c.notNull())
        .addColumn('item_name', 'text')
        .addColumn('item_price', 'text')
        .addColumn('item_url', 'text')
        .addColumn('link_origin', 'text', (c) => c.notNull())
        .addColumn('open_key', 'text')
        .addColumn('requester', 'text')
        .addColumn('mail_id', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('back_in_stock_open').on('back_in_stock_requests').columns(['site_id', 'open_key']).unique().execute();
      await db.schema.createIndex('back_in_stock_item').on('back_in_stock_requests').columns(['site_id', 'catalog_item_id', 'status']).execute();
      await db.schema.createIndex('back_in_stock_status').on('back_in_stock_requests').columns(['status', 'updated_date']).execute();
      await db.schema.createIndex('back_in_stock_requester').on('back_in_stock_requests').columns(['site_id', 'requester', 'created_date']).execute();
      await db.schema.createIndex('back_in_stock_site_created').on('back_in_stock_requests').columns(['site_id', 'created_date']).execute();
    },
  },
  /**
   * Requests whose mail is on its way (PROCESSING) as a partial index: the settle job probes for them
   * every 10 s among every request ever made (docs/jobs.md, "Work queues").
   */
  '0002_processing_index': {
    async up(db: MigrationDb) {
      await db.schema.dropIndex('back_in_stock_status').execute();
      await sql`CREATE INDEX back_in_stock_processing ON back_in_stock_requests (updated_date, id) WHERE status = 'PROCESSING'`.execute(db);
    },
  },
};
