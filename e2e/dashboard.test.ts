import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { asOwner, call } from '../packages/server/test/harness.js';
import { useServerAndBrowser } from './fixture.js';
import { TEST_OWNER, ownerAccount, signInWithPassword } from './dashboard-helpers.js';

/**
 * What an owner does first: sign in with a password, create a product with two options, its
 * variants and images, and see it in the storefront; create an API key and use it. Screenshots of
 * the pages go to e2e/artifacts/.
 */
const f = useServerAndBrowser();
const SHOTS = 'e2e/artifacts';

async function productBySlug(slug: string) {
  const res = await call(f.t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(f.t), body: { query: { filter: { slug } } } });
  expect(res.status).toBe(200);
  return res.body.products[0];
}

describe('owner dashboard', () => {
  it('refuses a wrong password with the server message, then signs in with the right one', async () => {
    await ownerAccount(f.t);
    await f.page.emulateMedia({ reducedMotion: 'reduce' });
    await f.page.goto(`${f.t.url}/dashboard/`);
    await f.page.getByLabel('E-mail').fill(TEST_OWNER.email);
    await f.page.getByLabel('Password').fill('not-my-password-at-all');
    await f.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => f.page.getByRole('alert').textContent()).toBe('The e-mail or password is wrong');
    await f.page.screenshot({ path: `${SHOTS}/sign-in.png`, fullPage: true });
    await signInWithPassword(f.page, f.t);
    await expect.poll(() => f.page.getByTestId('signed-in-as').textContent()).toBe('Test Owner (owner)');
    await expect.poll(() => f.page.getByTestId('product-total').textContent()).toBe('26 products');
    await f.page.screenshot({ path: `${SHOTS}/products.png`, fullPage: true });
  });

  it('creates a product with two options, lands on it, prices a variant, adds images, and the storefront shows it', async () => {
    const page = f.page;
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Name').fill('Trail Mug');
    await form.getByLabel('Price').fill('18');
    await form.getByLabel('Cost').fill('7.5');
    await form.getByLabel('SKU').fill('MUG-TRAIL');
    await form.getByLabel('Description').fill('Enamel mug for the trail.');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 1 name').fill('Size');
    await form.getByLabel('Option 1 choices').fill('Small, Large');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 2 name').fill('Color');
    await form.getByLabel('Option 2 choices').fill('Red, Blue');
    await form.getByRole('button', { name: 'Add product' }).click();

    // Creation lands on the new product's editor page.
    await page.getByRole('heading', { level: 1, name: 'Trail Mug' }).waitFor();
    const drawer = page.getByRole('main');
    await expect.poll(() => drawer.getByTestId('variant-price').count()).toBe(4);
    expect(await drawer.getByTestId('variant-price').locator('td:first-child').allTextContents())
      .toEqual(['Size: Small, Color: Red', 'Size: Small, Color: Blue', 'Size: Large, Color: Red', 'Size: Large, Color: Blue']);
    await drawer.getByLabel('Price of Size: Large, Color: Blue').fill('21');
    await drawer.getByLabel('Cost of Size: Large, Color: Blue').fill('8.25');
    await expect.poll(() => drawer.getByTestId('variant-profit').last().textContent()).toBe('12.75');
    await drawer.getByRole('button', { name: 'Save variants' }).click();
    await drawer.getByText('Variants saved.').waitFor();

    await drawer.getByLabel('Track variant quantities').check();
    await drawer.getByLabel('Quantity of Size: Small, Color: Red').fill('0');
    for (const label of ['Size: Small, Color: Blue', 'Size: Large, Color: Red', 'Size: Large, Color: Blue']) await drawer.getByLabel(`Quantity of ${label}`).fill('5');
    await drawer.getByRole('button', { name: 'Save stock' }).click();
    await drawer.getByText('Stock saved.').waitFor();

    const png = (background: string) => sharp({ create: { width: 64, height: 48, channels: 3, background } }).png().toBuffer();
    await drawer.getByLabel('Upload images (or drop them here)').setInputFiles({ name: 'mug-front.png', mimeType: 'image/png', buffer: await png('#b23a48') });
    await expect.poll(() => drawer.getByTestId('product-media-item').count()).toBe(1);
    await drawer.getByLabel('Upload images (or drop them here)').setInputFiles({ name: 'mug-side.png', mimeType: 'image/png', buffer: await png('#2a6f97') });
    await expect.poll(() => drawer.getByTestId('product-media-item').count()).toBe(2);
    await page.screenshot({ path: `${SHOTS}/product-editor.png`, fullPage: true });

    const saved = await productBySlug('trail-mug');
    expect(saved).toMatchObject({ name: 'Trail Mug', sku: 'MUG-TRAIL', description: 'Enamel mug for the trail.', manageVariants: true });
    expect(saved.productOptions.map((o: { name: string; choices: { value: string }[] }) => [o.name, o.choices.map((c) => c.value)]))
      .toEqual([['Size', ['Small', 'Large']], ['Color', ['Red', 'Blue']]]);
    expect(saved.media.items.map((m: { title: string }) => m.title)).toEqual(['mug-front.png', 'mug-side.png']);
    const largeBlue = saved.variants.find((v: { choices: Record<string, string> }) => v.choices.Size === 'Large' && v.choices.Color === 'Blue');
    expect(largeBlue.variant.priceData.price).toBe(21);

    // The storefront shows the product, its options, the variant's price and stock.
    const shop = await f.browser.newPage();
    await shop.goto(`${f.t.url}/product-page/trail-mug`);
    await expect.poll(() => shop.getByTestId('product-title').textContent()).toBe('Trail Mug');
    await shop.getByRole('button', { name: 'Large' }).click();
    await shop.getByRole('button', { name: 'Blue' }).click();
    await expect.poll(() => shop.getByTestId('price').first().textContent()).toBe('$21.00');
    await shop.getByRole('button', { name: 'Small' }).click();
    await shop.getByRole('button', { name: 'Red' }).click();
    await expect.poll(() => shop.getByTestId('availability').textContent()).toBe('Out of stock');
    await shop.close();
    await page.getByRole('link', { name: '← Products' }).click();
  });

  it('keeps Tab inside a dialog and closes it on Escape', async () => {
    const page = f.page;
    await page.getByLabel('Search', { exact: true }).fill('Trail Mug');
    await page.getByRole('button', { name: 'Delete Trail Mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete product' });
    await dialog.waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await productBySlug('trail-mug')).name).toBe('Trail Mug');
  });

  it('creates an API key in Settings, the key works, and revoking it (after confirmation) stops it', async () => {
    const page = f.page;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByLabel('Key name').fill('Inventory sync');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^vtr_/);
    const use = await call(f.t.url, '/webhooks/v1/subscriptions', { auth: key, siteId: f.t.site.id });
    expect(use.status).toBe(200);
    // Times are labelled with the zone they are shown in.
    await expect.poll(() => page.getByTestId('api-key-row').filter({ hasText: 'Inventory sync' }).locator('td').nth(1).textContent())
      .toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} \S+$/);
    await page.screenshot({ path: `${SHOTS}/settings.png`, fullPage: true });

    await page.getByRole('button', { name: 'Revoke API key Inventory sync' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByTestId('api-key-row').filter({ hasText: 'Inventory sync' }).textContent()).toContain('REVOKED');
    expect((await call(f.t.url, '/webhooks/v1/subscriptions', { auth: key, siteId: f.t.site.id })).status).toBe(401);
  });

  it('adjusts prices, hides and deletes ticked products after confirmation', async () => {
    const page = f.page;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
    await page.getByLabel('Search', { exact: true }).fill('Trail Mug');
    await page.getByLabel('Select Trail Mug').check();
    const bulk = page.getByRole('group', { name: 'Bulk actions' });
    await expect.poll(() => bulk.getByTestId('selected-count').textContent()).toBe('1 selected');
    await bulk.getByLabel('Price change %').fill('50');
    await bulk.getByRole('button', { name: 'Adjust prices' }).click();
    await page.getByRole('dialog', { name: 'Adjust prices' }).getByRole('button', { name: 'Adjust 1 prices' }).click();
    await expect.poll(async () => (await productBySlug('trail-mug')).priceData.price).toBe(27);
    // The action clears the selection once the list is refetched; tick again only after that.
    await expect.poll(() => page.getByLabel('Select Trail Mug').isChecked()).toBe(false);

    await page.getByLabel('Select Trail Mug').check();
    await bulk.getByRole('button', { name: 'Hide' }).click();
    await page.getByRole('dialog', { name: 'Hide products' }).getByRole('button', { name: 'Hide 1 products' }).click();
    await expect.poll(async () => (await productBySlug('trail-mug')).visible).toBe(false);
    await expect.poll(() => page.getByLabel('Select Trail Mug').isChecked()).toBe(false);

    await page.getByLabel('Select Trail Mug').check();
    await bulk.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete products' }).getByRole('button', { name: 'Delete 1 products' }).click();
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No product matches.');
    expect(await productBySlug('trail-mug')).toBeUndefined();
    await page.getByLabel('Search', { exact: true }).fill('');
  });

  it('signs out: the session token stops working on the server', async () => {
    const page = f.page;
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('vitrine.dashboard.session') ?? '{}').sessionToken as string);
    expect(token).toMatch(/^vto_/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
    await expect.poll(async () => (await call(f.t.url, '/_api/vitrine/owners/v1/me', { auth: token, siteId: f.t.site.id })).status).toBe(401);
  });
});
