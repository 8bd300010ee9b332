import { useState } from 'react';
import { useUpdateProductV3 } from '@vitrine/react';
import { PRODUCT_LIMITS, PRODUCT_TEXT_MAX, type ProductV3 } from '../../lib/catalog';
import { TextField, secondaryButton } from '../../components/Form';
import { EditorForm, EditorSection } from '../Section';

/** A section's unique name from its title ("Care & use" -> "care-use"), how the catalog finds it again. */
export function uniqueNameOf(title: string): string {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 100);
}

/**
 * Info sections are shared between V3 products: the product lists the ones it shows. Existing ones
 * are kept by id; a new title reuses the section of that unique name or creates it.
 */
export function InfoSectionsV3({ product }: { product: ProductV3 }) {
  const [kept, setKept] = useState(product.infoSections);
  const [title, setTitle] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  const save = useUpdateProductV3();
  const submit = () => save.mutate({ _id: product._id, product: { revision: product.revision, infoSections: [
    ...kept.map((s) => ({ _id: s._id })),
    ...added.map((t) => ({ uniqueName: uniqueNameOf(t), title: t })),
  ] } }, { onSuccess: (saved) => { setKept(saved.infoSections); setAdded([]); } });
  const count = kept.length + added.length;
  return (
    <EditorSection id="info-heading" title="Info sections">
      <EditorForm label="Info sections" onSubmit={submit} state={save} saveLabel="Save info sections" saved="Info sections saved.">
        <ul className="space-y-1 text-sm">
          {kept.map((s) => (
            <li key={s._id} data-testid="info-v3" className="flex items-center gap-3">{s.title}
              <button type="button" className={secondaryButton} aria-label={`Remove section ${s.title}`} onClick={() => setKept((k) => k.filter((x) => x._id !== s._id))}>Remove</button>
            </li>
          ))}
          {added.map((t) => (
            <li key={t} data-testid="info-v3" className="flex items-center gap-3">{t} (new)
              <button type="button" className={secondaryButton} aria-label={`Remove section ${t}`} onClick={() => setAdded((a) => a.filter((x) => x !== t))}>Remove</button>
            </li>
          ))}
        </ul>
        {count === 0 && <p className="text-sm text-slate-600">No info sections.</p>}
        <div className="flex items-end gap-2">
          <TextField label="Section title" maxLength={PRODUCT_TEXT_MAX.infoTitle} value={title} onChange={(e) => setTitle(e.target.value)} />
          <button type="button" className={secondaryButton} disabled={!uniqueNameOf(title) || count >= PRODUCT_LIMITS.infoSections}
            onClick={() => { setAdded((a) => (a.includes(title.trim()) ? a : [...a, title.trim()])); setTitle(''); }}>Add section</button>
        </div>
      </EditorForm>
    </EditorSection>
  );
}
