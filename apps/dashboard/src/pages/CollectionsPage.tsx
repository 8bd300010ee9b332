import { useState, type FormEvent } from 'react';
import { useCollections, useCreateCollection, useDeleteCollection } from '@vitrine/react';
import { ALL_PRODUCTS_ID, type Collection } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, TextField, primaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { CollectionDrawer } from './CollectionDrawer';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 20;

export function CollectionsPage() {
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<Collection>();
  const collections = useCollections({ skip: offset, limit: PAGE_SIZE, keepPrevious: true });
  const remove = useDeleteCollection();
  const columns: Column<Collection>[] = [
    { header: 'Name', cell: (c) => <button type="button" onClick={() => setOpen(c)} className="text-left font-medium hover:underline">{c.name}</button> },
    { header: 'Slug', cell: (c) => <span className="font-mono text-xs">{c.slug}</span> },
    { header: 'Products', cell: (c) => c.numberOfProducts },
    { header: 'Visible', cell: (c) => (c.visible ? 'yes' : 'no') },
    {
      header: 'Actions',
      cell: (c) => c._id === ALL_PRODUCTS_ID ? <span className="text-xs text-slate-400">built in</span> : (
        <ConfirmButton label="Delete" ariaLabel={`Delete ${c.name}`} title="Delete collection" confirmLabel="Delete collection"
          message={`Delete the collection “${c.name}”? Its products stay in the store.`} onConfirm={() => remove.mutateAsync(c._id)} />
      ),
    },
  ];
  return (
    <section>
      <PageHeader title="Collections" />
      <CreateCollection />
      <div className="mt-6">
        <DataTable label="Collections" columns={columns} rows={collections.data?.items} rowKey={(c) => c._id} rowTestId="collection-row"
          isLoading={collections.isLoading} error={collections.error} empty="No collections yet." />
        {collections.data && <Pager offset={offset} limit={PAGE_SIZE} count={collections.data.items.length} total={collections.data.totalCount} onChange={setOffset} />}
      </div>
      {/* The list's copy once refetched, so the drawer's title follows a rename. */}
      {open && <CollectionDrawer collection={collections.data?.items.find((c) => c._id === open._id) ?? open} onClose={() => setOpen(undefined)} />}
    </section>
  );
}

function CreateCollection() {
  const [name, setName] = useState('');
  const create = useLocked(useCreateCollection());
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate({ name: name.trim() }, { onSuccess: () => setName('') }); };
  return (
    <form onSubmit={submit} aria-label="New collection" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <TextField label="New collection name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
      <button disabled={create.isPending} className={primaryButton}>Create collection</button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
