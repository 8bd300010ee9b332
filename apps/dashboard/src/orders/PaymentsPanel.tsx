import { useState, type FormEvent } from 'react';
import { useCapturePayment, useOrderTransactions, useRecordManualPayment, useVoidPayment } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { StatusBadge } from '../components/StatusBadge';
import { amountProblem, centsText, money, refundableCents, toCents, type Order, type Payment } from './model';
import { useLocked } from '../components/useLocked';

/**
 * The order's payments (capture or void an authorization, refund) and refunds, and a manual payment
 * for the balance. The refund dialog belongs to the order page (cancelling a paid order opens it too).
 */
export function PaymentsPanel({ order, onRefund }: { order: Order; onRefund: (payment: Payment) => void }) {
  const tx = useOrderTransactions(order._id);
  const capture = useLocked(useCapturePayment());
  const voidPayment = useLocked(useVoidPayment());
  const payments = tx.data?.payments ?? [];
  const refunds = tx.data?.refunds ?? [];
  const balance = toCents(order.balanceSummary.balance.amount) ?? 0;
  return (
    <div className="space-y-3">
      <ErrorAlert error={tx.error ?? capture.error} />
      {payments.length === 0 && !tx.isLoading && <p className="text-slate-600">No payments yet.</p>}
      <ul className="space-y-2">
        {payments.map((p) => (
          <li key={p._id} data-testid="payment" className="flex flex-wrap items-center gap-2">
            <span>{money(p.amount, order.currency)}</span>
            <span className="text-slate-600">{p.regularPaymentDetails?.paymentMethod ?? 'payment'} · {formatDate(p._createdDate)}</span>
            <StatusBadge value={p.status} />
            <span className="ml-auto flex gap-2">
              {p.status === 'AUTHORIZED' && (
                <>
                  <button type="button" className={secondaryButton} disabled={capture.isPending}
                    onClick={() => capture.mutate({ orderId: order._id, paymentId: p._id })}>Capture</button>
                  <ConfirmButton label="Void" title="Void payment" confirmLabel="Void payment"
                    message={`Release the ${money(p.amount, order.currency)} authorization? The customer is not charged.`}
                    onConfirm={() => voidPayment.mutateAsync({ orderId: order._id, paymentId: p._id })} />
                </>
              )}
              {(p.status === 'APPROVED' || p.status === 'PARTIALLY_REFUNDED') && refundableCents(p, refunds) > 0 && (
                <button type="button" className={secondaryButton} onClick={() => onRefund(p)}>Refund</button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {refunds.length > 0 && (
        <ul aria-label="Refunds" className="space-y-1 border-t border-slate-100 pt-2">
          {refunds.map((r) => (
            <li key={r._id} data-testid="refund">Refund {money(r.summary.requestedRefund, order.currency)} · {formatDate(r._createdDate)}{r.details.reason ? ` · ${r.details.reason}` : ''}</li>
          ))}
        </ul>
      )}
      {balance > 0 && order.status !== 'CANCELED' && <ManualPayment orderId={order._id} currency={order.currency} balanceCents={balance} />}
    </div>
  );
}

/** Records money the owner collected outside the store (cash, bank transfer); at most the balance. */
function ManualPayment({ orderId, currency, balanceCents }: { orderId: string; currency: string; balanceCents: number }) {
  const record = useLocked(useRecordManualPayment());
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(centsText(balanceCents));
  const balanceText = money({ amount: centsText(balanceCents) }, currency);
  const problem = amountProblem(amount, balanceCents, `At most the balance, ${balanceText}.`);
  const cents = problem ? undefined : toCents(amount);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (cents === undefined) return;
    await record.mutateAsync({ orderId, amount: { amount: centsText(cents) } });
    setOpen(false);
  };
  return (
    <>
      <button type="button" className={secondaryButton} onClick={() => setOpen(true)}>Record manual payment</button>
      {open && (
        <Modal title="Record manual payment" onClose={() => setOpen(false)}>
          <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="space-y-3">
            <TextField label={`Amount (at most ${balanceText})`} value={amount} inputMode="decimal" maxLength={20} onChange={(e) => setAmount(e.target.value)} />
            {problem && <p className="text-sm text-rose-700">{problem}</p>}
            <ErrorAlert error={record.error} />
            <button type="submit" className={primaryButton} disabled={cents === undefined || record.isPending}>Record payment</button>
          </form>
        </Modal>
      )}
    </>
  );
}
