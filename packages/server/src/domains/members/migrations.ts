import { randomBytes } from 'node:crypto';
import type { Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const membersMigrations: Record<string, Migration> = {
  '0001_members': {
    async up(db: MigrationDb) {
      const json = columnTypes(db).json;
      // One row per member; member id == identity id. Columns hold what queries filter and sort on;
      // the rest of contact/profile lives in `doc`.
      await db.schema
        .createTable('members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('login_email', 'text', (c) => c.notNull())
        .addColumn('login_email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('privacy_status', 'text', (c) => c.notNull())
        .addColumn('activity_status', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('nickname', 'text')
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('roles', json, (c) => c.notNull())
        .addColumn('doc', json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addColumn('last_login_date', 'text')
        .execute();
      await db.schema.createIndex('members_site_slug').on('members').columns(['site_id', 'slug']).unique().execute();
      await db.schema.createIndex('members_site_login_email').on('members').columns(['site_id', 'login_email']).unique().execute();
      await db.schema.createIndex('members_site_created').on('members').columns(['site_id', 'created_date']).execute();
      await db.schema.createIndex('members_site_status').on('members').columns(['site_id', 'status']).execute();

      // Member-about rich text: one document per member.
      await db.schema
        .createTable('member_abouts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
        .addColumn('content', json, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_abouts_site_member').on('member_abouts').columns(['site_id', 'member_id']).unique().execute();

      // Member-to-member reports, resolved by owners.
      await db.schema
        .createTable('member_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('reporter_id', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('details', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('resolution', json)
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('resolved_date', 'text')
        .execute();
      await db.schema.createIndex('member_reports_site_status').on('member_reports').columns(['site_id', 'status', 'created_date']).execute();
      await db.schema.createIndex('member_reports_reporter').on('member_reports').columns(['site_id', 'reporter_id', 'member_id']).execute();

      // By-filter bulk jobs. The matching member ids are frozen into member_job_items when the job is
      // created (same transaction), so a restart resumes exactly where it stopped.
      await db.schema
        .createTable('member_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('params', json, (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('processed', 'integer', (c) => c.notNull())
        .addColumn('succeeded', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .addColumn('finished_date', 'text')
        .execute();
      await db.schema.createIndex('member_jobs_status').on('member_jobs').columns(['status', 'created_date']).execute();

      await db.schema
        .createTable('member_job_items')
        .addColumn('job_id', 'text', (c) => c.notNull().references('member_jobs.id').onDelete('cascade'))
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error', json)
        .addPrimaryKeyConstraint('member_job_items_pk', ['job_id', 'member_id'])
        .execute();
      await db.schema.createIndex('member_job_items_state').on('member_job_items').columns(['job_id', 'state']).execute();
    },
  },
  '0002_member_title': {
    async up(db: MigrationDb) {
      // profile.title is searchable, so it gets a column like nickname.
      await db.schema.alterTable('members').addColumn('title', 'text').execute();
      await db.schema.alterTable('member_jobs').addColumn('errors', columnTypes(db).json).execute();
      // HMAC key of member-about query cursors, shared by every server process.
      await db.schema.createTable('member_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('member_secrets').values({ name: 'cursor', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
  /** The members version of each site (storage/site-versions.ts): raised after member writes, keys cached query totals. */
  '0003_member_versions': {
    async up(db: MigrationDb) {
      await db.schema.createTable('member_versions')
        .addColumn('site_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },
  },
};
