import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const sitesMigrations: Record<string, Migration> = {
  '0001_sites': {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('sites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('settings', columnTypes(db).json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
