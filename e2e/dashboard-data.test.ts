import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';
import { openSection, signedInPage } from './dashboard-helpers.js';
import { axeViolations } from './a11y.js';

/** Owner dashboard, data: collections with fields and permissions, item browser, create and delete. */
let t: TestServer;
let browser: Browser;
let page: Page;
const SEEDED = 22;

beforeAll(async () => {
  t = await startTestServer();
  const created = await call(t.url, '/wix-data/v2/collections', {
    ...asOwner(t),
    body: {
      collection: {
        id: 'recipes', displayName: 'Recipes',
        fields: [{ key: 'title', type: 'TEXT' }, { key: 'minutes', type: 'NUMBER' }, { key: 'vegan', type: 'BOOLEAN' }, { key: 'tags', type: 'ARRAY_STRING' }],
        permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'ADMIN', remove: 'ADMIN' },
      },
    },
  });
  expect(created.status).toBe(200);
  const items = Array.from({ length: SEEDED }, (_, i) => ({ data: { title: `Recipe ${String(i + 1).padStart(2, '0')}`, minutes: 10 + i } }));
  const bulk = await call(t.url, '/wix-data/v2/bulk/items/insert', { ...asOwner(t), body: { dataCollectionId: 'recipes', dataItems: items } });
  expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: SEEDED, totalFailures: 0 });
  browser = await launchBrowser();
  page = await signedInPage(browser, t);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function itemsWhere(filter: Record<string, unknown>) {
  const res = await call(t.url, '/wix-data/v2/items/query', { ...asOwner(t), body: { dataCollectionId: 'recipes', query: { filter }, returnTotalCount: true } });
  expect(res.status).toBe(200);
  return res.body as { dataItems: { id: string; data: Record<string, unknown> }[]; pagingMetadata: { total: number } };
}

