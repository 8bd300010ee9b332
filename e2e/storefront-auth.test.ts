import { afterAll, describe, expect, it } from 'vitest';
import { updateSite } from '../packages/server/src/domains/sites/service.js';
import { codeFrom, STRONG_PASSWORD, uniqueEmail } from '../packages/server/test/identity-helpers.js';
import { startMailbox, type Mailbox } from '../packages/server/test/mailbox.js';
import { call } from '../packages/server/test/harness.js';
import { useServerAndBrowser } from './fixture.js';
import { open } from './storefront-helpers.js';

let mailbox: Mailbox;
const f = useServerAndBrowser(async () => {
  mailbox = await startMailbox();
  return { smtpUrl: mailbox.url };
});
afterAll(() => mailbox?.close());

describe('storefront sign-in through the hosted pages', () => {
  const email = uniqueEmail('shopper');

  it('registers on the hosted page, verifies the e-mailed code and lands back signed in', async () => {
    await updateSite(f.t.server.deps.storage.db, f.t.site.id, { settings: { ...f.t.site.settings, requireEmailVerification: true } });
    const page = f.page;
    await open(page, `${f.t.url}/product-page/ceramic-mug?ref=newsletter`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/_hosted\//);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.locator('#registerForm input[name=email]').fill(email);
    await page.locator('#registerForm input[name=nickname]').fill('Shopper');
    await page.locator('#registerForm input[name=password]').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    const mail = await mailbox.waitFor(email, /verification code: \d{6}/, 10_000);
    await page.locator('#verifyForm input[name=code]').fill(codeFrom(mail));
    await page.getByRole('button', { name: 'Verify' }).click();

    // Back on the page the visitor started from, query included, as a member.
    await page.waitForURL(`${f.t.url}/product-page/ceramic-mug?ref=newsletter`);
    await page.getByTestId('account-link').waitFor();
    const tokens = await page.evaluate(() => JSON.parse(localStorage.getItem('vitrine.storefront.tokens') ?? 'null'));
    expect(tokens.refreshToken.role).toBe('member');
    await page.getByTestId('account-link').click();
    await expect.poll(() => page.getByTestId('member-email').textContent()).toBe(email);
  });

  it('edits the profile, adds and removes an address and joins the community on the account page', async () => {
    const page = f.page;
    await page.getByTestId('no-orders').waitFor();
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Shopper');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]');
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Ada');

    // Inputs carry the server's bounds; a save the server refuses keeps what was typed and says why in words.
    const firstName = page.getByLabel('First name');
    expect(await firstName.getAttribute('maxlength')).toBe('100');
    await firstName.evaluate((el) => el.removeAttribute('maxlength'));
    await firstName.fill('A'.repeat(101));
    await page.getByRole('button', { name: 'Save profile' }).click();
    const profileError = page.getByRole('form', { name: 'Profile' }).getByRole('alert');
    await expect.poll(() => profileError.textContent()).toBe('First name must be at most 100 characters.');
    expect(await firstName.inputValue()).toBe('A'.repeat(101));

    const street = page.getByLabel('Street and number');
    const city = page.getByLabel('City');
    expect(await street.getAttribute('maxlength')).toBe('200');
    expect(await city.getAttribute('maxlength')).toBe('100');
    await street.fill('1 Roastery Lane');
    await city.evaluate((el) => el.removeAttribute('maxlength'));
    await city.fill('L'.repeat(101));
    await page.getByLabel('Postal code').fill('1100-001');
    await page.getByLabel('Country (2 letters)').fill('pt');
    await page.getByRole('button', { name: 'Add address' }).click();
    await expect.poll(() => page.getByText('City must be at most 100 characters.').count()).toBe(1);
    expect(await street.inputValue()).toBe('1 Roastery Lane');
    expect(await city.inputValue()).toBe('L'.repeat(101));
    await city.fill('Lisbon');
    await page.getByRole('button', { name: 'Add address' }).click();
    await expect.poll(() => page.getByTestId('addresses').textContent()).toContain('1 Roastery Lane, Lisbon, 1100-001, PT');
    await expect.poll(() => page.getByLabel('Street and number').inputValue()).toBe('');
    await page.getByTestId('addresses').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('addresses').locator('li').count()).toBe(0);

    const before = await page.getByTestId('privacy').textContent();
    await page.getByRole('button', { name: /the community/ }).click();
    await expect.poll(() => page.getByTestId('privacy').textContent()).not.toBe(before);
  });

  it('signs out through the hosted logout page, which revokes the refresh token', async () => {
    const page = f.page;
    const before = await page.evaluate(() => JSON.parse(localStorage.getItem('vitrine.storefront.tokens') ?? 'null'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${f.t.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const refresh = await call(f.t.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'refresh_token', refreshToken: before.refreshToken.value } });
    expect(refresh.status).toBe(400);
    expect(refresh.body.details.applicationError.code).toBe('INVALID_GRANT');
  });
});
