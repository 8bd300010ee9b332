import type { Kysely } from 'kysely';
import { binaryType, dialectOf, floatType, jsonType } from './dialect.js';

/**
 * The database handle a migration gets. Migrations run before (and shape) the typed schema of
 * storage/schema.ts, so they work on an untyped one.
 */
export type MigrationDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations create the schema the types describe

/** Column types that differ by database, so a migration names them once for both. */
export interface ColumnTypes {
  /** A JSON document (jsonb / text; write with toJson, read with readJson). */
  json: 'jsonb' | 'text';
  /** A floating point number. */
  float: 'double precision' | 'real';
  /** Raw bytes. */
  binary: 'bytea' | 'blob';
  /** Which database, for the few migrations that create database-specific objects through storage helpers. */
  dialect: ReturnType<typeof dialectOf>;
}

export function columnTypes(db: MigrationDb): ColumnTypes {
  const dialect = dialectOf(db);
  return { json: jsonType(dialect), float: floatType(dialect), binary: binaryType(dialect), dialect };
}
