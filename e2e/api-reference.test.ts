import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './fixture.js';

/** The interactive reference at /docs: loads offline from this server, authorizes with a visitor token, tries a call. */
const f = useServerAndBrowser();

describe('API reference', () => {
  it('loads only from this origin and answers a tried call with a visitor token', async () => {
    const foreign: string[] = [];
    f.page.on('request', (req) => { if (!req.url().startsWith(f.t.url)) foreign.push(req.url()); });
    // A deep link opens the operation to try.
    const operationId = 'get_stores_reader_v1_products__id_';
    await f.page.goto(`${f.t.url}/docs#/stores-reader/${operationId}`);
    await f.page.getByRole('button', { name: 'Authorize' }).waitFor();

    const tokenRes = await fetch(new URL('/oauth2/token', f.t.url), {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: f.t.clientId, grantType: 'anonymous' }),
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };

    await f.page.getByRole('button', { name: 'Authorize' }).click();
    const tokenForm = f.page.locator('.dialog-ux .auth-container').filter({ hasText: 'accessToken' });
    await tokenForm.getByLabel('Value:').fill(token);
    await tokenForm.getByRole('button', { name: 'Apply credentials' }).click();
    await f.page.locator('.dialog-ux .close-modal').click();

    const op = f.page.locator(`#operations-stores-reader-${operationId}`);
    const product = await fetch(new URL('/stores-reader/v1/products/query-platformized', f.t.url), {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify({ query: { paging: { limit: 1 } } }),
    }).then((r) => r.json() as Promise<{ products: { id: string; name: string }[] }>);
    const first = product.products[0]!;
    await op.locator('input[placeholder="id"]').fill(first.id);
    await op.getByRole('button', { name: 'Execute' }).click();
    const responseBody = op.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(() => responseBody.textContent(), { timeout: 15_000 }).toContain(`"name": "${first.name}"`);
    expect(await op.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain('200');
    expect(foreign).toEqual([]);
  });
});
