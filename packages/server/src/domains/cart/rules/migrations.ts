import { randomBytes } from 'node:crypto';
import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../../storage/columns.js';

/**
 * The owner-configured inputs of cart pricing. Columns hold what queries filter, sort or guard on;
 * the rest of an entity is its `doc`. Every table is per site (`site_id`), no foreign key leaves it.
 */
export const cartRulesMigrations: Record<string, Migration> = {
  '0001_cart_rules': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      const entity = (name: string) => db.schema.createTable(name)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull());

      await entity('discount_rules')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('start_date', 'text')
        .addColumn('end_date', 'text')
        .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('discount_rules_site_created').on('discount_rules').columns(['site_id', 'created_date']).execute();

      await entity('tax_groups')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tax_groups_site_created').on('tax_groups').columns(['site_id', 'created_date']).execute();

      // `subdivision` is '' for a whole country, so (site, country, subdivision) is one unique key.
      await entity('tax_regions')
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('subdivision', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('tax_included_in_price', 'integer', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tax_regions_site_place').on('tax_regions').columns(['site_id', 'country', 'subdivision']).unique().execute();

      // Manual rates of a region; `tax_group_key` is the group id or '' for the region's default rate.
      await entity('tax_manual_rates')
        .addColumn('tax_region_id', 'text', (c) => c.notNull())
        .addColumn('tax_group_key', 'text', (c) => c.notNull())
        .addColumn('tax_rate', 'text', (c) => c.notNull())
        .addColumn('tax_name', 'text', (c) => c.notNull())
        .addColumn('tax_type', 'text')
        .addColumn('jurisdiction', 'text', (c) => c.notNull())
        .addColumn('jurisdiction_type', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tax_manual_rates_region_group').on('tax_manual_rates')
        .columns(['site_id', 'tax_region_id', 'tax_group_key', 'jurisdiction']).unique().execute();

      // `code_key` is the code case-folded: codes are unique per site regardless of case.
      await entity('coupons')
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('code_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('expiration_time', 'text')
        .addColumn('usage_limit', 'integer')
        .addColumn('number_of_usages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('coupons_site_code').on('coupons').columns(['site_id', 'code_key']).unique().execute();
      await db.schema.createIndex('coupons_site_created').on('coupons').columns(['site_id', 'created_date']).execute();

      await entity('shipping_regions')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shipping_regions_site_created').on('shipping_regions').columns(['site_id', 'created_date']).execute();

      // One row per site: checkout settings, and the pricing settings that are not an entity of their own.
      await db.schema.createTable('cart_site_settings')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('checkout_settings', json, (c) => c.notNull())
        .addColumn('pricing_settings', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();

      // The key paging cursors of these listings are signed with.
      await db.schema.createTable('cart_rules_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('cart_rules_secrets').values({ name: 'cursor', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
  // One row per site whose pricing inputs were written (store-version.ts).
  '0002_pricing_versions': {
    async up(db: MigrationDb) {
      await db.schema.createTable('pricing_versions')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
