import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

/**
 * The orders domain's tables. An order is one row: the columns searches filter, sort and add up on,
 * plus the whole wire document (`doc`), rewritten with the columns on every change.
 */
export const ordersMigrations: Record<string, Migration> = {
  '0001_orders': {
    async up(db: MigrationDb) {
      const t = columnTypes(db);
      await db.schema
        .createTable('orders')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('payment_status', 'text', (c) => c.notNull())
        .addColumn('fulfillment_status', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull())
        .addColumn('imported', 'integer', (c) => c.notNull())
        .addColumn('seen', 'integer', (c) => c.notNull())
        .addColumn('buyer_member_id', 'text')
        .addColumn('buyer_visitor_id', 'text')
        .addColumn('buyer_contact_id', 'text')
        .addColumn('buyer_email', 'text')
        .addColumn('channel_type', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('total_minor', 'bigint', (c) => c.notNull())
        .addColumn('checkout_id', 'text')
        // Where the order's units stand in inventory: NONE (nothing held), RESERVED (held until paid), COMMITTED (taken).
        .addColumn('stock_state', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('purchased_date', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('orders_pk', ['site_id', 'id'])
        .execute();
      await db.schema.createIndex('orders_number').on('orders').columns(['site_id', 'number']).unique().execute();
      await db.schema.createIndex('orders_checkout').on('orders').columns(['site_id', 'checkout_id']).unique().execute();
      await db.schema.createIndex('orders_created').on('orders').columns(['site_id', 'created_date', 'id']).execute();
      await db.schema.createIndex('orders_member').on('orders').columns(['site_id', 'buyer_member_id', 'created_date']).execute();

      await db.schema
        .createTable('order_tags')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_tags_pk', ['site_id', 'order_id', 'kind', 'tag_id'])
        .execute();
      await db.schema.createIndex('order_tags_tag').on('order_tags').columns(['site_id', 'kind', 'tag_id']).execute();

      await db.schema
        .createTable('order_fulfillments')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('order_fulfillments_pk', ['site_id', 'id'])
        .execute();
      await db.schema.createIndex('order_fulfillments_order').on('order_fulfillments').columns(['site_id', 'order_id', 'created_date']).execute();

      // Per site: the last order number given out and the orders settings.
      await db.schema
        .createTable('order_sites')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .addColumn('inventory_update_trigger', 'text', (c) => c.notNull())
        .addColumn('create_invoice', 'integer', (c) => c.notNull())
        // Signs the site's search cursors (opaque, tamper-proof).
        .addColumn('cursor_key', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();

      // Order edits committed (commit-deltas): a draft id is applied once.
      await db.schema
        .createTable('order_edits')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('draft_order_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_edits_pk', ['site_id', 'draft_order_id'])
        .execute();
    },
  },
};
