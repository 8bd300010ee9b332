import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMembers } from '@vitrine/react';
import type { members as membersModule } from '@vitrine/sdk/members';
import { MEMBER_PAGE_SIZE, MEMBER_STATUSES, SEARCH_FIELDS, SEARCH_MAX, memberName, type Member, type MemberStatus } from '../lib/members';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, TextField, formatDate } from '../components/Form';
import { Pager } from '../components/Pager';
import { StatusBadge } from '../components/StatusBadge';
import { MemberDrawer } from './MemberDrawer';
import { MembersBulk } from './MembersBulk';
import { useDebounced } from '../components/useDebounced';

const FULL: membersModule.Fieldset[] = ['FULL'];
const NEWEST_FIRST = [{ fieldName: '_createdDate', order: 'DESC' }] as const;

export function MembersPage() {
  const [status, setStatus] = useState<MemberStatus | ''>('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  // `?member=<id>` opens that member (the order page links here).
  const [params] = useSearchParams();
  const [openId, setOpenId] = useState<string | undefined>(params.get('member') ?? undefined);
  const term = useDebounced(search);
  const memberSearch = useMemo(() => ({ expression: term.trim(), fields: SEARCH_FIELDS }), [term]);
  const build = useCallback((q: membersModule.MembersQueryBuilder) => (status ? q.eq('status', status) : q), [status]);
  const members = useMembers({ fieldsets: FULL, search: memberSearch, build, sort: NEWEST_FIRST, skip: offset, limit: MEMBER_PAGE_SIZE, keepPrevious: true });
  const columns: Column<Member>[] = [
    { header: 'Email', cell: (m) => <button type="button" onClick={() => setOpenId(m._id)} className="text-left font-medium hover:underline">{m.loginEmail}</button> },
    { header: 'Name', cell: (m) => memberName(m) || '—' },
    { header: 'Nickname', cell: (m) => m.profile?.nickname ?? '—' },
    { header: 'Status', cell: (m) => <StatusBadge value={m.status ?? 'UNKNOWN'} /> },
    { header: 'Activity', cell: (m) => <StatusBadge value={m.activityStatus ?? 'UNKNOWN'} /> },
    { header: 'Joined', cell: (m) => formatDate(m._createdDate) },
  ];
  return (
    <section>
      <PageHeader title="Members">
        <span className="text-sm text-slate-500" data-testid="member-total">{members.data?.totalCount ?? 0} members</span>
        <div className="ml-auto flex items-end gap-3">
          <SelectField label="Status" value={status} onChange={(e) => { setStatus(e.target.value as MemberStatus | ''); setOffset(0); }}>
            <option value="">All statuses</option>
            {MEMBER_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </SelectField>
          <TextField label="Search members" placeholder="Email, name, nickname" maxLength={SEARCH_MAX} value={search} onChange={(e) => { setSearch(e.target.value); setOffset(0); }} />
        </div>
      </PageHeader>
      {status && !search && members.data && <MembersBulk key={status} status={status} total={members.data?.totalCount ?? 0} />}
      <DataTable label="Members" columns={columns} rows={members.data?.items} rowKey={(m) => m._id} rowTestId="member-row"
        isLoading={members.isLoading} error={members.error} empty={status || search ? 'No member matches.' : 'No members yet.'} />
      {members.data && <Pager offset={offset} limit={MEMBER_PAGE_SIZE} count={members.data.items.length} total={members.data.totalCount} onChange={setOffset} />}
      {openId && <MemberDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}
