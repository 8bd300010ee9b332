/** robots.txt and sitemap.xml, built from the catalog through the SDK. */
import type { ClientCore } from '@vitrine/sdk';
import { collectionListQuery, productListQuery } from '@vitrine/react';
import { SCOPE_LIMIT } from './catalog/queries';

/** Most products a sitemap lists (the protocol allows 50,000 URLs per file). */
export const SITEMAP_PRODUCTS_MAX = 5_000;

export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /cart', 'Disallow: /checkout', 'Disallow: /account', 'Disallow: /callback', 'Disallow: /order-confirmation', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function sitemapXml(client: ClientCore, origin: string): Promise<string> {
  const urls: { loc: string; lastmod?: string }[] = [{ loc: `${origin}/` }, { loc: `${origin}/search` }];
  for (const c of await collectionListQuery(client).queryFn()) {
    if (c.slug !== 'all-products') urls.push({ loc: `${origin}/collections/${encodeURIComponent(c.slug)}` });
  }
  for (let skip = 0; skip < SITEMAP_PRODUCTS_MAX; skip += SCOPE_LIMIT) {
    const page = await productListQuery(client, { limit: SCOPE_LIMIT, skip }).queryFn();
    for (const p of page.items) urls.push({ loc: `${origin}/product-page/${encodeURIComponent(p.slug)}`, lastmod: p.lastUpdated?.toISOString() });
    if (page.items.length < SCOPE_LIMIT) break;
  }
  const body = urls.map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}
