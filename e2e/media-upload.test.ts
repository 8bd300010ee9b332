import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { asOwner, call, type TestServer } from '../packages/server/test/harness.js';
import { useSignedInDashboard } from './dashboard-helpers.js';

/** The owner uploads an image in the dashboard's product editor; the storefront shows its thumbnails. */
let t: TestServer;
let browser: Browser;
let page: Page;
useSignedInDashboard((fixture) => ({ t, browser, page } = fixture));

async function kettle() {
  const res = await call(t.url, '/stores-reader/v1/products/query-platformized', { ...asOwner(t), body: { query: { filter: { name: 'Gooseneck Kettle' } } } });
  return res.body.products[0] as { id: string; slug: string; media: { mainMedia?: { id: string; image: { url: string; width: number; height: number }; thumbnail: { url: string; width: number } }; items: { id: string; title: string }[] } };
}

/** Width of the image a URL serves (naturalWidth of a srcset image is scaled by the chosen density). */
async function servedWidth(url: string): Promise<number | undefined> {
  return (await sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).metadata()).width;
}

describe('product images', () => {
  it('uploads an image in the dashboard and the storefront shows its thumbnail sizes', async () => {
    const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2a6f97' } }).png().toBuffer();
    const before = await kettle();
    expect(before.media.items).toHaveLength(1); // the demo store's generated SVG

    await page.getByLabel('Search', { exact: true }).fill('Gooseneck');
    await page.getByRole('button', { name: 'Gooseneck Kettle', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Gooseneck Kettle' });
    await expect.poll(() => drawer.getByTestId('product-media-item').count()).toBe(1);
    await drawer.getByLabel('Upload image').setInputFiles({ name: 'kettle.png', mimeType: 'image/png', buffer: png });
    await drawer.getByText('Image added.').waitFor();
    await expect.poll(() => drawer.getByTestId('product-media-item').count()).toBe(2);
    // The editor shows the new image through its smallest thumbnail.
    const editorThumb = drawer.getByTestId('product-media-item').nth(1).locator('img');
    await expect.poll(() => editorThumb.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(200);
    // Remove the generated image so the upload becomes the main media.
    await drawer.getByRole('button', { name: `Remove ${before.media.items[0]!.title}` }).click();
    await page.getByRole('dialog', { name: 'Remove image' }).getByRole('button', { name: 'Remove image' }).click();
    await expect.poll(() => drawer.getByTestId('product-media-item').count()).toBe(1);

    const after = await kettle();
    const main = after.media.mainMedia!;
    expect(after.media.items.map((m) => m.title)).toEqual(['kettle.png']);
    expect(main.image).toEqual({ url: `${t.url}/media/${main.id}/kettle.png`, width: 1600, height: 1200 });
    expect(main.thumbnail).toEqual({ url: `${t.url}/media/${main.id}/kettle.png?w=200`, width: 200, height: 150 });

    // Storefront card (the search page): a 1280 px wide window, cards a fifth wide -> the 400 px thumbnail.
    const shop = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    await shop.goto(`${t.url}/search?q=Gooseneck`);
    await expect.poll(() => shop.getByTestId('product-name').allTextContents()).toEqual(['Gooseneck Kettle']);
    const card = shop.getByTestId('product-card-image');
    await expect.poll(() => card.evaluate((el) => (el as HTMLImageElement).currentSrc)).toBe(`${t.url}/media/${main.id}/kettle.png?w=400`);
    await expect.poll(() => card.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0)).toBe(true);
    expect(await servedWidth(`${t.url}/media/${main.id}/kettle.png?w=400`)).toBe(400);

    // Product page: half the window -> the 800 px thumbnail.
    await shop.getByTestId('product-card').click();
    const big = shop.getByTestId('product-image');
    await expect.poll(() => big.evaluate((el) => (el as HTMLImageElement).currentSrc)).toBe(`${t.url}/media/${main.id}/kettle.png?w=800`);
    await expect.poll(() => big.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0)).toBe(true);
    expect(await servedWidth(`${t.url}/media/${main.id}/kettle.png?w=800`)).toBe(800);
    await shop.close();
  });
});
