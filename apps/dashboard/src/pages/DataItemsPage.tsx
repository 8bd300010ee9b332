import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { displayValue, getDataCollection, inputKind, insertItem, parseInput, queryItems, removeItem, type DataCollection, type DataField, type DataItem } from '../api/data';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { CheckboxField, PageHeader, TextField, primaryButton } from '../components/Form';
import { Pager } from '../components/Pager';

const PAGE_SIZE = 20;
/** Longest cell text before it is cut (the full value is in the title). */
const CELL_MAX = 80;

/** The item browser of one data collection: newest first, create and delete. */
export function DataItemsPage() {
  const { collectionId = '' } = useParams();
  const api = useApi();
  const collection = useQuery({ queryKey: ['data-collection', collectionId], queryFn: () => getDataCollection(api, collectionId) });
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/data" className="text-slate-500 hover:underline">← Data collections</Link></p>
      <PageHeader title={collection.data?.displayName || collectionId} />
      {collection.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={collection.error} />
      {collection.data && <Items collection={collection.data} />}
    </section>
  );
}

function userFields(c: DataCollection): DataField[] {
  return c.fields.filter((f) => !f.systemField);
}

function Items({ collection }: { collection: DataCollection }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const items = useQuery({
    queryKey: ['data-items', collection.id, offset],
    queryFn: () => queryItems(api, collection.id, offset, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => removeItem(api, collection.id, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['data-items', collection.id] }),
  });
  const cell = (v: unknown) => { const t = displayValue(v); return <span title={t}>{t.length > CELL_MAX ? `${t.slice(0, CELL_MAX)}…` : t}</span>; };
  const columns: Column<DataItem>[] = [
    ...userFields(collection).map((f): Column<DataItem> => ({ header: f.displayName || f.key, cell: (i) => cell(i.data[f.key]) })),
    { header: 'Created', cell: (i) => cell(i.data._createdDate) },
    { header: 'Id', cell: (i) => <span className="font-mono text-xs">{i.id}</span> },
    {
      header: 'Actions',
      cell: (i) => (
        <ConfirmButton label="Delete" ariaLabel={`Delete item ${i.id}`} title="Delete item" confirmLabel="Delete item"
          message={`Delete item ${i.id} from ${collection.id}? This cannot be undone.`} onConfirm={() => remove.mutateAsync(i.id)} />
      ),
    },
  ];
  return (
    <>
      <p className="mb-4 text-xs text-slate-500">
        Permissions: read {collection.permissions?.read ?? '—'}, insert {collection.permissions?.insert ?? '—'}, update {collection.permissions?.update ?? '—'}, remove {collection.permissions?.remove ?? '—'}
      </p>
      <NewItem collection={collection} />
      <div className="mt-6">
        <span className="text-sm text-slate-500" data-testid="item-total">{items.data?.pagingMetadata.total ?? 0} items</span>
        <DataTable label="Items" columns={columns} rows={items.data?.dataItems} rowKey={(i) => i.id} rowTestId="data-item-row"
          isLoading={items.isLoading} error={items.error} empty="No items in this collection." />
        {items.data && <Pager offset={offset} limit={PAGE_SIZE} count={items.data.dataItems.length} total={items.data.pagingMetadata.total} onChange={setOffset} />}
      </div>
    </>
  );
}

function NewItem({ collection }: { collection: DataCollection }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const fields = userFields(collection);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const create = useMutation({
    mutationFn: () => {
      const data: Record<string, unknown> = {};
      for (const f of fields) {
        const v = parseInput(f, values[f.key] ?? '');
        if (v !== undefined) data[f.key] = v;
      }
      return insertItem(api, collection.id, data);
    },
    onSuccess: async () => {
      setValues({});
      await queryClient.invalidateQueries({ queryKey: ['data-items', collection.id] });
    },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  const set = (key: string, v: string | boolean) => setValues((prev) => ({ ...prev, [key]: v }));
  return (
    <form onSubmit={submit} aria-label="New item" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      {fields.map((f) => {
        const label = f.displayName || f.key;
        const kind = inputKind(f.type);
        if (kind === 'boolean') return <CheckboxField key={f.key} label={label} checked={values[f.key] === true} onChange={(e) => set(f.key, e.target.checked)} />;
        const value = typeof values[f.key] === 'string' ? (values[f.key] as string) : '';
        return (
          <TextField key={f.key} label={label} value={value} onChange={(e) => set(f.key, e.target.value)}
            type={kind === 'number' ? 'number' : kind === 'datetime' ? 'datetime-local' : 'text'} step={kind === 'number' ? 'any' : undefined}
            placeholder={kind === 'json' ? `${f.type} as JSON` : f.type === 'DATE' ? 'YYYY-MM-DD' : kind === 'datetime' ? undefined : f.type} required={f.required} />
        );
      })}
      <button disabled={create.isPending} className={primaryButton}>Add item</button>
      <div className="basis-full"><ErrorAlert error={create.error} /></div>
    </form>
  );
}
