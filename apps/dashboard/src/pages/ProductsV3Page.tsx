import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateProductV3, useProductsV3 } from '@vitrine/react';
import { PRODUCT_TEXT_MAX, V3_OPTIONS_MAX, amountText, choiceCombinations, choiceList, type OptionDraft, type ProductV3 } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, TextField, primaryButton, secondaryButton } from '../components/Form';
import { useDebounced } from '../components/useDebounced';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 25;

/**
 * Products of the V3 catalog (brands, ribbons, info sections and stock at several locations live
 * there): newest first with text search and cursor paging; a new product lands on its editor.
 */
export function ProductsV3Page() {
  const [text, setText] = useState('');
  const term = useDebounced(text);
  // Cursors of the pages seen so far: the last one is the page shown; "Previous" drops it.
  const [cursors, setCursors] = useState<string[]>([]);
  const list = useProductsV3({ limit: PAGE_SIZE, text: term, cursor: cursors.at(-1), keepPrevious: true });
  const next = list.data?.pagingMetadata.cursors.next;
  const columns: Column<ProductV3>[] = [
    { header: 'Name', cell: (p) => <Link to={`/products-v3/${encodeURIComponent(p._id)}`} className="font-medium hover:underline">{p.name}</Link> },
    { header: 'Price', cell: (p) => (p.actualPriceRange.minValue.amount === p.actualPriceRange.maxValue.amount ? p.actualPriceRange.minValue.formattedAmount : `${p.actualPriceRange.minValue.formattedAmount} – ${p.actualPriceRange.maxValue.formattedAmount}`) },
    { header: 'Variants', cell: (p) => p.variantSummary.variantCount },
    { header: 'Brand', cell: (p) => p.brand?.name ?? '' },
    { header: 'Availability', cell: (p) => p.inventory.availabilityStatus },
    { header: 'Visible', cell: (p) => (p.visible ? 'yes' : 'no') },
  ];
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/products" className="text-slate-600 hover:underline">← Products (V1 catalog)</Link></p>
      <PageHeader title="Products (V3 catalog)">
        <input aria-label="Search V3 products" placeholder="Search" value={text} onChange={(e) => { setText(e.target.value); setCursors([]); }} className="ml-auto rounded border border-slate-300 px-3 py-1.5 text-sm" />
      </PageHeader>
      <CreateProductV3 />
      <div className="mt-6">
        <DataTable label="V3 products" columns={columns} rows={list.data?.products} rowKey={(p) => p._id} rowTestId="product-v3-row"
          isLoading={list.isLoading} error={list.error} empty={term ? 'No product matches.' : 'No V3 products yet.'} />
        <nav aria-label="Pagination" className="mt-3 flex justify-end gap-2 text-sm">
          <button type="button" className={secondaryButton} disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>Previous</button>
          <button type="button" className={secondaryButton} disabled={!next} onClick={() => { if (next) setCursors((c) => [...c, next]); }}>Next</button>
        </nav>
      </div>
    </section>
  );
}

/** Name, price, cost and options; every combination of choices becomes a variant at that price. */
function CreateProductV3() {
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [cost, setCost] = useState('');
  const [options, setOptions] = useState<OptionDraft[]>([]);
  const [formError, setFormError] = useState<string>();
  const create = useLocked(useCreateProductV3());
  const navigate = useNavigate();
  const setOption = (i: number, patch: Partial<OptionDraft>) => setOptions((list) => list.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const submit = () => {
    setFormError(undefined);
    const amount = amountText(price);
    const costAmount = cost.trim() ? amountText(cost) : undefined;
    if (!amount || (cost.trim() && !costAmount)) { setFormError('Prices are amounts with at most two decimals, like 12.50.'); return; }
    const named = options.filter((o) => o.name.trim() && choiceList(o.choices).length > 0).map((o) => ({ name: o.name.trim(), choices: choiceList(o.choices) }));
    create.mutate({
      name: name.trim(), productType: 'PHYSICAL',
      options: named.map((o) => ({ name: o.name, optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: o.choices.map((c) => ({ name: c, choiceType: 'CHOICE_TEXT' })) } })),
      variantsInfo: { variants: choiceCombinations(named).map((combo) => ({
        choices: combo.map((c) => ({ optionChoiceNames: { optionName: c.optionName, choiceName: c.choiceName, renderType: 'TEXT_CHOICES' } })),
        price: { actualPrice: { amount } },
        ...(costAmount ? { revenueDetails: { cost: { amount: costAmount } } } : {}),
      })) },
    }, { onSuccess: (p) => { void navigate(`/products-v3/${encodeURIComponent(p._id)}`); } });
  };
  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label="New V3 product" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-end gap-3">
        <TextField label="Name" required maxLength={PRODUCT_TEXT_MAX.name} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="Price" required inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} className="w-28" />
        <TextField label="Cost" inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} className="w-28" />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm">Options (each combination of choices is a variant)</legend>
        {options.map((o, i) => (
          <div key={i} className="flex flex-wrap items-end gap-3">
            <TextField label={`Option ${i + 1} name`} value={o.name} placeholder="Size" onChange={(e) => setOption(i, { name: e.target.value })} />
            <TextField label={`Option ${i + 1} choices`} value={o.choices} placeholder="S, M, L" onChange={(e) => setOption(i, { choices: e.target.value })} className="min-w-64 flex-1" />
            <button type="button" className={secondaryButton} aria-label={`Remove option ${i + 1}`} onClick={() => setOptions((list) => list.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {options.length < V3_OPTIONS_MAX && <button type="button" className={secondaryButton} onClick={() => setOptions((list) => [...list, { name: '', choices: '' }])}>Add option</button>}
      </fieldset>
      {formError && <p role="alert" className="text-sm text-rose-800">{formError}</p>}
      <ErrorAlert error={create.error} />
      <button disabled={create.isPending} className={primaryButton}>Add V3 product</button>
    </form>
  );
}
