import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, openStorage, type Storage } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { domainMigrations } from '../src/migrations.js';

/** The identity `mail_outbox` rows of an existing database move into the one outbox, `notification_mails`. */
const PG = process.env.DATABASE_URL || '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-mail-migration-'));
const schema = PG ? `t_${randomBytes(6).toString('hex')}` : undefined;
let storage: Storage | undefined;

afterAll(async () => {
  await storage?.close();
  if (PG && schema) await dropSchema(PG, schema);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('migration identity/0004_mail_outbox_merged', () => {
  it('moves stored identity mails into notification_mails as STORED and drops mail_outbox', async () => {
    storage = await openStorage({ databaseUrl: PG || undefined, schema, dataDir, statementTimeoutMs: 10_000 });
    const db = storage.db;
    const before = new Migrator({
      db,
      provider: { getMigrations: async (): Promise<Record<string, Migration>> => domainMigrations() },
      allowUnorderedMigrations: true,
      migrationTableName: 'vitrine_migrations',
      migrationLockTableName: 'vitrine_migrations_lock',
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await before.migrateTo('identity/0002_identities');
    expect(error).toBeUndefined();
    await sql`INSERT INTO mail_outbox (id, site_id, to_address, subject, text_body, html_body, created_date) VALUES
      ('m1', 's1', 'ann@example.com', 'Your code: 123456', 'Code <123456> & more', NULL, '2026-01-01T00:00:00.000Z'),
      ('m2', 's1', 'bob@example.com', 'Reset', 'Open the link', '<p>Open</p>', '2026-01-02T00:00:00.000Z')`.execute(db);

    await migrateToLatest(db, domainMigrations(), schema);
    const rows = await db.selectFrom('notification_mails').select(['id', 'site_id', 'template', 'to_address', 'subject', 'html', 'text', 'status', 'attempts', 'created_date'])
      .orderBy('id').execute();
    expect(rows.map((r) => ({ ...r, attempts: Number(r.attempts) }))).toEqual([
      {
        id: 'm1', site_id: 's1', template: 'identity', to_address: 'ann@example.com', subject: 'Your code: 123456',
        html: '<pre style="font-family: inherit; white-space: pre-wrap">Code &lt;123456&gt; &amp; more</pre>', text: 'Code <123456> & more',
        status: 'STORED', attempts: 0, created_date: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'm2', site_id: 's1', template: 'identity', to_address: 'bob@example.com', subject: 'Reset', html: '<p>Open</p>', text: 'Open the link',
        status: 'STORED', attempts: 0, created_date: '2026-01-02T00:00:00.000Z',
      },
    ]);
    await expect(sql`SELECT 1 FROM mail_outbox`.execute(db)).rejects.toThrow();
  });
});
