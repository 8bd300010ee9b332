import { useEffect, useId, type ReactNode } from 'react';

/** A modal dialog (role=dialog, named by its title); Escape closes it. */
export function Modal({ title, onClose, children, side = false }: { title: string; onClose: () => void; children: ReactNode; side?: boolean }) {
  const titleId = useId();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-40 flex bg-slate-900/30" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={side
          ? 'ml-auto flex h-full w-full max-w-xl flex-col overflow-y-auto bg-white p-6 shadow-xl'
          : 'm-auto w-full max-w-md rounded-lg bg-white p-6 shadow-xl'}
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
