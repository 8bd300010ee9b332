import type { ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { deleteMember, getMember, listReports, memberAction, memberName, type Member, type MemberAction } from '../api/members';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { Drawer } from '../components/Modal';
import { formatDate, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';

/** One member: everything the owner may see, and the status/activity actions. */
export function MemberDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const member = useQuery({ queryKey: ['member', id], queryFn: () => getMember(api, id) });
  const openReports = useQuery({ queryKey: ['reports', 'of', id], queryFn: () => listReports(api, { status: 'OPEN', memberId: id, offset: 0, limit: 1 }) });
  const act = useMutation({
    mutationFn: (action: MemberAction) => memberAction(api, id, action),
    onSuccess: async (updated) => {
      queryClient.setQueryData(['member', id], updated);
      await queryClient.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const remove = async () => {
    await deleteMember(api, id);
    await queryClient.invalidateQueries({ queryKey: ['members'] });
    onClose();
  };
  const m = member.data;
  return (
    <Drawer title={m ? m.loginEmail : 'Member'} onClose={onClose}>
      {member.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={member.error} />
      {m && (
        <>
          <MemberDetail member={m} openReports={openReports.data?.metadata.total} />
          <div className="mt-6 flex flex-wrap gap-2" role="group" aria-label="Member actions">
            {m.status !== 'APPROVED' && <button type="button" disabled={act.isPending} onClick={() => act.mutate('approve')} className={secondaryButton}>Approve</button>}
            {m.status !== 'BLOCKED' && <button type="button" disabled={act.isPending} onClick={() => act.mutate('block')} className={secondaryButton}>Block</button>}
            {m.activityStatus === 'MUTED'
              ? <button type="button" disabled={act.isPending} onClick={() => act.mutate('unmute')} className={secondaryButton}>Unmute</button>
              : <button type="button" disabled={act.isPending} onClick={() => act.mutate('mute')} className={secondaryButton}>Mute</button>}
            <ConfirmButton label="Delete member" title="Delete member" confirmLabel="Delete"
              message={`Delete ${m.loginEmail}? Their account and profile are removed; this cannot be undone.`} onConfirm={remove} />
          </div>
          <div className="mt-3"><ErrorAlert error={act.error} /></div>
        </>
      )}
    </Drawer>
  );
}

function MemberDetail({ member: m, openReports }: { member: Member; openReports: number | undefined }) {
  const row = (label: string, value: ReactNode) => <><dt className="text-slate-500">{label}</dt><dd>{value}</dd></>;
  return (
    <dl data-testid="member-detail" className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
      {row('Name', memberName(m) || '—')}
      {row('Nickname', m.profile?.nickname ?? '—')}
      {row('Profile slug', m.profile?.slug ?? '—')}
      {row('Status', <StatusBadge value={m.status} />)}
      {row('Activity', <StatusBadge value={m.activityStatus} />)}
      {row('Privacy', m.privacyStatus)}
      {row('Email verified', m.loginEmailVerified ? 'yes' : 'no')}
      {row('Phones', m.contact?.phones?.join(', ') || '—')}
      {row('Company', m.contact?.company || '—')}
      {row('Joined', formatDate(m.createdDate))}
      {row('Last login', formatDate(m.lastLoginDate))}
      {row('Open reports', openReports ?? '…')}
      {row('Member id', <span className="font-mono text-xs">{m.id}</span>)}
    </dl>
  );
}
