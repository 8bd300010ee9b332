import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { MEMBER_PAGE_SIZE, MEMBER_STATUSES, SEARCH_MAX, memberName, queryMembers, type Member, type MemberStatus } from '../api/members';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, TextField, formatDate } from '../components/Form';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';
import { MemberDrawer } from './MemberDrawer';
import { useDebounced } from '../components/useDebounced';

export function MembersPage() {
  const api = useApi();
  const [status, setStatus] = useState<MemberStatus | ''>('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const term = useDebounced(search);
  const members = useQuery({
    queryKey: ['members', status, term, offset],
    queryFn: () => queryMembers(api, { status: status || undefined, search: term, offset, limit: MEMBER_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const columns: Column<Member>[] = [
    { header: 'Email', cell: (m) => <button type="button" onClick={() => setOpenId(m.id)} className="text-left font-medium hover:underline">{m.loginEmail}</button> },
    { header: 'Name', cell: (m) => memberName(m) || '—' },
    { header: 'Nickname', cell: (m) => m.profile?.nickname ?? '—' },
    { header: 'Status', cell: (m) => <StatusBadge value={m.status} /> },
    { header: 'Activity', cell: (m) => <StatusBadge value={m.activityStatus} /> },
    { header: 'Joined', cell: (m) => formatDate(m.createdDate) },
  ];
  return (
    <section>
      <PageHeader title="Members">
        <span className="text-sm text-slate-500" data-testid="member-total">{members.data?.metadata.total ?? 0} members</span>
        <div className="ml-auto flex items-end gap-3">
          <SelectField label="Status" value={status} onChange={(e) => { setStatus(e.target.value as MemberStatus | ''); setOffset(0); }}>
            <option value="">All statuses</option>
            {MEMBER_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
          <TextField label="Search members" placeholder="Email, name, nickname" maxLength={SEARCH_MAX} value={search} onChange={(e) => { setSearch(e.target.value); setOffset(0); }} />
        </div>
      </PageHeader>
      <DataTable label="Members" columns={columns} rows={members.data?.members} rowKey={(m) => m.id} rowTestId="member-row"
        isLoading={members.isLoading} error={members.error} empty={status || search ? 'No member matches.' : 'No members yet.'} />
      {members.data && <Pager offset={offset} limit={MEMBER_PAGE_SIZE} count={members.data.members.length} total={members.data.metadata.total} onChange={setOffset} />}
      {openId && <MemberDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}
