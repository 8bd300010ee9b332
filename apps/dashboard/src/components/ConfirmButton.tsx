import { useState } from 'react';
import { ErrorAlert } from './Alert';
import { Modal } from './Modal';

interface Props {
  /** Visible button text, e.g. "Delete". */
  label: string;
  /** Accessible name when the visible text is ambiguous in a list ("Delete Cold Brew Kit"). */
  ariaLabel?: string;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  className?: string;
}

/** A destructive action behind a confirmation dialog; the dialog stays open with the error on failure. */
export function ConfirmButton({ label, ariaLabel, title, message, confirmLabel, onConfirm, className }: Props) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      setOpen(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" aria-label={ariaLabel} onClick={() => setOpen(true)} className={className ?? 'rounded border border-rose-300 px-2 py-1 text-xs text-rose-700 hover:bg-rose-50'}>{label}</button>
      {open && (
        <Modal title={title} onClose={() => setOpen(false)}>
          <p className="mb-4 text-sm text-slate-700">{message}</p>
          <ErrorAlert error={error} />
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" onClick={() => setOpen(false)} className="rounded border border-slate-300 px-3 py-1.5 text-sm">Cancel</button>
            <button type="button" disabled={busy} onClick={() => { void confirm(); }} className="rounded bg-rose-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">{confirmLabel}</button>
          </div>
        </Modal>
      )}
    </>
  );
}
