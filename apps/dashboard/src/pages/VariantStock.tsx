import { useState, type FormEvent } from 'react';
import { useUpdateInventoryVariants } from '@vitrine/react';
import { STOCK_QUANTITY_MAX, variantLabel, type Product } from '../lib/catalog';
import type { Violation } from '../session';
import { ErrorAlert, Notice } from '../components/Alert';
import { CheckboxField, primaryButton, clearsOutcome } from '../components/Form';

/** Per-variant stock of a product with managed variants (one quantity or in-stock flag per variant). */
export function VariantStock({ product }: { product: Product }) {
  const variants = product.variants ?? [];
  const [track, setTrack] = useState(variants.some((v) => v.stock.trackQuantity));
  const [quantities, setQuantities] = useState<Record<string, string>>(() => Object.fromEntries(variants.map((v) => [v._id, String(v.stock.quantity ?? 0)])));
  const [inStock, setInStock] = useState<Record<string, boolean>>(() => Object.fromEntries(variants.map((v) => [v._id, v.stock.inStock])));
  const save = useUpdateInventoryVariants();
  // The server names a variant by its place in the list sent ("inventoryItem.variants[0].quantity"): say which.
  const describe = ({ field, description }: Violation) => {
    const m = /^inventoryItem\.variants\[(\d+)\]\.(quantity|inStock)$/.exec(field);
    const v = m ? variants[Number(m[1])] : undefined;
    return v ? `${m![2] === 'quantity' ? 'Quantity' : 'In stock'} of ${variantLabel(product, v)}: ${description}` : undefined;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ productId: product._id, inventoryItem: { trackQuantity: track, variants: variants.map((v) => (track
      ? { variantId: v._id, quantity: Number(quantities[v._id] ?? 0) }
      : { variantId: v._id, inStock: inStock[v._id] ?? false })) } });
  };
  return (
    <form onSubmit={submit} {...clearsOutcome(save)} aria-label="Variant stock" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Stock per variant</h3>
      <CheckboxField label="Track variant quantities" checked={track} onChange={(e) => setTrack(e.target.checked)} />
      <ul className="space-y-1 text-sm">
        {variants.map((v) => {
          const label = variantLabel(product, v);
          return (
            <li key={v._id} data-testid="variant-stock" className="flex items-center gap-3">
              <span className="flex-1">{label}</span>
              {track
                ? <input aria-label={`Quantity of ${label}`} type="number" min="0" max={STOCK_QUANTITY_MAX} step="1" value={quantities[v._id] ?? '0'} onChange={(e) => setQuantities((q) => ({ ...q, [v._id]: e.target.value }))} className="w-24 rounded border border-slate-300 px-2 py-1" />
                : <input aria-label={`In stock: ${label}`} type="checkbox" checked={inStock[v._id] ?? false} onChange={(e) => setInStock((s) => ({ ...s, [v._id]: e.target.checked }))} />}
            </li>
          );
        })}
      </ul>
      <ErrorAlert error={save.error} describe={describe} />
      {save.isSuccess && <Notice>Stock saved.</Notice>}
      <button disabled={save.isPending} className={primaryButton}>Save stock</button>
    </form>
  );
}
