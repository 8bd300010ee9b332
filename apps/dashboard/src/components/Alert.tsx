import type { ReactNode } from 'react';
import { errorText } from '../session';

/** A wire or network error, announced to screen readers. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return <p role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">{errorText(error)}</p>;
}

export function Notice({ children }: { children: ReactNode }) {
  return <div role="status" className="rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{children}</div>;
}
