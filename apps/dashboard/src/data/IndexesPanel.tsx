import { useState } from 'react';
import { useCreateDataIndex, useDataIndexes, useDropDataIndex } from '@vitrine/react';
import type { DataCollection } from '../lib/data';
import { ErrorAlert, Notice } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { CheckboxField, TextField, primaryButton } from '../components/Form';
import { useLocked } from '../components/useLocked';

/** Fields one index may cover (server INDEX_FIELDS_MAX). */
const INDEX_FIELDS_MAX = 3;
const INDEX_NAME_PATTERN = '[A-Za-z0-9_\\-]{1,100}';

/** The collection's indexes (status, and why one failed), a form to add one, and drop with confirmation. */
export function IndexesPanel({ collection }: { collection: DataCollection }) {
  const list = useDataIndexes(collection._id);
  const create = useLocked(useCreateDataIndex());
  const drop = useDropDataIndex();
  const [name, setName] = useState('');
  const [paths, setPaths] = useState('');
  const [unique, setUnique] = useState(false);
  const fields = paths.split(',').map((p) => p.trim()).filter(Boolean);
  const submit = () => create.mutate({ collectionId: collection._id, index: { name: name.trim(), unique, fields: fields.map((path) => ({ path, order: 'ASC' as const })) } }, {
    onSuccess: (index) => { if (index.status !== 'FAILED') { setName(''); setPaths(''); setUnique(false); } },
  });
  return (
    <div className="space-y-3">
      <h2 className="font-medium">Indexes</h2>
      {list.isLoading && <p role="status" className="text-sm text-slate-600">Loading…</p>}
      <ErrorAlert error={list.error} />
      {list.data?.length === 0 && <p className="text-sm text-slate-600">No indexes: queries read every item of the collection.</p>}
      <ul className="space-y-1 text-sm">
        {list.data?.map((i) => (
          <li key={i.name} data-testid="index-row" className="flex items-center gap-3">
            <span className="font-mono">{i.name}</span>
            <span>{i.fields.map((f) => `${f.path} ${f.order}`).join(', ')}</span>
            {i.unique && <span>unique</span>}
            <span className={i.status === 'FAILED' ? 'text-rose-800' : 'text-slate-700'}>{i.status}{i.failure ? `: ${i.failure.description}` : ''}</span>
            <ConfirmButton label="Drop" ariaLabel={`Drop index ${i.name}`} title="Drop index" confirmLabel="Drop index"
              message={`Drop the index ${i.name}? Queries on ${i.fields.map((f) => f.path).join(', ')} get slower; the items stay.`} onConfirm={() => drop.mutateAsync({ collectionId: collection._id, name: i.name })} />
          </li>
        ))}
      </ul>
      <form aria-label="New index" onSubmit={(e) => { e.preventDefault(); submit(); }} className="flex flex-wrap items-end gap-3">
        <TextField label="Index name" required pattern={INDEX_NAME_PATTERN} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label={`Field paths (comma-separated, up to ${INDEX_FIELDS_MAX})`} required value={paths} onChange={(e) => setPaths(e.target.value)} className="min-w-64" />
        <CheckboxField label="Unique" checked={unique} onChange={(e) => setUnique(e.target.checked)} />
        <button disabled={create.isPending || fields.length > INDEX_FIELDS_MAX} className={primaryButton}>Add index</button>
      </form>
      {fields.length > INDEX_FIELDS_MAX && <p role="alert" className="text-sm text-rose-800">An index covers at most {INDEX_FIELDS_MAX} fields.</p>}
      {create.isPending && <p role="status" className="text-sm text-slate-700">Building the index…</p>}
      {create.data?.status === 'FAILED' && <p role="alert" className="text-sm text-rose-800">The index failed: {create.data.failure?.description}</p>}
      {create.data && create.data.status !== 'FAILED' && !create.isPending && <Notice>Index {create.data.name} is {create.data.status.toLowerCase()}.</Notice>}
      <ErrorAlert error={create.error ?? drop.error} />
    </div>
  );
}
