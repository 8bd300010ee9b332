import { useWebhookDelivery } from '@vitrine/react';
import type { DeliveryAttempt } from '../lib/events';
import { ErrorAlert } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { formatDate } from '../components/Form';
import { Drawer } from '../components/Modal';
import { StatusBadge } from '../components/StatusBadge';

/** One delivery with every attempt and what the receiver answered (to debug a failing endpoint). */
export function DeliveryDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const delivery = useWebhookDelivery(id);
  const d = delivery.data;
  const columns: Column<DeliveryAttempt>[] = [
    { header: '#', cell: (a) => a.attempt },
    { header: 'Started', cell: (a) => formatDate(a.startedDate) },
    { header: 'Duration', cell: (a) => `${a.durationMs} ms` },
    { header: 'Status', cell: (a) => a.statusCode ?? '—' },
    { header: 'Answer', cell: (a) => <span className="break-all font-mono text-xs">{a.error ?? a.responseExcerpt ?? ''}</span> },
  ];
  return (
    <Drawer title="Delivery" onClose={onClose}>
      <ErrorAlert error={delivery.error} />
      {d && (
        <dl className="mb-4 grid grid-cols-[7rem_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Event</dt><dd className="font-mono text-xs">{d.entityFqdn}/{d.slug}</dd>
          <dt className="text-slate-500">Event id</dt><dd className="font-mono text-xs">{d.eventId}</dd>
          <dt className="text-slate-500">Entity</dt><dd className="font-mono text-xs">{d.entityId}</dd>
          <dt className="text-slate-500">Status</dt><dd><StatusBadge value={d.status} /></dd>
          <dt className="text-slate-500">Give up after</dt><dd>{formatDate(d.giveUpAfter)}</dd>
        </dl>
      )}
      <DataTable label="Attempts" columns={columns} rows={d?.attempts} rowKey={(a) => String(a.attempt)} rowTestId="attempt-row"
        isLoading={delivery.isLoading} error={undefined} empty="Not attempted yet." />
    </Drawer>
  );
}
