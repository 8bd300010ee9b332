import { useState } from 'react';
import { useUpdateProduct } from '@vitrine/react';
import { PRODUCT_LIMITS, optionInputs, type OptionDraft, type Product } from '../lib/catalog';
import { TextField, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { EditorForm, EditorSection } from './Section';

/**
 * The product's options and their choices. Saving sends the whole list: the server keeps the ids
 * and stock of variants whose choices survive and makes the new combinations.
 */
export function ProductOptions({ product }: { product: Product }) {
  const [options, setOptions] = useState<OptionDraft[]>(() => product.productOptions.map((o) => ({ name: o.name, choices: o.choices.map((c) => c.description || c.value).join(', ') })));
  const save = useUpdateProduct();
  const setOption = (i: number, patch: Partial<OptionDraft>) => setOptions((list) => list.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  // Choices the save would drop: their variants and the stock counted for them go too, so the owner confirms first.
  const [dropping, setDropping] = useState<string[]>();
  const write = () => {
    const productOptions = optionInputs(options);
    setDropping(undefined);
    save.mutate({ _id: product._id, product: { productOptions, manageVariants: productOptions.length > 0 } });
  };
  const submit = () => {
    const kept = new Set(optionInputs(options).flatMap((o) => o.choices.map((c) => `${o.name}: ${c.value}`)));
    const dropped = product.productOptions.flatMap((o) => o.choices.map((c) => `${o.name}: ${c.description || c.value}`)).filter((c) => !kept.has(c));
    if (dropped.length > 0) setDropping(dropped); else write();
  };
  return (
    <EditorSection id="options-heading" title="Options">
      <EditorForm label="Options" onSubmit={submit} state={save} saveLabel="Save options" saved="Options saved.">
        {options.length === 0 && <p className="text-sm text-slate-600">No options: the product is sold as one item.</p>}
        {options.map((o, i) => (
          <div key={i} className="flex flex-wrap items-end gap-3" data-testid="option-row">
            <TextField label={`Option ${i + 1} name`} value={o.name} maxLength={50} onChange={(e) => setOption(i, { name: e.target.value })} />
            <TextField label={`Option ${i + 1} choices`} value={o.choices} placeholder="S, M, L" onChange={(e) => setOption(i, { choices: e.target.value })} className="min-w-64 flex-1" />
            <button type="button" className={secondaryButton} aria-label={`Remove option ${i + 1}`} onClick={() => setOptions((list) => list.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {options.length < PRODUCT_LIMITS.options && (
          <button type="button" className={`${secondaryButton} block`} onClick={() => setOptions((list) => [...list, { name: '', choices: '' }])}>Add option</button>
        )}
      </EditorForm>
      {dropping && (
        <Modal title="Remove choices" onClose={() => setDropping(undefined)}>
          <p className="mb-2 text-sm text-slate-700">Saving removes these choices, with their variants and the stock counted for them:</p>
          <ul className="mb-4 list-disc pl-5 text-sm" data-testid="dropped-choices">{dropping.map((c) => <li key={c}>{c}</li>)}</ul>
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setDropping(undefined)} className="rounded border border-slate-300 px-3 py-1.5 text-sm">Cancel</button>
            <button type="button" onClick={write} className="rounded bg-rose-700 px-3 py-1.5 text-sm font-medium text-white">Remove and save</button>
          </div>
        </Modal>
      )}
    </EditorSection>
  );
}
