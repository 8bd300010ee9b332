import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useCreateWebhookSubscription, useDeleteWebhookSubscription, useUpdateWebhookSubscription, useWebhookEventTypes, useWebhookSubscriptions } from '@vitrine/react';
import { formatEventType, type EventType, type Subscription } from '../lib/events';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 25;

/** Webhook subscriptions: the server keeps at most 100 per site and answers them all; we page locally. */
export function WebhooksPage() {
  const [offset, setOffset] = useState(0);
  const subs = useWebhookSubscriptions();
  const toggle = useUpdateWebhookSubscription();
  const setStatus = (s: Subscription, status: 'ACTIVE' | 'DISABLED') => toggle.mutateAsync({ _id: s._id, subscription: { status } });
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
          {s.status === 'ACTIVE'
            ? <ConfirmButton label="Disable" ariaLabel={`Disable ${s.url}`} title="Disable subscription" confirmLabel="Disable subscription" className={secondaryButton}
                message={`Stop sending events to ${s.url}? Events recorded while it is disabled are not delivered later.`} onConfirm={() => setStatus(s, 'DISABLED')} />
            : <button type="button" aria-label={`Enable ${s.url}`} disabled={toggle.isPending} onClick={() => { void setStatus(s, 'ACTIVE'); }} className={secondaryButton}>Enable</button>}
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

const typeKey = (t: EventType) => formatEventType(t);

/** Event types are picked from the list the server records; nothing else can be subscribed here. */
function EventTypePicker({ selected, onChange }: { selected: Set<string>; onChange: (next: Set<string>) => void }) {
  const types = useWebhookEventTypes();
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onChange(next);
  };
  const groups = new Map<string, { entityFqdn: string; slug: string; description: string }[]>();
  for (const t of types.data ?? []) groups.set(t.entityFqdn, [...(groups.get(t.entityFqdn) ?? []), t]);
  return (
    <fieldset className="basis-full">
      <legend className="text-sm">Event types</legend>
      <ErrorAlert error={types.error} />
      {types.isLoading && <p role="status" className="text-sm text-slate-500">Loading event types…</p>}
      <div className="mt-1 grid max-h-64 grid-cols-1 gap-x-6 gap-y-2 overflow-y-auto rounded border border-slate-200 p-3 sm:grid-cols-2 lg:grid-cols-3">
        {[...groups.entries()].map(([fqdn, list]) => (
          <div key={fqdn} className="text-sm">
            <p className="font-mono text-xs text-slate-600">{fqdn}</p>
            {list.map((t) => (
              <label key={typeKey(t)} className="flex min-h-7 items-center gap-2">
                <input type="checkbox" checked={selected.has(typeKey(t))} onChange={(e) => toggle(typeKey(t), e.target.checked)} />
                {t.description}
              </label>
            ))}
          </div>
        ))}
      </div>
    </fieldset>
  );
}

function CreateSubscription() {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<string>();
  const [missing, setMissing] = useState(false);
  const create = useLocked(useCreateWebhookSubscription());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(undefined);
    setMissing(events.size === 0);
    if (events.size === 0) return;
    const eventTypes = [...events].map((key) => {
      const slash = key.lastIndexOf('/');
      return { entityFqdn: key.slice(0, slash), slug: key.slice(slash + 1) };
    });
    create.mutate({ url: url.trim(), eventTypes, ...(description.trim() ? { description: description.trim() } : {}) }, {
      onSuccess: (res) => {
        setSecret(res.secret);
        setUrl('');
        setEvents(new Set());
        setDescription('');
      },
    });
  };
  return (
    <div className="space-y-3">
      <form onSubmit={submit} aria-label="New subscription" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Endpoint URL" required type="url" placeholder="https://example.com/hooks" value={url} onChange={(e) => setUrl(e.target.value)} className="min-w-72 flex-1" />
        <TextField label="Description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        <EventTypePicker selected={events} onChange={setEvents} />
        {missing && <p role="alert" className="basis-full text-sm text-rose-700">Choose at least one event type.</p>}
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
