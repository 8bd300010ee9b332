import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterSettingWarnings } from '../src/storage/cluster-settings.js';
import { dropSchema, openStorage, type Storage } from '../src/storage/database.js';
import { sqliteFiles } from './sqlite-files.js';

const PG = process.env.DATABASE_URL || '';
const files = sqliteFiles('vitrine-cluster-settings-');

describe('cluster setting warnings at start', () => {
  it('has none on SQLite, whose statistics the server keeps itself', async () => {
    expect(await clusterSettingWarnings(await files.fresh())).toEqual([]);
  });

  describe.skipIf(!PG)('PostgreSQL', () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    let storage: Storage | undefined;
    afterAll(async () => {
      await storage?.close();
      await dropSchema(PG, schema);
    });

    it('warns exactly when the cluster runs without autovacuum', async () => {
      storage = await openStorage({ databaseUrl: PG, schema, dataDir: '/nonexistent', statementTimeoutMs: 10_000 });
      // autovacuum is a server-wide setting (no session can change it): the expectation follows the cluster.
      const { rows } = await sql<{ autovacuum: string }>`SHOW autovacuum`.execute(storage.db);
      const warnings = await clusterSettingWarnings(storage);
      if (rows[0]!.autovacuum === 'on') {
        expect(warnings).toEqual([]);
      } else {
        expect(rows[0]!.autovacuum).toBe('off');
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/^PostgreSQL runs without autovacuum: .*ANALYZE/);
      }
    });
  });
});
