import { Link } from 'react-router';
import type { products } from '@vitrine/sdk/stores';
import { Price } from './Price';
import { imageAttributes } from '@vitrine/sdk/media';

export function ProductCard({ product }: { product: products.Product }) {
  const image = product.media?.mainMedia?.image;
  const attrs = imageAttributes(product.media?.mainMedia, 400);
  return (
    <Link to={`/product-page/${product.slug}`} className="group block" data-testid="product-card">
      <div className="relative aspect-square overflow-hidden rounded-lg bg-stone-200">
        {/* Small thumbnails of stored images (the server's WebP sizes); the grid is 2-4 columns wide. */}
        {image && attrs && <img {...attrs} sizes="(min-width: 768px) 25vw, 50vw" width={image.width || undefined} height={image.height || undefined} alt={product.name} loading="lazy" data-testid="product-card-image" className="h-full w-full object-cover transition group-hover:scale-105" />}
        {product.ribbon && <span className="absolute left-2 top-2 rounded bg-stone-900 px-2 py-0.5 text-xs font-medium text-white">{product.ribbon}</span>}
        {product.stock && !product.stock.inStock && <span className="absolute right-2 top-2 rounded bg-white/90 px-2 py-0.5 text-xs">Out of stock</span>}
      </div>
      <h3 className="mt-3 text-sm font-medium" data-testid="product-name">{product.name}</h3>
      <Price priceData={product.priceData} />
    </Link>
  );
}
