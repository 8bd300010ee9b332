import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';
import { expectRows, openSection, useSignedInDashboard } from './dashboard-helpers.js';

/** Owner dashboard, catalog: product paging, collection filter, detail drawer, edit, delete; collections. */
let t: TestServer;
let page: Page;
useSignedInDashboard((fixture) => ({ t, page } = fixture));

async function productByName(name: string) {
  const res = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { filter: { name } } } });
  expect(res.status).toBe(200);
  return res.body.products[0] as { id: string; name: string; visible: boolean; collectionIds: string[]; priceData: { price: number; discountedPrice: number }; discount: unknown; stock: { trackInventory: boolean; quantity?: number } } | undefined;
}

describe('products', () => {
  it('pages through the catalog and filters by collection', async () => {
    await expect.poll(() => page.getByTestId('pager-range').textContent()).toBe('1–25 of 26');
    expect(await page.getByTestId('product-row').count()).toBe(25);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('pager-range').textContent()).toBe('26–26 of 26');
    expect(await page.getByTestId('product-row').count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await page.getByLabel('Sort by').selectOption({ label: 'Most expensive first' });
    const api = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { sort: [{ fieldName: 'price', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }], paging: { limit: 25 } } } });
    const byPrice = api.body.products.map((p: { name: string }) => p.name) as string[];
    expect(byPrice[0]).not.toBe('Barista T-Shirt');
    await expect.poll(() => page.getByTestId('product-row').locator('td:nth-child(2)').allTextContents()).toEqual(byPrice);
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–25 of 26');
    await page.getByLabel('Sort by').selectOption({ label: 'Alphabetical' });

    await page.getByLabel('Collection').selectOption({ label: 'Tea' });
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('6 products');
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–6 of 6');
    await page.getByLabel('Search').fill('no such tea at all');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No product matches.');
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Collection').selectOption({ label: 'All collections' });
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('26 products');
  });

  it('shows a product in the drawer and saves name, price, discount, visibility and stock', async () => {
    await page.getByLabel('Search').fill('Cold Brew');
    await page.getByRole('button', { name: 'Cold Brew Kit', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Cold Brew Kit' });
    await expect.poll(() => drawer.getByTestId('product-detail').textContent()).toContain('GEAR-CBK');
    expect(await drawer.getByTestId('product-detail').textContent()).toContain('Brewing gear');

    await drawer.getByLabel('Product name').fill('Cold Brew Kit XL');
    await drawer.getByLabel('Regular price').fill('40');
    await drawer.getByLabel('Discount type').selectOption('PERCENT');
    await drawer.getByLabel('Discount value').fill('25');
    await drawer.getByLabel('Visible in the store').uncheck();
    await drawer.getByLabel('Track quantity').check();
    await drawer.getByLabel('Quantity in stock').fill('7');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('dialog', { name: 'Cold Brew Kit XL' }).getByText('Saved.').waitFor();

    const saved = await productByName('Cold Brew Kit XL');
    expect(saved).toMatchObject({
      visible: false, priceData: { price: 40, discountedPrice: 30 }, discount: { type: 'PERCENT', value: 25 }, stock: { trackInventory: true, quantity: 7 },
    });
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Search').fill('Cold Brew Kit XL');
    await expectRows(page, 'product-row', ['Cold Brew Kit XLGEAR-CBK$30.00 $40.00IN_STOCK (7)noDelete']);
  });

  it('sets stock per variant for a product with managed variants', async () => {
    await page.getByLabel('Search').fill('Barista T-Shirt');
    await page.getByRole('button', { name: 'Barista T-Shirt', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Barista T-Shirt' });
    const rows = drawer.getByTestId('variant-stock');
    await expect.poll(() => rows.count()).toBe(8);
    expect(await drawer.getByLabel('Track quantity').count()).toBe(0);
    const first = (await rows.first().textContent()) ?? '';
    expect(first).toMatch(/^Size: S, Color: /);
    await drawer.getByLabel('Track variant quantities').check();
    await drawer.getByLabel(`Quantity of ${first}`).fill('3');
    await drawer.getByRole('button', { name: 'Save stock' }).click();
    await drawer.getByText('Stock saved.').waitFor();
    // The saved product is refetched (the mutation settles after that): each form is there once.
    expect(await drawer.getByRole('form', { name: 'Edit product' }).count()).toBe(1);
    expect(await drawer.getByRole('form', { name: 'Variant stock' }).count()).toBe(1);
    expect(await drawer.getByTestId('product-detail').count()).toBe(1);
    const res = await call(t.url, `/stores-reader/v1/products/${(await productByName('Barista T-Shirt'))!.id}`, asOwner(t));
    const stocks = res.body.product.variants.map((v: { stock: unknown }) => v.stock);
    expect(stocks[0]).toEqual({ trackQuantity: true, quantity: 3, inStock: true });
    expect(stocks.slice(1)).toEqual(Array(7).fill({ trackQuantity: true, quantity: 0, inStock: false }));
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Search').fill('Cold Brew Kit XL');
  });

  it('shows the server violation of a bad edit and changes nothing', async () => {
    await page.getByRole('button', { name: 'Cold Brew Kit XL', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Cold Brew Kit XL' });
    await drawer.getByLabel('Discount value').fill('150');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => drawer.getByRole('alert').textContent()).toBe('product.discount: a percent discount is at most 100');
    expect(await productByName('Cold Brew Kit XL')).toMatchObject({ discount: { type: 'PERCENT', value: 25 } });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('deletes a product only after confirmation', async () => {
    const target = await productByName('Cold Brew Kit XL');
    await page.getByRole('button', { name: 'Delete Cold Brew Kit XL' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await productByName('Cold Brew Kit XL')).toBeDefined();
    await page.getByRole('button', { name: 'Delete Cold Brew Kit XL' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete product' }).click();
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No product matches.');
    expect((await call(t.url, `/stores-reader/v1/products/${target!.id}`, asOwner(t))).status).toBe(404);
    await page.getByLabel('Search').fill('');
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('25 products');
  });
});

describe('collections', () => {
  it('creates, renames, fills and empties a collection', async () => {
    await openSection(page, 'Collections', 'Collections');
    await page.getByLabel('New collection name').fill('Gift box ideas');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('button', { name: 'Gift box ideas', exact: true }).click();
    let drawer = page.getByRole('dialog', { name: 'Gift box ideas' });
    await expect.poll(() => drawer.getByTestId('empty').first().textContent()).toBe('No products in this collection.');

    await drawer.getByLabel('Collection name').fill('Holiday picks');
    await drawer.getByRole('button', { name: 'Rename' }).click();
    await drawer.getByText('Renamed.').waitFor();
    const listed = await call(t.url, '/stores-reader/v1/collections/query', { ...asOwner(t), body: { query: { paging: { limit: 100 } } } });
    const picks = listed.body.collections.find((c: { name: string }) => c.name === 'Holiday picks') as { id: string };
    expect(picks).toBeDefined();

    await drawer.getByLabel('Find products to add').fill('Kettle');
    await expect.poll(() => drawer.getByTestId('candidate-product').allTextContents()).toEqual(['Gooseneck KettleAdd']);
    await drawer.getByRole('button', { name: 'Add Gooseneck Kettle' }).click();
    await expectRows(page, 'collection-product', ['Gooseneck Kettle$58.65Remove']);
    await expect.poll(() => drawer.getByTestId('empty').textContent()).toBe('No other product matches.');
    expect((await productByName('Gooseneck Kettle'))!.collectionIds).toContain(picks.id);

    await drawer.getByRole('button', { name: 'Remove Gooseneck Kettle' }).click();
    await expect.poll(() => drawer.getByTestId('empty').first().textContent()).toBe('No products in this collection.');
    expect((await productByName('Gooseneck Kettle'))!.collectionIds).not.toContain(picks.id);

    await page.getByRole('button', { name: 'Close' }).click();
    drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.count()).toBe(0);
    await expect.poll(() => page.getByTestId('collection-row').filter({ hasText: 'Holiday picks' }).textContent()).toBe('Holiday picksgift-box-ideas0yesDelete');
  });
});

describe('session', () => {
  it('offers to sign in again when the server refuses the stored session', async () => {
    await page.evaluate((siteId) => sessionStorage.setItem('vitrine.dashboard.session', JSON.stringify({ sessionToken: 'vto_revoked', siteId })), t.site.id);
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: 'Your session ended' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByLabel('E-mail').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('vitrine.dashboard.session'))).toBeNull();
  });
});
