import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useDataCollection, useDataItems, useInsertDataItem, useRemoveDataItem } from '@vitrine/react';
import { displayValue, inputKind, parseInput, type DataCollection, type DataField, type DataItem } from '../lib/data';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { CheckboxField, PageHeader, TextField, primaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { DataTransfer } from './DataTransfer';

const PAGE_SIZE = 20;
const NEWEST_FIRST = [{ fieldName: '_createdDate', order: 'DESC' }] as const;
/** Longest cell text before it is cut (the full value is in the title). */
const CELL_MAX = 80;

/** The item browser of one data collection: newest first, create and delete. */
export function DataItemsPage() {
  const { collectionId = '' } = useParams();
  const collection = useDataCollection(collectionId);
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
  const [offset, setOffset] = useState(0);
  const items = useDataItems(collection._id, { sort: NEWEST_FIRST, skip: offset, limit: PAGE_SIZE, returnTotalCount: true, keepPrevious: true });
  const remove = useRemoveDataItem();
  const cell = (v: unknown) => { const t = displayValue(v); return <span title={t}>{t.length > CELL_MAX ? `${t.slice(0, CELL_MAX)}…` : t}</span>; };
  const columns: Column<DataItem>[] = [
    ...userFields(collection).map((f): Column<DataItem> => ({ header: f.displayName || f.key, cell: (i) => cell(i[f.key]) })),
    { header: 'Created', cell: (i) => cell(i._createdDate) },
    { header: 'Id', cell: (i) => <span className="font-mono text-xs">{i._id}</span> },
    {
      header: 'Actions',
      cell: (i) => (
        <ConfirmButton label="Delete" ariaLabel={`Delete item ${i._id}`} title="Delete item" confirmLabel="Delete item"
          message={`Delete item ${i._id} from ${collection._id}? This cannot be undone.`} onConfirm={() => remove.mutateAsync({ collectionId: collection._id, itemId: i._id })} />
      ),
    },
  ];
  return (
    <>
      <p className="mb-4 text-xs text-slate-500">
        Permissions: read {collection.permissions?.read ?? '—'}, insert {collection.permissions?.insert ?? '—'}, update {collection.permissions?.update ?? '—'}, remove {collection.permissions?.remove ?? '—'}
      </p>
      <DataTransfer collection={collection} fields={userFields(collection)} />
      <NewItem collection={collection} />
      <div className="mt-6">
        <span className="text-sm text-slate-500" data-testid="item-total">{items.data?.totalCount ?? 0} items</span>
        <DataTable label="Items" columns={columns} rows={items.data?.items} rowKey={(i) => i._id} rowTestId="data-item-row"
          isLoading={items.isLoading} error={items.error} empty="No items in this collection." />
        {items.data && <Pager offset={offset} limit={PAGE_SIZE} count={items.data.items.length} total={items.data.totalCount} onChange={setOffset} />}
      </div>
    </>
  );
}

function NewItem({ collection }: { collection: DataCollection }) {
  const fields = userFields(collection);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const insert = useInsertDataItem();
  const [formError, setFormError] = useState<Error>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    insert.reset();
    const item: Record<string, unknown> = {};
    try {
      for (const f of fields) {
        const v = parseInput(f, values[f.key] ?? '');
        if (v !== undefined) item[f.key] = v;
      }
    } catch (error) {
      setFormError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    insert.mutate({ collectionId: collection._id, item }, { onSuccess: () => setValues({}) });
  };
  const create = { isPending: insert.isPending, error: formError ?? insert.error };
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
