import type { Kysely, Migration } from 'kysely';
import { dialectOf, jsonType } from '../../storage/dialect.js';

export const identityMigrations: Record<string, Migration> = {
  '0001_oauth': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const json = jsonType(dialectOf(db));
      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', json, (c) => c.notNull())
        .addColumn('allow_localhost', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_clients_site').on('oauth_clients').column('site_id').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('revoked_date', 'text')
        .execute();

      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('private_jwk', json, (c) => c.notNull())
        .addColumn('public_jwk', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('revoked_date', 'text')
        .execute();
      await db.schema.createIndex('refresh_tokens_subject').on('refresh_tokens').columns(['site_id', 'subject_id']).execute();
    },
  },
};
