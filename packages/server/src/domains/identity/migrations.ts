import { sql, type Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const identityMigrations: Record<string, Migration> = {
  '0001_oauth': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
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
  '0002_identities': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      await db.schema
        .createTable('identities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('login_email', 'text', (c) => c.notNull())
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('status_reasons', json, (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('profile', json, (c) => c.notNull())
        .addColumn('totp_secret', 'text')
        .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('totp_last_step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('email_mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addColumn('last_login_date', 'text')
        .execute();
      // Login e-mails are stored lower-cased, so this index makes them unique case-insensitively.
      await db.schema.createIndex('identities_site_email').on('identities').columns(['site_id', 'login_email']).unique().execute();

      // Session tokens (login/register results, hosted-page cookie sessions), stored hashed.
      await db.schema
        .createTable('identity_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('identity_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('revoked_date', 'text')
        .execute();
      await db.schema.createIndex('identity_sessions_identity').on('identity_sessions').columns(['site_id', 'identity_id']).execute();

      // Multi-step flow state: e-mail verification and MFA codes, bound to their state token.
      await db.schema
        .createTable('auth_states')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('identity_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_hash', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('used_date', 'text')
        .execute();

      await db.schema
        .createTable('oauth_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('identity_id', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('used_date', 'text')
        .addColumn('family_id', 'text')
        .execute();

      await db.schema
        .createTable('redirect_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('recovery_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('identity_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('redirect_url', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .addColumn('used_date', 'text')
        .execute();

      // Captcha solutions already accepted (replay protection), kept until the challenge expires.
      await db.schema
        .createTable('captcha_used')
        .addColumn('signature', 'text', (c) => c.primaryKey())
        .addColumn('expires_date', 'text', (c) => c.notNull())
        .execute();

      // Fixed-window counters for throttling, shared by every server process.
      await db.schema
        .createTable('rate_limits')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .execute();

      // Server secrets (the captcha HMAC key), created once and shared by every process.
      await db.schema
        .createTable('identity_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      // E-mails kept here when no SMTP server is configured (dashboard / log readers pick them up).
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0003_refresh_token_family': {
    // Every member request checks its token family (service.ts#authenticate): one indexed row.
    async up(db: MigrationDb) {
      await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').columns(['family_id']).execute();
    },
  },
  /**
   * One e-mail outbox for the whole server: identity mails kept here so far move to
   * `notification_mails` (the mailbox the dashboard reads; docs/jobs.md), as STORED mails.
   */
  '0004_mail_outbox_merged': {
    async up(db: MigrationDb) {
      await sql`
        INSERT INTO notification_mails (id, site_id, template, to_address, subject, html, text, event_id, status, attempts, next_attempt_at, give_up_after, created_date)
        SELECT id, site_id, 'identity', to_address, subject,
          COALESCE(html_body, '<pre style="font-family: inherit; white-space: pre-wrap">'
            || REPLACE(REPLACE(REPLACE(text_body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;') || '</pre>'),
          text_body, NULL, 'STORED', 0, created_date, created_date, created_date
        FROM mail_outbox`.execute(db);
      await db.schema.dropTable('mail_outbox').execute();
    },
  },
  /**
   * Throttling counts a sliding window (rate-limit.ts): each bucket keeps the hits of the window
   * before its current one, weighted by how much of it the last RATE_WINDOW_SECONDS still cover.
   */
  '0005_rate_limits_previous_window': {
    async up(db: MigrationDb) {
      await db.schema.alterTable('rate_limits').addColumn('previous_hits', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
};
