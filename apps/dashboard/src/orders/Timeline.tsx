import { useState, type FormEvent } from 'react';
import { useAddOrderComment, useDeleteOrderComment, useUpdateOrderComment } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { formatDate, primaryButton, secondaryButton } from '../components/Form';
import { ORDER_TEXT_MAX, type Order } from './model';
import { useLocked } from '../components/useLocked';

/** Activity types as an owner reads them; anything else shows as its words. */
type ActivityType = Order['activities'][number]['type'];
const LABELS: Partial<Record<ActivityType, string>> = {
  ORDER_PLACED: 'Order placed', ORDER_PAID: 'Order paid', ORDER_PARTIALLY_PAID: 'Partly paid', ORDER_FULFILLED: 'Order fulfilled',
  ORDER_NOT_FULFILLED: 'Fulfillment removed', ORDER_CANCELED: 'Order canceled', ORDER_REFUNDED: 'Order refunded', REFUND_INITIATED: 'Refund started',
  PAYMENT_REFUNDED: 'Payment refunded', PAYMENT_REFUND_FAILED: 'Refund failed', AUTHORIZED_PAYMENT_CREATED: 'Payment authorized',
  AUTHORIZED_PAYMENT_CAPTURED: 'Payment captured', AUTHORIZED_PAYMENT_VOIDED: 'Authorization voided', TRACKING_NUMBER_ADDED: 'Tracking number added',
  TRACKING_NUMBER_EDITED: 'Tracking number changed', DRAFT_ORDER_CHANGES_APPLIED: 'Order edited', MERCHANT_COMMENT: 'Comment',
  PAYMENT_DECLINED: 'Payment declined', PAYMENT_PENDING: 'Payment pending',
};
const label = (type: ActivityType) => LABELS[type] ?? type.toLowerCase().replaceAll('_', ' ');

/** The order's activities, newest first, with the owner's comments (add, edit, delete). */
export function Timeline({ order }: { order: Order }) {
  const add = useLocked(useAddOrderComment());
  const [message, setMessage] = useState('');
  const activities = [...order.activities].reverse();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (message.trim()) add.mutate({ orderId: order._id, message: message.trim() }, { onSuccess: () => setMessage('') });
  };
  return (
    <div className="space-y-3">
      <form onSubmit={submit} className="space-y-2">
        <label className="block text-sm">Comment<textarea value={message} maxLength={ORDER_TEXT_MAX.long} rows={2} onChange={(e) => setMessage(e.target.value)}
          className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" /></label>
        <button type="submit" className={secondaryButton} disabled={!message.trim() || add.isPending}>Add comment</button>
        <ErrorAlert error={add.error} />
      </form>
      <ol className="space-y-2 border-l border-slate-200 pl-4">
        {activities.map((a) => (
          <li key={a._id} data-testid="order-activity">
            <span className="text-slate-600">{formatDate(a._createdDate)}</span> · <span className="font-medium">{label(a.type)}</span>
            {a.merchantComment && <Comment orderId={order._id} activityId={a._id} message={a.merchantComment.message} />}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Comment({ orderId, activityId, message }: { orderId: string; activityId: string; message: string }) {
  const update = useLocked(useUpdateOrderComment());
  const remove = useDeleteOrderComment();
  const [draft, setDraft] = useState<string>();
  if (draft === undefined) {
    return (
      <div className="flex items-start gap-2">
        {/* A long unbroken word (a pasted link) wraps instead of widening the page. */}
        <p className="min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{message}</p>
        <button type="button" className={secondaryButton} onClick={() => setDraft(message)}>Edit</button>
        <ConfirmButton label="Delete" ariaLabel="Delete comment" title="Delete comment" confirmLabel="Delete comment" message="Delete this comment?"
          onConfirm={() => remove.mutateAsync({ orderId, activityId })} />
      </div>
    );
  }
  return (
    <form className="space-y-1" onSubmit={(e) => { e.preventDefault(); update.mutate({ orderId, activityId, message: draft.trim() }, { onSuccess: () => setDraft(undefined) }); }}>
      <label className="block text-sm">Edit comment<textarea value={draft} maxLength={ORDER_TEXT_MAX.long} rows={2} onChange={(e) => setDraft(e.target.value)}
        className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" /></label>
      <div className="flex gap-2">
        <button type="submit" className={primaryButton} disabled={!draft.trim() || update.isPending}>Save</button>
        <button type="button" className={secondaryButton} onClick={() => setDraft(undefined)}>Discard</button>
      </div>
      <ErrorAlert error={update.error} />
    </form>
  );
}
