import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert, Notice } from '../components/Alert';
import { clearsOutcome, primaryButton } from '../components/Form';

/** One titled card of the product editor; the heading names the region for screen readers. */
export function EditorSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id={id} className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

interface SaveState { isPending: boolean; isSuccess: boolean; error: unknown; reset: () => void }

/** A form of the editor: its fields, the server's error, "Saved." (cleared on the next edit) and the save button. */
export function EditorForm({ label, onSubmit, state, saveLabel, saved, children }: {
  label: string; onSubmit: () => void; state: SaveState; saveLabel: string; saved: string; children: ReactNode;
}) {
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(); };
  return (
    <form onSubmit={submit} {...clearsOutcome(state)} aria-label={label} className="space-y-3">
      {children}
      <ErrorAlert error={state.error} />
      {state.isSuccess && <Notice>{saved}</Notice>}
      <button disabled={state.isPending} className={primaryButton}>{saveLabel}</button>
    </form>
  );
}
