import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './fixture.js';

const f = useServerAndBrowser();

describe('owner dashboard', () => {
  it('refuses a wrong key with the server message', async () => {
    await f.page.goto(`${f.t.url}/dashboard/`);
    await f.page.getByLabel('API key').fill('vtr_wrong');
    await f.page.getByLabel('Site id').fill(f.t.site.id);
    await f.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => f.page.getByRole('alert').textContent()).toBe('The API key is invalid or revoked');
  });

  it('signs in with an API key, lists every product and adds one', async () => {
    await f.page.getByLabel('API key').fill(f.t.apiKey);
    await f.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => f.page.getByTestId('product-total').textContent()).toBe('26 products');
    expect(await f.page.getByTestId('product-row').count()).toBe(25);
    await f.page.getByLabel('Name').fill('Espresso Cups (2)');
    await f.page.getByLabel('Price').fill('22.5');
    await f.page.getByRole('button', { name: 'Add product' }).click();
    await expect.poll(() => f.page.getByTestId('product-total').textContent()).toBe('27 products');
    await f.page.getByLabel('Search').fill('espresso cups');
    await expect.poll(() => f.page.getByTestId('product-row').allTextContents()).toEqual([expect.stringContaining('Espresso Cups (2)')]);
    expect(await f.page.getByTestId('product-row').first().textContent()).toContain('$22.50');
  });
});
