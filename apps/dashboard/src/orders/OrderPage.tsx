import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useCancelOrder, useMarkOrderPaid, useOrder, useOrderTransactions } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton, ConfirmDialog } from '../components/ConfirmButton';
import { PageHeader, formatDate } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { EditOrder } from './EditOrder';
import { FulfillmentsPanel } from './FulfillmentsPanel';
import { PaymentsPanel } from './PaymentsPanel';
import { RefundDialog } from './RefundDialog';
import { TagsPanel } from './TagsPanel';
import { Timeline } from './Timeline';
import { centsText, deliveryText, descriptionText, money, recipientText, record, refundableCents, type Order, type Payment } from './model';
import { useLocked } from '../components/useLocked';

/** One order: items and totals, customer and addresses, payments, fulfillments, tags and its timeline, with every owner action. */
export function OrderPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);
  const tx = useOrderTransactions(orderId);
  const [refunding, setRefunding] = useState<Payment>();
  const o = order.data;
  const refunds = tx.data?.refunds ?? [];
  // What can still be refunded, payment by payment (cancelling a paid order offers to refund it first).
  const refundable = (tx.data?.payments ?? [])
    .filter((p) => p.status === 'APPROVED' || p.status === 'PARTIALLY_REFUNDED')
    .map((payment) => ({ payment, cents: refundableCents(payment, refunds) }))
    .filter((r) => r.cents > 0);
  return (
    <section>
      <Link to="/orders" className="text-sm text-slate-600 hover:underline">← Orders</Link>
      <PageHeader title={o ? `Order #${o.number}` : 'Order'}>
        {o && <OrderActions order={o} refundable={refundable} onRefund={setRefunding} />}
      </PageHeader>
      {order.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={order.error} />
      {o && (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="min-w-0 space-y-6">
            <Card title="Items"><Items order={o} /></Card>
            <Card title="Payments"><PaymentsPanel order={o} onRefund={setRefunding} /></Card>
            <Card title="Fulfillment"><FulfillmentsPanel order={o} /></Card>
            <Card title="Timeline"><Timeline order={o} /></Card>
          </div>
          <div className="min-w-0 space-y-6">
            <Card title="Status"><Statuses order={o} /></Card>
            <Card title="Customer"><Customer order={o} /></Card>
            <Card title="Tags"><TagsPanel order={o} /></Card>
          </div>
        </div>
      )}
      {o && refunding && <RefundDialog order={o} payment={refunding} maxCents={refundableCents(refunding, refunds)} onClose={() => setRefunding(undefined)} />}
    </section>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0 break-words rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

const row = (label: string, value: ReactNode) => <><dt className="text-slate-600">{label}</dt><dd>{value}</dd></>;

type Refundable = { payment: Payment; cents: number }[];

function OrderActions({ order, refundable, onRefund }: { order: Order; refundable: Refundable; onRefund: (payment: Payment) => void }) {
  const markPaid = useLocked(useMarkOrderPaid());
  const open = order.status !== 'CANCELED';
  return (
    <div className="ml-auto flex flex-wrap items-center gap-2">
      {open && order.paymentStatus === 'NOT_PAID' && (
        <ConfirmButton label="Mark as paid" title="Mark as paid" confirmLabel="Mark as paid" className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100"
          message={`Record order #${order.number} as paid in full (${money(order.priceSummary.total, order.currency)}) without charging the customer?`}
          onConfirm={() => markPaid.mutateAsync(order._id)} />
      )}
      {open && order.paymentStatus !== 'FULLY_REFUNDED' && <EditOrder order={order} />}
      {open && <CancelOrder order={order} refundable={refundable} onRefund={onRefund} />}
    </div>
  );
}

/**
 * Cancel with restock and e-mail. Cancelling refunds nothing, so for a paid order the dialog says so
 * and offers the refund first ("Refund … first" opens the refund dialog of the first refundable payment).
 */
function CancelOrder({ order, refundable, onRefund }: { order: Order; refundable: Refundable; onRefund: (payment: Payment) => void }) {
  const cancel = useLocked(useCancelOrder());
  const [asking, setAsking] = useState(false);
  const paidCents = refundable.reduce((sum, r) => sum + r.cents, 0);
  const paid = money({ amount: centsText(paidCents) }, order.currency);
  const first = refundable[0];
  return (
    <>
      <button type="button" onClick={() => setAsking(true)} className="rounded border border-rose-300 px-2 py-1 text-xs text-rose-700 hover:bg-rose-50">Cancel order</button>
      {asking && (
        <ConfirmDialog title="Cancel order" confirmLabel={first ? 'Cancel without refunding' : 'Cancel order and restock'} onClose={() => setAsking(false)}
          onConfirm={() => cancel.mutateAsync({ _id: order._id, restock: true, sendEmail: true })}
          message={(
            <>
              <p>Cancel order #{order.number}? Its items go back into stock and the customer gets an e-mail.</p>
              {first && (
                <div data-testid="cancel-refund-warning" className="mt-3 space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-amber-950">
                  <p><strong>Cancelling does not refund the customer.</strong> {paid} paid for this order stays with the store until you refund it.</p>
                  <button type="button" className="rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white" onClick={() => { setAsking(false); onRefund(first.payment); }}>
                    Refund first
                  </button>
                </div>
              )}
            </>
          )} />
      )}
    </>
  );
}

function Statuses({ order }: { order: Order }) {
  return (
    <dl data-testid="order-detail" className="grid grid-cols-[7rem_1fr] gap-x-4 gap-y-1">
      {row('Status', <StatusBadge value={order.status} />)}
      {row('Payment', <StatusBadge value={order.paymentStatus} />)}
      {row('Fulfillment', <StatusBadge value={order.fulfillmentStatus} />)}
      {row('Placed', formatDate(order._createdDate))}
      {row('Channel', order.channelInfo.type)}
    </dl>
  );
}

function Items({ order }: { order: Order }) {
  const s = order.priceSummary;
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full" aria-label="Items">
          <thead><tr className="text-left text-slate-600"><th className="font-normal">Item</th><th className="font-normal">Qty</th><th className="font-normal">Price</th><th className="font-normal">Total</th></tr></thead>
          <tbody>
            {order.lineItems.map((li) => {
              const choices = descriptionText(li.descriptionLines);
              const sku = li.physicalProperties?.sku;
              return (
                <tr key={li._id} data-testid="order-item" className="align-top">
                  <td className="py-1 pr-3">
                    {li.productName.original}
                    {li.digitalFile && (
                      <a className="ml-2 text-xs underline" href={li.digitalFile.link} data-testid="order-item-download" title={`Buyer's link, valid until ${formatDate(li.digitalFile.expirationDate)}`}>file</a>
                    )}
                    {choices && <span data-testid="order-item-choices" className="block text-xs text-slate-600">{choices}</span>}
                    {sku && <span data-testid="order-item-sku" className="block text-xs text-slate-600">SKU {sku}</span>}
                  </td><td className="py-1 pr-3">{li.quantity}</td><td className="py-1 pr-3">{money(li.price, order.currency)}</td>
                  <td className="py-1">{li.totalPriceAfterTax ? money(li.totalPriceAfterTax, order.currency) : ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <dl data-testid="order-totals" className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 border-t border-slate-100 pt-3">
        {row('Subtotal', money(s.subtotal, order.currency))}
        {row('Shipping', money(s.shipping, order.currency))}
        {row('Tax', money(s.tax, order.currency))}
        {row('Discount', money(s.discount, order.currency))}
        {row('Total', <strong>{money(s.total, order.currency)}</strong>)}
        {row('Paid', money(order.balanceSummary.paid, order.currency))}
        {row('Refunded', money(order.balanceSummary.refunded, order.currency))}
        {row('Balance', money(order.balanceSummary.balance, order.currency))}
      </dl>
    </>
  );
}

function Customer({ order }: { order: Order }) {
  const shipping = addressOf(order.shippingInfo);
  const billing = addressOf(order.billingInfo);
  return (
    <dl className="grid grid-cols-[5rem_minmax(0,1fr)] gap-x-4 gap-y-1">
      {row('E-mail', order.buyerInfo.email ?? '—')}
      {row('Member', order.buyerInfo.memberId ? <Link className="underline" to={`/members?member=${encodeURIComponent(order.buyerInfo.memberId)}`}>Profile</Link> : 'Visitor')}
      {row('Recipient', <span data-testid="order-recipient">{recipientText(order) ?? '—'}</span>)}
      {row('Ship to', shipping ?? '—')}
      {row('Delivery', <span data-testid="order-delivery">{deliveryText(order) ?? '—'}</span>)}
      {row('Bill to', billing ?? '—')}
    </dl>
  );
}

/** One line of an address from the order's billing info (`address`) or shipping info (`logistics.shippingDestination.address`). */
function addressOf(info: Order['billingInfo']): string | undefined {
  const shipping = record(record(record(info).logistics).shippingDestination).address;
  const address = record(record(info).address ?? shipping);
  const parts = ['addressLine1', 'addressLine', 'city', 'postalCode', 'country'].map((k) => address[k]).filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? parts.join(', ') : undefined;
}
