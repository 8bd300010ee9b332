import { useState, type FormEvent } from 'react';
import { useEditOrderQuantities, useOrderEditPreview } from '@vitrine/react';
import { useDebounced } from '../components/useDebounced';
import { ErrorAlert } from '../components/Alert';
import { TextField, primaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { money, type Order } from './model';
import { useLocked } from '../components/useLocked';

/**
 * Edit order: new quantities per line (0 removes the line). Each change is previewed as a draft (the
 * would-be totals, or the server's reason it cannot be edited) before one `commitDeltas` applies it.
 */
export function EditOrder({ order }: { order: Order }) {
  const edit = useLocked(useEditOrderQuantities());
  const [open, setOpen] = useState(false);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const changed = Object.fromEntries(order.lineItems
    .map((li) => [li._id, Number(quantities[li._id] ?? li.quantity)] as const)
    .filter(([id, q]) => Number.isInteger(q) && q >= 0 && q !== order.lineItems.find((li) => li._id === id)?.quantity));
  // The preview follows the typed quantities once typing pauses; saving waits for the preview of exactly these.
  const key = JSON.stringify(changed);
  const settledKey = useDebounced(key);
  const preview = useOrderEditPreview(order._id, JSON.parse(settledKey) as Record<string, number>);
  const previewed = settledKey === key && preview.data !== undefined;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await edit.mutateAsync({ orderId: order._id, quantities: changed, reason: reason.trim() || undefined });
    setOpen(false);
  };
  return (
    <>
      <button type="button" className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100" onClick={() => { setQuantities({}); setOpen(true); }}>Edit order</button>
      {open && (
        <Modal title="Edit order" onClose={() => setOpen(false)}>
          <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="space-y-3">
            {order.lineItems.map((li) => (
              <TextField key={li._id} label={`${li.productName.original} quantity`} type="number" min={0}
                value={quantities[li._id] ?? String(li.quantity)} onChange={(e) => setQuantities((q) => ({ ...q, [li._id]: e.target.value }))} />
            ))}
            <TextField label="Reason (optional)" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
            {previewed && preview.data && (
              <p data-testid="edit-preview" className="text-sm">New total {money(preview.data.priceSummary.total)}; balance {money(preview.data.balanceSummary.balance)}.</p>
            )}
            <ErrorAlert error={preview.error ?? edit.error} />
            <button type="submit" className={primaryButton} disabled={Object.keys(changed).length === 0 || !previewed || edit.isPending}>Save changes</button>
          </form>
        </Modal>
      )}
    </>
  );
}
