const TONES: Record<string, string> = {
  APPROVED: 'bg-emerald-100 text-emerald-800', ACTIVE: 'bg-emerald-100 text-emerald-800', SUCCEEDED: 'bg-emerald-100 text-emerald-800', SENT: 'bg-emerald-100 text-emerald-800',
  PENDING: 'bg-amber-100 text-amber-800', OPEN: 'bg-amber-100 text-amber-800', STORED: 'bg-sky-100 text-sky-800',
  BLOCKED: 'bg-rose-100 text-rose-800', FAILED: 'bg-rose-100 text-rose-800', DISABLED: 'bg-rose-100 text-rose-800', MUTED: 'bg-slate-200 text-slate-700',
};

/** A status word in a colour by meaning; the text itself is what tests and readers see. */
export function StatusBadge({ value }: { value: string }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${TONES[value] ?? 'bg-slate-100 text-slate-700'}`}>{value}</span>;
}
