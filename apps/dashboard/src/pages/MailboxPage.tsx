import { useState } from 'react';
import { useMails } from '@vitrine/react';
import { LOG_PAGE_SIZE, MAIL_STATUSES, type Mail, type MailStatus } from '../lib/events';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, formatDate } from '../components/Form';
import { Drawer } from '../components/Modal';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';

/** The notification mailbox: every queued, sent and stored e-mail of the site. */
export function MailboxPage() {
  const [status, setStatus] = useState<MailStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<Mail>();
  const mails = useMails({ ...(status ? { status } : {}), offset, limit: LOG_PAGE_SIZE, keepPrevious: true });
  const columns: Column<Mail>[] = [
    { header: 'Status', cell: (m) => <StatusBadge value={m.status} /> },
    { header: 'To', cell: (m) => m.to },
    { header: 'Subject', cell: (m) => <button type="button" onClick={() => setOpen(m)} className="text-left font-medium hover:underline">{m.subject}</button> },
    { header: 'Template', cell: (m) => <span className="font-mono text-xs">{m.template}</span> },
    { header: 'Created', cell: (m) => formatDate(m._createdDate) },
    { header: 'Sent', cell: (m) => formatDate(m.sentDate) },
  ];
  return (
    <section>
      <PageHeader title="Mailbox">
        <div className="ml-auto">
          <SelectField label="Mail status" value={status} onChange={(e) => { setStatus(e.target.value as MailStatus | ''); setOffset(0); }}>
            <option value="">All</option>
            {MAIL_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
        </div>
      </PageHeader>
      <DataTable label="Mails" columns={columns} rows={mails.data?.mails} rowKey={(m) => m._id} rowTestId="mail-row"
        isLoading={mails.isLoading} error={mails.error} empty="The mailbox is empty." />
      {mails.data && <Pager offset={offset} limit={LOG_PAGE_SIZE} count={mails.data.mails.length} total={mails.data.metadata.total} onChange={setOffset} />}
      {open && <MailPreview mail={open} onClose={() => setOpen(undefined)} />}
    </section>
  );
}

/**
 * Mail HTML is rendered only inside a sandboxed iframe (sandbox="" : no script, no same origin, no
 * forms, no navigation), never in the dashboard's own DOM.
 */
function MailPreview({ mail, onClose }: { mail: Mail; onClose: () => void }) {
  return (
    <Drawer title={mail.subject} onClose={onClose}>
      <dl className="mb-4 grid grid-cols-[6rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">To</dt><dd>{mail.to}</dd>
        <dt className="text-slate-500">Status</dt><dd><StatusBadge value={mail.status} />{mail.lastError ? <span className="ml-1 text-xs text-rose-700">{mail.lastError}</span> : null}</dd>
        <dt className="text-slate-500">Attempts</dt><dd>{mail.attempts}</dd>
        <dt className="text-slate-500">Sent</dt><dd>{formatDate(mail.sentDate)}</dd>
      </dl>
      <iframe title="Mail preview" sandbox="" srcDoc={mail.html} referrerPolicy="no-referrer" className="h-96 w-full rounded border border-slate-200 bg-white" />
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer text-slate-500">Plain text</summary>
        <pre className="mt-2 whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs">{mail.text}</pre>
      </details>
    </Drawer>
  );
}
