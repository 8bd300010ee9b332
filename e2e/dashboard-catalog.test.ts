import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';
import { expectRows, openSection, useSignedInDashboard } from './dashboard-helpers.js';
import { axeViolations } from './a11y.js';

/** Owner dashboard, catalog: product paging, collection filter, detail drawer, edit, delete; collections. */
let t: TestServer;
let page: Page;
let browser: Browser;
useSignedInDashboard((fixture) => ({ t, page, browser } = fixture));

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
    await page.getByLabel('Search', { exact: true }).fill('no such tea at all');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No product matches.');
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Collection').selectOption({ label: 'All collections' });
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('26 products');
  });

  it('shows a product in the drawer and saves name, price, discount, visibility and stock', async () => {
    await page.getByLabel('Search', { exact: true }).fill('Cold Brew');
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
    await page.getByLabel('Search', { exact: true }).fill('Cold Brew Kit XL');
    await expectRows(page, 'product-row', ['Cold Brew Kit XLGEAR-CBK$30.00 $40.00IN_STOCK (7)noEditDelete']);
  });

  it('sets stock per variant for a product with managed variants', async () => {
    await page.getByLabel('Search', { exact: true }).fill('Barista T-Shirt');
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
    await page.getByLabel('Search', { exact: true }).fill('Cold Brew Kit XL');
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

  it('filters by visibility, availability and brand with the counts the server gives', async () => {
    const count = async (filter: Record<string, unknown>) =>
      (await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { filter, paging: { limit: 1 } } } })).body.metadata.total as number;
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Visibility').selectOption('hidden');
    const hidden = await count({ visible: false });
    expect(hidden).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe(`${hidden} products`);
    expect(await page.getByTestId('product-row').filter({ hasText: 'Cold Brew Kit XL' }).count()).toBe(1);
    await page.getByLabel('Visibility').selectOption('');
    await page.getByLabel('Stock').selectOption('out');
    const soldOut = await count({ inStock: false });
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe(`${soldOut} products`);
    await page.getByLabel('Stock').selectOption('');
    const roasters = await count({ brand: 'Vitrine Roasters' });
    expect(roasters).toBeGreaterThan(1);
    await page.getByLabel('Brand').fill('Vitrine Roasters');
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe(`${roasters} products`);
    await page.getByLabel('Brand').fill('No such brand');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No product matches.');
    await page.getByLabel('Brand').fill('');
    await page.getByLabel('Search', { exact: true }).fill('Cold Brew Kit XL');
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('1 products');
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
    await page.getByLabel('Search', { exact: true }).fill('');
    await expect.poll(() => page.getByTestId('product-total').textContent()).toBe('25 products');
  });
});

const SHOTS = 'e2e/artifacts';
const png = (background: string) => sharp({ create: { width: 64, height: 48, channels: 3, background } }).png().toBuffer();

