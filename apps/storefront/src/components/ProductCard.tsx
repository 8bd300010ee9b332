import { Link } from '../router';
import type { products } from '@vitrine/sdk/stores';
import { imageAttributes } from '@vitrine/sdk/media';
import { Price } from './Price';

/**
 * A product in a grid. The image box has a fixed aspect ratio and the image its size, so nothing
 * moves when it arrives; `eager` for the first row (the largest paint is never lazy).
 */
export function ProductCard({ product, eager = false }: { product: products.Product; eager?: boolean }) {
  const image = product.media?.mainMedia?.image;
  const attrs = imageAttributes(product.media?.mainMedia, 400);
  return (
    <Link to={`/product-page/${product.slug}`} className="group block rounded-lg" data-testid="product-card">
      <div className="relative aspect-square overflow-hidden rounded-lg bg-stone-200">
        {image && attrs && (
          <img
            {...attrs}
            sizes="(min-width: 1024px) 20vw, (min-width: 640px) 30vw, 50vw"
            width={image.width || 400}
            height={image.height || 400}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={eager ? 'high' : undefined}
            data-testid="product-card-image"
            className="h-full w-full object-cover transition group-hover:scale-105"
          />
        )}
        {product.ribbon && <span className="absolute left-2 top-2 rounded bg-stone-900 px-2 py-0.5 text-xs font-medium text-white" data-testid="ribbon">{product.ribbon}</span>}
        {!product.stock.inStock && <span className="absolute right-2 top-2 rounded bg-white px-2 py-0.5 text-xs text-stone-900">Out of stock</span>}
      </div>
      <h3 className="mt-3 text-sm font-medium group-hover:underline" data-testid="product-name">{product.name}</h3>
      <Price priceData={product.priceData} />
    </Link>
  );
}

export function ProductGrid({ items, eagerCount = 4 }: { items: products.Product[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 sm:gap-6 lg:grid-cols-4" data-testid="product-grid">
      {items.map((p, i) => <li key={p._id}><ProductCard product={p} eager={i < eagerCount} /></li>)}
    </ul>
  );
}
