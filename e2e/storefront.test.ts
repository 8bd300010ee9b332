import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './fixture.js';

const f = useServerAndBrowser();

describe('storefront', () => {
  it('lists the demo products with images and prices, newest first', async () => {
    await f.page.goto(`${f.t.url}/`);
    await f.page.getByTestId('product-card').first().waitFor();
    expect(await f.page.getByTestId('total').textContent()).toBe('26 products');
    const names = await f.page.getByTestId('product-name').allTextContents();
    expect(names).toHaveLength(12);
    expect(names.slice(0, 3)).toEqual(['Cold Brew Kit', 'Ceramic Mug', 'Gift Card']);
    const img = f.page.locator('[data-testid="product-card"] img').first();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(800);
  });

  it('pages, searches and sorts through the SDK', async () => {
    await f.page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => f.page.getByTestId('product-card').count()).toBe(24);
    await f.page.getByLabel('Search products').fill('kettle');
    await expect.poll(() => f.page.getByTestId('product-name').allTextContents()).toEqual(['Gooseneck Kettle']);
    await f.page.getByLabel('Search products').fill('');
    await f.page.getByLabel('Sort').selectOption('price-desc');
    await expect.poll(async () => (await f.page.getByTestId('product-name').allTextContents()).slice(0, 2)).toEqual(['Hand Grinder', 'Gooseneck Kettle']);
  });

  it('answers the storefront and dashboard roots to any client, and a JSON 404 to scripts elsewhere', async () => {
    for (const root of ['/', '/dashboard/']) {
      const res = await fetch(new URL(root, f.t.url), { headers: { accept: '*/*' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<div id="root">');
    }
    const api = await fetch(new URL('/stores/v1/nope', f.t.url), { headers: { accept: '*/*' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code).toBe('NOT_FOUND');
  });

  it('filters by collection', async () => {
    await f.page.goto(`${f.t.url}/`);
    await f.page.getByRole('navigation', { name: 'Collections' }).getByRole('button', { name: 'Tea' }).click();
    await expect.poll(() => f.page.getByTestId('total').textContent()).toBe('6 products');
    expect(await f.page.getByRole('heading', { level: 1 }).textContent()).toBe('Tea');
    expect(f.page.url()).toBe(`${f.t.url}/?collection=tea`);
    expect((await f.page.getByTestId('product-name').allTextContents()).sort()).toEqual(
      ['Darjeeling First Flush', 'Earl Grey Supreme', 'Jasmine Pearls', 'Matcha Ceremonial', 'Rooibos Vanilla', 'Sencha Kagoshima'],
    );
  });

  it('shows a product with variant prices and stock', async () => {
    await f.page.goto(`${f.t.url}/product-page/roaster-hoodie`);
    await expect.poll(() => f.page.getByTestId('product-title').textContent()).toBe('Roaster Hoodie');
    await f.page.getByRole('button', { name: 'XL' }).click();
    expect(await f.page.getByTestId('availability').textContent()).toBe('Out of stock');
    await f.page.getByRole('button', { name: 'M', exact: true }).click();
    expect(await f.page.getByTestId('availability').textContent()).toBe('In stock');
    expect(await f.page.getByTestId('price').first().textContent()).toBe('$55.00');
  });
});
