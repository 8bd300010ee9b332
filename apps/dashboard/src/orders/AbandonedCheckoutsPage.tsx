import { useState } from 'react';
import { Link } from 'react-router';
import { useAbandonedCheckouts, useDeleteAbandonedCheckout } from '@vitrine/react';
import type { abandonedCheckouts } from '@vitrine/sdk/ecom';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, formatDate, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { money } from './model';

type Abandoned = abandonedCheckouts.AbandonedCheckout;
const STATUSES = ['ABANDONED', 'RECOVERED'] as const;

/** Checkouts buyers left idle: who, what, how much, whether recovered, and the link that brings them back. */
export function AbandonedCheckoutsPage() {
  const [status, setStatus] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const list = useAbandonedCheckouts(status, cursors[cursors.length - 1]);
  const remove = useDeleteAbandonedCheckout();
  const next = list.data?.pagingMetadata.cursors?.next;
  const columns: Column<Abandoned>[] = [
    { header: 'Abandoned', cell: (a) => formatDate(a._createdDate) },
    { header: 'Customer', cell: (a) => a.buyerInfo.email ?? 'unknown' },
    { header: 'Items', cell: (a) => a.lineItems.reduce((n, li) => n + li.quantity, 0) },
    { header: 'Total', cell: (a) => money(a.totalPrice) },
    { header: 'Status', cell: (a) => <StatusBadge value={a.status} /> },
    { header: 'Checkout link', cell: (a) => <a className="underline" href={a.checkoutUrl} target="_blank" rel="noreferrer">Open checkout</a> },
    { header: '', cell: (a) => (
      <ConfirmButton label="Delete" ariaLabel={`Delete abandoned checkout of ${a.buyerInfo.email ?? 'unknown customer'}`} title="Delete abandoned checkout"
        confirmLabel="Delete" message="Delete this abandoned checkout? The buyer's checkout itself stays." onConfirm={() => remove.mutateAsync(a._id)} />
    ) },
  ];
  return (
    <section>
      <Link to="/orders" className="text-sm text-slate-600 hover:underline">← Orders</Link>
      <PageHeader title="Abandoned checkouts">
        <SelectField label="Status" className="ml-auto" value={status} onChange={(e) => { setStatus(e.target.value); setCursors([]); }}>
          <option value="">Any status</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </SelectField>
      </PageHeader>
      <DataTable label="Abandoned checkouts" columns={columns} rows={list.data?.abandonedCheckouts} rowKey={(a) => a._id} rowTestId="abandoned-row"
        isLoading={list.isLoading} error={list.error ?? remove.error} empty="No abandoned checkouts." />
      <div className="mt-3 flex gap-2">
        <button type="button" className={secondaryButton} disabled={cursors.length === 0} onClick={() => setCursors([])}>First page</button>
        <button type="button" className={secondaryButton} disabled={!next} onClick={() => { if (next) setCursors((c) => [...c, next]); }}>Next</button>
      </div>
    </section>
  );
}
