import { Fragment, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateDataCollection, useDataCollections } from '@vitrine/react';
import type { DataCollection } from '../lib/data';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, primaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { CollectionForm } from '../data/CollectionForm';
import { Pager } from '../components/Pager';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 25;

/** Every data collection of the site with its fields and who may read and write it. */
export function DataCollectionsPage() {
  const [offset, setOffset] = useState(0);
  const collections = useDataCollections({ paging: { limit: PAGE_SIZE, offset }, keepPrevious: true });
  const [creating, setCreating] = useState(false);
  const create = useLocked(useCreateDataCollection());
  const navigate = useNavigate();
  const columns: Column<DataCollection>[] = [
    { header: 'Collection', cell: (c) => <Link to={`/data/${encodeURIComponent(c._id)}`} className="font-medium hover:underline">{c.displayName || c._id}</Link> },
    { header: 'Id', cell: (c) => <span className="font-mono text-xs">{c._id}</span> },
    {
      header: 'Fields',
      cell: (c) => (
        <ul className="text-xs">
          {c.fields.filter((f) => !f.systemField).map((f) => <li key={f.key}><span className="font-mono">{f.key}</span> <span className="text-slate-500">{f.type}</span></li>)}
        </ul>
      ),
    },
    {
      header: 'Permissions',
      cell: (c) => (
        <dl className="grid grid-cols-[4rem_1fr] text-xs">
          {(['read', 'insert', 'update', 'remove'] as const).map((p) => <Fragment key={p}><dt className="text-slate-500">{p}</dt><dd>{c.permissions?.[p] ?? '—'}</dd></Fragment>)}
        </dl>
      ),
    },
  ];
  return (
    <section>
      <PageHeader title="Data collections">
        <button type="button" className={`${primaryButton} ml-auto`} onClick={() => { create.reset(); setCreating(true); }}>New collection</button>
      </PageHeader>
      {creating && (
        <Modal side title="New collection" onClose={() => setCreating(false)}>
          <CollectionForm state={create} submitLabel="Create collection"
            onSubmit={(d) => create.mutate(d, { onSuccess: (c) => { setCreating(false); void navigate(`/data/${encodeURIComponent(c._id)}`); } })} />
        </Modal>
      )}
      <DataTable label="Data collections" columns={columns} rows={collections.data?.collections} rowKey={(c) => c._id} rowTestId="data-collection-row"
        isLoading={collections.isLoading} error={collections.error} empty="No data collections yet." />
      {collections.data && <Pager offset={offset} limit={PAGE_SIZE} count={collections.data.collections.length} total={collections.data.pagingMetadata.total} onChange={setOffset} />}
    </section>
  );
}
