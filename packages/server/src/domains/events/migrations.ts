import { sql, type Migration } from 'kysely';
import { columnTypes, type MigrationDb } from '../../storage/columns.js';

export const eventsMigrations: Record<string, Migration> = {
  '0001_outbox': {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('outbox_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('entity_fqdn', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('payload', columnTypes(db).json, (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_events_site_created').on('outbox_events').columns(['site_id', 'created_date']).execute();
    },
  },
  /**
   * Per-entity sequence numbers, dispatch state of outbox rows, webhook subscriptions, deliveries with
   * their attempt log, and the notification mail queue (docs/events.md).
   */
  '0002_webhooks_mail': {
    async up(db: MigrationDb) {
      // One row per entity; recordEvent increments it in the change's transaction, which also
      // serializes concurrent writers of one entity on PostgreSQL (the row stays locked until commit).
      await db.schema
        .createTable('event_entity_sequences')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('entity_fqdn', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('last_sequence', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_entity_sequences_pk', ['site_id', 'entity_fqdn', 'entity_id'])
        .execute();
      await db.schema.alterTable('outbox_events').addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // 0 = not yet fanned out to deliveries and mails; rows written before this migration count as done.
      await db.schema.alterTable('outbox_events').addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.updateTable('outbox_events').set({ dispatched: 1 }).execute();
      await db.schema.createIndex('outbox_events_pending').on('outbox_events').columns(['dispatched', 'created_date']).execute();
      await db.schema.createIndex('outbox_events_entity').on('outbox_events').columns(['site_id', 'entity_fqdn', 'entity_id', 'sequence']).execute();

      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('event_types', columnTypes(db).json, (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('alert_email', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('failure_streak', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failing_since', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_subscriptions_site').on('webhook_subscriptions').columns(['site_id', 'created_date']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('entity_fqdn', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('give_up_after', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('redelivery_of', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries')
        .columns(['subscription_id', 'entity_fqdn', 'entity_id', 'sequence']).execute();
      await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['subscription_id', 'created_date']).execute();

      await db.schema
        .createTable('webhook_delivery_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_date', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_delivery_attempts_delivery').on('webhook_delivery_attempts').columns(['delivery_id', 'attempt']).execute();

      await db.schema
        .createTable('notification_mails')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('give_up_after', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('sent_date', 'text')
        .execute();
      await db.schema.createIndex('notification_mails_due').on('notification_mails').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('notification_mails_site').on('notification_mails').columns(['site_id', 'created_date']).execute();
    },
  },
  /** Which worker (process) made each attempt: for operators, and to prove several processes share the work. */
  '0003_attempt_worker': {
    async up(db: MigrationDb) {
      await db.schema.alterTable('webhook_delivery_attempts').addColumn('worker_id', 'text').execute();
    },
  },
  /**
   * The polls' work as partial indexes holding only the rows still to do. A (dispatched, created_date)
   * index let SQLite's planner scan the whole outbox once its statistics, taken while every event was
   * dispatched, said any `dispatched` value matched every row (docs/jobs.md, "Work queues"). A partial
   * index is searched whatever the statistics say, and is only as big as the backlog. The retention
   * prune ranges over `created_date` instead; (site_id, created_date) served only a diagnostic listing
   * and goes, so an event is still written with four index entries.
   */
  '0004_pending_work_indexes': {
    async up(db: MigrationDb) {
      await db.schema.dropIndex('outbox_events_pending').execute();
      await sql`CREATE INDEX outbox_events_undispatched ON outbox_events (created_date, sequence) WHERE dispatched = 0`.execute(db);
      await db.schema.createIndex('outbox_events_created').on('outbox_events').column('created_date').execute();
      await db.schema.dropIndex('outbox_events_site_created').execute();
      await db.schema.dropIndex('webhook_deliveries_due').execute();
      await sql`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at, sequence) WHERE status = 'PENDING'`.execute(db);
    },
  },
};
