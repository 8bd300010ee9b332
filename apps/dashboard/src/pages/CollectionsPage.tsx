import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { ALL_PRODUCTS_ID, createCollection, deleteCollection, queryCollections, type Collection } from '../api/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, TextField, primaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { CollectionDrawer } from './CollectionDrawer';

const PAGE_SIZE = 20;

export function CollectionsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<Collection>();
  const collections = useQuery({ queryKey: ['collections', offset], queryFn: () => queryCollections(api, offset, PAGE_SIZE), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (id: string) => deleteCollection(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['collections'] }),
  });
  const columns: Column<Collection>[] = [
    { header: 'Name', cell: (c) => <button type="button" onClick={() => setOpen(c)} className="text-left font-medium hover:underline">{c.name}</button> },
    { header: 'Slug', cell: (c) => <span className="font-mono text-xs">{c.slug}</span> },
    { header: 'Products', cell: (c) => c.numberOfProducts },
    { header: 'Visible', cell: (c) => (c.visible ? 'yes' : 'no') },
    {
      header: 'Actions',
      cell: (c) => c.id === ALL_PRODUCTS_ID ? <span className="text-xs text-slate-400">built in</span> : (
        <ConfirmButton label="Delete" ariaLabel={`Delete ${c.name}`} title="Delete collection" confirmLabel="Delete collection"
          message={`Delete the collection “${c.name}”? Its products stay in the store.`} onConfirm={() => remove.mutateAsync(c.id)} />
      ),
    },
  ];
  return (
    <section>
      <PageHeader title="Collections" />
      <CreateCollection />
      <div className="mt-6">
        <DataTable label="Collections" columns={columns} rows={collections.data?.collections} rowKey={(c) => c.id} rowTestId="collection-row"
          isLoading={collections.isLoading} error={collections.error} empty="No collections yet." />
        {collections.data && <Pager offset={offset} limit={PAGE_SIZE} count={collections.data.collections.length} total={collections.data.metadata.total} onChange={setOffset} />}
      </div>
      {open && <CollectionDrawer collection={open} onClose={() => setOpen(undefined)} />}
    </section>
  );
}

function CreateCollection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => createCollection(api, name.trim()),
    onSuccess: async () => { setName(''); await queryClient.invalidateQueries({ queryKey: ['collections'] }); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <form onSubmit={submit} aria-label="New collection" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <TextField label="New collection name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
      <button disabled={create.isPending} className={primaryButton}>Create collection</button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
