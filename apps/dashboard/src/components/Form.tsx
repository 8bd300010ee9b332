import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

const inputClass = 'mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm';

/** A labelled input: the label wraps the control so getByLabel finds it. */
export function TextField({ label, className, ...rest }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return <label className={`block text-sm ${className ?? ''}`}>{label}<input {...rest} className={inputClass} /></label>;
}

export function SelectField({ label, className, children, ...rest }: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  return <label className={`block text-sm ${className ?? ''}`}>{label}<select {...rest} className={inputClass}>{children}</select></label>;
}

export function CheckboxField({ label, ...rest }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return <label className="flex items-center gap-2 text-sm"><input type="checkbox" {...rest} />{label}</label>;
}

export const primaryButton = 'rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50';
export const secondaryButton = 'rounded border border-slate-300 bg-white px-3 py-1 text-xs hover:bg-slate-100 disabled:opacity-40';

/**
 * Props of a form that clear a finished save's "Saved." or error once the owner edits again or the
 * browser blocks the next submit (a required field left empty): a stale notice reads as if the new
 * values were saved. A save in flight keeps its state.
 */
export function clearsOutcome(save: { isPending: boolean; reset: () => void }) {
  const clear = () => { if (!save.isPending) save.reset(); };
  return { onChange: clear, onInvalidCapture: clear };
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center gap-4">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}

export { formatDate } from '../lib/time';
