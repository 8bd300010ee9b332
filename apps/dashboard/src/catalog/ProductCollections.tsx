import { useState } from 'react';
import { useSetProductCollections } from '@vitrine/react';
import { ALL_PRODUCTS_ID, type Collection, type Product } from '../lib/catalog';
import { CheckboxField } from '../components/Form';
import { EditorForm, EditorSection } from './Section';

/** Which collections hold the product (the built-in "All Products" always does and is not offered). */
export function ProductCollections({ product, collections }: { product: Product; collections: Collection[] }) {
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(product.collectionIds));
  const save = useSetProductCollections();
  const offered = collections.filter((c) => c._id !== ALL_PRODUCTS_ID);
  const submit = () => {
    const had = new Set(product.collectionIds);
    save.mutate({
      productId: product._id,
      add: offered.filter((c) => chosen.has(c._id) && !had.has(c._id)).map((c) => c._id),
      remove: offered.filter((c) => !chosen.has(c._id) && had.has(c._id)).map((c) => c._id),
    });
  };
  const tick = (id: string, on: boolean) => setChosen((s) => { const next = new Set(s); if (on) next.add(id); else next.delete(id); return next; });
  return (
    <EditorSection id="collections-heading" title="Collections">
      <EditorForm label="Collections" onSubmit={submit} state={save} saveLabel="Save collections" saved="Collections saved.">
        {offered.length === 0 && <p className="text-sm text-slate-600">No collections yet.</p>}
        <div className="grid grid-cols-2 gap-1 md:grid-cols-3">
          {offered.map((c) => <CheckboxField key={c._id} label={c.name} checked={chosen.has(c._id)} onChange={(e) => tick(c._id, e.target.checked)} />)}
        </div>
      </EditorForm>
    </EditorSection>
  );
}
