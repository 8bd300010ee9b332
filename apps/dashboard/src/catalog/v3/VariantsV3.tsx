import { useState } from 'react';
import { useUpdateProductV3 } from '@vitrine/react';
import { amountText, variantV3Label, type ProductV3 } from '../../lib/catalog';
import { centsText, toCents } from '../../lib/money';
import { EditorForm, EditorSection } from '../Section';
import { variantV3Input } from './variant-input';

interface Row { price: string; cost: string; sku: string }

/** Price, cost, the profit they leave, and SKU per variant; saved as the product's whole variant list (ids kept, so stock stays). */
export function VariantsV3({ product }: { product: ProductV3 }) {
  const variants = product.variantsInfo.variants;
  const [rows, setRows] = useState<Record<string, Row>>(() => Object.fromEntries(variants.map((v) => [v._id, {
    price: v.price.actualPrice.amount, cost: v.revenueDetails?.cost.amount ?? '', sku: v.sku ?? '',
  }])));
  const [formError, setFormError] = useState<Error>();
  const save = useUpdateProductV3();
  const set = (id: string, patch: Partial<Row>) => setRows((r) => ({ ...r, [id]: { ...r[id]!, ...patch } }));
  const submit = () => {
    setFormError(undefined);
    const bad = variants.find((v) => !amountText(rows[v._id]!.price) || (rows[v._id]!.cost.trim() !== '' && !amountText(rows[v._id]!.cost)));
    if (bad) { setFormError(new Error(`${variantV3Label(bad)}: prices are amounts with at most two decimals, like 12.50`)); return; }
    save.mutate({ _id: product._id, product: { revision: product.revision, variantsInfo: { variants: variants.map((v) => {
      const r = rows[v._id]!;
      const stored = variantV3Input(v);
      return {
        ...stored,
        price: { ...stored.price, actualPrice: { amount: amountText(r.price)! } },
        revenueDetails: r.cost.trim() ? { cost: { amount: amountText(r.cost)! } } : null,
        sku: r.sku.trim() || null,
      };
    }) } } });
  };
  return (
    <EditorSection id="variants-heading" title="Variants">
      <EditorForm label="Variants" onSubmit={submit} state={{ ...save, error: formError ?? save.error }} saveLabel="Save variants" saved="Variants saved.">
        <table className="w-full text-sm">
          <caption className="sr-only">Price, cost, profit and SKU of each variant</caption>
          <thead><tr className="text-left text-slate-600"><th className="py-1 font-normal">Variant</th><th className="font-normal">Price</th><th className="font-normal">Cost</th><th className="font-normal">Profit</th><th className="font-normal">SKU</th></tr></thead>
          <tbody>
            {variants.map((v) => {
              const label = variantV3Label(v);
              const r = rows[v._id]!;
              const price = toCents(r.price);
              const cost = toCents(r.cost);
              return (
                <tr key={v._id} data-testid="variant-v3">
                  <td className="py-1">{label}</td>
                  <td><input aria-label={`Price of ${label}`} required inputMode="decimal" value={r.price} onChange={(e) => set(v._id, { price: e.target.value })} className="w-24 rounded border border-slate-300 px-2 py-1" /></td>
                  <td><input aria-label={`Cost of ${label}`} inputMode="decimal" value={r.cost} onChange={(e) => set(v._id, { cost: e.target.value })} className="w-24 rounded border border-slate-300 px-2 py-1" /></td>
                  <td data-testid="variant-v3-profit">{price !== undefined && cost !== undefined ? centsText(price - cost) : '—'}</td>
                  <td><input aria-label={`SKU of ${label}`} maxLength={40} value={r.sku} onChange={(e) => set(v._id, { sku: e.target.value })} className="w-32 rounded border border-slate-300 px-2 py-1" /></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </EditorForm>
    </EditorSection>
  );
}
