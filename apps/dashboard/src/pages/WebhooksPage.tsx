import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useCreateWebhookSubscription, useDeleteWebhookSubscription, useUpdateWebhookSubscription, useWebhookSubscriptions } from '@vitrine/react';
import { formatEventType, parseEventTypes, type Subscription } from '../lib/events';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';

const PAGE_SIZE = 25;

/** Webhook subscriptions: the server keeps at most 100 per site and answers them all; we page locally. */
export function WebhooksPage() {
  const [offset, setOffset] = useState(0);
  const subs = useWebhookSubscriptions();
  const toggle = useUpdateWebhookSubscription();
  const flip = (s: Subscription) => toggle.mutate({ _id: s._id, subscription: { status: s.status === 'ACTIVE' ? 'DISABLED' : 'ACTIVE' } });
  const remove = useDeleteWebhookSubscription();
  const columns: Column<Subscription>[] = [
    { header: 'URL', cell: (s) => <span className="break-all font-mono text-xs">{s.url}</span> },
    { header: 'Events', cell: (s) => <ul className="font-mono text-xs">{s.eventTypes.map((t) => <li key={formatEventType(t)}>{formatEventType(t)}</li>)}</ul> },
    { header: 'Status', cell: (s) => <><StatusBadge value={s.status} />{s.disabledReason ? <span className="ml-1 text-xs text-slate-500">{s.disabledReason}</span> : null}</> },
    { header: 'Secret', cell: (s) => <span className="font-mono text-xs">{s.secretHint}</span> },
    { header: 'Failures', cell: (s) => s.failureStreak },
    { header: 'Created', cell: (s) => formatDate(s._createdDate) },
    {
      header: 'Actions',
      cell: (s) => (
        <div className="flex flex-wrap gap-1">
          <Link to={`/webhooks/${s._id}`} aria-label={`Deliveries of ${s.url}`} className={secondaryButton}>Deliveries</Link>
          <button type="button" aria-label={`${s.status === 'ACTIVE' ? 'Disable' : 'Enable'} ${s.url}`} disabled={toggle.isPending} onClick={() => flip(s)} className={secondaryButton}>
            {s.status === 'ACTIVE' ? 'Disable' : 'Enable'}
          </button>
          <ConfirmButton label="Delete" ariaLabel={`Delete ${s.url}`} title="Delete subscription" confirmLabel="Delete subscription"
            message={`Delete the subscription to ${s.url}? Its pending deliveries are canceled.`} onConfirm={() => remove.mutateAsync(s._id)} />
        </div>
      ),
    },
  ];
  const rows = subs.data?.slice(offset, offset + PAGE_SIZE);
  return (
    <section>
      <PageHeader title="Webhooks" />
      <CreateSubscription />
      <div className="mt-6">
        <ErrorAlert error={toggle.error} />
        <DataTable label="Subscriptions" columns={columns} rows={rows} rowKey={(s) => s._id} rowTestId="subscription-row"
          isLoading={subs.isLoading} error={subs.error} empty="No webhook subscriptions yet." />
        {subs.data && <Pager offset={offset} limit={PAGE_SIZE} count={rows?.length ?? 0} total={subs.data.length} onChange={setOffset} />}
      </div>
    </section>
  );
}

function CreateSubscription() {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<string>();
  const create = useCreateWebhookSubscription();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(undefined);
    create.mutate({ url: url.trim(), eventTypes: parseEventTypes(events), ...(description.trim() ? { description: description.trim() } : {}) }, {
      onSuccess: (res) => {
        setSecret(res.secret);
        setUrl('');
        setEvents('');
        setDescription('');
      },
    });
  };
  return (
    <div className="space-y-3">
      <form onSubmit={submit} aria-label="New subscription" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Endpoint URL" required type="url" placeholder="https://example.com/hooks" value={url} onChange={(e) => setUrl(e.target.value)} className="min-w-72 flex-1" />
        <TextField label="Event types" required placeholder="wix.members.v1.member/created, wix.ecom.v1.order/*" value={events} onChange={(e) => setEvents(e.target.value)} className="min-w-72 flex-1" />
        <TextField label="Description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        <button disabled={create.isPending} className={primaryButton}>Create subscription</button>
        <div className="basis-full"><ErrorAlert error={create.error} /></div>
      </form>
      {secret && (
        <div role="status" aria-label="Signing secret" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-medium">Signing secret — copy it now, it is shown only once.</p>
          <code data-testid="webhook-secret" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs">{secret}</code>
          <div className="mt-2 flex gap-2">
            <button type="button" className={secondaryButton} onClick={() => { void navigator.clipboard?.writeText(secret); }}>Copy</button>
            <button type="button" className={secondaryButton} onClick={() => setSecret(undefined)}>I have saved it</button>
          </div>
        </div>
      )}
    </div>
  );
}
