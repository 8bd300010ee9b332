import type { ReactNode } from 'react';
import { ErrorAlert } from './Alert';

/**
 * Renders `children(data)` only once a query has answered (its error or "Loading…" before). Settings
 * forms start from the stored values this way, so a late answer never overwrites what the owner typed.
 */
export function Loaded<T>({ query, children }: { query: { data: T | undefined; error: unknown }; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorAlert error={query.error} />;
  if (query.data === undefined) return <p role="status" className="text-sm text-slate-500">Loading…</p>;
  return <>{children(query.data)}</>;
}
