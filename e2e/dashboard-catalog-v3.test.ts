import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';
import { expectRows, useSignedInDashboard } from './dashboard-helpers.js';
import { axeViolations } from './a11y.js';

/** Owner dashboard, V3 editor: the Options card changes a stored product's options and variants in one update. */
let t: TestServer;
let page: Page;
useSignedInDashboard((fixture) => ({ t, page } = fixture));

const SHOTS = 'e2e/artifacts';
/** A second stock location (any GUID names one). */
const WAREHOUSE = '3f1c2a4e-0b7d-4c55-9e61-2a8f0c1d9b70';

interface StoredV3 {
  revision: string;
  options: { id: string; name: string; choicesSettings: { choices: { choiceId: string; name: string }[] } }[];
  variantsInfo: { variants: { id: string; sku: string | null; price: { actualPrice: { amount: string } }; choices: { optionChoiceNames: { optionName: string; choiceName: string } }[] }[] };
}

async function productV3(id: string): Promise<StoredV3> {
  const res = await call(t.url, `/stores/v3/products/${id}?fields=MERCHANT_DATA`, asOwner(t));
  expect(res.status).toBe(200);
  return res.body.product as StoredV3;
}

/** Options as "Size: S, M" and variants as "id | Size: S, Color: Black | price | sku", as the server stores them. */
const optionsOf = (p: StoredV3) => p.options.map((o) => `${o.name}: ${o.choicesSettings.choices.map((c) => c.name).join(', ')}`);
const variantsOf = (p: StoredV3) => p.variantsInfo.variants.map((v) => [v.id, v.choices.map((c) => `${c.optionChoiceNames.optionName}: ${c.optionChoiceNames.choiceName}`).join(', '), v.price.actualPrice.amount, v.sku]);

async function stockRows(productId: string) {
  const res = await call(t.url, '/stores/v3/inventory-items/query', { ...asOwner(t), body: { query: { filter: { productId }, cursorPaging: { limit: 100 } } } });
  expect(res.status).toBe(200);
  return (res.body.inventoryItems as { variantId: string; locationId: string; trackQuantity: boolean; quantity?: number }[])
    .map((r) => `${r.variantId}@${r.locationId === WAREHOUSE ? 'warehouse' : 'default'}: ${r.trackQuantity ? r.quantity : 'not counted'}`).sort();
}

