import type { Kysely, Migration } from 'kysely';
import { publicDocJson } from './store.js';
import type { ProductV1 } from './model.js';

/** Migrations that serve visitor reads of the V1 catalog (docs/catalog.md, "Read paths"). */

/**
 * `products.public_doc`: the visitor view of each V1 product as JSON text, written with the document
 * (see present.ts `visitorProduct`), so visitor reads send stored text. Text on both databases: a
 * jsonb column would be parsed by the driver and reordered. Existing rows are filled here.
 */
export const readPathMigrations: Record<string, Migration> = {
  '0009_products_public_doc': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      await db.schema.alterTable('products').addColumn('public_doc', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      const BATCH = 500;
      for (let after = ''; ;) {
        const rows = await db.selectFrom('products').select(['id', 'doc']).where('id', '>', after).orderBy('id').limit(BATCH).execute() as { id: string; doc: unknown }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          const doc = (typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc) as Omit<ProductV1, 'id'>;
          await db.updateTable('products').set({ public_doc: publicDocJson({ ...doc, id: row.id } as ProductV1) }).where('id', '=', row.id).execute();
        }
        after = rows[rows.length - 1]!.id;
      }
    },
  },
  /** The listing version of each site (store-listing.ts): raised after writes, keys cached counts. */
  '0010_catalog_versions': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      await db.schema.createTable('catalog_versions')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * The visitor indexes of 0004 end with `id`, so a page's ids (ordered by the column, then id) come
   * from the index alone; the page then reads just its own rows (store.ts productPage).
   */
  '0011_visitor_indexes_with_id': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      for (const [name, columns] of [
        ['products_site_visible_price', ['site_id', 'visible', 'price', 'id']],
        ['products_site_visible_numeric', ['site_id', 'visible', 'numeric_id', 'id']],
        ['products_site_visible_brand_price', ['site_id', 'visible', 'brand', 'price', 'id']],
      ] as const) {
        await db.schema.dropIndex(name).execute();
        await db.schema.createIndex(name).on('products').columns([...columns]).execute();
      }
    },
  },
};
