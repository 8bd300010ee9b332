import type { Kysely, Migration } from 'kysely';
import { dialectOf, jsonType } from '../../storage/dialect.js';

export const sitesMigrations: Record<string, Migration> = {
  '0001_sites': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const dialect = dialectOf(db);
      await db.schema
        .createTable('sites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('settings', jsonType(dialect), (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
