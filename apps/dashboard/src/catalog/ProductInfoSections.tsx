import { useState } from 'react';
import { useUpdateProduct } from '@vitrine/react';
import { PRODUCT_LIMITS, PRODUCT_TEXT_MAX, type Product } from '../lib/catalog';
import { TextField, secondaryButton } from '../components/Form';
import { EditorForm, EditorSection } from './Section';

interface InfoDraft { title: string; description: string }

/** Additional info sections (title and text, e.g. "Care", "Shipping") shown under the product in the store. */
export function ProductInfoSections({ product }: { product: Product }) {
  const [sections, setSections] = useState<InfoDraft[]>(() => product.additionalInfoSections.map((s) => ({ ...s })));
  const save = useUpdateProduct();
  const set = (i: number, patch: Partial<InfoDraft>) => setSections((list) => list.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const submit = () => save.mutate({ _id: product._id, product: { additionalInfoSections: sections.filter((s) => s.title.trim()).map((s) => ({ title: s.title.trim(), description: s.description })) } });
  return (
    <EditorSection id="info-heading" title="Info sections">
      <EditorForm label="Info sections" onSubmit={submit} state={save} saveLabel="Save info sections" saved="Info sections saved.">
        {sections.length === 0 && <p className="text-sm text-slate-600">No info sections.</p>}
        {sections.map((s, i) => (
          <div key={i} className="space-y-2 rounded border border-slate-200 p-3" data-testid="info-section">
            <TextField label={`Section ${i + 1} title`} required maxLength={PRODUCT_TEXT_MAX.infoTitle} value={s.title} onChange={(e) => set(i, { title: e.target.value })} />
            <label className="block text-sm">{`Section ${i + 1} text`}
              <textarea value={s.description} maxLength={PRODUCT_TEXT_MAX.infoText} rows={2} onChange={(e) => set(i, { description: e.target.value })} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" />
            </label>
            <button type="button" className={secondaryButton} aria-label={`Remove section ${i + 1}`} onClick={() => setSections((list) => list.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {sections.length < PRODUCT_LIMITS.infoSections && (
          <button type="button" className={`${secondaryButton} block`} onClick={() => setSections((list) => [...list, { title: '', description: '' }])}>Add info section</button>
        )}
      </EditorForm>
    </EditorSection>
  );
}
