import type { Kysely, Migration } from 'kysely';

/**
 * The inventory domain's tables. `inventory_items` itself is created by the catalog's migrations
 * (catalog/0001 and 0007_inventory_locations), which predate this domain; names never change.
 */
export const inventoryMigrations: Record<string, Migration> = {
  '0001_reservations': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      await db.schema
        .createTable('inventory_reservations')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('reservation_id', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('owner', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inventory_reservations_pk', ['site_id', 'reservation_id', 'item_id'])
        .execute();
      // The availability guard sums an item's active lines; prune scans by status.
      await db.schema.createIndex('inventory_reservations_item').on('inventory_reservations').columns(['site_id', 'item_id', 'status', 'expires_at']).execute();
    },
  },
};
