import type { products } from '@vitrine/sdk/stores';
import { useAddToCart } from '@vitrine/react';
import { useCartUi } from './CartDrawer';

/** The catalog app id of Vitrine's (and the platform's) stores products in cart lines. */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

export interface AddToCartProps {
  product: products.Product;
  variant: products.Variant | undefined;
  quantity: number;
  inStock: boolean;
}

/** Adds the chosen variant to the shopper's cart and opens the cart drawer. */
export function AddToCart({ product, variant, quantity, inStock }: AddToCartProps) {
  const add = useAddToCart();
  const { setOpen } = useCartUi();
  const ready = inStock && (variant !== undefined || product.productOptions.length === 0);
  const submit = () => {
    if (!ready) return;
    const options = product.productOptions.length > 0 && variant ? { variantId: variant._id } : undefined;
    add.mutate(
      { lineItems: [{ quantity, catalogReference: { appId: STORES_APP_ID, catalogItemId: product._id, ...(options ? { options } : {}) } }] },
      { onSuccess: () => setOpen(true) },
    );
  };
  return (
    <div>
      <button type="button" onClick={submit} disabled={!ready || add.isPending} className="rounded-md bg-stone-900 px-6 py-2 text-sm font-medium text-white disabled:opacity-60" data-testid="add-to-cart">
        {add.isPending ? 'Adding…' : 'Add to cart'}
      </button>
      {add.error && <p role="alert" className="mt-2 text-sm text-rose-800">{add.error.message}</p>}
    </div>
  );
}
