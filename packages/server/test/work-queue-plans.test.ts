import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIdle } from '../src/domains/cart/abandoned/store.js';
import { findProcessing, hasProcessing } from '../src/domains/cart/back-in-stock/store.js';
import { claimDueDeliveries, hasDueDeliveries, hasUndispatchedEvents, lockUndispatchedEvents, pruneHistory } from '../src/domains/events/store.js';
import { claimJobs, pruneFinishedJobs } from '../src/jobs/store.js';
import { domainMigrations } from '../src/migrations.js';
import { dropSchema, openStorage, SQLITE_ANALYSIS_LIMIT, type Storage } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { recordingQueries, type RecordedStatement } from '../src/storage/query-counter.js';
import { inTransaction } from '../src/storage/transaction.js';
import { sqliteFiles } from './sqlite-files.js';

/**
 * The background polls (outbox fan-out, webhook deliveries, job claims, the abandoned-checkout scan,
 * back-in-stock settling) and the retention prunes must find their few rows through an index, never
 * by reading the history the tables keep (a week of events and jobs, every checkout ever tracked).
 * The store here is set up the way production gets into trouble: statistics gathered while the tables
 * were small and every row finished (a fresh server analyzes at start), then years of history, then a
 * little pending work. Each call runs for real (its answer is checked) and every statement it ran is
 * explained: its plan must name the partial index that holds the pending rows.
 */

const PG = process.env.DATABASE_URL || '';
/** Finished rows per table when statistics are gathered (below SQLite's analysis limit: exact counts). */
const ROWS_AT_ANALYZE = 500;
/** Finished rows per table afterwards: the history a poll must not read. */
const HISTORY = 20_000;
const OLD = '2026-01-01T00:00:00.000Z';
const NOW = '2026-06-01T00:00:00.000Z';
const LATER = '2026-06-01T00:05:00.000Z';

/** Rows `from`..`to` (inclusive) of a generated series, as the SQL of each database writes it. */
function series(storage: Storage, from: number, to: number) {
  return storage.dialect === 'postgres'
    ? sql`SELECT i FROM generate_series(${sql.lit(from)}::int, ${sql.lit(to)}::int) AS s(i)`
    : sql`WITH RECURSIVE s(i) AS (SELECT ${sql.lit(from)} UNION ALL SELECT i + 1 FROM s WHERE i < ${sql.lit(to)}) SELECT i FROM s`;
}

/** Finished rows `from`..`to` of every table a poll reads: dispatched events, sent deliveries, done jobs, completed checkouts, notified requests. */
async function addHistory(storage: Storage, from: number, to: number): Promise<void> {
  const db = storage.db;
  const id = (prefix: string) => sql`CAST(${prefix} AS text) || s.i`;
  const rows = series(storage, from, to);
  await sql`INSERT INTO outbox_events (id, site_id, entity_fqdn, slug, entity_id, payload, created_date, sequence, dispatched)
    SELECT ${id('e')}, 'site', 'wix.ecom.v1.order', 'created', ${id('order-')}, '{}', ${OLD}, 1, 1 FROM (${rows}) s`.execute(db);
  await sql`INSERT INTO webhook_deliveries (id, site_id, subscription_id, event_id, entity_fqdn, slug, entity_id, sequence, body, status, next_attempt_at, give_up_after, created_date, updated_date)
    SELECT ${id('d')}, 'site', 'sub', ${id('e')}, 'wix.ecom.v1.order', 'created', ${id('order-')}, 1, '{}', 'DELIVERED', ${OLD}, ${OLD}, ${OLD}, ${OLD} FROM (${rows}) s`.execute(db);
  await sql`INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_date, updated_date)
    SELECT ${id('j')}, 'events.dispatch', '{}', 'SUCCEEDED', 1, 5, ${OLD}, ${OLD}, ${OLD} FROM (${rows}) s`.execute(db);
  await sql`INSERT INTO abandoned_checkouts (id, site_id, checkout_id, status, currency, total_amount, line_item_count, activities, last_activity_date, created_date, updated_date)
    SELECT ${id('a')}, 'site', ${id('c')}, 'COMPLETED', 'USD', '10', 1, '[]', ${OLD}, ${OLD}, ${OLD} FROM (${rows}) s`.execute(db);
  await sql`INSERT INTO back_in_stock_requests (id, site_id, app_id, catalog_item_id, email, status, auto_notified, link_origin, created_date, updated_date)
    SELECT ${id('b')}, 'site', 'app', ${id('item-')}, 'buyer@example.com', 'NOTIFIED', 1, 'https://shop.example', ${OLD}, ${OLD} FROM (${rows}) s`.execute(db);
}

