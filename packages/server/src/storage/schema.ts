/**
 * The database's table types. Each domain adds its own tables from its store.ts with
 * `declare module '../../storage/schema.js' { interface Database { ... } }`, so no file lists every table.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty here on purpose: the domains fill it by declaration merging
export interface Database {}

/**
 * Column conventions, the same on both dialects:
 * - ids are text (UUIDs or slugs);
 * - dates are ISO-8601 UTC text (`toISOString()`), which sorts correctly as text;
 * - booleans are integers 0/1 (better-sqlite3 cannot bind JS booleans);
 * - JSON documents are `jsonb` on PostgreSQL and text on SQLite; read them with `readJson`.
 */
export type Bool01 = 0 | 1;
