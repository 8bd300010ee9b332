import { useRef, useState, type ReactNode } from 'react';
import { ErrorAlert } from './Alert';
import { Modal } from './Modal';

interface DialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  onClose: () => void;
}

/** The confirmation of a destructive action: Cancel (or Escape) closes it; on failure it stays open with the error. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: DialogProps) {
  const [busy, setBusy] = useState(false);
  // A second click before the disabled button renders is ignored (the action runs once).
  const running = useRef(false);
  const [error, setError] = useState<unknown>();
  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <div className="mb-4 text-sm text-slate-700">{message}</div>
      <ErrorAlert error={error} />
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" onClick={onClose} className="rounded border border-slate-300 px-3 py-1.5 text-sm">Cancel</button>
        <button type="button" disabled={busy} onClick={() => { void confirm(); }} className="rounded bg-rose-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">{confirmLabel}</button>
      </div>
    </Modal>
  );
}

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

/** A destructive action behind a confirmation dialog. */
export function ConfirmButton({ label, ariaLabel, title, message, confirmLabel, onConfirm, className }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-label={ariaLabel} onClick={() => setOpen(true)} className={className ?? 'rounded border border-rose-300 px-2 py-1 text-xs text-rose-700 hover:bg-rose-50'}>{label}</button>
      {open && <ConfirmDialog title={title} message={message} confirmLabel={confirmLabel} onConfirm={onConfirm} onClose={() => setOpen(false)} />}
    </>
  );
}
