import { useState } from 'react';
import { useProductBulkAction, type ProductBulkAction, type ProductBulkResult } from '@vitrine/react';
import type { Collection } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { SelectField, TextField, secondaryButton } from '../components/Form';

/** Bulk actions on the products ticked in the list; per-product actions show their progress. */
export function ProductsBulk({ ids, collections, onDone }: { ids: string[]; collections: Collection[]; onDone: () => void }) {
  const bulk = useProductBulkAction();
  const [percent, setPercent] = useState('10');
  const [collectionId, setCollectionId] = useState('');
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [result, setResult] = useState<ProductBulkResult>();
  const run = async (action: ProductBulkAction) => {
    setResult(undefined);
    setProgress(undefined);
    const answer = await bulk.mutateAsync({ ids, action, onProgress: (done, total) => setProgress({ done, total }) });
    setResult(answer);
    onDone();
  };
  const n = ids.length;
  const editable = collections.filter((c) => c._id !== '00000000-000000-000000-000000000001');
  return (
    <div role="group" aria-label="Bulk actions" className="mb-4 flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm">
      <span data-testid="selected-count" className="self-center">{n} selected</span>
      <TextField label="Price change %" type="number" step="1" min="-99" max="1000" value={percent} onChange={(e) => setPercent(e.target.value)} className="w-32" />
      <ConfirmButton label="Adjust prices" title="Adjust prices" confirmLabel={`Adjust ${n} prices`} className={secondaryButton}
        message={`Change the price of ${n} products by ${percent}%?`} onConfirm={() => run({ kind: 'adjust-price', adjustment: { percentage: { rate: Number(percent) } } })} />
      <SelectField label="Collection to add to" value={collectionId} onChange={(e) => setCollectionId(e.target.value)}>
        <option value="">Choose…</option>
        {editable.map((c) => <option key={c._id} value={c._id}>{c.name}</option>)}
      </SelectField>
      <button type="button" className={secondaryButton} disabled={!collectionId || bulk.isPending} onClick={() => { void run({ kind: 'add-to-collection', collectionId }); }}>Add to collection</button>
      <ConfirmButton label="Hide" title="Hide products" confirmLabel={`Hide ${n} products`} className={secondaryButton}
        message={`Hide ${n} products from the store? They stay in the catalog.`} onConfirm={() => run({ kind: 'hide' })} />
      <button type="button" className={secondaryButton} disabled={bulk.isPending} onClick={() => { void run({ kind: 'show' }); }}>Show</button>
      <ConfirmButton label="Delete selected" title="Delete products" confirmLabel={`Delete ${n} products`}
        message={`Delete ${n} products? They disappear from the store and every collection. This cannot be undone.`} onConfirm={() => run({ kind: 'delete' })} />
      {progress && bulk.isPending && <progress aria-label="Bulk progress" max={progress.total} value={progress.done} className="w-40" />}
      {result && <p role="status" className="basis-full">Done: {result.succeeded} succeeded, {result.failed} failed.</p>}
      <div className="basis-full"><ErrorAlert error={bulk.error} /></div>
    </div>
  );
}
