import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, visitorTokens, type TestServer } from '../packages/server/test/harness.js';
import { STRONG_PASSWORD } from '../packages/server/test/identity-helpers.js';
import { CART, as, clearDemoPricing, line, productV1, visitor } from '../packages/server/test/cart-support.js';
import { openSection, useSignedInDashboard } from './dashboard-helpers.js';
import { axeViolations } from './a11y.js';

/**
 * Store settings as an owner uses them: a discount rule made in Settings changes what a real cart
 * costs (and stops when turned off or deleted), coupons refuse a taken code in the server's words,
 * shipping and tax regions and the checkout and order settings reach the server. Screenshots of each
 * part go to e2e/artifacts/.
 */
let t: TestServer;
let page: Page;
let buyer: ReturnType<typeof as>;

async function cartTotal(): Promise<string> {
  const res = await buyer.post(`${CART}/estimate-totals`, {});
  expect(res.status).toBe(200);
  return res.body.priceSummary.total.amount as string;
}

async function openPart(name: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

useSignedInDashboard((fixture) => ({ t, page } = fixture));
beforeAll(async () => {
  await clearDemoPricing(t);
  const product = await productV1(t, { name: 'Settings Grinder', price: 40 });
  buyer = as(t, await visitor(t));
  expect((await buyer.post(`${CART}/add-to-cart`, { lineItems: [line(product.productId, 1)] })).status).toBe(200);
  await page.setViewportSize({ width: 1400, height: 1000 });
});

describe('settings: discounts', () => {
  it('a rule created in Settings takes 10% off a real cart; edited in its dialog it changes the cart at once; turned off it stops; deleted after confirmation it is gone', async () => {
    expect(await cartTotal()).toBe('40.00');
    await openSection(page, 'Settings', 'Settings');
    await openPart('Discounts and coupons', 'Automatic discounts');
    const form = page.getByRole('form', { name: 'New discount rule' });
    await form.getByLabel('Rule name').fill('Ten percent off');
    await form.getByLabel('Discount', { exact: true }).fill('150');
    await form.getByRole('button', { name: 'Add rule' }).click();
    // Checked in the form before anything is sent: nothing was stored.
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Discount: a percentage above 0 and at most 100');
    expect((await call(t.url, '/ecom/v1/discount-rules/query', { ...asOwner(t), body: { query: {} } })).body.discountRules).toEqual([]);

    await form.getByLabel('Discount', { exact: true }).fill('10');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => page.getByTestId('discount-rule-row').allTextContents()).toEqual([expect.stringMatching(/^Ten percent off10% off the whole cartevery cartLIVE0/)]);
    expect(await cartTotal()).toBe('36.00');
    await page.screenshot({ path: 'e2e/artifacts/settings-discounts.png', fullPage: true });

    await page.getByRole('button', { name: 'Turn off rule Ten percent off' }).click();
    await page.getByRole('dialog', { name: 'Turn off discount rule' }).getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => page.getByTestId('discount-rule-row').textContent()).toContain('EXPIRED');
    expect(await cartTotal()).toBe('40.00');
    await page.getByRole('button', { name: 'Turn on rule Ten percent off' }).click();
    await expect.poll(() => page.getByTestId('discount-rule-row').textContent()).toContain('LIVE');
    expect(await cartTotal()).toBe('36.00');

    // Edited in its dialog: the amount and a minimum subtotal reach the server and the cart at once.
    await page.getByRole('button', { name: 'Edit rule Ten percent off' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit discount rule' });
    await edit.getByLabel('Rule name').fill('Fifteen percent off');
    await edit.getByLabel('Discount', { exact: true }).fill('101');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toBe('Discount: a percentage above 0 and at most 100');
    expect(await cartTotal()).toBe('36.00');
    await edit.getByLabel('Discount', { exact: true }).fill('15');
    await edit.getByLabel('Minimum subtotal (optional)').fill('30');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('discount-rule-row').allTextContents()).toEqual([expect.stringMatching(/^Fifteen percent off15% off the whole cartsubtotal 30\.00 or moreLIVE/)]);
    expect(await cartTotal()).toBe('34.00');
    // A minimum above the cart: the rule stays, the cart pays in full; cleared again, it applies to every cart.
    await page.getByRole('button', { name: 'Edit rule Fifteen percent off' }).click();
    await edit.getByLabel('Minimum subtotal (optional)').fill('50');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => cartTotal()).toBe('40.00');
    await page.getByRole('button', { name: 'Edit rule Fifteen percent off' }).click();
    await edit.getByLabel('Minimum subtotal (optional)').fill('');
    await edit.getByLabel('Rule name').fill('Ten percent off');
    await edit.getByLabel('Discount', { exact: true }).fill('10');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('discount-rule-row').textContent()).toMatch(/^Ten percent off10% off the whole cartevery cart/);
    expect(await cartTotal()).toBe('36.00');

    // Cancel changes nothing; confirm deletes.
    await page.getByRole('button', { name: 'Delete rule Ten percent off' }).click();
    await page.getByRole('dialog', { name: 'Delete discount rule' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await cartTotal()).toBe('36.00');
    await page.getByRole('button', { name: 'Delete rule Ten percent off' }).click();
    await page.getByRole('dialog', { name: 'Delete discount rule' }).getByRole('button', { name: 'Delete rule' }).click();
    await expect.poll(() => page.getByTestId('empty').first().textContent()).toBe('No automatic discounts.');
    expect(await cartTotal()).toBe('40.00');
  });

  it('creates a coupon the cart accepts, shows the server refusing a taken code, and edits its terms in a dialog', async () => {
    const form = page.getByRole('form', { name: 'New coupon' });
    await form.getByLabel('Coupon name').fill('Five off');
    await form.getByLabel('Code').fill('FIVEOFF');
    await form.getByLabel('Coupon kind').selectOption('amount');
    await form.getByLabel('Coupon discount').fill('5');
    await form.getByRole('button', { name: 'Add coupon' }).click();
    await expect.poll(() => page.getByTestId('coupon-row').count()).toBe(1);
    expect(await page.getByTestId('coupon-row').textContent()).toMatch(/^FIVEOFFFive off/);
    expect((await buyer.patch(CART, { couponCode: 'fiveoff' })).status).toBe(200);
    expect(await cartTotal()).toBe('35.00');
    expect((await buyer.post(`${CART}/remove-coupon`, {})).status).toBe(200);
    expect(await cartTotal()).toBe('40.00');

    await form.getByLabel('Coupon name').fill('Again');
    await form.getByLabel('Code').fill('fiveOFF');
    await form.getByLabel('Coupon kind').selectOption('shipping');
    await form.getByRole('button', { name: 'Add coupon' }).click();
    const alert = form.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/\S/);
    // The server's own description, without a "CODE:" prefix.
    expect(await alert.textContent()).not.toMatch(/^[A-Z_]+:/);
    expect(await page.getByTestId('coupon-row').count()).toBe(1);

    // Edited in its dialog: ten percent from a minimum of 30, then the minimum cleared again.
    await page.getByRole('button', { name: 'Edit coupon FIVEOFF' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit coupon FIVEOFF' });
    expect(await edit.getByLabel('Coupon discount').inputValue()).toBe('5.00');
    await edit.getByLabel('Coupon kind').selectOption('percent');
    await edit.getByLabel('Coupon discount').fill('10');
    await edit.getByLabel('Coupon minimum subtotal').fill('30');
    await edit.getByLabel('Uses (optional)').fill('0');
    await edit.getByRole('button', { name: 'Save coupon' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toBe('Uses: a whole number of at least 1');
    await edit.getByLabel('Uses (optional)').fill('');
    await edit.getByRole('button', { name: 'Save coupon' }).click();
    await edit.waitFor({ state: 'detached' });
    const stored = (await call(t.url, '/stores/v2/coupons/query', { ...asOwner(t), body: { query: {} } })).body.coupons[0].specification;
    expect([stored.percentOffRate, stored.moneyOffAmount ?? null, stored.minimumSubtotal]).toEqual([10, null, '30.00']);
    expect((await buyer.patch(CART, { couponCode: 'FIVEOFF' })).status).toBe(200);
    expect(await cartTotal()).toBe('36.00');
    expect((await buyer.post(`${CART}/remove-coupon`, {})).status).toBe(200);
  });

  it('passes axe on the discounts part', async () => {
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('settings: shipping, tax, checkout and orders', () => {
  it('adds a shipping region and a tax region, then saves order and checkout settings', async () => {
    await openPart('Shipping and tax', 'Shipping regions');
    const ship = page.getByRole('form', { name: 'New shipping region' });
    await ship.getByLabel('Region name').fill('Domestic');
    await ship.getByLabel('Country codes').fill('us');
    await ship.getByLabel('Shipping price').fill('7.5');
    await ship.getByRole('button', { name: 'Add region' }).click();
    await expect.poll(() => page.getByTestId('shipping-region-row').allTextContents()).toEqual(['DomesticUSStandard: 7.50Delete']);

    const tax = page.getByRole('form', { name: 'New tax region' });
    await tax.getByLabel('Country code').fill('US');
    await tax.getByLabel('Tax rate (%)').fill('8.875');
    await tax.getByRole('button', { name: 'Add tax region' }).click();
    await expect.poll(() => tax.getByRole('alert').textContent()).toBe('Tax rate: a percentage from 0 to 100 with at most 2 decimals, such as 8.25');
    expect((await call(t.url, '/billing/v1/tax-regions/query', { ...asOwner(t), body: { query: {} } })).body.taxRegions).toEqual([]);
    await tax.getByLabel('Tax rate (%)').fill('8.25');
    await tax.getByRole('button', { name: 'Add tax region' }).click();
    await expect.poll(() => page.getByTestId('tax-region-row').count()).toBe(1);
    const regions = (await call(t.url, '/billing/v1/tax-regions/query', { ...asOwner(t), body: { query: {} } })).body.taxRegions;
    const rates = await call(t.url, `/billing/v1/tax-regions/${regions[0].id}/manual-rates`, asOwner(t));
    expect(rates.body.manualRates.map((r: { taxRate: string }) => r.taxRate)).toEqual(['0.0825']);
    await page.screenshot({ path: 'e2e/artifacts/settings-shipping-tax.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await openPart('Checkout and orders', 'Orders');
    await page.getByLabel('Take stock when').selectOption('ON_ORDER_PAID');
    await page.getByRole('button', { name: 'Save order settings' }).click();
    await expect.poll(async () => (await call(t.url, '/ecom/v1/orders-settings', asOwner(t))).body.ordersSettings.inventoryUpdateTrigger).toBe('ON_ORDER_PAID');
    await page.getByLabel('Show the return policy at checkout').check();
    await page.getByLabel('Text of the return policy').fill('Returns within 30 days.');
    await page.getByRole('button', { name: 'Save checkout settings' }).click();
    await expect.poll(async () => (await call(t.url, '/ecom/v1/checkout-settings', asOwner(t))).body.checkoutSettings.checkoutPolicies.returnPolicy)
      .toEqual({ visible: true, content: 'Returns within 30 days.' });
    await page.screenshot({ path: 'e2e/artifacts/settings-checkout.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await openPart('Account and access', 'API keys');
    await page.screenshot({ path: 'e2e/artifacts/settings-account.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('settings: store and members', () => {
  it('renames the store and turns on owner approval, which the next registration meets', async () => {
    await openSection(page, 'Settings', 'Settings');
    await openPart('Store and members', 'Store details');
    await page.getByLabel('Store name').fill('Harbor Coffee');
    await page.getByLabel('E-mail for order and webhook notices').fill('orders@harbor.test');
    await page.getByLabel('New members wait for my approval').check();
    await page.getByLabel('Captcha on sign-up and login').selectOption('off');
    await page.getByRole('button', { name: 'Save store settings' }).click();
    await expect.poll(() => page.getByRole('status').allTextContents()).toEqual(['Store settings saved.']);
    const stored = (await call(t.url, '/_api/vitrine/settings/v1/site', asOwner(t))).body.site;
    expect(stored).toMatchObject({ name: 'Harbor Coffee', ownerEmail: 'orders@harbor.test', requireOwnerApproval: true, requireEmailVerification: false, captcha: 'off' });
    const v = await visitorTokens(t);
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', { auth: v.accessToken, body: { loginId: { email: 'waiting@harbor.test' }, password: STRONG_PASSWORD } });
    expect(reg.body.state).toBe('REQUIRE_OWNER_APPROVAL');
    // A bad e-mail (past the browser's own check) is refused by the server in its words and nothing changes.
    await page.getByRole('form', { name: 'Store and members' }).evaluate((form) => { (form as HTMLFormElement).noValidate = true; });
    await page.getByLabel('E-mail for order and webhook notices').fill('not an e-mail');
    await page.getByRole('button', { name: 'Save store settings' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Store and members' }).getByRole('alert').allTextContents()).toEqual(['site.ownerEmail: must be an e-mail address']);
    expect((await call(t.url, '/_api/vitrine/settings/v1/site', asOwner(t))).body.site).toEqual(stored);
    await page.screenshot({ path: 'e2e/artifacts/settings-store.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('settings: keyboard alone', () => {
  it('adds a coupon and deletes it after confirmation using only the keyboard', async () => {
    await openSection(page, 'Settings', 'Settings');
    // Account and access rendered (not the part the test before left on screen), so the focus stays put.
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Discounts and coupons' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Coupons', exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'New coupon' });
    await form.getByLabel('Coupon name').focus();
    await page.keyboard.type('Keyboard three');
    await page.keyboard.press('Tab');
    await page.keyboard.type('KEYS3');
    await page.keyboard.press('Tab'); // the kind select: "Percent off" stays
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    const row = page.getByTestId('coupon-row').filter({ hasText: 'KEYS3' });
    await expect.poll(() => row.count()).toBe(1);

    const active = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    await row.getByRole('button', { name: 'Delete coupon KEYS3' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete coupon' });
    await dialog.waitFor();
    // Focus is inside the dialog; Escape closes it and gives focus back to the button; nothing is deleted.
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await active()).toBe('Delete coupon KEYS3');
    expect(await row.count()).toBe(1);
    // Enter again, Tab past Close and Cancel to the confirming button, Enter.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await active()).toBe('Delete coupon');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.count()).toBe(0);
    const codes = (await call(t.url, '/stores/v2/coupons/query', { ...asOwner(t), body: { query: {} } })).body.coupons.map((c: { specification: { code: string } }) => c.specification.code);
    expect(codes).not.toContain('KEYS3');
  });
});

describe('settings: your account', () => {
  it('says a wrong current password is wrong without ending the session, and clears the message on the next edit', async () => {
    await page.goto(`${t.url}/dashboard/settings`);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password-42');
    await form.getByLabel('New password').fill('copper-lantern-77-meadow');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('The current password is wrong.');
    // The session is still good: no "session ended" banner, and the next call works.
    expect(await page.getByText('Your session ended').count()).toBe(0);
    await page.getByRole('table', { name: 'Sessions' }).waitFor();
    await form.getByLabel('Current password').fill('still-not-it');
    expect(await form.getByRole('alert').count()).toBe(0);
  });
});
