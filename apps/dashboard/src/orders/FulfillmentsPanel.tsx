import { useState, type FormEvent } from 'react';
import { useCreateFulfillment, useDeleteFulfillment, useOrderFulfillments, useUpdateFulfillment, type FulfillmentDraft } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { ORDER_TEXT_MAX, type Order } from './model';
import { useLocked } from '../components/useLocked';

type Fulfillment = NonNullable<ReturnType<typeof useOrderFulfillments>['data']>[number];

/** Shipments of the order: each with its items, carrier and tracking number; add, edit and delete. */
export function FulfillmentsPanel({ order }: { order: Order }) {
  const list = useOrderFulfillments(order._id);
  const remove = useDeleteFulfillment();
  const [editing, setEditing] = useState<Fulfillment | 'new'>();
  const fulfillments = list.data ?? [];
  const shipped = new Map<string, number>();
  for (const f of fulfillments) for (const li of f.lineItems) shipped.set(li._id, (shipped.get(li._id) ?? 0) + li.quantity);
  const remaining = order.lineItems.map((li) => ({ _id: li._id, name: li.productName.original, quantity: li.quantity - (shipped.get(li._id) ?? 0) }));
  return (
    <div className="space-y-3">
      <ErrorAlert error={list.error} />
      {fulfillments.length === 0 && !list.isLoading && <p className="text-slate-600">Nothing shipped yet.</p>}
      <ul className="space-y-2">
        {fulfillments.map((f) => (
          <li key={f._id} data-testid="fulfillment" className="flex flex-wrap items-center gap-2">
            <span>{f.lineItems.reduce((n, li) => n + li.quantity, 0)} item(s)</span>
            <span className="text-slate-600">{f.trackingInfo?.shippingProvider ?? 'carrier not set'} · {f.trackingInfo?.trackingNumber ?? 'no tracking number'} · {formatDate(f._createdDate)}</span>
            <span className="ml-auto flex gap-2">
              <button type="button" className={secondaryButton} onClick={() => setEditing(f)}>Edit</button>
              <ConfirmButton label="Delete" ariaLabel={`Delete fulfillment ${f.trackingInfo?.trackingNumber ?? ''}`.trim()} title="Delete fulfillment" confirmLabel="Delete fulfillment"
                message="Delete this fulfillment? Its items count as not shipped again." onConfirm={() => remove.mutateAsync({ orderId: order._id, fulfillmentId: f._id })} />
            </span>
          </li>
        ))}
      </ul>
      {order.status !== 'CANCELED' && remaining.some((r) => r.quantity > 0) && (
        <button type="button" className={secondaryButton} onClick={() => setEditing('new')}>Fulfill items</button>
      )}
      {editing && <FulfillmentDialog order={order} fulfillment={editing === 'new' ? undefined : editing}
        remaining={remaining} onClose={() => setEditing(undefined)} />}
    </div>
  );
}

function FulfillmentDialog({ order, fulfillment, remaining, onClose }: {
  order: Order; fulfillment: Fulfillment | undefined; remaining: { _id: string; name: string; quantity: number }[]; onClose: () => void;
}) {
  const create = useLocked(useCreateFulfillment());
  const update = useLocked(useUpdateFulfillment());
  const [carrier, setCarrier] = useState(fulfillment?.trackingInfo?.shippingProvider ?? '');
  const [trackingNumber, setTrackingNumber] = useState(fulfillment?.trackingInfo?.trackingNumber ?? '');
  const [quantities, setQuantities] = useState<Record<string, string>>(() =>
    Object.fromEntries(fulfillment ? fulfillment.lineItems.map((li) => [li._id, String(li.quantity)]) : remaining.map((r) => [r._id, String(r.quantity)])));
  const lineItems = Object.entries(quantities).map(([_id, q]) => ({ _id, quantity: Number(q) })).filter((li) => Number.isInteger(li.quantity) && li.quantity > 0);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const draft: FulfillmentDraft = { lineItems, trackingNumber: trackingNumber.trim(), carrier: carrier.trim() };
    if (fulfillment) await update.mutateAsync({ orderId: order._id, fulfillmentId: fulfillment._id, fulfillment: draft });
    else await create.mutateAsync({ orderId: order._id, fulfillment: draft });
    onClose();
  };
  return (
    <Modal title={fulfillment ? 'Edit fulfillment' : 'Fulfill items'} onClose={onClose}>
      <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="space-y-3">
        {!fulfillment && (
          <fieldset className="space-y-1">
            <legend className="text-sm font-medium">Items to ship</legend>
            {remaining.filter((r) => r.quantity > 0).map((r) => (
              <TextField key={r._id} label={`${r.name} (${r.quantity} left)`} type="number" min={0} max={r.quantity}
                value={quantities[r._id] ?? '0'} onChange={(e) => setQuantities((q) => ({ ...q, [r._id]: e.target.value }))} />
            ))}
          </fieldset>
        )}
        <TextField label="Carrier" value={carrier} maxLength={ORDER_TEXT_MAX.short} onChange={(e) => setCarrier(e.target.value)} />
        <TextField label="Tracking number" value={trackingNumber} maxLength={ORDER_TEXT_MAX.short} onChange={(e) => setTrackingNumber(e.target.value)} />
        <ErrorAlert error={create.error ?? update.error} />
        <button type="submit" className={primaryButton} disabled={lineItems.length === 0 || create.isPending || update.isPending}>
          {fulfillment ? 'Save fulfillment' : 'Mark as fulfilled'}
        </button>
      </form>
    </Modal>
  );
}
