import { useState, type FormEvent } from 'react';
import { useCallback, useMemo } from 'react';
import { useMembers, useReports, useResolveReport } from '@vitrine/react';
import type { members as membersModule } from '@vitrine/sdk/members';
import { MEMBER_PAGE_SIZE, type Report } from '../lib/members';
import { ErrorAlert } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { CheckboxField, PageHeader, SelectField, TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';
import { useLocked } from '../components/useLocked';

type ReportStatus = 'OPEN' | 'RESOLVED';
const FULL: membersModule.Fieldset[] = ['FULL'];

/** Reports members filed against other members; resolving may mute the reported member. */
export function ReportsPage() {
  const [status, setStatus] = useState<ReportStatus | ''>('OPEN');
  const [offset, setOffset] = useState(0);
  const [resolving, setResolving] = useState<Report>();
  const reports = useReports({ ...(status ? { status } : {}), paging: { limit: MEMBER_PAGE_SIZE, offset }, keepPrevious: true });
  // Show e-mails instead of ids: one query for every member on this page.
  const idList = [...new Set((reports.data?.reports ?? []).flatMap((r) => [r.memberId, r.reporterId]))].sort().join(',');
  const ids = useMemo(() => (idList ? idList.split(',') : []), [idList]);
  const build = useCallback((q: membersModule.MembersQueryBuilder) => q.in('_id', ids), [ids]);
  const people = useMembers({
    fieldsets: FULL, build, limit: Math.max(1, ids.length), enabled: ids.length > 0,
    // Keep showing known e-mails while the member set of a new page loads (ids would flash otherwise).
    keepPrevious: true,
  });
  const who = (id: string) => people.data?.items.find((m) => m._id === id)?.loginEmail ?? id;
  const columns: Column<Report>[] = [
    { header: 'Reported member', cell: (r) => who(r.memberId) },
    { header: 'Reason', cell: (r) => r.reason },
    { header: 'Details', cell: (r) => <span className="whitespace-pre-line">{r.details || '—'}</span> },
    { header: 'Reported by', cell: (r) => who(r.reporterId) },
    { header: 'Date', cell: (r) => formatDate(r._createdDate) },
    { header: 'Status', cell: (r) => <><StatusBadge value={r.status} />{r.resolution?.muted ? <span className="ml-1 text-xs text-slate-500">muted</span> : null}</> },
    {
      header: 'Actions',
      cell: (r) => r.status === 'OPEN'
        ? <button type="button" aria-label={`Resolve report on ${who(r.memberId)}`} onClick={() => setResolving(r)} className={secondaryButton}>Resolve</button>
        : <span className="text-xs text-slate-500">{r.resolution?.note ?? ''}</span>,
    },
  ];
  return (
    <section>
      <PageHeader title="Member reports">
        <div className="ml-auto">
          <SelectField label="Report status" value={status} onChange={(e) => { setStatus(e.target.value as ReportStatus | ''); setOffset(0); }}>
            <option value="OPEN">Open</option>
            <option value="RESOLVED">Resolved</option>
            <option value="">All</option>
          </SelectField>
        </div>
      </PageHeader>
      <DataTable label="Reports" columns={columns} rows={reports.data?.reports} rowKey={(r) => r._id} rowTestId="report-row"
        isLoading={reports.isLoading} error={reports.error} empty={status === 'OPEN' ? 'No open reports.' : 'No reports.'} />
      {reports.data && <Pager offset={offset} limit={MEMBER_PAGE_SIZE} count={reports.data.reports.length} total={reports.data.metadata.total} onChange={setOffset} />}
      {resolving && <ResolveDialog report={resolving} onClose={() => setResolving(undefined)} />}
    </section>
  );
}

function ResolveDialog({ report, onClose }: { report: Report; onClose: () => void }) {
  const [mute, setMute] = useState(false);
  const [note, setNote] = useState('');
  const resolve = useLocked(useResolveReport());
  const submit = (e: FormEvent) => { e.preventDefault(); resolve.mutate({ _id: report._id, mute, note: note.trim() || undefined }, { onSuccess: onClose }); };
  return (
    <Modal title="Resolve report" onClose={onClose}>
      <form onSubmit={submit} className="space-y-3">
        <CheckboxField label="Mute the reported member" checked={mute} onChange={(e) => setMute(e.target.checked)} />
        <TextField label="Note" maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
        <ErrorAlert error={resolve.error} />
        <button disabled={resolve.isPending} className={primaryButton}>Resolve report</button>
      </form>
    </Modal>
  );
}