/** A little pending work in each table, after the statistics. */
async function addPendingWork(storage: Storage): Promise<void> {
  const db = storage.db;
  await sql`INSERT INTO webhook_subscriptions (id, site_id, url, description, event_types, secret, status, created_date, updated_date)
    VALUES ('sub', 'site', 'https://hooks.example/in', '', '[]', 'secret', 'ACTIVE', ${OLD}, ${OLD})`.execute(db);
  await sql`INSERT INTO outbox_events (id, site_id, entity_fqdn, slug, entity_id, payload, created_date, sequence, dispatched)
    VALUES ('new-2', 'site', 'wix.ecom.v1.order', 'created', 'order-x', '{}', ${NOW}, 2, 0), ('new-1', 'site', 'wix.ecom.v1.order', 'created', 'order-x', '{}', ${NOW}, 1, 0)`.execute(db);
  await sql`INSERT INTO webhook_deliveries (id, site_id, subscription_id, event_id, entity_fqdn, slug, entity_id, sequence, body, status, next_attempt_at, give_up_after, created_date, updated_date)
    VALUES ('due', 'site', 'sub', 'e1', 'wix.ecom.v1.order', 'created', 'order-y', 1, '{}', 'PENDING', ${NOW}, ${LATER}, ${NOW}, ${NOW})`.execute(db);
  await sql`INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_date, updated_date)
    VALUES ('queued', 'events.dispatch', '{}', 'QUEUED', 0, 5, ${NOW}, ${NOW}, ${NOW}), ('not-yet', 'events.dispatch', '{}', 'QUEUED', 0, 5, ${LATER}, ${NOW}, ${NOW})`.execute(db);
  await sql`INSERT INTO abandoned_checkouts (id, site_id, checkout_id, status, currency, total_amount, line_item_count, activities, last_activity_date, created_date, updated_date)
    VALUES ('idle', 'site', 'c-idle', 'ACTIVE', 'USD', '10', 1, '[]', ${OLD}, ${OLD}, ${OLD}), ('busy', 'site', 'c-busy', 'ACTIVE', 'USD', '10', 1, '[]', ${NOW}, ${NOW}, ${NOW})`.execute(db);
  await sql`INSERT INTO back_in_stock_requests (id, site_id, app_id, catalog_item_id, email, status, auto_notified, link_origin, created_date, updated_date)
    VALUES ('mailing', 'site', 'app', 'item-x', 'buyer@example.com', 'PROCESSING', 1, 'https://shop.example', ${NOW}, ${NOW})`.execute(db);
}

/** The tables the polls read (and the only ones given statistics on PostgreSQL). */
const POLLED_TABLES = ['outbox_events', 'webhook_deliveries', 'webhook_subscriptions', 'jobs', 'abandoned_checkouts', 'back_in_stock_requests'];

/**
 * Statistics as a server gathers them: SQLite with its analysis limit (storage/database.ts), PostgreSQL
 * as autovacuum would, table by table. A bare ANALYZE on PostgreSQL would walk every schema of the shared
 * test database (the other test files' stores too) and can outlast the statement timeout.
 */
async function gatherStatistics(storage: Storage): Promise<void> {
  if (storage.dialect === 'postgres') return void (await sql`ANALYZE ${sql.join(POLLED_TABLES.map((t) => sql.table(t)))}`.execute(storage.db));
  await sql.raw(`PRAGMA analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`).execute(storage.db);
  await sql`ANALYZE`.execute(storage.db);
}

async function explain(storage: Storage, statement: RecordedStatement): Promise<string> {
  const prefix = storage.dialect === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN ';
  const result = await storage.db.executeQuery(CompiledQuery.raw(prefix + statement.sql, [...statement.parameters]));
  return (result.rows as Record<string, unknown>[]).map((r) => String(r['QUERY PLAN'] ?? r.detail)).join('\n');
}

/** Transaction control, which has no plan (PostgreSQL's driver reports it as statements). */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/** The plans of every statement `fn` ran, one per statement. */
async function plansOf(storage: Storage, fn: () => Promise<unknown>): Promise<string[]> {
  const statements = (await recordingQueries(fn)).filter((s) => !TRANSACTION_CONTROL.test(s.sql));
  expect(statements.length).toBeGreaterThan(0);
  const plans: string[] = [];
  for (const s of statements) plans.push(await explain(storage, s));
  return plans;
}

interface Opened { storage: Storage; schema?: string; dispose: () => Promise<void> }