describe('data collections', () => {
  it('lists collections with their fields and permissions', async () => {
    await openSection(page, 'Data', 'Data collections');
    await expect.poll(() => page.getByTestId('data-collection-row').allTextContents())
      .toEqual(['Recipesrecipestitle TEXTminutes NUMBERvegan BOOLEANtags ARRAY_STRINGreadANYONEinsertSITE_MEMBERupdateADMINremoveADMIN']);
  });

  it('browses items with paging', async () => {
    await page.getByRole('link', { name: 'Recipes' }).click();
    await page.getByRole('heading', { name: 'Recipes' }).waitFor();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe(`${SEEDED} items`);
    expect(await page.getByTestId('data-item-row').count()).toBe(20);
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–20 of 22');
    expect(await page.getByRole('table', { name: 'Items' }).locator('th').allTextContents()).toEqual(['title', 'minutes', 'vegan', 'tags', 'Created', 'Id', 'Actions']);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('pager-range').textContent()).toBe('21–22 of 22');
    expect(await page.getByTestId('data-item-row').count()).toBe(2);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => page.getByTestId('pager-range').textContent()).toBe('1–20 of 22');
  });

  it('creates an item from the typed form; bad input changes nothing', async () => {
    const form = page.getByRole('form', { name: 'New item' });
    await form.getByLabel('title').fill('Green curry');
    await form.getByLabel('minutes').fill('35');
    await form.getByLabel('vegan').check();
    await form.getByLabel('tags').fill('not json');
    await form.getByRole('button', { name: 'Add item' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('tags: must be JSON');
    await form.getByLabel('tags').fill('[1, 2]');
    await form.getByRole('button', { name: 'Add item' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('dataItem.data.tags: must be a ARRAY_STRING value');
    expect((await itemsWhere({ title: 'Green curry' })).pagingMetadata.total).toBe(0);

    await form.getByLabel('tags').fill('["thai", "spicy"]');
    await form.getByRole('button', { name: 'Add item' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe(`${SEEDED + 1} items`);
    expect(await page.getByTestId('data-item-row').first().textContent()).toMatch(/^Green curry35true\["thai","spicy"\]/);
    const [saved] = (await itemsWhere({ title: 'Green curry' })).dataItems;
    expect(saved!.data).toMatchObject({ title: 'Green curry', minutes: 35, vegan: true, tags: ['thai', 'spicy'] });
    expect(await form.getByLabel('title').inputValue()).toBe('');
  });

  it('deletes an item only after confirmation', async () => {
    const [target] = (await itemsWhere({ title: 'Green curry' })).dataItems;
    await page.getByRole('button', { name: `Delete item ${target!.id}` }).click();
    await page.getByRole('dialog', { name: 'Delete item' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await itemsWhere({ title: 'Green curry' })).pagingMetadata.total).toBe(1);
    await page.getByRole('button', { name: `Delete item ${target!.id}` }).click();
    await page.getByRole('dialog', { name: 'Delete item' }).getByRole('button', { name: 'Delete item' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe(`${SEEDED} items`);
    expect((await itemsWhere({ title: 'Green curry' })).pagingMetadata.total).toBe(0);
    expect(await page.getByRole('button', { name: `Delete item ${target!.id}` }).count()).toBe(0);
  });

  it('imports 1,000 rows from CSV with progress, then exports every item as CSV', async () => {
    await openSection(page, 'Data', 'Data collections');
    await page.getByRole('link', { name: 'Recipes' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe(`${SEEDED} items`);
    const lines = ['title,minutes,vegan'];
    for (let i = 1; i <= 1000; i++) lines.push(`"Imported, no. ${i}",${i},${i % 2 === 0}`);
    await page.getByLabel('Import CSV').setInputFiles({ name: 'recipes.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await expect.poll(() => page.getByTestId('transfer-summary').textContent(), { timeout: 20_000 }).toBe('Imported 1000 items.');
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe(`${SEEDED + 1000} items`);
    expect((await itemsWhere({ vegan: true, title: { $startsWith: 'Imported, no.' } })).pagingMetadata.total).toBe(500);
    expect((await itemsWhere({ title: 'Imported, no. 7' })).dataItems[0]!.data).toMatchObject({ minutes: 7, vegan: false });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('recipes.csv');
    const text = await new Promise<string>((resolve, reject) => {
      void file.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      });
    });
    const rows = text.trim().split('\r\n');
    expect(rows[0]).toBe('_id,title,minutes,vegan,tags,_createdDate');
    expect(rows).toHaveLength(1 + SEEDED + 1000);
    expect(rows.some((r) => /^[^,]+,"Imported, no\. 7",7,false,,\d{4}-/.test(r))).toBe(true);
    await expect.poll(() => page.getByTestId('transfer-summary').textContent()).toBe(`Exported ${SEEDED + 1000} items.`);
  });

  it('refuses a CSV with an unknown column and imports nothing', async () => {
    await page.getByLabel('Import CSV').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('title,calories\nSoup,100\n') });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Unknown columns: calories');
    expect((await itemsWhere({ title: 'Soup' })).pagingMetadata.total).toBe(0);
  });

  it('shows the server error for an unknown collection', async () => {
    await page.goto(`${t.url}/dashboard/data/nope`);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/nope/);
  });
});

const SHOTS = 'e2e/artifacts';

describe('a collection made in the dashboard', () => {
  async function pantry(filter: Record<string, unknown>) {
    const res = await call(t.url, '/wix-data/v2/items/query', { ...asOwner(t), body: { dataCollectionId: 'pantry', query: { filter, paging: { limit: 5 } }, returnTotalCount: true } });
    expect(res.status).toBe(200);
    return res.body as { dataItems: { id: string; data: Record<string, unknown> }[]; pagingMetadata: { total: number } };
  }

  it('creates a collection with typed fields, a reference and permissions, and lands on it', async () => {
    await openSection(page, 'Data', 'Data collections');
    await page.getByRole('button', { name: 'New collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New collection' });
    await dialog.getByLabel('Collection id').fill('pantry');
    await dialog.getByLabel('Display name').fill('Pantry');
    const fields: [string, string][] = [['name', 'TEXT'], ['grams', 'NUMBER'], ['organic', 'BOOLEAN'], ['recipe', 'REFERENCE']];
    for (const [i, [key, type]] of fields.entries()) {
      await dialog.getByRole('button', { name: 'Add field' }).click();
      await dialog.getByLabel(`Field ${i + 1} key`).fill(key);
      await dialog.getByLabel(`Field ${i + 1} type`).selectOption(type);
    }
    await dialog.getByLabel('Field 1 required').check();
    await dialog.getByLabel('Field 4 refers to').selectOption('recipes');
    await dialog.getByLabel('Who may read').selectOption('SITE_MEMBER');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pantry' }).waitFor();
    expect(page.url()).toBe(`${t.url}/dashboard/data/pantry`);
    const res = await call(t.url, '/wix-data/v2/collections/pantry', asOwner(t));
    expect(res.status).toBe(200);
    const userFields = (res.body.collection.fields as { key: string; type: string; required?: boolean; systemField?: boolean; typeMetadata?: unknown }[]).filter((f) => !f.systemField);
    expect(userFields.map((f) => [f.key, f.type, f.required === true])).toEqual([['name', 'TEXT', true], ['grams', 'NUMBER', false], ['organic', 'BOOLEAN', false], ['recipe', 'REFERENCE', false]]);
    expect(userFields[3]!.typeMetadata).toEqual({ reference: { referencedCollectionId: 'recipes' } });
    expect(res.body.collection.permissions).toEqual({ read: 'SITE_MEMBER', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' });
  });

  it('imports 1,000 rows from CSV and filters and sorts them with exact counts', async () => {
    const lines = ['name,grams,organic'];
    for (let i = 1; i <= 1000; i++) lines.push(`Item ${String(i).padStart(4, '0')},${i},${i % 4 === 0}`);
    await page.getByLabel('Import CSV').setInputFiles({ name: 'pantry.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await expect.poll(() => page.getByTestId('transfer-summary').textContent(), { timeout: 20_000 }).toBe('Imported 1000 items.');
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('1000 items');

    const filters = page.getByRole('form', { name: 'Filter items' });
    await filters.getByLabel('Filter field').selectOption('grams');
    await filters.getByLabel('Comparison').selectOption({ label: 'greater than' });
    await filters.getByLabel('Value').fill('500');
    await filters.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('500 items');
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–20 of 500');
    await filters.getByLabel('Filter field').selectOption('organic');
    await filters.getByLabel('Value').selectOption({ label: 'checked' });
    await filters.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('125 items');
    expect(await page.getByTestId('filter-chip').allTextContents()).toEqual(['grams greater than 500×', 'organic is true×']);

    await page.getByLabel('Sort items by').selectOption('grams');
    await page.getByLabel('Order').selectOption('ASC');
    await expect.poll(() => page.getByTestId('data-item-row').first().locator('td').first().textContent()).toBe('Item 0504');
    await page.getByLabel('Order').selectOption('DESC');
    await expect.poll(() => page.getByTestId('data-item-row').first().locator('td').first().textContent()).toBe('Item 1000');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('pager-range').textContent()).toBe('21–40 of 125');
    await page.screenshot({ path: `${SHOTS}/data-items-grid.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove filter grams greater than 500' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('250 items');
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–20 of 250');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('1000 items');
  });

  it('edits a row in place: Enter saves, Escape cancels, a bad value changes nothing', async () => {
    const filters = page.getByRole('form', { name: 'Filter items' });
    await filters.getByLabel('Filter field').selectOption('name');
    await filters.getByLabel('Comparison').selectOption({ label: 'is' });
    await filters.getByLabel('Value').fill('Item 0007');
    await filters.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => page.getByTestId('item-total').textContent()).toBe('1 items');
    const [item] = (await pantry({ name: 'Item 0007' })).dataItems;
    const recipe = (await itemsWhere({ title: 'Recipe 03' })).dataItems[0]!;

    await page.getByRole('button', { name: `Edit item ${item!.id}` }).click();
    await page.getByLabel(`grams of item ${item!.id}`).fill('7.5');
    await page.getByLabel(`recipe of item ${item!.id}`).fill(recipe.id);
    await page.getByLabel(`grams of item ${item!.id}`).press('Enter');
    await expect.poll(() => page.getByTestId('data-item-row').first().locator('td').allTextContents().then((c) => c.slice(0, 4))).toEqual(['Item 0007', '7.5', 'false', 'Recipe 03']);
    expect(await page.getByTestId('data-item-row').first().getByRole('link', { name: 'Recipe 03' }).getAttribute('href')).toBe('/dashboard/data/recipes');
    expect((await pantry({ name: 'Item 0007' })).dataItems[0]!.data).toMatchObject({ grams: 7.5, organic: false, recipe: recipe.id });

    await page.getByRole('button', { name: `Edit item ${item!.id}` }).click();
    await page.getByLabel(`grams of item ${item!.id}`).fill('999');
    await page.getByLabel(`grams of item ${item!.id}`).press('Escape');
    expect(await page.getByLabel(`grams of item ${item!.id}`).count()).toBe(0);
    expect((await pantry({ name: 'Item 0007' })).dataItems[0]!.data.grams).toBe(7.5);

    await page.getByRole('button', { name: `Edit item ${item!.id}` }).click();
    await page.getByLabel(`name of item ${item!.id}`).fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/name/);
    expect((await pantry({ name: 'Item 0007' })).pagingMetadata.total).toBe(1);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  it('changes fields and permissions, adds and drops indexes (a failing unique one says why), deletes after confirmation', async () => {
    await page.getByText('Fields, permissions and indexes').click();
    const form = page.getByRole('form', { name: 'Edit collection' });
    expect(await form.getByLabel('Field 1 key').isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Add field' }).click();
    await form.getByLabel('Field 5 key').fill('note');
    await form.getByLabel('Field 5 name').fill('Note');
    await form.getByLabel('Who may insert').selectOption('SITE_MEMBER');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await page.getByText('Collection saved.').waitFor();
    const res = await call(t.url, '/wix-data/v2/collections/pantry', asOwner(t));
    expect((res.body.collection.fields as { key: string; systemField?: boolean }[]).filter((f) => !f.systemField).map((f) => f.key)).toEqual(['name', 'grams', 'organic', 'recipe', 'note']);
    expect(res.body.collection.permissions).toEqual({ read: 'SITE_MEMBER', insert: 'SITE_MEMBER', update: 'ADMIN', remove: 'ADMIN' });
    await expect.poll(() => page.getByRole('table', { name: 'Items' }).locator('th').allTextContents()).toEqual(['name', 'grams', 'organic', 'recipe', 'Note', 'Created', 'Id', 'Actions']);

    const index = page.getByRole('form', { name: 'New index' });
    await index.getByLabel('Index name').fill('by_grams');
    await index.getByLabel('Field paths').fill('grams');
    await index.getByRole('button', { name: 'Add index' }).click();
    await expect.poll(() => page.getByTestId('index-row').allTextContents()).toEqual(['by_gramsgrams ASCACTIVEDrop']);
    expect(await axeViolations(page)).toEqual([]);
    await index.getByLabel('Index name').fill('one_organic');
    await index.getByLabel('Field paths').fill('organic');
    await index.getByLabel('Unique').check();
    await index.getByRole('button', { name: 'Add index' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The index failed' }).textContent()).toBe('The index failed: Existing items have duplicate values for the index fields');
    await page.getByRole('button', { name: 'Drop index one_organic' }).click();
    await page.getByRole('dialog', { name: 'Drop index' }).getByRole('button', { name: 'Drop index' }).click();
    await page.getByRole('button', { name: 'Drop index by_grams' }).click();
    await page.getByRole('dialog', { name: 'Drop index' }).getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('index-row').count()).toBe(1);
    const listed = await call(t.url, '/wix-data/v2/indexes?dataCollectionId=pantry', asOwner(t));
    expect((listed.body.indexes as { name: string }[]).map((i) => i.name)).toEqual(['by_grams']);

    await page.getByRole('button', { name: 'Delete collection' }).click();
    await page.getByRole('dialog', { name: 'Delete collection' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await call(t.url, '/wix-data/v2/collections/pantry', asOwner(t))).status).toBe(200);
    await page.getByRole('button', { name: 'Delete collection' }).click();
    await page.getByRole('dialog', { name: 'Delete collection' }).getByRole('button', { name: 'Delete collection' }).click();
    await page.getByRole('heading', { name: 'Data collections', exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/data-collections.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect((await call(t.url, '/wix-data/v2/collections/pantry', asOwner(t))).status).toBe(404);
    await expect.poll(() => page.getByTestId('data-collection-row').count()).toBe(1);
  });
});
