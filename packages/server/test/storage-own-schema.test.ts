import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresDialect, Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, openStorage, type Storage } from '../src/storage/database.js';

/**
 * The dialect's introspection (what Kysely's migrator asks "do my tables exist") reads the
 * connection's own schema only, so schemas other connections create and drop meanwhile cannot fail it.
 */
const PG = process.env.DATABASE_URL || '';
const schema = `t_${randomBytes(6).toString('hex')}`;
const other = `t_${randomBytes(6).toString('hex')}`;
let storage: Storage | undefined;

afterAll(async () => {
  await storage?.close();
  if (PG) {
    await dropSchema(PG, schema);
    await dropSchema(PG, other);
  }
});

/** Creates and drops schemas holding a serial-keyed table, `rounds` times, on a connection of its own. */
async function churnSchemas(rounds: number): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    for (let round = 0; round < rounds; round++) {
      const name = `t_churn_${randomBytes(4).toString('hex')}`;
      await client.query(`CREATE SCHEMA "${name}"`);
      await client.query(`CREATE TABLE "${name}".items (id serial PRIMARY KEY, label text)`);
      await client.query(`DROP SCHEMA "${name}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}

/** Churns (150 rounds each) the control may take to show Kysely's own introspection failing. */
const CONTROL_CHURNS = 8;

async function introspectWhileChurning(db: Kysely<unknown>): Promise<void> {
  let churning = true;
  const churn = churnSchemas(150).finally(() => { churning = false; });
  while (churning) await db.introspection.getTables();
  await churn;
}

describe.skipIf(!PG)('PostgreSQL introspection of the own schema', () => {
  it('lists the tables of its schema with their columns and nothing of other schemas', async () => {
    storage = await openStorage({ databaseUrl: PG, schema, dataDir: '/nonexistent', statementTimeoutMs: 10_000 });
    await sql`CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL, seen boolean DEFAULT false)`.execute(storage.db);
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${other}"`);
    await admin.query(`CREATE TABLE "${other}".elsewhere (id int)`);
    await admin.end();

    const tables = await storage.db.introspection.getTables();
    expect(tables).toEqual([{
      name: 'notes', schema, isView: false,
      columns: [
        { name: 'id', dataType: 'integer', isNullable: false, isAutoIncrementing: true, hasDefaultValue: true },
        { name: 'body', dataType: 'text', isNullable: false, isAutoIncrementing: false, hasDefaultValue: false },
        { name: 'seen', dataType: 'boolean', isNullable: true, isAutoIncrementing: false, hasDefaultValue: true },
      ],
    }]);
    expect(await storage.db.introspection.getSchemas()).toEqual([{ name: schema }]);
  });

  it('does not fail while other connections drop their schemas (Kysely\'s own listing does)', async () => {
    if (!storage) throw new Error('the first test opens the storage');
    await introspectWhileChurning(storage.db as unknown as Kysely<unknown>);

    // The same churn against Kysely's own introspector, which resolves every schema and table by name:
    // the name it listed is gone when it is resolved (schema, table or column, by timing). The race is
    // usually lost within one churn, but not always (a CI run once got through 150 rounds), so the
    // churn runs again until it fails, at most CONTROL_CHURNS times.
    const pool = new pg.Pool({ connectionString: PG, max: 2 });
    const plain = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      let failure: unknown;
      for (let churn = 0; churn < CONTROL_CHURNS && failure === undefined; churn++) {
        failure = await introspectWhileChurning(plain).then(() => undefined, (error: unknown) => error);
      }
      expect(['3F000', '42P01', '42703']).toContain((failure as { code?: unknown } | undefined)?.code);
    } finally {
      await plain.destroy();
    }
  }, 90_000);
});
