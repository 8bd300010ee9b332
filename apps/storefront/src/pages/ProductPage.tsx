import { useState } from 'react';
import { Link, useParams, useSearchParams } from '../router';
import { useProductBySlug } from '@vitrine/react';
import { imageAttributes } from '@vitrine/sdk/media';
import type { products } from '@vitrine/sdk/stores';
import { choiceAvailable, choicesFromUrl, variantOf } from '../catalog/variant';
import { JsonLd, Meta } from '../components/Meta';
import { productHead } from '../catalog/seo';
import { Price } from '../components/Price';
import { AddToCart } from '../cart/AddToCart';
import { useSite } from '../site';
import { NotFoundPage } from './NotFoundPage';
import { clampQuantity, quantityLimit } from '../cart/quantity';


export function ProductPage() {
  const { slug = '' } = useParams();
  const query = useProductBySlug(slug);
  const product = query.data;
  if (query.isError) return <p role="alert" className="rounded bg-rose-50 p-4 text-rose-900">Could not load this product: {query.error.message}</p>;
  if (product === null) return <NotFoundPage what="product" />;
  if (!product) return <div className="min-h-[60vh]" aria-busy="true" />;
  return <ProductView key={product._id} product={product} />;
}

function ProductView({ product }: { product: products.Product }) {
  const { origin } = useSite();
  const [params, setParams] = useSearchParams();
  const choices = choicesFromUrl(product, params);
  const variant = variantOf(product, choices);
  const [quantity, setQuantity] = useState(1);
  const gallery = product.media.items.filter((m) => m.image);
  const [shown, setShown] = useState(0);
  const current = gallery[shown] ?? product.media.mainMedia;
  const image = current?.image;
  const attrs = imageAttributes(current, 800);
  const priceData = variant?.variant.priceData ?? product.priceData;
  const inStock = variant ? variant.stock.inStock : product.stock.inStock;
  const quantityLeft = variant?.stock.trackQuantity ? variant.stock.quantity : undefined;
  const maxQuantity = quantityLimit(quantityLeft);
  // A variant with less stock than the quantity typed for the previous one gets what it has.
  const wanted = Math.min(quantity, maxQuantity);
  const path = `/product-page/${product.slug}`;
  const choose = (option: string, description: string) => {
    const next = new URLSearchParams(params);
    next.set(option, description);
    setParams(next, { replace: true, preventScrollReset: true });
  };
  const mainImage = product.media.mainMedia?.image?.url;

  return (
    <article className="grid gap-8 md:grid-cols-2 md:gap-10">
      <Meta {...productHead(product)} path={path} image={mainImage} type="product" />
      <JsonLd data={{
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.name,
        description: product.description,
        sku: product.sku,
        ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand } } : {}),
        ...(mainImage ? { image: [mainImage] } : {}),
        url: origin + path,
        offers: {
          '@type': 'Offer',
          url: origin + path,
          priceCurrency: product.priceData.currency,
          price: product.priceData.discountedPrice.toFixed(2),
          availability: product.stock.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        },
      }} />
      <div>
        <div className="aspect-square overflow-hidden rounded-lg bg-stone-200">
          {/* The page's largest image: eager and first in line. */}
          {image && attrs && <img {...attrs} sizes="(min-width: 768px) 50vw, 100vw" width={image.width || 800} height={image.height || 800} alt={current?.title || product.name} fetchPriority="high" data-testid="product-image" className="h-full w-full object-cover" />}
        </div>
        {gallery.length > 1 && (
          <ul className="mt-3 flex gap-2" aria-label="Gallery">
            {gallery.map((m, i) => {
              const thumb = imageAttributes(m, 200);
              return (
                <li key={m._id}>
                  <button type="button" onClick={() => setShown(i)} aria-pressed={i === shown} aria-label={`Show image ${i + 1}`} className={`h-16 w-16 overflow-hidden rounded border-2 ${i === shown ? 'border-stone-900' : 'border-transparent'}`}>
                    {thumb && <img {...thumb} alt="" width={64} height={64} loading="lazy" className="h-full w-full object-cover" />}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div>
        <nav aria-label="Breadcrumb" className="text-sm text-stone-700"><Link to="/" className="underline">Shop</Link> / <Link to="/search" className="underline">All products</Link></nav>
        {product.brand && <p className="mt-4 text-sm uppercase tracking-wide text-stone-700">{product.brand}</p>}
        <h1 className="mt-1 text-3xl font-semibold" data-testid="product-title">{product.name}</h1>
        {product.ribbon && <p className="mt-2 inline-block rounded bg-stone-900 px-2 py-0.5 text-xs font-medium text-white" data-testid="ribbon">{product.ribbon}</p>}
        <div className="mt-3 text-lg"><Price priceData={priceData} /></div>
        {product.description && <p className="mt-4 text-stone-800">{product.description}</p>}
        {product.productOptions.map((option) => (
          <fieldset key={option.name} className="mt-6">
            <legend className="mb-2 text-sm font-medium">{option.name}{choices[option.name] ? `: ${choices[option.name]}` : ''}</legend>
            <div className="flex flex-wrap gap-2">
              {option.choices.filter((c) => c.visible !== false).map((choice) => {
                const selected = choices[option.name] === choice.description;
                const available = choiceAvailable(product, choices, option.name, choice.description);
                return (
                  <button
                    key={choice.value}
                    type="button"
                    aria-pressed={selected}
                    aria-label={available ? choice.description : `${choice.description} (sold out)`}
                    onClick={() => choose(option.name, choice.description)}
                    className={`flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm ${selected ? 'border-stone-900 bg-stone-900 text-white' : 'border-stone-400 bg-white'} ${available ? '' : 'line-through decoration-2'}`}
                  >
                    {option.optionType === 'color' && <span aria-hidden="true" className="h-4 w-4 rounded-full border border-stone-400" style={{ background: choice.value }} />}
                    {choice.description}
                  </button>
                );
              })}
            </div>
          </fieldset>
        ))}
        <p className={`mt-6 text-sm font-medium ${inStock ? 'text-emerald-800' : 'text-rose-800'}`} data-testid="availability">
          {inStock ? (quantityLeft !== undefined && quantityLeft <= 5 ? `Only ${quantityLeft} left` : 'In stock') : 'Out of stock'}
        </p>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="quantity" className="block text-xs text-stone-700">Quantity</label>
            <input id="quantity" type="number" inputMode="numeric" min={1} max={maxQuantity} value={wanted}
              onChange={(e) => setQuantity(clampQuantity(e.target.value, maxQuantity))}
              className="w-20 rounded-md border border-stone-400 bg-white px-3 py-2 text-sm" />
          </div>
          <AddToCart product={product} variant={variant} quantity={wanted} inStock={inStock} />
        </div>
        {product.productOptions.length > 0 && !variant && <p className="mt-2 text-sm text-stone-700">Choose {product.productOptions.filter((o) => !choices[o.name]).map((o) => o.name.toLowerCase()).join(' and ')} to add it to your cart.</p>}
      </div>
    </article>
  );
}
