import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';

/** The migrations the composition hands over (src/migrations.ts: `<domain>/<nnnn>_<what>`). */
class ListMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/**
 * Applies `migrations` not yet applied. `schema`: the PostgreSQL schema in use, where the migrator keeps its
 * own tables (the dialect's introspection looks nowhere else: storage/own-schema-dialect.ts).
 */
export async function migrateToLatest(db: Db, migrations: Record<string, Migration>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new ListMigrationProvider(migrations),
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
