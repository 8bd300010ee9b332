import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useRedeliver, useWebhookDeliveries, useWebhookSubscription } from '@vitrine/react';
import { DELIVERY_STATUSES, LOG_PAGE_SIZE, type Delivery, type DeliveryStatus } from '../lib/events';
import { ErrorAlert, Notice } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, formatDate, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';
import { DeliveryDrawer } from './DeliveryDrawer';
import { useLocked } from '../components/useLocked';

/** The delivery log of one subscription, newest first; finished deliveries can be sent again. */
export function DeliveriesPage() {
  const { subscriptionId = '' } = useParams();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const sub = useWebhookSubscription(subscriptionId);
  const deliveries = useWebhookDeliveries(subscriptionId, {
    ...(status ? { status } : {}), offset, limit: LOG_PAGE_SIZE, keepPrevious: true,
    // Pending deliveries change on their own while the worker retries them.
    refetchInterval: (page) => (page?.deliveries.some((d) => d.status === 'PENDING') ? 2_000 : false),
  });
  const again = useLocked(useRedeliver());
  const columns: Column<Delivery>[] = [
    {
      header: 'Event',
      cell: (d) => <button type="button" aria-label={`Attempts of ${d._id}`} onClick={() => setOpenId(d._id)} className="text-left font-mono text-xs hover:underline">{d.entityFqdn}/{d.slug}</button>,
    },
    { header: 'Entity', cell: (d) => <span className="font-mono text-xs">{d.entityId}</span> },
    { header: 'Status', cell: (d) => <><StatusBadge value={d.status} />{d.redeliveryOf ? <span className="ml-1 text-xs text-slate-500">redelivery</span> : null}</> },
    { header: 'Attempts', cell: (d) => d.attemptCount },
    { header: 'Last answer', cell: (d) => <span className="text-xs">{d.lastStatusCode ?? ''}{d.lastError ? ` ${d.lastError}` : ''}</span> },
    { header: 'Created', cell: (d) => formatDate(d._createdDate) },
    {
      header: 'Actions',
      cell: (d) => d.status === 'PENDING'
        ? <span className="text-xs text-slate-500">next {formatDate(d.nextAttemptDate)}</span>
        : <button type="button" aria-label={`Redeliver ${d._id}`} disabled={again.isPending} onClick={() => again.mutate(d._id)} className={secondaryButton}>Redeliver</button>,
    },
  ];
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/webhooks" className="text-slate-500 hover:underline">← Webhooks</Link></p>
      <PageHeader title="Delivery log">
        <span className="break-all font-mono text-xs text-slate-500">{sub.data?.url}</span>
        <div className="ml-auto">
          <SelectField label="Delivery status" value={status} onChange={(e) => { setStatus(e.target.value as DeliveryStatus | ''); setOffset(0); }}>
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
        </div>
      </PageHeader>
      <ErrorAlert error={sub.error} />
      <ErrorAlert error={again.error} />
      {again.isSuccess && <Notice>Redelivery queued.</Notice>}
      <div className="mt-3">
        <DataTable label="Deliveries" columns={columns} rows={deliveries.data?.deliveries} rowKey={(d) => d._id} rowTestId="delivery-row"
          isLoading={deliveries.isLoading} error={deliveries.error} empty="No deliveries yet." />
        {deliveries.data && <Pager offset={offset} limit={LOG_PAGE_SIZE} count={deliveries.data.deliveries.length} total={deliveries.data.metadata.total} onChange={setOffset} />}
      </div>
      {openId && <DeliveryDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}
