import { useState, type FormEvent } from 'react';
import { useOrderTags } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { TextField, secondaryButton } from '../components/Form';
import { ORDER_TEXT_MAX, type Order } from './model';
import { useLocked } from '../components/useLocked';

/** The order's tags: add one by name, remove one with its button. */
export function TagsPanel({ order }: { order: Order }) {
  const tags = useLocked(useOrderTags());
  const [name, setName] = useState('');
  const current = order.tags.tags?.tagIds ?? [];
  const add = (e: FormEvent) => {
    e.preventDefault();
    const tag = name.trim();
    if (!tag || current.includes(tag)) return;
    tags.mutate({ orderId: order._id, assign: [tag] }, { onSuccess: () => setName('') });
  };
  return (
    <div className="space-y-2">
      <ul className="flex flex-wrap gap-2" aria-label="Order tags">
        {current.length === 0 && <li className="text-slate-600">No tags.</li>}
        {current.map((t) => (
          <li key={t} data-testid="order-tag" className="flex items-center gap-1 rounded bg-slate-100 px-2 py-0.5">
            {t}
            <button type="button" aria-label={`Remove tag ${t}`} disabled={tags.isPending} className="text-slate-600 hover:text-slate-900" onClick={() => tags.mutate({ orderId: order._id, unassign: [t] })}>×</button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="flex items-end gap-2">
        <TextField label="New tag" value={name} maxLength={ORDER_TEXT_MAX.tag} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className={secondaryButton} disabled={!name.trim() || tags.isPending}>Add tag</button>
      </form>
      <ErrorAlert error={tags.error} />
    </div>
  );
}
