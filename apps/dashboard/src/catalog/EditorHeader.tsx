import type { ReactNode } from 'react';
import { ConfirmButton } from '../components/ConfirmButton';

/** The editor's title line: product name, a one-line summary, extra links, and Delete (after confirmation). */
export function EditorHeader({ name, summary, deleteMessage, onDelete, children }: {
  name: string; summary: string; deleteMessage: string; onDelete: () => Promise<void>; children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-center gap-4">
      <h1 className="text-2xl font-semibold">{name}</h1>
      <span className="text-sm text-slate-600" data-testid="product-summary">{summary}</span>
      {children}
      <span className="ml-auto">
        <ConfirmButton label="Delete product" title="Delete product" confirmLabel="Delete product" message={deleteMessage} onConfirm={onDelete} />
      </span>
    </div>
  );
}
