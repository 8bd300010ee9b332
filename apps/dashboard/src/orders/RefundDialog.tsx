import { useId, useState, type FormEvent } from 'react';
import { useRefundOrder } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { CheckboxField, TextField, primaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { useLocked } from '../components/useLocked';
import { amountProblem, centsText, descriptionText, money, toCents, type Order, type Payment } from './model';

/**
 * Refund one payment: any amount up to what is left on it (full or partial), optionally naming the
 * items and quantities it covers, which go back to stock when "restock" is ticked. The Refund button
 * says nothing can be sent until the amount is right, and the line under the amount says why.
 */
export function RefundDialog({ order, payment, maxCents, onClose }: { order: Order; payment: Payment; maxCents: number; onClose: () => void }) {
  const refund = useLocked(useRefundOrder());
  const problemId = useId();
  const [amount, setAmount] = useState(centsText(maxCents));
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState('');
  const [sendEmail, setSendEmail] = useState(true);
  const price = (cents: number) => money({ amount: centsText(cents) }, order.currency);
  const problem = amountProblem(amount, maxCents, `At most ${price(maxCents)} can be refunded from this payment.`);
  const cents = problem ? undefined : toCents(amount);
  const items = order.lineItems
    .map((li) => ({ lineItemId: li._id, quantity: Number(quantities[li._id] ?? 0) }))
    .filter((i) => Number.isInteger(i.quantity) && i.quantity > 0);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (cents === undefined) return;
    await refund.mutateAsync({ orderId: order._id, paymentId: payment._id, amount: { amount: centsText(cents) }, items, restock, reason: reason.trim() || undefined, sendEmail });
    onClose();
  };
  return (
    <Modal title="Refund payment" onClose={onClose}>
      <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="space-y-3 text-sm">
        <p>Payment of {money(payment.amount, order.currency)}; {price(maxCents)} can still be refunded.</p>
        <TextField label="Refund amount" value={amount} inputMode="decimal" maxLength={20} aria-invalid={Boolean(problem)} aria-describedby={problem ? problemId : undefined}
          onChange={(e) => setAmount(e.target.value)} />
        {problem && <p id={problemId} data-testid="refund-problem" className="text-rose-700">{problem}</p>}
        <fieldset className="space-y-1">
          <legend className="font-medium">Items refunded (optional)</legend>
          {order.lineItems.map((li) => {
            const choices = descriptionText(li.descriptionLines);
            return (
              <TextField key={li._id} label={`${li.productName.original}${choices ? ` (${choices})` : ''} (of ${li.quantity})`} type="number" min={0} max={li.quantity}
                value={quantities[li._id] ?? '0'} onChange={(e) => setQuantities((q) => ({ ...q, [li._id]: e.target.value }))} />
            );
          })}
        </fieldset>
        <CheckboxField label="Put refunded items back in stock" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
        <TextField label="Reason (optional)" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
        <CheckboxField label="E-mail the customer" checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)} />
        <ErrorAlert error={refund.error} />
        <button type="submit" className={primaryButton} disabled={cents === undefined || refund.isPending}
          aria-describedby={problem ? problemId : undefined}>{refund.isPending ? 'Refunding…' : `Refund ${cents === undefined ? '' : price(cents)}`}</button>
      </form>
    </Modal>
  );
}
