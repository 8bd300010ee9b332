import type { products } from '@vitrine/sdk/stores';

/**
 * The page title and description a product page states: the owner's SEO title and meta description
 * when set (the title as written, without the store's name added), else the product's name and
 * description. Disabled tags are left out.
 */
export function productHead(product: Pick<products.Product, 'name' | 'description' | 'seoData'>): { title: string; exactTitle: boolean; description: string } {
  const tags = (product.seoData?.tags ?? []).filter((t) => !t.disabled);
  const title = tags.find((t) => t.type === 'title')?.children?.trim();
  const meta = tags.find((t) => t.type === 'meta' && t.props?.name === 'description')?.props?.content;
  const description = typeof meta === 'string' && meta.trim() ? meta.trim() : product.description || `${product.name} at our store.`;
  return { title: title || product.name, exactTitle: Boolean(title), description };
}
