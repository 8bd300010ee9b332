import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prefix of the PostgreSQL schemas this test run creates (`t_<run>_...`). */
    testRunId: string;
  }
}

/**
 * On PostgreSQL every test server gets a schema of its own. Dropping one while another file's server
 * migrates races with Kysely's migrator (it lists the tables of every schema), so schemas are kept
 * until the whole run ends and dropped here, all at once.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const runId = randomBytes(4).toString('hex');
  project.provide('testRunId', runId);
  return async () => {
    const url = process.env.DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`t\\_${runId}\\_%`]);
      for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
    } finally {
      await client.end();
    }
  };
}
