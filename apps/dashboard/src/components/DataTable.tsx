import type { ReactNode } from 'react';
import { ErrorAlert } from './Alert';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface Props<T> {
  /** Accessible name of the table (tests and screen readers find it by this). */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  isLoading: boolean;
  error: unknown;
  empty: string;
  rowTestId?: string;
}

/** A table with the three states every list has: loading, error and empty. */
export function DataTable<T>({ label, columns, rows, rowKey, isLoading, error, empty, rowTestId }: Props<T>) {
  if (error) return <ErrorAlert error={error} />;
  if (isLoading && !rows) return <p role="status" className="py-6 text-sm text-slate-500">Loading…</p>;
  if (!rows || rows.length === 0) return <p data-testid="empty" className="rounded border border-dashed border-slate-300 bg-white py-8 text-center text-sm text-slate-500">{empty}</p>;
  return (
    // A wide table scrolls sideways inside this box; tabIndex lets keyboard users scroll it too.
    <div tabIndex={0} role="region" aria-label={`${label} table`} className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-slate-500">
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
            {columns.map((c) => <th key={c.header} scope="col" className={`px-3 py-2 font-medium ${c.className ?? ''}`}>{c.header}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId} className="border-b border-slate-100 last:border-0 hover:bg-slate-50">
              {columns.map((c) => <td key={c.header} className={`px-3 py-2 align-top ${c.className ?? ''}`}>{c.cell(row)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