describe('V3 product editor: options', () => {
  it('adds an option, removes a choice after confirmation, and the server keeps exactly the planned variants with their ids', async () => {
    await page.goto(`${t.url}/dashboard/products-v3`);
    await page.getByRole('heading', { name: 'Products (V3 catalog)' }).waitFor();
    const create = page.getByRole('form', { name: 'New V3 product' });
    await create.getByLabel('Name').fill('Trail Tee');
    await create.getByLabel('Price').fill('20');
    await create.getByRole('button', { name: 'Add option' }).click();
    await create.getByLabel('Option 1 name').fill('Size');
    await create.getByLabel('Option 1 choices').fill('S, M');
    await create.getByRole('button', { name: 'Add V3 product' }).click();
    await page.getByRole('heading', { level: 1, name: 'Trail Tee' }).waitFor();
    const id = decodeURIComponent(page.url().split('/products-v3/')[1]!);
    const [small, medium] = (await productV3(id)).variantsInfo.variants.map((v) => v.id);

    // The small variant gets a SKU and counted stock at two locations, which must survive every options change below.
    const variants = page.getByRole('form', { name: 'Variants' });
    await variants.getByLabel('SKU of Size: S').fill('TEE-S');
    await variants.getByRole('button', { name: 'Save variants' }).click();
    await variants.getByText('Variants saved.').waitFor();
    const byLocation = page.getByRole('form', { name: 'Stock by location' });
    await byLocation.getByLabel('Counted at Default location: Size: S').check();
    await byLocation.getByLabel('Units at Default location: Size: S').fill('5');
    await byLocation.getByLabel('New location id').fill(WAREHOUSE);
    await byLocation.getByRole('button', { name: 'Add location' }).click();
    await byLocation.getByLabel(`Units at Location ${WAREHOUSE}: Size: S`).fill('3');
    await byLocation.getByRole('button', { name: 'Save stock by location' }).click();
    await byLocation.getByText('Stock by location saved.').waitFor();

    // A second option with two choices: four variants, the stored two continuing under its first choice.
    const options = page.getByRole('form', { name: 'Options' });
    await expectRows(page, 'option-v3-choice', ['S×', 'M×']);
    await options.getByLabel('New option name').fill('Color');
    await options.getByLabel('New option choices').fill('Black, White');
    await options.getByRole('button', { name: 'Add option' }).click();
    await expectRows(page, 'planned-variant', ['Size: S, Color: Black', 'Size: S, Color: White (new)', 'Size: M, Color: Black', 'Size: M, Color: White (new)']);
    expect(await options.getByTestId('options-plan-summary').textContent()).toBe('After saving: 4 variants (2 new, 0 removed).');
    await options.getByRole('button', { name: 'Save options' }).click();
    await options.getByText('Options saved.').waitFor();
    const grid = ['Size: S, Color: Black', 'Size: S, Color: White', 'Size: M, Color: Black', 'Size: M, Color: White'];
    await expect.poll(() => variants.getByTestId('variant-v3').locator('td:first-child').allTextContents()).toEqual(grid);
    // Stock rows come in the inventory's own order; new variants have a row at the default location only.
    await expect.poll(async () => (await byLocation.getByTestId('stock-row').locator('td:first-child').allTextContents()).sort())
      .toEqual([...grid, 'Size: S, Color: Black', 'Size: M, Color: Black'].sort());
    expect(await byLocation.getByLabel('Units at Default location: Size: S, Color: Black').inputValue()).toBe('5');
    expect(await byLocation.getByLabel(`Units at Location ${WAREHOUSE}: Size: S, Color: Black`).inputValue()).toBe('3');
    // Adding the warehouse again gives the new variants their rows there.
    await byLocation.getByLabel('New location id').fill(WAREHOUSE);
    await byLocation.getByRole('button', { name: 'Add location' }).click();
    await expect.poll(() => byLocation.getByTestId('stock-row').count()).toBe(8);
    await byLocation.getByLabel('New location id').fill(WAREHOUSE);
    await byLocation.getByRole('button', { name: 'Add location' }).click();
    await expect.poll(() => byLocation.getByRole('alert').textContent()).toBe(`Location ${WAREHOUSE} is already listed for every variant.`);
    await byLocation.getByLabel(`Units at Location ${WAREHOUSE}: Size: S, Color: White`).fill('2');
    await byLocation.getByRole('button', { name: 'Save stock by location' }).click();
    await byLocation.getByText('Stock by location saved.').waitFor();
    const four = await productV3(id);
    expect(optionsOf(four)).toEqual(['Size: S, M', 'Color: Black, White']);
    const [, smallWhite, , mediumWhite] = four.variantsInfo.variants.map((v) => v.id);
    expect(variantsOf(four)).toEqual([
      [small, 'Size: S, Color: Black', '20', 'TEE-S'], [smallWhite, 'Size: S, Color: White', '20', null],
      [medium, 'Size: M, Color: Black', '20', null], [mediumWhite, 'Size: M, Color: White', '20', null],
    ]);

    await variants.getByLabel('Price of Size: M, Color: White').fill('26');
    await variants.getByRole('button', { name: 'Save variants' }).click();
    await variants.getByText('Variants saved.').waitFor();
    expect(variantsOf(await productV3(id))[3]).toEqual([mediumWhite, 'Size: M, Color: White', '26', null]);

    // Removing M drops two stored variants: the dialog lists them; Cancel and Escape keep the choice.
    const removeM = options.getByRole('button', { name: 'Remove choice M of Size' });
    await removeM.click();
    const dialog = page.getByRole('dialog', { name: 'Remove choice' });
    await expect.poll(() => dialog.locator('p').first().textContent()).toBe('Removing choice M of Size: 2 variants go when you save, with their stock, SKUs and prices:');
    expect(await dialog.getByTestId('variants-going').locator('li').allTextContents()).toEqual(['Size: M, Color: Black', 'Size: M, Color: White']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await removeM.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expectRows(page, 'option-v3-choice', ['S×', 'M×', 'Black×', 'White×']);
    expect(await options.getByTestId('planned-variant').count()).toBe(0);
    await removeM.click();
    await dialog.getByRole('button', { name: 'Remove choice' }).click();
    await expectRows(page, 'option-v3-choice', ['S×', 'Black×', 'White×']);
    await expectRows(page, 'planned-variant', ['Size: S, Color: Black', 'Size: S, Color: White']);
    expect(await options.getByTestId('options-plan-summary').textContent()).toBe('After saving: 2 variants (0 new, 2 removed).');
    // Nothing is sent before Save.
    expect((await productV3(id)).variantsInfo.variants).toHaveLength(4);
    await options.getByRole('button', { name: 'Save options' }).click();
    await options.getByText('Options saved.').waitFor();
    await expect.poll(() => variants.getByTestId('variant-v3').locator('td:first-child').allTextContents()).toEqual(['Size: S, Color: Black', 'Size: S, Color: White']);
    await expect.poll(async () => (await byLocation.getByTestId('stock-row').locator('td:first-child').allTextContents()).sort())
      .toEqual(['Size: S, Color: Black', 'Size: S, Color: Black', 'Size: S, Color: White', 'Size: S, Color: White']);
    const two = await productV3(id);
    expect(optionsOf(two)).toEqual(['Size: S', 'Color: Black, White']);
    expect(variantsOf(two)).toEqual([[small, 'Size: S, Color: Black', '20', 'TEE-S'], [smallWhite, 'Size: S, Color: White', '20', null]]);
    // Stock stays with the variant ids at every location; the removed variants' rows are gone everywhere.
    expect(await stockRows(id)).toEqual([`${small}@default: 5`, `${small}@warehouse: 3`, `${smallWhite}@default: not counted`, `${smallWhite}@warehouse: 2`].sort());
    await page.screenshot({ path: `${SHOTS}/catalog-product-v3-options.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('refuses counts past the server bounds in the browser, and a stale save with the server message', async () => {
    const id = decodeURIComponent(page.url().split('/products-v3/')[1]!);
    const options = page.getByRole('form', { name: 'Options' });
    const hundred = Array.from({ length: 100 }, (_, i) => `P${i + 1}`).join(', ');
    await options.getByLabel('New option name').fill('Pattern');
    await options.getByLabel('New option choices').fill(`${hundred}, P101`);
    await options.getByRole('button', { name: 'Add option' }).click();
    await expect.poll(() => options.getByRole('alert').textContent()).toBe('Pattern has 101 choices; an option has at most 100.');
    await options.getByLabel('New option choices').fill(hundred);
    await options.getByRole('button', { name: 'Add option' }).click();
    await expect.poll(() => options.getByTestId('options-plan-summary').textContent()).toBe('After saving: 200 variants (198 new, 0 removed).');
    await options.getByLabel('New option name').fill('Fit');
    await options.getByLabel('New option choices').fill('Slim, Regular, Loose, Boxy, Long, Short');
    await options.getByRole('button', { name: 'Add option' }).click();
    await expect.poll(() => options.getByRole('alert').textContent()).toBe('These options make 1200 variants; a product has at most 1000.');
    // Pattern has no stored variant to drop, so it goes without a question.
    await options.getByRole('button', { name: 'Remove option Pattern' }).click();
    await expect.poll(() => options.getByTestId('option-v3').count()).toBe(2);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Another owner changes the product meanwhile: this page still holds the older revision.
    const current = await productV3(id);
    const other = await call(t.url, `/stores/v3/products/${id}`, { ...asOwner(t), method: 'PATCH', body: { product: { revision: current.revision, visible: false } } });
    expect(other.status).toBe(200);
    await options.getByLabel('Option 2 name').fill('Colour');
    await options.getByRole('button', { name: 'Save options' }).click();
    await expect.poll(() => options.getByRole('alert').textContent()).toBe(`Product ${id} is at revision ${other.body.product.revision}`);
    expect(optionsOf(await productV3(id))).toEqual(['Size: S', 'Color: Black, White']);
  });
});
