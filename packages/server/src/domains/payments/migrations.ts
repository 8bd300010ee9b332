import type { Migration } from 'kysely';
import type { MigrationDb } from '../../storage/columns.js';

/**
 * The payments domain's tables. Amounts are integers of the currency's minor unit (`bigint`), so the
 * guards ("refunded + pending + this <= captured") are plain SQL arithmetic; JSON documents are text.
 */
export const paymentsMigrations: Record<string, Migration> = {
  '0001_payments': {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        // Place among the order's payments (written under the order's payments lock): listings keep insertion order.
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('captured', 'bigint', (c) => c.notNull())
        .addColumn('refunded', 'bigint', (c) => c.notNull())
        .addColumn('refund_pending', 'bigint', (c) => c.notNull())
        .addColumn('offline', 'integer', (c) => c.notNull())
        .addColumn('refund_disabled', 'integer', (c) => c.notNull())
        .addColumn('declined_reason', 'text')
        .addColumn('card_brand', 'text')
        .addColumn('card_last4', 'text')
        .addColumn('payment_method', 'text')
        .addColumn('provider_transaction_id', 'text')
        .addColumn('gateway_order_id', 'text')
        .addColumn('charge_correlation_id', 'text')
        .addColumn('delayed_capture', 'integer', (c) => c.notNull())
        .addColumn('authorized_date', 'text')
        .addColumn('capture_id', 'text')
        .addColumn('capture_status', 'text')
        .addColumn('capture_amount', 'bigint')
        .addColumn('capture_date', 'text')
        .addColumn('capture_failure', 'text')
        .addColumn('void_status', 'text')
        .addColumn('void_date', 'text')
        .addColumn('void_reason', 'text')
        .addColumn('void_failure', 'text')
        .addColumn('extras', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_order').on('payments').columns(['site_id', 'order_id', 'position']).execute();

      await db.schema
        .createTable('payment_refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('restock', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_refunds_order').on('payment_refunds').columns(['site_id', 'order_id', 'position']).execute();

      await db.schema
        .createTable('payment_refund_transactions')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('refund_id', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('external', 'integer', (c) => c.notNull())
        .addColumn('provider_refund_id', 'text')
        .addColumn('reason_code', 'text')
        .addColumn('description', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('payment_refund_transactions_pk', ['refund_id', 'payment_id'])
        .execute();
      await db.schema.createIndex('payment_refund_transactions_payment').on('payment_refund_transactions').columns(['site_id', 'payment_id']).execute();

      await db.schema
        .createTable('payment_gateway_orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('delayed_capture', 'integer', (c) => c.notNull())
        .addColumn('scheduled_action', 'text')
        .addColumn('delay_minutes', 'integer')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('charged_by', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_gateway_orders_order').on('payment_gateway_orders').columns(['site_id', 'order_id']).execute();

      // One row per order that has payment activity: every change of an order's payments first bumps
      // it, so concurrent changes of one order run one after another (PostgreSQL row lock; SQLite has
      // one writer) and each sees the other's rows.
      await db.schema
        .createTable('payment_order_locks')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('payment_order_locks_pk', ['site_id', 'order_id'])
        .execute();
    },
  },
};
