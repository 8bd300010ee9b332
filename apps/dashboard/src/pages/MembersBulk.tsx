import { useState } from 'react';
import { useMemberBulkJob, useStartMemberBulkJob, type MemberBulkAction } from '@vitrine/react';
import type { MemberStatus } from '../lib/members';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { secondaryButton } from '../components/Form';
import { useLocked } from '../components/useLocked';

const ACTIONS: { action: MemberBulkAction; label: string; verb: string; skip?: MemberStatus }[] = [
  { action: 'approve', label: 'Approve all', verb: 'Approve', skip: 'APPROVED' },
  { action: 'block', label: 'Block all', verb: 'Block', skip: 'BLOCKED' },
  { action: 'delete', label: 'Delete all', verb: 'Delete' },
];

/** Every member of one status at once, as a background job with its progress shown until it ends. */
export function MembersBulk({ status, total }: { status: MemberStatus; total: number }) {
  const start = useLocked(useStartMemberBulkJob());
  const [jobId, setJobId] = useState<string>();
  const job = useMemberBulkJob(jobId);
  const j = job.data;
  const running = Boolean(jobId) && j?.status !== 'FINISHED' && j?.status !== 'FAILED';
  // Nothing to act on, and no job to report on.
  if (total === 0 && !jobId) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white p-3 text-sm" role="group" aria-label="Bulk actions">
      <span className="text-slate-600">All {total} {status} members:</span>
      {total > 0 && ACTIONS.filter((a) => a.skip !== status).map((a) => (
        <ConfirmButton key={a.action} label={a.label} ariaLabel={`${a.label} ${status} members`} title={`${a.verb} ${total} members`} confirmLabel={`${a.verb} ${total} members`}
          className={secondaryButton}
          message={`${a.verb} every ${status} member (${total})?${a.action === 'delete' ? ' This cannot be undone.' : ''} It runs in the background; progress shows here.`}
          onConfirm={async () => setJobId((await start.mutateAsync({ action: a.action, filter: { status } })).jobId)} />
      ))}
      {jobId && j && (
        <div className="flex basis-full items-center gap-3" data-testid="bulk-job">
          <progress aria-label="Bulk job progress" max={Math.max(j.total, 1)} value={j.processed} className="w-48" />
          <span role="status">{running ? `Working: ${j.processed} of ${j.total}` : `${j.status === 'FINISHED' ? 'Done' : 'Failed'}: ${j.succeeded} succeeded, ${j.failed} failed`}</span>
        </div>
      )}
      <ErrorAlert error={start.error ?? job.error} />
    </div>
  );
}
