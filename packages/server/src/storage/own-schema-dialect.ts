import {
  PostgresDialect,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/** One column of a table in the connection's own schema, as the catalog query below returns it. */
interface CatalogColumn {
  schema: string;
  table: string;
  kind: string;
  column: string;
  data_type: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  comment: string | null;
}

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema and resolves each schema by name
 * on the way (`has_schema_privilege`, `pg_get_serial_sequence`). When another connection drops its
 * schema meanwhile (parallel test runs, each in a schema of its own; a tenant removed on a shared
 * cluster), the whole listing fails with `3F000 invalid_schema_name`, and with it a migration run.
 * Vitrine introspects only for the migrator's question "do my tables exist", and only in the schema it
 * works in, so this introspector reads the connection's `current_schema()` and nothing else.
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  // Kysely hands an untyped instance to introspectors (its own signature); only raw SQL runs on it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    // NULL when no schema of the search path exists.
    const { rows } = await sql<{ name: string | null }>`SELECT current_schema() AS name`.execute(this.db);
    return rows.flatMap((row) => (row.name === null ? [] : [{ name: row.name }]));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<CatalogColumn>`
      SELECT n.nspname AS "schema", c.relname AS "table", c.relkind AS kind, a.attname AS "column",
             format_type(a.atttypid, a.atttypmod) AS data_type, a.attnotnull AS not_null,
             a.atthasdef AS has_default,
             (a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%', false)) AS auto_incrementing,
             col_description(c.oid, a.attnum) AS comment
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')
      ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.data_type,
        isNullable: !row.not_null,
        isAutoIncrementing: row.auto_incrementing,
        hasDefaultValue: row.has_default,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL whose introspection stays in the connection's own schema (see OwnSchemaIntrospector). */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
