import type { ReactNode } from 'react';
import { errorText, type DescribeViolation } from '../session';

/**
 * A wire or network error, announced to screen readers. `describe` words field violations with the
 * form's own labels; `text` replaces the whole line (an answer the form knows, like a wrong password).
 */
export function ErrorAlert({ error, text, describe }: { error: unknown; text?: string; describe?: DescribeViolation }) {
  if (!error) return null;
  return <p role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">{text ?? errorText(error, describe)}</p>;
}

export function Notice({ children }: { children: ReactNode }) {
  return <div role="status" className="rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{children}</div>;
}
