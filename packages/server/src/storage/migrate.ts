import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';

/** The migrations the composition hands over (src/migrations.ts: `<domain>/<nnnn>_<what>`). */
class ListMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/** How often a migration run is retried when another schema vanished under Kysely's table lookup. */
const MIGRATE_ATTEMPTS = 5;

/**
 * Kysely's migrator lists the tables of every schema to decide whether its own tables exist. When
 * another process drops its schema at that moment (parallel test runs, each in a schema of its own),
 * PostgreSQL answers `3F000 invalid_schema_name`, or the listing comes out wrong and the next
 * statement finds no table (`42P01 undefined_table`). Running again is safe: migrations hold a lock
 * and record what they applied.
 */
function vanishedSchema(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '3F000' || code === '42P01';
}

/**
 * Applies `migrations` not yet applied. `schema`: the PostgreSQL schema in use (Kysely's table lookup
 * would otherwise see other schemas' tables).
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
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < MIGRATE_ATTEMPTS && vanishedSchema(error)) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw error instanceof Error ? error : new Error(String(error));
  }
}
