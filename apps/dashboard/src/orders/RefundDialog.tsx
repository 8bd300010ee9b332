import { useState, type FormEvent } from 'react';
import { useRefundOrder } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { CheckboxField, TextField, primaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { centsText, money, toCents, type Order, type Payment } from './model';

/**
 * Refund one payment: any amount up to what is left on it (full or partial), optionally naming the
 * items and quantities it covers, which go back to stock when "restock" is ticked.
 */
export function RefundDialog({ order, payment, maxCents, onClose }: { order: Order; payment: Payment; maxCents: number; onClose: () => void }) {
  const refund = useRefundOrder();
  const [amount, setAmount] = useState(centsText(maxCents));
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState('');
  const [sendEmail, setSendEmail] = useState(true);
  const cents = toCents(amount);
  const items = order.lineItems
    .map((li) => ({ lineItemId: li._id, quantity: Number(quantities[li._id] ?? 0) }))
    .filter((i) => Number.isInteger(i.quantity) && i.quantity > 0);
  const valid = cents !== undefined && cents > 0 && cents <= maxCents;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    await refund.mutateAsync({ orderId: order._id, paymentId: payment._id, amount: { amount: centsText(cents) }, items, restock, reason: reason.trim() || undefined, sendEmail });
    onClose();
  };
  return (
    <Modal title="Refund payment" onClose={onClose}>
      <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="space-y-3 text-sm">
        <p>Payment of {money(payment.amount)}; {centsText(maxCents)} can still be refunded.</p>
        <TextField label="Refund amount" value={amount} inputMode="decimal" onChange={(e) => setAmount(e.target.value)} />
        <fieldset className="space-y-1">
          <legend className="font-medium">Items refunded (optional)</legend>
          {order.lineItems.map((li) => (
            <TextField key={li._id} label={`${li.productName.original} (of ${li.quantity})`} type="number" min={0} max={li.quantity}
              value={quantities[li._id] ?? '0'} onChange={(e) => setQuantities((q) => ({ ...q, [li._id]: e.target.value }))} />
          ))}
        </fieldset>
        <CheckboxField label="Put refunded items back in stock" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
        <TextField label="Reason (optional)" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
        <CheckboxField label="E-mail the customer" checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)} />
        <ErrorAlert error={refund.error} />
        <button type="submit" className={primaryButton} disabled={!valid || refund.isPending}>Refund {valid ? centsText(cents) : ''}</button>
      </form>
    </Modal>
  );
}
