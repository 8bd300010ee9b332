import { useEffect } from 'react';

/** Offset paging: "1–25 of 27" with Previous/Next. */
export function Pager({ offset, limit, count, total, onChange }: { offset: number; limit: number; count: number; total: number | undefined; onChange: (offset: number) => void }) {
  // After deletes the current page may lie past the end: step back to the last page that has rows.
  useEffect(() => {
    if (total !== undefined && offset > 0 && offset >= total) onChange(Math.max(0, Math.floor((total - 1) / limit) * limit));
  }, [offset, total, limit, onChange]);
  if (offset === 0 && count === 0) return null;
  const hasNext = total !== undefined ? offset + limit < total : count === limit;
  const range = count === 0 ? '0' : `${offset + 1}–${offset + count}`;
  return (
    <nav aria-label="Pagination" className="mt-3 flex items-center gap-2 text-sm">
      <span data-testid="pager-range" className="text-slate-500">{range}{total !== undefined ? ` of ${total}` : ''}</span>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))} className="ml-auto rounded border border-slate-300 bg-white px-3 py-1 disabled:opacity-40">Previous</button>
      <button type="button" disabled={!hasNext} onClick={() => onChange(offset + limit)} className="rounded border border-slate-300 bg-white px-3 py-1 disabled:opacity-40">Next</button>
    </nav>
  );
}
