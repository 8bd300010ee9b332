import { useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside the dialog: from the last control focus wraps to the first and back.
 * (The page behind is also inert to the mouse via the backdrop.)
 */
function trapTab(event: ReactKeyboardEvent<HTMLDivElement>): void {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (controls.length === 0) {
    event.preventDefault();
    return;
  }
  const first = controls[0]!;
  const last = controls[controls.length - 1]!;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  } else if (!event.currentTarget.contains(active)) {
    event.preventDefault();
    first.focus();
  }
}

/** A modal dialog (role=dialog, named by its title); Escape closes it and Tab stays inside it. */
export function Modal({ title, onClose, children, side = false }: { title: string; onClose: () => void; children: ReactNode; side?: boolean }) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  // Focus moves into the dialog on open and back to where it was on close.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    dialog.current?.focus();
    return () => before?.focus();
  }, []);
  useEffect(() => {
    // Escape closes only the topmost dialog (a confirmation above a drawer).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const open = document.querySelectorAll('[role="dialog"]');
      if (open[open.length - 1] === dialog.current) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-40 flex bg-slate-900/30" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div
        ref={dialog}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={trapTab}
        className={side
          ? 'outline-none ml-auto flex h-full w-full max-w-xl flex-col overflow-y-auto bg-white p-6 shadow-xl'
          : 'outline-none m-auto w-full max-w-md rounded-lg bg-white p-6 shadow-xl'}
      >
        <div className="mb-4 flex items-start gap-4">
          <h2 id={titleId} className="text-lg font-semibold">{title}</h2>
          <button type="button" onClick={onClose} className="ml-auto text-sm text-slate-500 hover:text-slate-900">Close</button>
        </div>
        {children}
      </div>
    </div>
  );
}

/** A side drawer: the same dialog, docked to the right. */
export function Drawer(props: { title: string; onClose: () => void; children: ReactNode }) {
  return <Modal {...props} side />;
}
