import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf, jsonType } from '../storage/dialect.js';

export const jobsMigrations: Record<string, Migration> = {
  /** One table for every background job of every domain (docs/jobs.md). */
  '0001_jobs': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const json = jsonType(dialectOf(db));
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('site_id', 'text')
        .addColumn('payload', json, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('progress', json)
        .addColumn('result', json)
        .addColumn('dedup_key', 'text')
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('updated_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
      await db.schema.createIndex('jobs_lease').on('jobs').columns(['status', 'lease_until']).execute();
      // A dedup key names at most one waiting job of its kind; once that one runs, the key is free again.
      await sql`CREATE UNIQUE INDEX jobs_dedup ON jobs (kind, dedup_key) WHERE status = 'QUEUED' AND dedup_key IS NOT NULL`.execute(db);
    },
  },
  /**
   * Each state a query looks for as a partial index of its own: queued jobs by due time, running ones
   * by lease, finished ones by age (the prune). The claim runs every second; over (status, ...) indexes
   * SQLite's planner could scan every job kept for the retention week when its statistics, taken
   * while all jobs had finished, said a status matched every row (docs/jobs.md, "Work queues").
   */
  '0002_state_indexes': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('jobs_due').execute();
      await db.schema.dropIndex('jobs_lease').execute();
      await sql`CREATE INDEX jobs_queued ON jobs (run_at, created_date) WHERE status = 'QUEUED'`.execute(db);
      await sql`CREATE INDEX jobs_running ON jobs (lease_until) WHERE status = 'RUNNING'`.execute(db);
      await sql`CREATE INDEX jobs_finished ON jobs (updated_date) WHERE status IN ('SUCCEEDED', 'FAILED')`.execute(db);
    },
  },
};
