import { randomBytes } from 'node:crypto';
import { sql, type Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../../storage/columns.js';

export const abandonedCheckoutsMigrations: Record<string, Migration> = {
  /**
   * One row per checkout the cart domain reported: ACTIVE while the buyer is at it, ABANDONED after the
   * idle time, RECOVERED when an abandoned one is completed, COMPLETED when it was completed in time
   * (kept briefly so a late report cannot revive it). Only ABANDONED and RECOVERED rows are on the wire.
   */
  '0001_abandoned_checkouts': {
    async up(db: MigrationDb) {
      const t = columnTypes(db);
      await db.schema
        .createTable('abandoned_checkouts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('checkout_id', 'text', (c) => c.notNull())
        .addColumn('cart_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('buyer_email', 'text')
        .addColumn('buyer_member_id', 'text')
        .addColumn('buyer_visitor_id', 'text')
        .addColumn('buyer_contact_id', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('total_amount', 'text', (c) => c.notNull())
        .addColumn('line_item_count', 'integer', (c) => c.notNull())
        .addColumn('details', t.json)
        .addColumn('activities', t.json, (c) => c.notNull())
        .addColumn('last_activity_date', 'text', (c) => c.notNull())
        .addColumn('abandoned_date', 'text')
        .addColumn('recovered_date', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('abandoned_checkouts_checkout').on('abandoned_checkouts').columns(['site_id', 'checkout_id']).unique().execute();
      // The periodic scan: idle ACTIVE rows, oldest first, across sites.
      await db.schema.createIndex('abandoned_checkouts_idle').on('abandoned_checkouts').columns(['status', 'last_activity_date']).execute();
      // Queries and analytics of one site by abandonment time.
      await db.schema.createIndex('abandoned_checkouts_site_abandoned').on('abandoned_checkouts').columns(['site_id', 'abandoned_date']).execute();
    },
  },
  /**
   * The total in minor units (exact sums in analytics), the buyer's name for search, and the key that
   * signs the paging cursors of both after-checkout listings (abandoned checkouts, back-in-stock requests).
   */
  '0002_amounts_names_cursor_key': {
    async up(db: MigrationDb) {
      await db.schema.alterTable('abandoned_checkouts').addColumn('total_minor', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('abandoned_checkouts').addColumn('contact_first_name', 'text').execute();
      await db.schema.alterTable('abandoned_checkouts').addColumn('contact_last_name', 'text').execute();
      await db.schema.createTable('cart_aftercare_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('cart_aftercare_secrets').values({ name: 'cursor', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
  /**
   * The idle scan's rows (ACTIVE, by last activity) as a partial index: every checkout ever tracked
   * stays in the table, and a (status, last_activity_date) index left SQLite free to scan all of them
   * when its statistics said a status matched most rows (docs/jobs.md, "Work queues").
   */
  '0003_active_index': {
    async up(db: MigrationDb) {
      await db.schema.dropIndex('abandoned_checkouts_idle').execute();
      await sql`CREATE INDEX abandoned_checkouts_active ON abandoned_checkouts (last_activity_date, id) WHERE status = 'ACTIVE'`.execute(db);
    },
  },
};
