import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useDataCollection, useInsertDataItem } from '@vitrine/react';
import { inputKind, parseInput, type DataCollection } from '../lib/data';
import { ownerTimeZone } from '../lib/time';
import { ErrorAlert } from '../components/Alert';
import { CheckboxField, PageHeader, TextField, primaryButton } from '../components/Form';
import { CollectionSettings } from '../data/CollectionSettings';
import { ItemsGrid, userFields } from '../data/ItemsGrid';
import { DataTransfer } from './DataTransfer';
import { useLocked } from '../components/useLocked';

/** One data collection: its definition and indexes, CSV import/export, a new-item form and the items grid. */
export function DataItemsPage() {
  const { collectionId = '' } = useParams();
  const collection = useDataCollection(collectionId);
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/data" className="text-slate-500 hover:underline">← Data collections</Link></p>
      <PageHeader title={collection.data?.displayName || collectionId} />
      {collection.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={collection.error} />
      {collection.data && (
        <>
          <p className="mb-4 text-xs text-slate-600">
            Permissions: read {collection.data.permissions?.read ?? '—'}, insert {collection.data.permissions?.insert ?? '—'}, update {collection.data.permissions?.update ?? '—'}, remove {collection.data.permissions?.remove ?? '—'}
          </p>
          <CollectionSettings collection={collection.data} />
          <DataTransfer collection={collection.data} fields={userFields(collection.data)} />
          <NewItem collection={collection.data} />
          <ItemsGrid collection={collection.data} />
        </>
      )}
    </section>
  );
}

function NewItem({ collection }: { collection: DataCollection }) {
  const fields = userFields(collection);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const insert = useLocked(useInsertDataItem());
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
          <TextField key={f.key} label={kind === 'datetime' ? `${label} (${ownerTimeZone()})` : label} value={value} onChange={(e) => set(f.key, e.target.value)}
            type={kind === 'number' ? 'number' : kind === 'datetime' ? 'datetime-local' : 'text'} step={kind === 'number' ? 'any' : undefined}
            placeholder={kind === 'json' ? `${f.type} as JSON` : f.type === 'DATE' ? 'YYYY-MM-DD' : kind === 'datetime' ? undefined : f.type} required={f.required} />
        );
      })}
      <button disabled={create.isPending} className={primaryButton}>Add item</button>
      <div className="basis-full"><ErrorAlert error={create.error} /></div>
    </form>
  );
}
