import { useState, type FormEvent } from 'react';
import { useUpdateProductVariants } from '@vitrine/react';
import { variantLabel, type Product } from '../lib/catalog';
import { centsText, toCents } from '../lib/money';
import { ErrorAlert, Notice } from '../components/Alert';
import { primaryButton, clearsOutcome } from '../components/Form';

/** The variants grid of a product with managed variants: price, cost and the profit they leave, per variant. */
export function VariantPrices({ product }: { product: Product }) {
  const variants = product.variants ?? [];
  const [prices, setPrices] = useState<Record<string, string>>(() => Object.fromEntries(variants.map((v) => [v._id, String(v.variant.priceData.price)])));
  const [costs, setCosts] = useState<Record<string, string>>(() => Object.fromEntries(variants.map((v) => [v._id, v.variant.costAndProfitData ? String(v.variant.costAndProfitData.itemCost) : ''])));
  const save = useUpdateProductVariants();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ productId: product._id, variants: variants.map((v) => ({
      variantIds: [v._id],
      price: Number(prices[v._id] ?? v.variant.priceData.price),
      ...(costs[v._id] ? { cost: Number(costs[v._id]) } : {}),
    })) });
  };
  return (
    <form onSubmit={submit} {...clearsOutcome(save)} aria-label="Variant prices" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Variants</h3>
      <table className="w-full text-sm">
        <thead><tr className="text-left text-slate-600"><th className="py-1 font-normal">Variant</th><th className="font-normal">Price</th><th className="font-normal">Cost</th><th className="font-normal">Profit</th></tr></thead>
        <tbody>
          {variants.map((v) => {
            const label = variantLabel(product, v);
            const price = toCents(prices[v._id] ?? '');
            const cost = toCents(costs[v._id] ?? '');
            return (
              <tr key={v._id} data-testid="variant-price">
                <td className="py-1">{label}</td>
                <td><input aria-label={`Price of ${label}`} type="number" min="0" step="0.01" required value={prices[v._id] ?? ''} onChange={(e) => setPrices((p) => ({ ...p, [v._id]: e.target.value }))} className="w-24 rounded border border-slate-300 px-2 py-1" /></td>
                <td><input aria-label={`Cost of ${label}`} type="number" min="0" step="0.01" value={costs[v._id] ?? ''} onChange={(e) => setCosts((c) => ({ ...c, [v._id]: e.target.value }))} className="w-24 rounded border border-slate-300 px-2 py-1" /></td>
                <td data-testid="variant-profit">{price !== undefined && cost !== undefined ? centsText(price - cost) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ErrorAlert error={save.error} />
      {save.isSuccess && <Notice>Variants saved.</Notice>}
      <button disabled={save.isPending} className={primaryButton}>Save variants</button>
    </form>
  );
}
