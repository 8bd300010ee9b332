import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const ownersMigrations: Record<string, Migration> = {
  /** Owner and staff accounts of a site (e-mail + argon2id password, optional TOTP) and their sessions. */
  '0001_accounts_sessions': {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('owner_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        // Lowercased e-mail: one account per address and site whatever its case.
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('permissions', columnTypes(db).json, (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('totp_secret', 'text')
        .addColumn('totp_pending_secret', 'text')
        .addColumn('totp_last_step', 'integer')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('owner_accounts_site_email').on('owner_accounts').columns(['site_id', 'email_key']).unique().execute();
      await db.schema.createIndex('owner_accounts_email').on('owner_accounts').column('email_key').execute();

      await db.schema
        .createTable('owner_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('revoked_date', 'text')
        .execute();
      await db.schema.createIndex('owner_sessions_account').on('owner_sessions').columns(['site_id', 'account_id']).execute();
    },
  },
};