describe('product editor', () => {
  it('creates a product with two options, lands on its editor, and every part saves and reaches the storefront', async () => {
    await page.screenshot({ path: `${SHOTS}/catalog-products.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Name').fill('Summit Flask');
    await form.getByLabel('Price').fill('30');
    await form.getByLabel('Cost').fill('12');
    await form.getByLabel('SKU').fill('FLASK-SUMMIT');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 1 name').fill('Size');
    await form.getByLabel('Option 1 choices').fill('500 ml, 750 ml');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 2 name').fill('Finish');
    await form.getByLabel('Option 2 choices').fill('Steel, Black');
    await form.getByRole('button', { name: 'Add product' }).click();

    // Creation lands on the editor page of the new product.
    await page.getByRole('heading', { level: 1, name: 'Summit Flask' }).waitFor();
    const created = await productByName('Summit Flask');
    expect(page.url()).toBe(`${t.url}/dashboard/products/${created!.id}`);
    const variants = page.getByRole('form', { name: 'Variant prices' });
    await expect.poll(() => variants.getByTestId('variant-price').locator('td:first-child').allTextContents())
      .toEqual(['Size: 500 ml, Finish: Steel', 'Size: 500 ml, Finish: Black', 'Size: 750 ml, Finish: Steel', 'Size: 750 ml, Finish: Black']);
    await variants.getByLabel('Price of Size: 750 ml, Finish: Black').fill('36');
    await variants.getByLabel('Cost of Size: 750 ml, Finish: Black').fill('14.40');
    await expect.poll(() => variants.getByTestId('variant-profit').last().textContent()).toBe('21.60');
    await variants.getByRole('button', { name: 'Save variants' }).click();
    await page.getByText('Variants saved.').waitFor();

    // General: description, brand, ribbon.
    const general = page.getByRole('form', { name: 'General' });
    await general.getByLabel('Description').fill('Double-walled flask that keeps coffee hot all day.');
    await general.getByLabel('Brand').fill('Ridgeline');
    await general.getByLabel('Ribbon').fill('New');
    await general.getByRole('button', { name: 'Save general' }).click();
    await general.getByText('Saved.').waitFor();

    // Images: two chosen at once, one dropped on the drop zone; then the third moved first.
    const media = page.getByRole('region', { name: 'Images' });
    await media.getByLabel('Upload images (or drop them here)').setInputFiles([
      { name: 'flask-front.png', mimeType: 'image/png', buffer: await png('#1d3557') },
      { name: 'flask-side.png', mimeType: 'image/png', buffer: await png('#457b9d') },
    ]);
    await media.getByText('2 images added.').waitFor();
    const dropped = (await png('#e63946')).toString('base64');
    const transfer = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'flask-top.png', { type: 'image/png' }));
      return dt;
    }, dropped);
    await media.getByTestId('media-drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => media.getByTestId('product-media-item').count()).toBe(3);
    await media.getByRole('button', { name: 'Move flask-top.png earlier' }).click();
    await media.getByRole('button', { name: 'Move flask-top.png earlier' }).click();
    await expect.poll(async () => ((await productByName('Summit Flask')) as unknown as { media: { items: { title: string }[] } }).media.items.map((m) => m.title))
      .toEqual(['flask-top.png', 'flask-front.png', 'flask-side.png']);
    await expect.poll(() => media.getByTestId('product-media-item').locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt'))))
      .toEqual(['flask-top.png', 'flask-front.png', 'flask-side.png']);

    // Stock per variant (the V1 catalog keeps stock at one location).
    const stock = page.getByRole('form', { name: 'Variant stock' });
    await stock.getByLabel('Track variant quantities').check();
    await stock.getByLabel('Quantity of Size: 500 ml, Finish: Steel').fill('4');
    await stock.getByRole('button', { name: 'Save stock' }).click();
    await stock.getByText('Stock saved.').waitFor();

    // Collections, info sections, SEO.
    const inCollections = page.getByRole('form', { name: 'Collections' });
    await inCollections.getByLabel('Tea', { exact: true }).check();
    await inCollections.getByRole('button', { name: 'Save collections' }).click();
    await inCollections.getByText('Collections saved.').waitFor();
    const info = page.getByRole('form', { name: 'Info sections' });
    await info.getByRole('button', { name: 'Add info section' }).click();
    await info.getByLabel('Section 1 title').fill('Care');
    await info.getByLabel('Section 1 text').fill('Hand wash only.');
    await info.getByRole('button', { name: 'Save info sections' }).click();
    await info.getByText('Info sections saved.').waitFor();
    const seo = page.getByRole('form', { name: 'SEO' });
    await seo.getByLabel('SEO title').fill('Summit Flask | Ridgeline');
    await seo.getByLabel('SEO description').fill('A flask for long days outside.');
    await seo.getByRole('button', { name: 'Save SEO' }).click();
    await seo.getByText('SEO saved.').waitFor();
    await page.screenshot({ path: `${SHOTS}/catalog-product-editor.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const saved = await call(t.url, `/stores-reader/v1/products/${created!.id}`, asOwner(t));
    const tea = (await call(t.url, '/stores-reader/v1/collections/query', { ...asOwner(t), body: { query: { filter: { name: 'Tea' } } } })).body.collections[0] as { id: string };
    expect(saved.body.product).toMatchObject({
      sku: 'FLASK-SUMMIT', brand: 'Ridgeline', ribbon: 'New', description: 'Double-walled flask that keeps coffee hot all day.',
      additionalInfoSections: [{ title: 'Care', description: 'Hand wash only.' }],
      seoData: { tags: [{ type: 'title', children: 'Summit Flask | Ridgeline' }, { type: 'meta', props: { name: 'description', content: 'A flask for long days outside.' } }] },
    });
    expect(saved.body.product.collectionIds).toContain(tea.id);
    const large = saved.body.product.variants.find((v: { choices: Record<string, string> }) => v.choices.Size === '750 ml' && v.choices.Finish === 'Black');
    expect(large.variant.priceData.price).toBe(36);

    // The storefront's product page shows it: title, brand, ribbon, the moved image first, the variant price.
    const shop = await browser.newPage();
    await shop.goto(`${t.url}/product-page/${saved.body.product.slug}`);
    await expect.poll(() => shop.getByTestId('product-title').textContent()).toBe('Summit Flask');
    // The page head states the SEO title as the owner wrote it, and the SEO description.
    expect(await shop.title()).toBe('Summit Flask | Ridgeline');
    expect(await shop.locator('meta[name="description"]').getAttribute('content')).toBe('A flask for long days outside.');
    expect(await shop.getByTestId('ribbon').textContent()).toBe('New');
    expect(await shop.getByText('Ridgeline', { exact: true }).count()).toBe(1);
    expect(await shop.getByTestId('product-image').getAttribute('alt')).toBe('flask-top.png');
    expect(await shop.getByRole('list', { name: 'Gallery' }).getByRole('button').count()).toBe(3);
    await shop.getByRole('button', { name: '750 ml' }).click();
    await shop.getByRole('button', { name: 'Black' }).click();
    await expect.poll(() => shop.getByTestId('price').first().textContent()).toBe('$36.00');
    await shop.close();
  });

  it('asks before an option edit drops a choice, then shows the server violation, keeps the typing, and changes nothing', async () => {
    const options = page.getByRole('form', { name: 'Options' });
    const long = `${'y'.repeat(101)}, 750 ml`;
    await options.getByLabel('Option 1 choices').fill(long);
    // Dropping a choice drops its variants and their stock: the editor asks first.
    await options.getByRole('button', { name: 'Save options' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove choices' });
    expect(await confirm.getByTestId('dropped-choices').locator('li').allTextContents()).toEqual(['Size: 500 ml']);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await options.getByRole('button', { name: 'Save options' }).click();
    await confirm.getByRole('button', { name: 'Remove and save' }).click();
    await expect.poll(() => options.getByRole('alert').textContent()).toMatch(/^product\.productOptions\[0\]\.choices\[0\]\.\w+: /);
    expect(await options.getByLabel('Option 1 choices').inputValue()).toBe(long);
    const p = await productByName('Summit Flask') as unknown as { productOptions: { name: string; choices: { value: string }[] }[] };
    expect(p.productOptions.map((o) => [o.name, o.choices.map((c) => c.value)])).toEqual([['Size', ['500 ml', '750 ml']], ['Finish', ['Steel', 'Black']]]);
  });

  it('removes an image and deletes the product only after confirmation', async () => {
    const media = page.getByRole('region', { name: 'Images' });
    await media.getByRole('button', { name: 'Remove flask-side.png' }).click();
    await page.getByRole('dialog', { name: 'Remove image' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await media.getByTestId('product-media-item').count()).toBe(3);
    await media.getByRole('button', { name: 'Remove flask-side.png' }).click();
    await page.getByRole('dialog', { name: 'Remove image' }).getByRole('button', { name: 'Remove image' }).click();
    await expect.poll(() => media.getByTestId('product-media-item').count()).toBe(2);

    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await productByName('Summit Flask')).toBeDefined();
    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    expect(await productByName('Summit Flask')).toBeUndefined();
  });
});

/** A second stock location (any GUID names one). */
const WAREHOUSE = '3f1c2a4e-0b7d-4c55-9e61-2a8f0c1d9b70';

describe('V3 product editor', () => {
  async function productV3(id: string) {
    const res = await call(t.url, `/stores/v3/products/${id}?fields=MERCHANT_DATA`, asOwner(t));
    expect(res.status).toBe(200);
    return res.body.product as {
      revision: string; brand?: { name: string }; ribbon?: { name: string }; infoSections: { title: string; uniqueName: string }[]; seoData?: { tags: unknown[] };
      media: { itemsInfo: { items: { displayName: string; altText: string | null }[] } };
      variantsInfo: { variants: { id: string; sku?: string; price: { actualPrice: { amount: string } }; revenueDetails?: { cost: { amount: string }; profit: { amount: string } }; choices: { optionChoiceNames: { optionName: string; choiceName: string } }[] }[] };
    };
  }

  it('creates a V3 product with options, lands on its editor, and saves general, images, variants, stock by location, info sections and SEO', async () => {
    await page.goto(`${t.url}/dashboard/products-v3`);
    await page.getByRole('heading', { name: 'Products (V3 catalog)' }).waitFor();
    const form = page.getByRole('form', { name: 'New V3 product' });
    await form.getByLabel('Name').fill('Canyon Bottle');
    await form.getByLabel('Price').fill('24');
    await form.getByLabel('Cost').fill('9.5');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 1 name').fill('Volume');
    await form.getByLabel('Option 1 choices').fill('0.5 l, 1 l');
    await form.getByLabel('Price').fill('24.999');
    await form.getByRole('button', { name: 'Add V3 product' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Prices are amounts with at most two decimals, like 12.50.');
    await form.getByLabel('Price').fill('24');
    await form.getByRole('button', { name: 'Add V3 product' }).click();
    await page.getByRole('heading', { level: 1, name: 'Canyon Bottle' }).waitFor();
    const id = decodeURIComponent(page.url().split('/products-v3/')[1]!);

    const general = page.getByRole('form', { name: 'General' });
    await general.getByLabel('Brand').fill('Mesa');
    await general.getByLabel('Ribbon').fill('Sale');
    await general.getByRole('button', { name: 'Save general' }).click();
    await general.getByText('Saved.').waitFor();

    const variants = page.getByRole('form', { name: 'Variants' });
    await expect.poll(() => variants.getByTestId('variant-v3').locator('td:first-child').allTextContents()).toEqual(['Volume: 0.5 l', 'Volume: 1 l']);
    expect(await variants.getByTestId('variant-v3-profit').allTextContents()).toEqual(['14.50', '14.50']);
    await variants.getByLabel('Price of Volume: 1 l').fill('31');
    await variants.getByLabel('Cost of Volume: 1 l').fill('11.25');
    await variants.getByLabel('SKU of Volume: 1 l').fill('CANYON-1L');
    await expect.poll(() => variants.getByTestId('variant-v3-profit').last().textContent()).toBe('19.75');
    await variants.getByRole('button', { name: 'Save variants' }).click();
    await page.getByText('Variants saved.').waitFor();

    const media = page.getByRole('region', { name: 'Images' });
    await media.getByLabel('Upload images (or drop them here)').setInputFiles([
      { name: 'bottle-a.png', mimeType: 'image/png', buffer: await png('#264653') },
      { name: 'bottle-b.png', mimeType: 'image/png', buffer: await png('#2a9d8f') },
    ]);
    await expect.poll(() => media.getByTestId('product-media-item').count()).toBe(2);
    await media.getByRole('button', { name: 'Move bottle-b.png earlier' }).click();
    await expect.poll(async () => (await productV3(id)).media.itemsInfo.items.map((m) => m.displayName)).toEqual(['bottle-b.png', 'bottle-a.png']);
    await media.getByLabel('Alt text of bottle-b.png').fill('Teal bottle, one litre');
    await media.getByRole('button', { name: 'Save alt texts' }).click();
    await expect.poll(async () => (await productV3(id)).media.itemsInfo.items.map((m) => m.altText)).toEqual(['Teal bottle, one litre', null]);
    await expect.poll(() => media.getByRole('img').first().getAttribute('alt')).toBe('Teal bottle, one litre');

    const byLocation = page.getByRole('form', { name: 'Stock by location' });
    await expect.poll(() => byLocation.getByTestId('stock-row').count()).toBe(2);
    // A new V3 product's stock is not counted: count it for one variant.
    expect(await byLocation.getByLabel('Available at Default location: Volume: 0.5 l').isChecked()).toBe(true);
    await byLocation.getByLabel('Counted at Default location: Volume: 0.5 l').check();
    await byLocation.getByLabel('Units at Default location: Volume: 0.5 l').fill('6');
    await byLocation.getByLabel('New location id').fill('not-a-guid');
    await byLocation.getByRole('button', { name: 'Add location' }).click();
    await expect.poll(() => byLocation.getByRole('alert').textContent()).toContain('A location id is a GUID');
    await byLocation.getByLabel('New location id').fill(WAREHOUSE);
    await byLocation.getByRole('button', { name: 'Add location' }).click();
    await expect.poll(() => byLocation.getByTestId('stock-row').count()).toBe(4);
    await byLocation.getByLabel(`Units at Location ${WAREHOUSE}: Volume: 1 l`).fill('9');
    await byLocation.getByRole('button', { name: 'Save stock by location' }).click();
    await byLocation.getByText('Stock by location saved.').waitFor();
    const rows = await call(t.url, '/stores/v3/inventory-items/query', { ...asOwner(t), body: { query: { filter: { productId: id }, cursorPaging: { limit: 100 } } } });
    const stock = (rows.body.inventoryItems as { locationId: string; quantity?: number; variantId: string }[]).map((r) => `${r.locationId === WAREHOUSE ? 'warehouse' : 'default'}: ${r.quantity ?? 'not counted'}`);
    expect(stock.sort()).toEqual(['default: 6', 'default: not counted', 'warehouse: 0', 'warehouse: 9']);

    const info = page.getByRole('form', { name: 'Info sections' });
    await info.getByLabel('Section title').fill('Care & use');
    await info.getByRole('button', { name: 'Add section' }).click();
    await info.getByRole('button', { name: 'Save info sections' }).click();
    await info.getByText('Info sections saved.').waitFor();
    const seo = page.getByRole('form', { name: 'SEO' });
    await seo.getByLabel('SEO title').fill('Canyon Bottle | Mesa');
    await seo.getByLabel('SEO description').fill('Keeps water cold all day.');
    await seo.getByRole('button', { name: 'Save SEO' }).click();
    await seo.getByText('SEO saved.').waitFor();
    await page.screenshot({ path: `${SHOTS}/catalog-product-v3-editor.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const saved = await productV3(id);
    expect(saved).toMatchObject({ brand: { name: 'Mesa' }, ribbon: { name: 'Sale' }, infoSections: [{ title: 'Care & use', uniqueName: 'care-use' }] });
    expect(saved.seoData).toEqual({ tags: [{ type: 'title', children: 'Canyon Bottle | Mesa' }, { type: 'meta', props: { name: 'description', content: 'Keeps water cold all day.' } }] });
    const litre = saved.variantsInfo.variants.find((v) => v.choices[0]!.optionChoiceNames.choiceName === '1 l')!;
    expect(litre).toMatchObject({ sku: 'CANYON-1L', price: { actualPrice: { amount: '31' } }, revenueDetails: { cost: { amount: '11.25' }, profit: { amount: '19.75' } } });
  });

  it('refuses a stale write with the server message, and deletes after confirmation', async () => {
    const id = decodeURIComponent(page.url().split('/products-v3/')[1]!);
    // Another owner changes the product meanwhile: this page still holds the older revision.
    const current = await productV3(id);
    const other = await call(t.url, `/stores/v3/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product: { revision: current.revision, visible: false } } });
    expect(other.status).toBe(200);
    const general = page.getByRole('form', { name: 'General' });
    await general.getByLabel('Product name').fill('Canyon Bottle II');
    await general.getByRole('button', { name: 'Save general' }).click();
    await expect.poll(() => general.getByRole('alert').textContent()).toMatch(/revision/i);
    expect((await call(t.url, `/stores/v3/products/${id}`, asOwner(t))).body.product.name).toBe('Canyon Bottle');

    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await call(t.url, `/stores/v3/products/${id}`, asOwner(t))).status).toBe(200);
    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('heading', { name: 'Products (V3 catalog)' }).waitFor();
    expect((await call(t.url, `/stores/v3/products/${id}`, asOwner(t))).status).toBe(404);
    await page.goto(`${t.url}/dashboard/products`);
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
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
    // The drawer's title follows the rename.
    drawer = page.getByRole('dialog', { name: 'Holiday picks' });
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
