import { useState, type ReactNode } from 'react';
import { useCancelOrder, useOrder, useOrders } from '@vitrine/react';
import type { orders } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { Drawer } from '../components/Modal';
import { PageHeader, SelectField, formatDate, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';

type Order = orders.Order;
const PAGE_SIZE = 25;
const PAYMENT_STATUSES = ['NOT_PAID', 'PAID', 'PARTIALLY_PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'CANCELED'] as const;
const FULFILLMENT_STATUSES = ['NOT_FULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const;

/** Orders, newest first, filtered by payment and fulfillment status; cursor paging (Next / first page). */
export function OrdersPage() {
  const [payment, setPayment] = useState('');
  const [fulfillment, setFulfillment] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [openId, setOpenId] = useState<string>();
  const filter = { ...(payment ? { paymentStatus: payment } : {}), ...(fulfillment ? { fulfillmentStatus: fulfillment } : {}) };
  const cursor = cursors[cursors.length - 1];
  const list = useOrders({ filter, sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } });
  const reset = () => setCursors([]);
  const columns: Column<Order>[] = [
    { header: 'Order', cell: (o) => <button type="button" onClick={() => setOpenId(o._id)} className="font-medium hover:underline">#{o.number}</button> },
    { header: 'Placed', cell: (o) => formatDate(o._createdDate) },
    { header: 'Customer', cell: (o) => o.buyerInfo.email ?? '—' },
    { header: 'Payment', cell: (o) => <StatusBadge value={o.paymentStatus} /> },
    { header: 'Fulfillment', cell: (o) => <StatusBadge value={o.fulfillmentStatus} /> },
    { header: 'Total', cell: (o) => o.priceSummary.total.formattedAmount ?? o.priceSummary.total.amount },
  ];
  return (
    <section>
      <PageHeader title="Orders">
        <div className="ml-auto flex items-end gap-3">
          <SelectField label="Payment" value={payment} onChange={(e) => { setPayment(e.target.value); reset(); }}>
            <option value="">Any payment</option>
            {PAYMENT_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
          <SelectField label="Fulfillment" value={fulfillment} onChange={(e) => { setFulfillment(e.target.value); reset(); }}>
            <option value="">Any fulfillment</option>
            {FULFILLMENT_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
        </div>
      </PageHeader>
      <DataTable label="Orders" columns={columns} rows={list.data?.orders} rowKey={(o) => o._id} rowTestId="order-row"
        isLoading={list.isLoading} error={list.error} empty={payment || fulfillment ? 'No order matches.' : 'No orders yet.'} />
      <div className="mt-3 flex gap-2">
        <button type="button" className={secondaryButton} disabled={cursors.length === 0} onClick={reset}>First page</button>
        <button type="button" className={secondaryButton} disabled={!list.data?.metadata.hasNext}
          onClick={() => { const next = list.data?.metadata.cursors.next; if (next) setCursors((c) => [...c, next]); }}>Next</button>
      </div>
      {openId && <OrderDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}

function OrderDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const order = useOrder(id);
  const cancel = useCancelOrder();
  const o = order.data;
  const row = (label: string, value: ReactNode) => <><dt className="text-slate-500">{label}</dt><dd>{value}</dd></>;
  const money = (p: { amount: string; formattedAmount?: string }) => p.formattedAmount ?? p.amount;
  return (
    <Drawer title={o ? `Order #${o.number}` : 'Order'} onClose={onClose}>
      {order.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={order.error} />
      {o && (
        <div className="space-y-6 text-sm">
          <dl data-testid="order-detail" className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1">
            {row('Status', <StatusBadge value={o.status} />)}
            {row('Payment', <StatusBadge value={o.paymentStatus} />)}
            {row('Fulfillment', <StatusBadge value={o.fulfillmentStatus} />)}
            {row('Customer', o.buyerInfo.email ?? '—')}
            {row('Placed', formatDate(o._createdDate))}
          </dl>
          <table className="w-full" aria-label="Items">
            <thead><tr className="text-left text-slate-600"><th className="font-normal">Item</th><th className="font-normal">Qty</th><th className="font-normal">Price</th></tr></thead>
            <tbody>{o.lineItems.map((li) => <tr key={li._id} data-testid="order-item"><td>{li.productName.original}</td><td>{li.quantity}</td><td>{money(li.price)}</td></tr>)}</tbody>
          </table>
          <dl data-testid="order-totals" className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1">
            {row('Subtotal', money(o.priceSummary.subtotal))}
            {row('Shipping', money(o.priceSummary.shipping))}
            {row('Tax', money(o.priceSummary.tax))}
            {row('Discount', money(o.priceSummary.discount))}
            {row('Total', money(o.priceSummary.total))}
          </dl>
          <section aria-label="Activity">
            <h3 className="mb-1 font-medium">Activity</h3>
            <ol className="space-y-1">
              {(o.activities ?? []).map((a) => <li key={a._id} data-testid="order-activity">{formatDate(a._createdDate)} · {a.type}{a.merchantComment ? `: ${a.merchantComment.message}` : ''}</li>)}
            </ol>
          </section>
          {o.status !== 'CANCELED' && (
            <ConfirmButton label="Cancel order" title="Cancel order" confirmLabel="Cancel order and restock"
              message={`Cancel order #${o.number}? Its items go back into stock and the customer gets an e-mail.`}
              onConfirm={() => cancel.mutateAsync({ _id: o._id, restock: true, sendEmail: true })} />
          )}
        </div>
      )}
    </Drawer>
  );
}
