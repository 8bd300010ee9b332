import type { products } from '@vitrine/sdk/stores';

export interface AddToCartProps {
  product: products.Product;
  variant: products.Variant | undefined;
  quantity: number;
  inStock: boolean;
}

/** Whether the shopper's choice can go into the cart (in stock, and a variant when there are options). */
export function readyToAdd({ product, variant, inStock }: AddToCartProps): boolean {
  return inStock && (variant !== undefined || product.productOptions.length === 0);
}

/** The button and the error of the last attempt (the same markup before and after the code loads). */
export function AddToCartView({ ready, pending, error, onAdd }: { ready: boolean; pending: boolean; error?: string; onAdd: () => void }) {
  return (
    <div>
      {/* Busy, not disabled, while adding: a disabled button would drop the focus, which the drawer gives back to it. */}
      <button type="button" onClick={() => { if (!pending) onAdd(); }} disabled={!ready} aria-disabled={pending} className="rounded-md bg-stone-900 px-6 py-2 text-sm font-medium text-white disabled:opacity-60 aria-disabled:opacity-60" data-testid="add-to-cart">
        {pending ? 'Adding…' : 'Add to cart'}
      </button>
      {error && <p role="alert" className="mt-2 text-sm text-rose-800">{error}</p>}
    </div>
  );
}
