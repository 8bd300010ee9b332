import type { ReactNode } from 'react';
/** A wire or network error, announced to screen readers. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return <p role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">{message}</p>;
}

export function Notice({ children }: { children: ReactNode }) {
  return <div role="status" className="rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{children}</div>;
}
