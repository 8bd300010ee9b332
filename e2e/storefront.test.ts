import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { useServerAndBrowser } from './fixture.js';
import { layoutShift, open, screenshots, watchErrors } from './storefront-helpers.js';

const f = useServerAndBrowser();
/** A facet's checkbox by its value (its name also carries the count). */
const facet = (title: string, value: string) => f.page.getByTestId(`facet-${title}`).getByRole('checkbox', { name: new RegExp(`^${value} \\d+$`) });
const html = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, f.t.url), { headers: { accept: 'text/html', ...headers } });

describe('storefront pages on the server (no JavaScript)', () => {
  it('a product page carries its name, price, canonical URL, Open Graph tags and JSON-LD in the raw HTML', async () => {
    const res = await html('/product-page/roaster-hoodie');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The product page's own chunk is announced with the page (the browser has it before hydrating).
    expect(res.headers.get('link')).toMatch(/<\/assets\/ProductPage-[\w-]+\.js>; rel=modulepreload/);
    expect(res.headers.get('link')).not.toMatch(/CatalogPage|HomePage|CartPage/);
    const body = await res.text();
    expect(body).toContain('<title>Roaster Hoodie | Vitrine Demo Store</title>');
    expect(body).toContain('<h1 class="mt-1 text-3xl font-semibold" data-testid="product-title">Roaster Hoodie</h1>');
    expect(body).toContain('>$55.00</span>');
    expect(body).toContain(`<link rel="canonical" href="${f.t.url}/product-page/roaster-hoodie"/>`);
    expect(body).toContain('<meta name="description" content="Heavyweight fleece."/>');
    expect(body).toContain(`<meta property="og:url" content="${f.t.url}/product-page/roaster-hoodie"/>`);
    expect(body).toContain('<meta property="og:type" content="product"/>');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(body);
    expect(ld).not.toBeNull();
    const data = JSON.parse(ld![1]!) as Record<string, unknown>;
    expect(data).toMatchObject({
      '@context': 'https://schema.org', '@type': 'Product', name: 'Roaster Hoodie', sku: 'APP-HOD', brand: { '@type': 'Brand', name: 'Vitrine' },
      offers: { '@type': 'Offer', price: '55.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock', url: `${f.t.url}/product-page/roaster-hoodie` },
    });
  });

  it('home, collection and search pages are rendered with their products, each with its own title', async () => {
    const home = await (await html('/')).text();
    expect(home).toContain('<title>Vitrine Demo Store</title>');
    expect(home).toContain('data-testid="product-name">Cold Brew Kit</h3>');
    expect(home).toContain('href="/collections/tea"');
    const tea = await (await html('/collections/tea')).text();
    expect(tea).toContain('<title>Tea | Vitrine Demo Store</title>');
    expect(tea).toContain('<meta name="description" content="Loose-leaf teas from small gardens."/>');
    expect(tea).toContain('data-testid="total" aria-live="polite">6 products</p>');
    const search = await (await html('/search?q=kettle')).text();
    expect(search).toContain('<title>Search: kettle | Vitrine Demo Store</title>');
    expect(search).toContain('data-testid="product-name">Gooseneck Kettle</h3>');
    expect(search).toContain(`<link rel="canonical" href="${f.t.url}/search"/>`);
  });

  it('unknown paths, missing products and missing collections answer 404 with a page', async () => {
    for (const path of ['/no-such-page', '/product-page/no-such-product', '/collections/no-such-collection']) {
      const res = await html(path);
      expect(res.status, path).toBe(404);
      const body = await res.text();
      expect(body).toContain('data-testid="not-found"');
      expect(body).toContain('<meta name="robots" content="noindex"/>');
    }
    const api = await fetch(new URL('/stores/v1/nope', f.t.url), { headers: { accept: '*/*' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code).toBe('NOT_FOUND');
  });

  it('serves robots.txt and a sitemap of the home, search, collection and product pages', async () => {
    const robots = await fetch(new URL('/robots.txt', f.t.url));
    expect(robots.status).toBe(200);
    expect(await robots.text()).toBe(`User-agent: *\nAllow: /\nDisallow: /cart\nDisallow: /checkout\nDisallow: /account\nDisallow: /callback\nDisallow: /order-confirmation\nSitemap: ${f.t.url}/sitemap.xml\n`);
    const sitemap = await fetch(new URL('/sitemap.xml', f.t.url));
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locs = [...(await sitemap.text()).matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toHaveLength(2 + 5 + 26);
    expect(locs).toContain(`${f.t.url}/collections/apparel`);
    expect(locs).toContain(`${f.t.url}/product-page/ceramic-mug`);
  });

  it('renders without an AsyncLocalStorage, which would put a hook on every promise of every API request', async () => {
    // React's Node renderer runs each render inside one; from then on Node 20 calls a hook for every
    // promise the process creates (a product get cost 15% more CPU after the first page). The
    // server's own stores (storage/: query counting in tests, replica reads) are not the renderer's.
    const callers: string[] = [];
    const proto = AsyncLocalStorage.prototype as unknown as Record<'run' | 'enterWith', (...args: unknown[]) => unknown>;
    const spies = (['run', 'enterWith'] as const).map((name) => {
      const original = proto[name];
      return vi.spyOn(proto, name).mockImplementation(function (this: unknown, ...args: unknown[]) {
        callers.push(new Error().stack ?? '');
        return original.apply(this, args);
      });
    });
    try {
      for (const path of ['/', '/product-page/roaster-hoodie', '/collections/apparel']) {
        const res = await html(path, { 'accept-encoding': 'gzip' });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('</html>');
      }
      expect(callers.filter((stack) => !/packages\/server\/(src|dist)\/storage\//.test(stack))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('compresses pages and sends built assets precompressed with immutable cache headers', async () => {
    const page = await html('/', { 'accept-encoding': 'br, gzip' });
    expect(page.headers.get('content-encoding')).toBe('br');
    const text = await page.text();
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(text) ?? /src="(\/assets\/entry-client-[^"]+\.js)"/.exec(text);
    expect(script).not.toBeNull();
    for (const encoding of ['br', 'gzip']) {
      const asset = await fetch(new URL(script![1]!, f.t.url), { headers: { 'accept-encoding': encoding } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    }
  });
});

describe('storefront in the browser', () => {
  it('hydrates the home page without errors or layout shift', async () => {
    const errors = watchErrors(f.page);
    await open(f.page, `${f.t.url}/`);
    await f.page.waitForLoadState('networkidle');
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(
      ['Cold Brew Kit', 'Ceramic Mug', 'Gift Card', 'Tasting Gift Box', 'Knit Beanie', 'Canvas Apron', 'Roaster Hoodie', 'Barista T-Shirt'],
    );
    expect(await layoutShift(f.page)).toBeLessThan(0.01);
    // The first row's images are not lazy (the largest paint is among them).
    expect(await f.page.getByTestId('product-card-image').first().getAttribute('loading')).toBe('eager');
    expect(errors).toEqual([]);
    await screenshots(f.page, 'home');
  });

  it('hydrates a product page and a directly opened cart page without errors or layout shift', async () => {
    const errors = watchErrors(f.page);
    await open(f.page, `${f.t.url}/product-page/roaster-hoodie`);
    await f.page.waitForLoadState('networkidle');
    expect(await f.page.getByTestId('product-title').textContent()).toBe('Roaster Hoodie');
    expect(await layoutShift(f.page)).toBeLessThan(0.01);
    await open(f.page, `${f.t.url}/cart`);
    await f.page.waitForLoadState('networkidle');
    await expect.poll(() => f.page.getByRole('heading', { level: 1 }).textContent()).toBe('Your cart');
    expect(await layoutShift(f.page)).toBeLessThan(0.01);
    expect(errors).toEqual([]);
  });

  it('navigates in the browser: the next page replaces the old one only with its data, and Back restores where the shopper was', async () => {
    const errors = watchErrors(f.page);
    await open(f.page, `${f.t.url}/collections/tea`);
    const navigations = await f.page.evaluate(() => performance.getEntriesByType('navigation').length);
    await f.page.getByRole('link', { name: 'Earl Grey Supreme' }).click();
    await f.page.waitForURL(`${f.t.url}/product-page/earl-grey-supreme`);
    // The URL changes when the page is there: its title and data are already on screen.
    expect(await f.page.getByTestId('product-title').textContent()).toBe('Earl Grey Supreme');
    await expect.poll(() => f.page.title()).toBe('Earl Grey Supreme | Vitrine Demo Store');
    expect(await f.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${f.t.url}/product-page/earl-grey-supreme`);
    await f.page.goBack();
    await f.page.waitForURL(`${f.t.url}/collections/tea`);
    await expect.poll(() => f.page.getByTestId('total').textContent()).toBe('6 products');
    // No full page load: the router handled both moves.
    expect(await f.page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigations);
    expect(await f.page.evaluate(() => document.documentElement.dataset.hydrated)).toBe('true');
    expect(errors).toEqual([]);
  });

  it('searches as the shopper types (debounced, kept in the URL), across name, description, collection and SKU', async () => {
    await open(f.page, `${f.t.url}/search`);
    expect(await f.page.getByTestId('total').textContent()).toBe('26 products');
    const box = f.page.getByLabel('Search products', { exact: true });
    await box.fill('kettle');
    await f.page.waitForURL(`${f.t.url}/search?q=kettle`);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(['Gooseneck Kettle']);
    await box.fill('APP-HOD');
    await f.page.waitForURL(`${f.t.url}/search?q=APP-HOD`);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(['Roaster Hoodie']);
    await box.fill('apparel beanie');
    await f.page.waitForURL(/q=apparel\+beanie/);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(['Knit Beanie']);
    await box.fill('bergamot');
    await f.page.waitForURL(/q=bergamot/);
    await expect.poll(async () => (await f.page.getByTestId('product-name').allTextContents()).sort()).toEqual(['Earl Grey Supreme', 'Ethiopia Yirgacheffe']);
    await box.fill('zzzz');
    await f.page.getByTestId('no-results').waitFor();
    expect(await f.page.getByTestId('total').textContent()).toBe('0 products');
    await screenshots(f.page, 'search-no-results');
  });

  it('filters by facets with counts, sorts by the price the shopper pays, and pages survive Back', async () => {
    await open(f.page, `${f.t.url}/search`);
    const brand = f.page.getByTestId('facet-Brand');
    expect(await brand.locator('label').allInnerTexts()).toEqual(['Brewline\n7', 'Leaf & Co\n6', 'Vitrine\n5', 'Vitrine Roasters\n7']);
    await facet('Brand', 'Brewline').click();
    await f.page.waitForURL(`${f.t.url}/search?brand=Brewline`);
    await expect.poll(() => f.page.getByTestId('total').textContent()).toBe('7 products');
    await facet('Color', 'Black').click();
    await f.page.waitForURL(/o.Color=Black/);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(['Pour-Over Dripper']);
    // Counts of the brand facet follow the other selections (Black: one Brewline, one Vitrine product).
    await expect.poll(() => brand.locator('label').allInnerTexts()).toEqual(['Brewline\n1', 'Vitrine\n1']);

    await open(f.page, `${f.t.url}/collections/brewing-gear?sort=price-desc`);
    // Gooseneck Kettle: $69.00 less 15% = $58.65, under the Hand Grinder ($89) and over the French Press ($35).
    expect((await f.page.getByTestId('product-name').allTextContents()).slice(0, 3)).toEqual(['Hand Grinder', 'Gooseneck Kettle', 'Digital Scale']);
    await facet('Availability', 'In stock only').click();
    await f.page.waitForURL(/inStock=1/);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).not.toContain('Digital Scale');

    await open(f.page, `${f.t.url}/search`);
    const first = (await f.page.getByTestId('product-name').allTextContents()).join('|');
    await f.page.getByRole('link', { name: 'Page 2' }).click();
    await f.page.waitForURL(`${f.t.url}/search?page=2`);
    // The URL may change before the second page is on screen (a loaded machine): wait for its products.
    await expect.poll(async () => (await f.page.getByTestId('product-name').allTextContents()).join('|')).not.toBe(first);
    const second = await f.page.getByTestId('product-name').allTextContents();
    expect(second).toHaveLength(12);
    // A product far down the page: Back must bring the shopper back to it, not to the top.
    const last = f.page.getByRole('link', { name: second[11]! });
    await last.scrollIntoViewIfNeeded();
    const scrolled = await f.page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await last.click();
    await f.page.getByTestId('product-title').waitFor();
    // A new page starts at the top.
    await expect.poll(() => f.page.evaluate(() => window.scrollY)).toBe(0);
    await f.page.goBack();
    await f.page.waitForURL(`${f.t.url}/search?page=2`);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(second);
    await expect.poll(() => f.page.evaluate(() => window.scrollY)).toBe(scrolled);

    // Filters survive Back too.
    await facet('Brand', 'Brewline').click();
    await f.page.waitForURL(`${f.t.url}/search?brand=Brewline`);
    await expect.poll(() => f.page.getByTestId('total').textContent()).toBe('7 products');
    const filtered = await f.page.getByTestId('product-name').allTextContents();
    await f.page.getByRole('link', { name: filtered[0]! }).click();
    await f.page.getByTestId('product-title').waitFor();
    await f.page.goBack();
    await f.page.waitForURL(`${f.t.url}/search?brand=Brewline`);
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(filtered);
    expect(await facet('Brand', 'Brewline').isChecked()).toBe(true);
  });

  it('a product page puts the chosen variant in the URL, shows its price and stock and marks sold-out choices', async () => {
    await open(f.page, `${f.t.url}/product-page/roaster-hoodie`);
    expect(await f.page.getByRole('button', { name: 'XL (sold out)' }).count()).toBe(1);
    await f.page.getByRole('button', { name: 'XL (sold out)' }).click();
    await f.page.waitForURL(`${f.t.url}/product-page/roaster-hoodie?Size=XL`);
    await expect.poll(() => f.page.getByTestId('availability').textContent()).toBe('Out of stock');
    await f.page.getByRole('button', { name: 'M', exact: true }).click();
    await f.page.waitForURL(`${f.t.url}/product-page/roaster-hoodie?Size=M`);
    await expect.poll(() => f.page.getByTestId('availability').textContent()).toBe('In stock');
    await expect.poll(() => f.page.getByTestId('price').first().textContent()).toBe('$55.00');

    // A shared link opens the variant, rendered on the server.
    const body = await (await html('/product-page/house-espresso-blend?Size=1%20kg')).text();
    expect(body).toContain('>$45.00</span>');
    await open(f.page, `${f.t.url}/product-page/house-espresso-blend?Size=1%20kg`);
    expect(await f.page.getByRole('button', { name: '1 kg' }).getAttribute('aria-pressed')).toBe('true');
    await screenshots(f.page, 'product');
  });

  it('works at 360 px without horizontal scroll, with a skip link and visible focus', async () => {
    await f.page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/', '/search', '/collections/apparel', '/product-page/barista-t-shirt']) {
      await open(f.page, `${f.t.url}${path}`);
      expect(await f.page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    }
    await f.page.keyboard.press('Tab');
    const focused = f.page.locator(':focus');
    expect(await focused.textContent()).toBe('Skip to content');
    expect(await focused.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(0);
    await f.page.setViewportSize({ width: 1280, height: 800 });
  });
});
