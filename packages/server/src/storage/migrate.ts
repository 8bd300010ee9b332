import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import { domainMigrations } from './migrations.js';

/** Migrations come from each domain's migrations.ts; names are `<domain>/<nnnn>_<what>`. */
class DomainMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return domainMigrations();
  }
}

/** `schema`: the PostgreSQL schema in use (Kysely's table lookup would otherwise see other schemas' tables). */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new DomainMigrationProvider(),
    // Domains add migrations independently; their relative order across domains does not matter.
    allowUnorderedMigrations: true,
    migrationTableName: 'vitrine_migrations',
    migrationLockTableName: 'vitrine_migrations_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
