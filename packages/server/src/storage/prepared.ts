import type { CompiledQuery, Compilable, QueryResult, RawBuilder } from 'kysely';
import { runDirectly, type Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';
import { nameStatement } from './named-statements.js';

/**
 * A query built and compiled once per dialect, then run with new parameter values.
 *
 * Kysely builds and compiles a query on every call: about 8-15 us of the 20-45 us a simple statement
 * costs through it, against 3-6 us for SQLite's own work (docs/performance-log.md, "Compiled once"). The
 * hot paths (a product by id, the visitor's cart, a placed order) run the same few statements
 * thousands of times a second, so they are written once here with named placeholders:
 *
 *   const byOwner = preparedQuery((db, p: { siteId: string; ownerKey: string }) =>
 *     db.selectFrom('carts').selectAll().where('site_id', '=', p.siteId).where('owner_key', '=', p.ownerKey));
 *   const { rows } = await byOwner.run(db, { siteId, ownerKey });
 *
 * A placeholder may stand only where a single value goes (a comparison, a column value, a LIMIT):
 * Kysely expands arrays (`in` lists) and `null` (`is null`) at build time, so such queries stay
 * ordinary ones. Reading a placeholder's value inside the builder (branching on it) is an error.
 */
export interface PreparedQuery<P, R> {
  run(db: Executor, params: P): Promise<QueryResult<R>>;
}

/** What a placeholder is compiled as: Kysely treats it as one opaque parameter value. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Compiled {
  query: CompiledQuery;
  /** For each compiled parameter: the placeholder's name, or undefined for a constant written in the builder. */
  names: (string | undefined)[];
}

export function preparedQuery<P extends object, R>(build: (db: Executor, params: P) => Compilable<R> | RawBuilder<R>): PreparedQuery<P, R> {
  const byDialect = new Map<DialectName, Compiled>();
  const placeholders = new Proxy({}, {
    get: (_target, name) => {
      if (typeof name !== 'string') throw new Error('preparedQuery: placeholders are named by strings');
      return new Placeholder(name);
    },
  }) as P;
  const compile = (db: Executor, dialect: DialectName): Compiled => {
    const built = build(db, placeholders);
    // A builder compiles by itself; a `sql` template needs the executor it is compiled for.
    const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    const compiled = { query, names: query.parameters.map((v) => (v instanceof Placeholder ? v.name : undefined)) };
    if (dialect === 'postgres') nameStatement(query.sql);
    byDialect.set(dialect, compiled);
    return compiled;
  };
  return {
    run(db, params) {
      const dialect = dialectOf(db);
      const { query, names } = byDialect.get(dialect) ?? compile(db, dialect);
      const values = params as Record<string, unknown>;
      const parameters = names.map((name, i) => (name === undefined ? query.parameters[i] : values[name]));
      let direct: QueryResult<unknown> | undefined;
      try {
        direct = runDirectly(db, query.sql, parameters);
      } catch (err) {
        return Promise.reject(err as Error); // a failed statement fails the promise, as through Kysely
      }
      return direct ? Promise.resolve(direct as QueryResult<R>) : db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    },
  };
}

/**
 * Every column of a row type, listed once and checked complete by the compiler (a column missing
 * from `all` fails to build): the column list of a prepared INSERT or UPDATE of whole rows.
 */
export function allColumns<T>(all: Record<keyof T & string, true>): (keyof T & string)[] {
  return Object.keys(all) as (keyof T & string)[];
}

/**
 * The placeholders of `columns` as an object for `values()` or `set()`. A prepared statement must name
 * each column it writes: its placeholder object has no keys of its own for Kysely to enumerate.
 */
export function columnsOf<P extends object, K extends keyof P & string>(params: P, columns: readonly K[]): Pick<P, K> {
  return Object.fromEntries(columns.map((c) => [c, params[c]])) as Pick<P, K>;
}
