import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteDataCollection, useUpdateDataCollection } from '@vitrine/react';
import type { DataCollection } from '../lib/data';
import { Notice } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { CollectionForm } from './CollectionForm';
import { IndexesPanel } from './IndexesPanel';

/** The collection's definition (fields, permissions), its indexes, and deleting it; folded away until opened. */
export function CollectionSettings({ collection }: { collection: DataCollection }) {
  const update = useUpdateDataCollection();
  const remove = useDeleteDataCollection();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <summary className="cursor-pointer font-medium">Fields, permissions and indexes</summary>
      {open && (
        <div className="mt-4 space-y-6">
          {/* Keyed by revision: after a save the form restarts from what the server stored. */}
          <CollectionForm key={collection.revision} collection={collection} state={update} submitLabel="Save collection"
            onSubmit={(d) => update.mutate({ ...d, _id: collection._id, ...(collection.revision ? { revision: collection.revision } : {}) })} />
          {update.isSuccess && <Notice>Collection saved.</Notice>}
          <IndexesPanel collection={collection} />
          <ConfirmButton label="Delete collection" title="Delete collection" confirmLabel="Delete collection"
            message={`Delete the collection ${collection._id} and hide its items? The site's code that reads it stops working.`}
            onConfirm={async () => { await remove.mutateAsync(collection._id); void navigate('/data'); }} />
        </div>
      )}
    </details>
  );
}
