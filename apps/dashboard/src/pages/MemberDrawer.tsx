import { useState, type ReactNode } from 'react';
import { useDeleteMember, useMember, useMemberAction, useReports, useSendPasswordLink, type MemberAction } from '@vitrine/react';
import { memberName, type Member } from '../lib/members';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { Drawer } from '../components/Modal';
import { formatDate, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { MemberOrders } from '../orders/MemberOrders';

/** One member: everything the owner may see, and the status/activity actions. */
export function MemberDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  // While the member is deleted the drawer shows what it last read and stops reading it: the delete
  // refetches member queries, and reading a deleted member is a 404 in the console.
  const [deleting, setDeleting] = useState<Member>();
  const member = useMember(deleting ? undefined : id, { fieldsets: ['FULL'] });
  const openReports = useReports({ status: 'OPEN', memberId: id, paging: { limit: 1, offset: 0 } });
  const act = useMemberAction();
  const run = (action: MemberAction) => act.mutateAsync({ _id: id, action });
  const deletion = useDeleteMember();
  const passwordLink = useSendPasswordLink();
  const remove = async () => {
    setDeleting(member.data);
    try {
      await deletion.mutateAsync(id);
    } catch (error) {
      setDeleting(undefined);
      throw error;
    }
    onClose();
  };
  const m = deleting ?? member.data;
  return (
    <Drawer title={m?.loginEmail ?? 'Member'} onClose={onClose}>
      {member.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={member.error} />
      {m && (
        <>
          <MemberDetail member={m} openReports={openReports.data?.metadata.total} />
          <div className="mt-6 flex flex-wrap gap-2" role="group" aria-label="Member actions">
            {m.status !== 'APPROVED' && <button type="button" disabled={act.isPending} onClick={() => { void run('approve'); }} className={secondaryButton}>Approve</button>}
            {m.status !== 'BLOCKED' && (
              <ConfirmButton label="Block" title="Block member" confirmLabel="Block member" className={secondaryButton}
                message={`Block ${m.loginEmail}? They are signed out everywhere and cannot sign in until approved again.`} onConfirm={() => run('block')} />
            )}
            {m.activityStatus === 'MUTED'
              ? <button type="button" disabled={act.isPending} onClick={() => { void run('unmute'); }} className={secondaryButton}>Unmute</button>
              : <ConfirmButton label="Mute" title="Mute member" confirmLabel="Mute member" className={secondaryButton}
                  message={`Mute ${m.loginEmail}? They can still sign in but cannot post or comment.`} onConfirm={() => run('mute')} />}
            {(m.status === 'APPROVED' || m.status === 'PENDING') && (
              <button type="button" disabled={passwordLink.isPending} onClick={() => { passwordLink.mutate(m._id); }} className={secondaryButton}
                title="E-mail the member a link to choose a password (how a member you created signs in the first time)">Send password e-mail</button>
            )}
            <ConfirmButton label="Delete member" title="Delete member" confirmLabel="Delete"
              message={`Delete ${m.loginEmail}? Their account and profile are removed; this cannot be undone.`} onConfirm={remove} />
          </div>
          {passwordLink.isSuccess && <p role="status" className="mt-3 text-sm text-emerald-700">Sent: {m.loginEmail} can choose a password from the e-mailed link (valid one hour).</p>}
          <div className="mt-3"><ErrorAlert error={act.error ?? passwordLink.error} /></div>
          <MemberOrders memberId={m._id} />
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
      {row('Status', <StatusBadge value={m.status ?? 'UNKNOWN'} />)}
      {row('Activity', <StatusBadge value={m.activityStatus ?? 'UNKNOWN'} />)}
      {row('Privacy', m.privacyStatus)}
      {row('Email verified', m.loginEmailVerified ? 'yes' : 'no')}
      {row('Phones', m.contact?.phones?.join(', ') || '—')}
      {row('Company', m.contact?.company || '—')}
      {row('Joined', formatDate(m._createdDate))}
      {row('Last login', formatDate(m.lastLoginDate))}
      {row('Open reports', openReports ?? '…')}
      {row('Member id', <span className="font-mono text-xs">{m._id}</span>)}
    </dl>
  );
}
