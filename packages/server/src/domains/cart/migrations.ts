import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const cartMigrations: Record<string, Migration> = {
  '0001_carts_checkouts': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      // One current cart per buyer (`owner_key`: `v:<visitorId>` or `m:<memberId>`). What the buyer chose
      // lives in `doc`; prices are never stored, they are computed from the catalog when read.
      await db.schema
        .createTable('carts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('owner_key', 'text', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('carts_site_owner').on('carts').columns(['site_id', 'owner_key']).unique().execute();

      // A checkout keeps its lines and choices; `order_id` is set once, by the transaction that creates
      // the order, which is what makes create-order idempotent.
      await db.schema
        .createTable('checkouts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('owner_key', 'text', (c) => c.notNull())
        .addColumn('cart_id', 'text')
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('order_id', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('checkouts_site_cart').on('checkouts').columns(['site_id', 'cart_id']).execute();
    },
  },
  '0002_checkout_completed_view': {
    async up(db: MigrationDb) {
      // The answer's JSON text, deflated (store.ts): kept byte for byte, where PostgreSQL's jsonb would
      // reorder its keys, and small enough (a one-line checkout's 9 KB text is about 2 KB) that the row
      // stays in one SQLite page instead of spilling into overflow pages on every completion.
      await db.schema.alterTable('checkouts').addColumn('completed_view', columnTypes(db).binary).execute();
    },
  },
};
