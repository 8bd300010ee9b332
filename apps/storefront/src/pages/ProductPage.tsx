import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useProducts } from '@vitrine/react';
import type { products } from '@vitrine/sdk/stores';
import { Price } from '../components/Price';
import { imageAttributes } from '@vitrine/sdk/media';

export function ProductPage() {
  const { slug = '' } = useParams();
  const bySlug = useCallback((q: products.ProductsQueryBuilder) => q.eq('slug', slug), [slug]);
  const query = useProducts({ limit: 1, build: bySlug });
  const [choices, setChoices] = useState<Record<string, string>>({});
  const product = query.data?.items[0];
  const variant = useMemo(() => {
    if (!product?.variants) return undefined;
    const wanted = Object.entries(choices);
    if (wanted.length !== (product.productOptions?.length ?? 0)) return undefined;
    return product.variants.find((v) => wanted.every(([k, val]) => v.choices[k] === val));
  }, [product, choices]);

  if (query.isPending) return <p className="text-stone-500">Loading…</p>;
  if (query.isError) return <p role="alert">Could not load this product: {query.error.message}</p>;
  if (!product) return <p>This product does not exist.</p>;
  const image = product.media?.mainMedia?.image;
  const attrs = imageAttributes(product.media?.mainMedia, 800);
  const inStock = variant ? variant.stock.inStock : product.stock.inStock;

  return (
    <article className="grid gap-10 md:grid-cols-2">
      <div className="aspect-square overflow-hidden rounded-lg bg-stone-200">
        {/* The large thumbnail (half the page on wide screens); the original stays a link away. */}
        {image && attrs && <img {...attrs} sizes="(min-width: 768px) 50vw, 100vw" width={image.width || undefined} height={image.height || undefined} alt={product.name} data-testid="product-image" className="h-full w-full object-cover" />}
      </div>
      <div>
        {product.brand && <p className="text-sm uppercase tracking-wide text-stone-500">{product.brand}</p>}
        <h1 className="mt-1 text-3xl font-semibold" data-testid="product-title">{product.name}</h1>
        <div className="mt-3 text-lg"><Price priceData={variant?.variant.priceData ?? product.priceData} /></div>
        <p className="mt-6 text-stone-700">{product.description}</p>
        {product.productOptions?.map((option) => (
          <fieldset key={option.name} className="mt-6">
            <legend className="mb-2 text-sm font-medium">{option.name}</legend>
            <div className="flex flex-wrap gap-2">
              {option.choices.map((choice) => {
                const selected = choices[option.name] === choice.value;
                return (
                  <button
                    key={choice.value}
                    type="button"
                    aria-pressed={selected}
                    onClick={() => setChoices((c) => ({ ...c, [option.name]: choice.value }))}
                    className={`flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm ${selected ? 'border-stone-900 bg-stone-900 text-white' : 'border-stone-300 bg-white'}`}
                  >
                    {option.optionType === 'color' && <span className="h-4 w-4 rounded-full border border-stone-300" style={{ background: choice.value }} />}
                    {choice.description}
                  </button>
                );
              })}
            </div>
          </fieldset>
        ))}
        <p className={`mt-6 text-sm ${inStock ? 'text-emerald-700' : 'text-rose-700'}`} data-testid="availability">{inStock ? 'In stock' : 'Out of stock'}</p>
      </div>
    </article>
  );
}
