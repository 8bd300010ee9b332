import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEvent } from 'kysely';

/**
 * Counting SQL statements per unit of work (a request), for query budgets in tests. Storage opened
 * with `countQueries` reports every executed statement to `noteQuery` (Kysely's `log` hook, which
 * runs in the caller's async context); `countingQueries(fn)` gives `fn` its own counter. Work
 * outside a counter (background jobs, migrations) is not counted. Off unless configured: storage
 * opened without the option installs no hook at all.
 */
export interface QueryCount {
  statements: number;
  /** Each statement's text and parameters, when the counter was started by `recordingQueries`. */
  recorded?: RecordedStatement[];
}

export interface RecordedStatement { sql: string; parameters: readonly unknown[] }

const current = new AsyncLocalStorage<QueryCount>();

/** Runs `fn` with a fresh counter; the counter keeps counting statements `fn` started. */
export function countingQueries<T>(fn: (count: QueryCount) => Promise<T>): Promise<T> {
  const count: QueryCount = { statements: 0 };
  return current.run(count, () => fn(count));
}

/** Runs `fn` and answers the statements it ran, in order (tests look at their query plans). */
export async function recordingQueries(fn: () => Promise<unknown>): Promise<RecordedStatement[]> {
  const count: QueryCount = { statements: 0, recorded: [] };
  await current.run(count, fn);
  return count.recorded!;
}

/** Kysely `log` hook: one executed statement (errors included; they reached the database too). */
export function noteQuery(event: LogEvent): void {
  countStatement(event.query.sql, event.query.parameters);
}

/** One statement; also called for those run outside Kysely (storage/database.ts, runDirectly). */
export function countStatement(sqlText: string, parameters: readonly unknown[]): void {
  const count = current.getStore();
  if (!count) return;
  count.statements += 1;
  count.recorded?.push({ sql: sqlText, parameters });
}

/** Runs `fn` outside any counter: background work a request starts is not the request's. */
export function outsideQueryCount<T>(fn: () => T): T {
  return current.exit(fn);
}
