import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEvent } from 'kysely';

/**
 * Counting SQL statements per unit of work (a request), for query budgets in tests. Storage opened
 * with `countQueries` reports every executed statement to `noteQuery` (Kysely's `log` hook, which
 * runs in the caller's async context); `countingQueries(fn)` gives `fn` its own counter. Work
 * outside a counter (background jobs, migrations) is not counted. Off unless configured: storage
 * opened without the option installs no hook at all.
 */
export interface QueryCount { statements: number }

const current = new AsyncLocalStorage<QueryCount>();

/** Runs `fn` with a fresh counter; the counter keeps counting statements `fn` started. */
export function countingQueries<T>(fn: (count: QueryCount) => Promise<T>): Promise<T> {
  const count: QueryCount = { statements: 0 };
  return current.run(count, () => fn(count));
}

/** Kysely `log` hook: one executed statement (errors included; they reached the database too). */
export function noteQuery(_event: LogEvent): void {
  countStatement();
}

/** One statement run outside Kysely (storage/database.ts, readDirectly). */
export function countStatement(): void {
  const count = current.getStore();
  if (count) count.statements += 1;
}

/** Runs `fn` outside any counter: background work a request starts is not the request's. */
export function outsideQueryCount<T>(fn: () => T): T {
  return current.exit(fn);
}
