import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { updateVariantStock, variantLabel, type Product } from '../api/catalog';
import { ErrorAlert, Notice } from '../components/Alert';
import { CheckboxField, primaryButton } from '../components/Form';

/** Per-variant stock of a product with managed variants (one quantity or in-stock flag per variant). */
export function VariantStock({ product }: { product: Product }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const variants = product.variants ?? [];
  const [track, setTrack] = useState(variants.some((v) => v.stock.trackQuantity));
  const [quantities, setQuantities] = useState<Record<string, string>>(() => Object.fromEntries(variants.map((v) => [v.id, String(v.stock.quantity ?? 0)])));
  const [inStock, setInStock] = useState<Record<string, boolean>>(() => Object.fromEntries(variants.map((v) => [v.id, v.stock.inStock])));
  const save = useMutation({
    mutationFn: () => updateVariantStock(api, product.id, track, variants.map((v) => (track
      ? { variantId: v.id, quantity: Number(quantities[v.id] ?? 0) }
      : { variantId: v.id, inStock: inStock[v.id] ?? false }))),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['product', product.id] });
      await queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  return (
    <form onSubmit={submit} aria-label="Variant stock" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Stock per variant</h3>
      <CheckboxField label="Track variant quantities" checked={track} onChange={(e) => setTrack(e.target.checked)} />
      <ul className="space-y-1 text-sm">
        {variants.map((v) => {
          const label = variantLabel(product, v);
          return (
            <li key={v.id} data-testid="variant-stock" className="flex items-center gap-3">
              <span className="flex-1">{label}</span>
              {track
                ? <input aria-label={`Quantity of ${label}`} type="number" min="0" step="1" value={quantities[v.id] ?? '0'} onChange={(e) => setQuantities((q) => ({ ...q, [v.id]: e.target.value }))} className="w-24 rounded border border-slate-300 px-2 py-1" />
                : <input aria-label={`In stock: ${label}`} type="checkbox" checked={inStock[v.id] ?? false} onChange={(e) => setInStock((s) => ({ ...s, [v.id]: e.target.checked }))} />}
            </li>
          );
        })}
      </ul>
      <ErrorAlert error={save.error} />
      {save.isSuccess && <Notice>Stock saved.</Notice>}
      <button disabled={save.isPending} className={primaryButton}>Save stock</button>
    </form>
  );
}