function describeFor(name: string, open: () => Promise<Opened>) {
  describe(`work queue polls over a long history (${name})`, () => {
    let storage: Storage;
    let dispose: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const opened = await open();
      ({ storage, dispose } = opened);
      await migrateToLatest(storage.db, domainMigrations(), opened.schema);
      await addHistory(storage, 1, ROWS_AT_ANALYZE);
      await gatherStatistics(storage);
      await addHistory(storage, ROWS_AT_ANALYZE + 1, HISTORY);
      await addPendingWork(storage);
    }, 120_000);
    afterAll(async () => dispose?.());

    it('probes the outbox for undispatched events through its partial index, and locks them oldest first', async () => {
      let pending = false;
      const probe = await plansOf(storage, async () => { pending = await hasUndispatchedEvents(storage.db); });
      expect(pending).toBe(true);
      expect(probe).toEqual([expect.stringContaining('outbox_events_undispatched')]);

      let locked: string[] = [];
      const lock = await plansOf(storage, () => inTransaction(storage.db, async (trx) => {
        locked = (await lockUndispatchedEvents(trx, storage.dialect, 50)).map((e) => e.id);
      }));
      expect(locked).toEqual(['new-1', 'new-2']);
      expect(lock.filter((p) => p.includes('outbox_events'))).toEqual([expect.stringContaining('outbox_events_undispatched')]);
    });

    it('finds and claims due webhook deliveries through their partial index', async () => {
      let due = false;
      expect(await plansOf(storage, async () => { due = await hasDueDeliveries(storage.db, NOW); })).toEqual([expect.stringContaining('webhook_deliveries_pending')]);
      expect(due).toBe(true);
      let claimed: string[] = [];
      const plans = await plansOf(storage, async () => {
        claimed = (await claimDueDeliveries(storage.db, storage.dialect, 'worker', NOW, LATER, 10, 5)).map((d) => d.id);
      });
      expect(claimed).toEqual(['due']);
      expect(plans).toEqual([expect.stringContaining('webhook_deliveries_pending')]);
    });

    it('claims due jobs through the queued and running partial indexes', async () => {
      let claimed: string[] = [];
      const plans = await plansOf(storage, async () => {
        claimed = (await claimJobs(storage.db, storage.dialect, { owner: 'worker', kinds: ['events.dispatch'], now: NOW, leaseUntil: LATER, limit: 10 })).map((j) => j.id);
      });
      expect(claimed).toEqual(['queued']);
      expect(plans).toHaveLength(1);
      expect(plans[0]).toContain('jobs_queued');
      expect(plans[0]).toContain('jobs_running');
    });

    it('scans for idle checkouts and settling back-in-stock requests through their partial indexes', async () => {
      let idle: string[] = [];
      expect(await plansOf(storage, async () => { idle = (await findIdle(storage.db, '2026-03-01T00:00:00.000Z', 100)).map((c) => c.id); }))
        .toEqual([expect.stringContaining('abandoned_checkouts_active')]);
      expect(idle).toEqual(['idle']);
      let processing = false;
      expect(await plansOf(storage, async () => { processing = await hasProcessing(storage.db); })).toEqual([expect.stringContaining('back_in_stock_processing')]);
      expect(processing).toBe(true);
      let settling: string[] = [];
      expect(await plansOf(storage, async () => { settling = (await findProcessing(storage.db, 100)).map((r) => r.id); }))
        .toEqual([expect.stringContaining('back_in_stock_processing')]);
      expect(settling).toEqual(['mailing']);
    });

    it('prunes finished jobs and dispatched events by age through an index, not by reading every row', async () => {
      const cutoff = '2025-12-01T00:00:00.000Z'; // older than all history: nothing to delete, the costliest case for a scan
      let deleted = -1;
      expect(await plansOf(storage, async () => { deleted = await pruneFinishedJobs(storage.db, cutoff, 1000); })).toEqual([expect.stringContaining('jobs_finished')]);
      expect(deleted).toBe(0);
      const plans = await plansOf(storage, () => pruneHistory(storage.db, { eventsBefore: cutoff, deliveriesBefore: cutoff, mailsBefore: cutoff }, 1000));
      expect(plans[0]).toContain('outbox_events_created');
    });
  });
}

const files = sqliteFiles('vitrine-work-queues-');
describeFor('SQLite', async () => ({ storage: await files.fresh({ countQueries: true }), dispose: async () => {} }));

if (PG) {
  describeFor('PostgreSQL', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const storage = await openStorage({ databaseUrl: PG, schema, dataDir: '/nonexistent', statementTimeoutMs: 10_000, countQueries: true });
    return { storage, schema, dispose: async () => { await storage.close(); await dropSchema(PG, schema); } };
  });
}
