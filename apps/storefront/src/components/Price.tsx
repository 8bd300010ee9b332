import type { products } from '@vitrine/sdk/stores';

export function Price({ priceData }: { priceData: products.PriceData }) {
  const discounted = priceData.discountedPrice < priceData.price;
  return (
    <span className="inline-flex items-baseline gap-2">
      <span className={discounted ? 'font-semibold text-rose-800' : 'font-semibold'} data-testid="price">{priceData.formatted.discountedPrice}</span>
      {discounted && <span className="text-sm text-stone-600 line-through"><span className="sr-only">Was </span>{priceData.formatted.price}</span>}
    </span>
  );
}
