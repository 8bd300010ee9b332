import type { Kysely, Migration } from 'kysely';
import { dialectOf, jsonType } from '../../storage/dialect.js';

export const eventsMigrations: Record<string, Migration> = {
  '0001_outbox': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const dialect = dialectOf(db);
      await db.schema
        .createTable('outbox_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('entity_fqdn', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('payload', jsonType(dialect), (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_events_site_created').on('outbox_events').columns(['site_id', 'created_date']).execute();
    },
  },
};
