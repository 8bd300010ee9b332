/**
 * Hot statements as named prepared statements on PostgreSQL (storage/named-statements.ts): the
 * server's `preparedQuery` texts are kept prepared per connection, nothing else is, a schema change
 * under a kept `SELECT *` does not break it, and DATABASE_NAMED_STATEMENTS=off turns it off.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { nameStatement, nameStatementsOn } from '../src/storage/named-statements.js';
import { preparedQuery } from '../src/storage/prepared.js';
import { inTransaction } from '../src/storage/transaction.js';
import { loadConfig } from '../src/config.js';

const PG_URL = process.env.DATABASE_URL;

it('DATABASE_NAMED_STATEMENTS=off turns named statements off; they are on otherwise', () => {
  expect(loadConfig({}).databaseNamedStatements).toBe(true);
  expect(loadConfig({ DATABASE_NAMED_STATEMENTS: 'off' }).databaseNamedStatements).toBe(false);
});

describe.skipIf(!PG_URL)('named statements on PostgreSQL', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(async () => { await t?.close(); });

  const siteVersion = preparedQuery((db, p: { siteId: string }) => db.selectFrom('catalog_versions').select('version').where('site_id', '=', p.siteId));

  it('a preparedQuery text is kept prepared on the connection that ran it; an ordinary query is not', async () => {
    const kept = await inTransaction(t.server.deps.storage.db, async (trx) => {
      await siteVersion.run(trx, { siteId: t.site.id });
      await sql`SELECT version FROM catalog_versions WHERE site_id = ${t.site.id} AND version >= 0`.execute(trx);
      return (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(trx)).rows.map((r) => r.statement);
    });
    expect(kept).toContain('select "version" from "catalog_versions" where "site_id" = $1');
    expect(kept.filter((s) => s.includes('version >= 0'))).toEqual([]);
  });

  it('a kept SELECT * whose table gained a column answers the new columns', async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const schema = `t_named_${randomBytes(4).toString('hex')}`;
    try {
      nameStatementsOn(client as pg.PoolClient);
      await client.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.things (id int PRIMARY KEY, name text); INSERT INTO ${schema}.things VALUES (1, 'one')`);
      const text = `SELECT * FROM ${schema}.things WHERE id = $1`;
      nameStatement(text);
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, name: 'one' }]);
      const prepared = await client.query('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [text]);
      expect(prepared.rows[0].n).toBe(1);
      // Another process's migration, as in a rolling upgrade: the kept plan's result type is gone.
      await client.query(`ALTER TABLE ${schema}.things ADD COLUMN note text DEFAULT 'new'`);
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, name: 'one', note: 'new' }]);
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, name: 'one', note: 'new' }]);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
