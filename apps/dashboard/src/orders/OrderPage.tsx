import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useCancelOrder, useMarkOrderPaid, useOrder } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { PageHeader, formatDate } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { EditOrder } from './EditOrder';
import { FulfillmentsPanel } from './FulfillmentsPanel';
import { PaymentsPanel } from './PaymentsPanel';
import { TagsPanel } from './TagsPanel';
import { Timeline } from './Timeline';
import { money, record, type Order } from './model';

/** One order: items and totals, customer and addresses, payments, fulfillments, tags and its timeline, with every owner action. */
export function OrderPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);
  const o = order.data;
  return (
    <section>
      <Link to="/orders" className="text-sm text-slate-600 hover:underline">← Orders</Link>
      <PageHeader title={o ? `Order #${o.number}` : 'Order'}>
        {o && <OrderActions order={o} />}
      </PageHeader>
      {order.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={order.error} />
      {o && (
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <div className="space-y-6">
            <Card title="Items"><Items order={o} /></Card>
            <Card title="Payments"><PaymentsPanel order={o} /></Card>
            <Card title="Fulfillment"><FulfillmentsPanel order={o} /></Card>
            <Card title="Timeline"><Timeline order={o} /></Card>
          </div>
          <div className="space-y-6">
            <Card title="Status"><Statuses order={o} /></Card>
            <Card title="Customer"><Customer order={o} /></Card>
            <Card title="Tags"><TagsPanel order={o} /></Card>
          </div>
        </div>
      )}
    </section>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

const row = (label: string, value: ReactNode) => <><dt className="text-slate-600">{label}</dt><dd>{value}</dd></>;

function OrderActions({ order }: { order: Order }) {
  const markPaid = useMarkOrderPaid();
  const cancel = useCancelOrder();
  const open = order.status !== 'CANCELED';
  return (
    <div className="ml-auto flex flex-wrap items-center gap-2">
      {open && order.paymentStatus === 'NOT_PAID' && (
        <ConfirmButton label="Mark as paid" title="Mark as paid" confirmLabel="Mark as paid" className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100"
          message={`Record order #${order.number} as paid in full (${money(order.priceSummary.total)}) without charging the customer?`}
          onConfirm={() => markPaid.mutateAsync(order._id)} />
      )}
      {open && order.paymentStatus !== 'FULLY_REFUNDED' && <EditOrder order={order} />}
      {open && (
        <ConfirmButton label="Cancel order" title="Cancel order" confirmLabel="Cancel order and restock"
          message={`Cancel order #${order.number}? Its items go back into stock and the customer gets an e-mail.`}
          onConfirm={() => cancel.mutateAsync({ _id: order._id, restock: true, sendEmail: true })} />
      )}
    </div>
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
      <table className="w-full" aria-label="Items">
        <thead><tr className="text-left text-slate-600"><th className="font-normal">Item</th><th className="font-normal">Qty</th><th className="font-normal">Price</th><th className="font-normal">Total</th></tr></thead>
        <tbody>
          {order.lineItems.map((li) => (
            <tr key={li._id} data-testid="order-item">
              <td>
                {li.productName.original}
                {li.digitalFile && (
                  <a className="ml-2 text-xs underline" href={li.digitalFile.link} data-testid="order-item-download" title={`Buyer's link, valid until ${li.digitalFile.expirationDate.toLocaleString()}`}>file</a>
                )}
              </td><td>{li.quantity}</td><td>{money(li.price)}</td><td>{li.totalPriceAfterTax ? money(li.totalPriceAfterTax) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl data-testid="order-totals" className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 border-t border-slate-100 pt-3">
        {row('Subtotal', money(s.subtotal))}
        {row('Shipping', money(s.shipping))}
        {row('Tax', money(s.tax))}
        {row('Discount', money(s.discount))}
        {row('Total', <strong>{money(s.total)}</strong>)}
        {row('Paid', money(order.balanceSummary.paid))}
        {row('Refunded', money(order.balanceSummary.refunded))}
        {row('Balance', money(order.balanceSummary.balance))}
      </dl>
    </>
  );
}

function Customer({ order }: { order: Order }) {
  const shipping = addressOf(order.shippingInfo);
  const billing = addressOf(order.billingInfo);
  return (
    <dl className="grid grid-cols-[5rem_1fr] gap-x-4 gap-y-1">
      {row('E-mail', order.buyerInfo.email ?? '—')}
      {row('Member', order.buyerInfo.memberId ? <Link className="underline" to={`/members?member=${encodeURIComponent(order.buyerInfo.memberId)}`}>Profile</Link> : 'Visitor')}
      {row('Ship to', shipping ?? '—')}
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
