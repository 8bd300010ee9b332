import { type Kysely, type Migration } from 'kysely';

/** The location every variant has stock at; storefront availability and checkout read only it. */
export const DEFAULT_LOCATION_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Multi-location stock (docs/catalog-inventory.md): `inventory_items.location_id`, existing rows at the
 * default location, one item per (site, product, variant, location). Kept in its own file so the
 * inventory engineer owns it; spread into `catalogMigrations`.
 */
export const inventoryMigrations: Record<string, Migration> = {
  '0007_inventory_locations': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      // The default fills existing rows and any insert that does not name a location (bulk seeding).
      await db.schema.alterTable('inventory_items').addColumn('location_id', 'text', (c) => c.notNull().defaultTo(DEFAULT_LOCATION_ID)).execute();
      await db.schema.dropIndex('inventory_items_variant').execute();
      await db.schema.createIndex('inventory_items_variant_location').on('inventory_items').columns(['site_id', 'product_id', 'variant_id', 'location_id']).unique().execute();
      // The by-variant-and-location calls name no product.
      await db.schema.createIndex('inventory_items_variant_at').on('inventory_items').columns(['site_id', 'variant_id', 'location_id']).execute();
    },
  },
};
