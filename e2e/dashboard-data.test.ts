import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { launchBrowser } from './browser.js';
import { openSection, signedInPage } from './dashboard-helpers.js';

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
