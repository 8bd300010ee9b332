import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useLowStock, useNewMembers, useOrderAggregate, useOrders, type NewMembers } from '@vitrine/react';
import type { orders } from '@vitrine/sdk/ecom';
import type { products } from '@vitrine/sdk/stores';
import { ErrorAlert } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, formatDate } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { ownerTimeZone } from '../lib/time';
import { CHART_DAYS, COUNTED_STATUSES, countPerDay, dailySeries, fromMinor, startOfLocalDay, totals, utcDays } from './series';
import { TimeChart } from './TimeChart';

/** Variants with this many units or fewer are listed as low on stock. */
export const LOW_STOCK_THRESHOLD = 5;
/** Rows of the low-stock and recent-orders lists. */
const LIST_ROWS = 8;
const COUNTED = { status: { $in: [...COUNTED_STATUSES] } };

const countText = (n: number) => String(n);

/**
 * The landing page: today's figures (from the owner's local midnight), sales, orders and new members
 * over the last CHART_DAYS days, variants running low, and the latest orders.
 */
export function OverviewPage() {
  // Fixed for the page's life so the query keys stay stable; the hooks refetch on their own timer.
  const [now] = useState(() => new Date());
  const dayStart = useMemo(() => startOfLocalDay(now), [now]);
  const days = useMemo(() => utcDays(now), [now]);
  const today = useOrderAggregate({ sum: ['total'] }, { ...COUNTED, createdDate: { $gte: dayStart.toISOString() } });
  const perDay = useOrderAggregate({ groupBy: ['day'], sum: ['total'] }, { ...COUNTED, createdDate: { $gte: `${days[0]}T00:00:00.000Z` } });
  const members = useNewMembers(new Date(`${days[0]}T00:00:00.000Z`));

  const todays = today.data ? totals(today.data) : undefined;
  const series = useMemo(() => dailySeries(perDay.data ?? [], days), [perDay.data, days]);
  const memberCounts = useMemo(() => countPerDay(members.data?.createdDates ?? [], days), [members.data, days]);
  // The chart draws major units (its axis reads 75, not 7500); the text rounds back to exact cents.
  const sales = useMemo(() => series.sales.map((minor) => minor / 100), [series.sales]);
  const salesText = useMemo(() => (major: number) => `${fromMinor(Math.round(major * 100))}${series.currency ? ` ${series.currency}` : ''}`, [series.currency]);
  const todaySales = todays ? [...todays.sales.entries()].map(([currency, minor]) => `${fromMinor(minor)} ${currency}`).join(' + ') || '0.00' : '…';

  return (
    <section className="space-y-8">
      <PageHeader title="Overview" />
      <p className="text-sm text-slate-600">
        Today is counted from midnight in your time zone, {ownerTimeZone()}. The charts cover the last {CHART_DAYS} days by UTC date.
        Canceled and rejected orders are not counted.
      </p>
      <section aria-labelledby="today">
        <h2 id="today" className="mb-3 text-lg font-semibold">Today</h2>
        <ErrorAlert error={today.error ?? members.error} />
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Figure label="Orders today" testId="today-orders" value={todays ? String(todays.count) : '…'} />
          <Figure label="Sales today" testId="today-sales" value={todaySales} />
          <Figure label="New members today" testId="today-members" value={members.data ? String(newToday(members.data, dayStart)) : '…'} />
        </dl>
      </section>
      <section aria-label="Charts" className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <ErrorAlert error={perDay.error} />
        <TimeChart title="Sales" labels={days} values={sales} format={salesText} dayHeader="Day (UTC)" />
        <TimeChart title="Orders" labels={days} values={series.orders} format={countText} dayHeader="Day (UTC)" />
        <TimeChart title="New members" labels={days} values={memberCounts} format={countText} dayHeader="Day (UTC)" />
      </section>
      {members.data?.truncated && <p className="text-xs text-slate-600">New members: only the first {members.data.createdDates.length} of this period are counted.</p>}
      <div className="grid grid-cols-1 gap-8 xl:grid-cols-2">
        <LowStock />
        <RecentOrders />
      </div>
    </section>
  );
}

function newToday(data: NewMembers, dayStart: Date): number {
  return data.createdDates.filter((d) => d >= dayStart).length;
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd data-testid={testId} className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function LowStock() {
  const low = useLowStock(LOW_STOCK_THRESHOLD, LIST_ROWS);
  const columns: Column<products.StoreVariant>[] = [
    { header: 'Product', cell: (v) => v.productName },
    { header: 'Variant', cell: (v) => (v.managedVariant ? v.variantName : '—') },
    { header: 'Left', cell: (v) => v.stock.quantity ?? 0, className: 'text-right tabular-nums' },
  ];
  return (
    <section aria-labelledby="low-stock" className="space-y-3">
      <h2 id="low-stock" className="text-lg font-semibold">Low on stock</h2>
      <p className="text-xs text-slate-600">Variants that track quantity and have {LOW_STOCK_THRESHOLD} or fewer left.</p>
      <DataTable label="Low on stock" columns={columns} rows={low.data} rowKey={(v) => v._id} rowTestId="low-stock-row" isLoading={low.isLoading} error={low.error} empty="Nothing is running low." />
      <Link to="/products" className="text-sm underline">All products</Link>
    </section>
  );
}

function RecentOrders() {
  const recent = useOrders({ sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: LIST_ROWS } });
  const columns: Column<orders.Order>[] = [
    { header: 'Order', cell: (o) => `#${o.number}` },
    { header: 'Placed', cell: (o) => formatDate(o._createdDate) },
    { header: 'Customer', cell: (o) => o.buyerInfo.email ?? '—' },
    { header: 'Status', cell: (o) => <StatusBadge value={o.status} /> },
    { header: 'Payment', cell: (o) => <StatusBadge value={o.paymentStatus} /> },
    { header: 'Total', cell: (o) => o.priceSummary.total.formattedAmount ?? o.priceSummary.total.amount, className: 'text-right tabular-nums' },
  ];
  return (
    <section aria-labelledby="recent-orders" className="space-y-3">
      <h2 id="recent-orders" className="text-lg font-semibold">Recent orders</h2>
      <DataTable label="Recent orders" columns={columns} rows={recent.data?.orders} rowKey={(o) => o._id} rowTestId="recent-order-row" isLoading={recent.isLoading} error={recent.error} empty="No orders yet." />
      <Link to="/orders" className="text-sm underline">All orders</Link>
    </section>
  );
}
