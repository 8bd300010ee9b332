import type pg from 'pg';

/**
 * The hot statements (`preparedQuery`, prepared.ts) as named prepared statements on PostgreSQL.
 *
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it on every run. For the hot
 * statements, point reads and writes by key run thousands of times a second, that was most of the
 * server's cost per statement: the cart heads read took 120 us of backend CPU unnamed and 40 us named
 * (docs/performance-log.md, twentieth session), on a machine where the database shares the cores
 * with the server. A named statement is parsed once per connection and its plan kept; `pg` prepares
 * it on the connection's first use of the name.
 *
 * Only texts registered here are named: the few dozen fixed texts of `preparedQuery`, so the
 * statements per connection stay bounded; every other query (listings with filters of the caller's
 * choosing) stays unnamed and planned for its own parameters.
 *
 * A statement kept across a schema change that alters its result's columns (a migration of another
 * process during a rolling upgrade, under a `SELECT *`) fails with "cached plan must not change
 * result type"; the statement then runs again unnamed (inside a transaction, which the error ended,
 * that fails too and the request with it), and that connection runs it unnamed from then on.
 * `DATABASE_NAMED_STATEMENTS=off` sends everything unnamed, for a connection pooler in front of the
 * database that cannot carry prepared statements (PgBouncer before 1.21 in transaction mode).
 */
const names = new Map<string, string>();

/** Runs `sqlText` as a named statement on every connection that names statements. */
export function nameStatement(sqlText: string): void {
  if (!names.has(sqlText)) names.set(sqlText, `vitrine_${names.size + 1}`);
}

/** PostgreSQL's SQLSTATE for "cached plan must not change result type". */
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Makes `client` run registered texts as named statements (called once per connection, as the pool
 * makes it). Kysely calls `query(text, values)`; every other form of call passes through unchanged.
 */
export function nameStatementsOn(client: pg.PoolClient): void {
  const plain = client.query.bind(client) as (...args: unknown[]) => unknown;
  const unnamed = new Set<string>();
  const query = (...args: unknown[]): unknown => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' && !unnamed.has(text) ? names.get(text) : undefined;
    if (name === undefined) return plain(...args);
    const named = plain({ name, text, values }) as Promise<pg.QueryResult>;
    return named.catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== CACHED_PLAN_CHANGED) throw error;
      unnamed.add(text as string);
      return plain(text, values);
    });
  };
  // pg's query has many overloads; the wrapper keeps each call's own form and answer.
  client.query = query as unknown as typeof client.query;
}
