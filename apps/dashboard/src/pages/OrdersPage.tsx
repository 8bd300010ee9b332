import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useOrders } from '@vitrine/react';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, TextField, formatDate, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { useDebounced } from '../components/useDebounced';
import { money, type Order } from '../orders/model';

const PAGE_SIZE = 25;
const PAYMENT_STATUSES = ['NOT_PAID', 'PAID', 'PARTIALLY_PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'CANCELED'] as const;
const FULFILLMENT_STATUSES = ['NOT_FULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const;

interface Filters { payment: string; fulfillment: string; from: string; to: string; tag: string; search: string }
const FILTER_KEYS = ['search', 'payment', 'fulfillment', 'from', 'to', 'tag'] as const satisfies readonly (keyof Filters)[];

/** The filters live in the address (`?payment=PAID&search=10003`): a reload or a shared link keeps them. */
function filtersOf(params: URLSearchParams): Filters {
  return { payment: '', fulfillment: '', from: '', to: '', tag: '', search: '', ...Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) };
}

/**
 * The search filter: an order number when the text is digits (a leading # allowed), else the start of the buyer's e-mail;
 * dates are whole days in the owner's timezone.
 */
function orderFilter(f: Filters): Record<string, unknown> {
  // "#10003" is how the dashboard prints an order number: the # is not part of it.
  const search = f.search.trim().replace(/^#\s*/, '');
  const day = (date: string, end: boolean) => new Date(`${date}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString();
  return {
    ...(f.payment ? { paymentStatus: f.payment } : {}),
    ...(f.fulfillment ? { fulfillmentStatus: f.fulfillment } : {}),
    ...(f.from || f.to ? { createdDate: { ...(f.from ? { $gte: day(f.from, false) } : {}), ...(f.to ? { $lte: day(f.to, true) } : {}) } } : {}),
    ...(f.tag.trim() ? { 'tags.tags.tagIds': { $hasSome: [f.tag.trim()] } } : {}),
    ...(/^\d+$/.test(search) ? { number: search } : search ? { 'buyerInfo.email': { $startsWith: search } } : {}),
  };
}

/** Orders, newest first: search by number or e-mail, filter by payment, fulfillment, dates and tag; cursor paging. */
export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const [cursors, setCursors] = useState<string[]>([]);
  // Debounced as text: a fresh Filters object every render would restart the timer for ever.
  const debounced = filtersOf(new URLSearchParams(useDebounced(params.toString())));
  const filter = orderFilter(debounced);
  const cursor = cursors[cursors.length - 1];
  const list = useOrders({ filter, sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } });
  const set = (key: keyof Filters) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setParams((p) => { const next = new URLSearchParams(p); if (value) next.set(key, value); else next.delete(key); return next; }, { replace: true });
    setCursors([]);
  };
  const columns: Column<Order>[] = [
    { header: 'Order', cell: (o) => <Link to={`/orders/${o._id}`} className="font-medium hover:underline">#{o.number}</Link> },
    { header: 'Placed', cell: (o) => formatDate(o._createdDate) },
    { header: 'Customer', cell: (o) => o.buyerInfo.email ?? '—' },
    { header: 'Payment', cell: (o) => <StatusBadge value={o.paymentStatus} /> },
    { header: 'Fulfillment', cell: (o) => <StatusBadge value={o.fulfillmentStatus} /> },
    { header: 'Tags', cell: (o) => (o.tags.tags?.tagIds ?? []).join(', ') },
    { header: 'Total', cell: (o) => money(o.priceSummary.total) },
  ];
  const filtered = Object.keys(filter).length > 0;
  return (
    <section>
      <PageHeader title="Orders">
        <Link to="/orders/abandoned" className="ml-auto text-sm underline">Abandoned checkouts</Link>
      </PageHeader>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <TextField label="Search" type="search" placeholder="Number or e-mail" value={filters.search} maxLength={100} onChange={set('search')} />
        <SelectField label="Payment" value={filters.payment} onChange={set('payment')}>
          <option value="">Any payment</option>
          {PAYMENT_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </SelectField>
        <SelectField label="Fulfillment" value={filters.fulfillment} onChange={set('fulfillment')}>
          <option value="">Any fulfillment</option>
          {FULFILLMENT_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </SelectField>
        <TextField label="Placed from" type="date" value={filters.from} onChange={set('from')} />
        <TextField label="Placed to" type="date" value={filters.to} onChange={set('to')} />
        <TextField label="Tag" value={filters.tag} maxLength={100} onChange={set('tag')} />
      </div>
      <DataTable label="Orders" columns={columns} rows={list.data?.orders} rowKey={(o) => o._id} rowTestId="order-row"
        isLoading={list.isLoading} error={list.error} empty={filtered ? 'No order matches.' : 'No orders yet.'} />
      <div className="mt-3 flex gap-2">
        <button type="button" className={secondaryButton} disabled={cursors.length === 0} onClick={() => setCursors([])}>First page</button>
        <button type="button" className={secondaryButton} disabled={!list.data?.metadata.hasNext}
          onClick={() => { const next = list.data?.metadata.cursors.next; if (next) setCursors((c) => [...c, next]); }}>Next</button>
      </div>
    </section>
  );
}
