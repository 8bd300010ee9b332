import { beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call } from '../packages/server/test/harness.js';
import { useServerAndBrowser } from './fixture.js';
import { addPortugalShipping, fillAddress, open, screenshots, watchErrors } from './storefront-helpers.js';

const f = useServerAndBrowser();
const NO_OPTIONS_VARIANT = '00000000-0000-0000-0000-000000000000';

beforeAll(() => addPortugalShipping(f.t));

describe('a shopper buys', () => {
  it('chooses a variant, adds it to the cart, changes the quantity, applies WELCOME10, picks delivery and places an order', async () => {
    const page = f.page;
    const errors = watchErrors(page);
    await open(page, `${f.t.url}/product-page/roaster-hoodie?Size=M`);
    await page.getByTestId('add-to-cart').click();
    const drawer = page.getByTestId('cart-drawer');
    await drawer.waitFor();
    await expect.poll(() => drawer.getByTestId('cart-line').count()).toBe(1);
    expect(await drawer.getByTestId('cart-line').textContent()).toContain('Roaster Hoodie');
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('(1)');
    await screenshots(page, 'cart-drawer');
    // A modal dialog: Tab and Shift+Tab stay inside, Escape closes it and focus goes back to its opener.
    const focusInDrawer = () => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="cart-drawer"]')));
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await focusInDrawer(), key).toBe(true);
    }
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await focused()).toBe('add-to-cart');
    await page.getByTestId('cart-link').click();
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await focused()).toBe('cart-link');
    await page.getByTestId('cart-link').click();
    await drawer.getByRole('link', { name: 'View cart and check out' }).click();
    await page.waitForURL(`${f.t.url}/cart`);

    // Without an address the cart cannot know shipping and tax: no $0.00 for them, and the total says so.
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('$55.00');
    expect(await page.getByTestId('cart-shipping').textContent()).toBe('Calculated at checkout');
    expect(await page.getByTestId('cart-tax').textContent()).toBe('Calculated at checkout');
    expect(await page.getByTestId('cart-total-label').textContent()).toBe('Total before shipping and tax');
    // The line links to its variant, chosen on the product page.
    const lineLink = page.getByTestId('cart-line').getByRole('link', { name: 'Roaster Hoodie' });
    expect(await lineLink.getAttribute('href')).toBe('/product-page/roaster-hoodie?Size=M');
    await lineLink.click();
    await page.waitForURL(`${f.t.url}/product-page/roaster-hoodie?Size=M`);
    expect(await page.getByRole('button', { name: 'M', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.goBack();
    await page.waitForURL(`${f.t.url}/cart`);

    const qty = page.getByLabel('Quantity of Roaster Hoodie');
    await qty.fill('2');
    await qty.press('Enter');
    await expect.poll(() => page.getByTestId('line-total').textContent()).toBe('$110.00');
    await page.getByLabel('Coupon code').fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('applied-coupon').textContent()).toContain('WELCOME10');
    // WELCOME10 (10%) and the demo store's automatic 5% off orders of 100 or more (on the rest).
    await expect.poll(() => page.getByTestId('total-discount').textContent()).toBe('-$15.95');
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('$94.05');
    await screenshots(page, 'cart');

    // Kept across reloads.
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]');
    await expect.poll(() => page.getByTestId('line-total').textContent()).toBe('$110.00');

    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\//);
    await fillAddress(page);
    const options = page.getByTestId('shipping-options');
    expect(await options.textContent()).toContain('Courier2-3 business days$5.00');
    expect(await options.textContent()).toMatch(/Pick up at the roasteryPickup: .*Lisbon\$0\.00/);
    await options.getByRole('radio').first().click();
    await expect.poll(() => page.getByTestId('summary-total').textContent()).toBe('$99.05');
    await screenshots(page, 'checkout');
    // A declined card is shown in place; the order is kept and another card pays it.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Place order and pay' }).click();
    await expect.poll(() => page.getByTestId('payment-declined').textContent()).toBe('The card was declined. Your order is saved: try another card.');
    expect(page.url()).toMatch(/\/checkout\//);
    // The declined card placed the order: its details are fixed now, and another card pays it.
    await page.getByText('Your order is placed. Its address and delivery can no longer change.').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay for the order' }).click();
    await page.waitForURL(/\/order-confirmation\/[0-9a-f-]{36}\?checkout=[0-9a-f-]{36}$/);
    const [, orderId, checkoutId] = /order-confirmation\/([^?]+)\?checkout=(.+)$/.exec(page.url())!;
    // A visitor may not read the order, but the checkout they paid shows what was bought.
    await page.getByTestId('order-summary').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you, your order is placed');
    expect(await page.getByTestId('order-id').textContent()).toBe(orderId);
    expect(await page.getByTestId('summary-lines').textContent()).toBe('2 × Roaster HoodieSize: M$55.00 each');
    expect(await page.getByTestId('summary-total').textContent()).toBe('$99.05');
    await screenshots(page, 'confirmation');

    // Back to the paid checkout: no live form, the order is placed, and the way to its confirmation.
    await page.goBack();
    await page.waitForURL(`${f.t.url}/checkout/${checkoutId}`);
    await page.getByTestId('checkout-placed').waitFor();
    expect(await page.getByRole('heading', { name: 'Your order is already placed' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Place order and pay' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save and see shipping options' }).count()).toBe(0);
    await page.getByRole('link', { name: 'See your order' }).click();
    await page.waitForURL(`${f.t.url}/order-confirmation/${orderId}?checkout=${checkoutId}`);
    await page.getByTestId('order-summary').waitFor();
    expect(errors).toEqual([]);

    // A reference this session cannot prove is no order: not a thank-you.
    for (const url of [`/order-confirmation/not-an-order`, `/order-confirmation/${orderId}`, `/order-confirmation/${checkoutId}?checkout=${checkoutId}`, `/order-confirmation/${orderId}?checkout=${orderId}`]) {
      await open(page, f.t.url + url);
      await page.getByTestId('order-not-found').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent(), url).toBe('We could not find this order');
    }
  });

  it('caps the quantity at the tracked stock, then shows an item that went out of stock on its line, with the way forward', async () => {
    const page = f.page;
    await open(page, `${f.t.url}/product-page/hand-grinder`);
    // The demo store tracks 12 grinders: 50 asked for is 12, on the product page and in the cart.
    const quantity = page.getByLabel('Quantity', { exact: true });
    expect(await quantity.getAttribute('max')).toBe('12');
    await quantity.fill('50');
    expect(await quantity.inputValue()).toBe('12');
    await quantity.fill('2');
    await page.getByTestId('add-to-cart').click();
    await page.getByTestId('cart-drawer').getByRole('link', { name: 'View cart and check out' }).click();
    await page.waitForURL(`${f.t.url}/cart`);
    await page.getByRole('button', { name: 'Check out' }).waitFor();
    const lineQuantity = page.getByLabel('Quantity of Hand Grinder');
    expect(await lineQuantity.inputValue()).toBe('2');
    expect(await lineQuantity.getAttribute('max')).toBe('12');
    await lineQuantity.fill('50');
    await lineQuantity.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').filter({ hasText: 'Hand Grinder' }).getByTestId('line-total').textContent()).toBe('$1,068.00');
    expect(await lineQuantity.inputValue()).toBe('12');

    const grinder = await call(f.t.url, '/stores-reader/v1/products/query-platformized', { body: { query: { filter: { slug: 'hand-grinder' } } }, ...asOwner(f.t) });
    const productId = (grinder.body as { products: { id: string }[] }).products[0]!.id;
    const stock = await call(f.t.url, `/stores/v2/inventoryItems/product/${productId}`, {
      method: 'PATCH', ...asOwner(f.t), body: { inventoryItem: { trackQuantity: true, variants: [{ variantId: NO_OPTIONS_VARIANT, quantity: 0 }] } },
    });
    expect(stock.status).toBe(200);

    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]');
    await expect.poll(() => page.getByTestId('line-problem').textContent()).toBe('Out of stock. Remove it to check out.');
    expect(await page.getByRole('button', { name: 'Check out' }).isDisabled()).toBe(true);
    await screenshots(page, 'cart-out-of-stock');
    await page.getByTestId('cart-line').filter({ hasText: 'Hand Grinder' }).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('line-problem').count()).toBe(0);
    // The earlier order emptied the cart, so the grinder was its only line.
    await expect.poll(() => page.getByTestId('cart-empty').textContent()).toBe('Your cart is empty.');
  });

  it('asks no shipping address for a cart of digital items only', async () => {
    // A new visitor (a browser context of its own): the gift card is its only line.
    const page = await f.browser.newPage();
    const errors = watchErrors(page);
    await open(page, `${f.t.url}/product-page/gift-card?Size=%2425`);
    await page.getByTestId('add-to-cart').click();
    await page.getByTestId('cart-drawer').getByRole('link', { name: 'View cart and check out' }).click();
    await page.waitForURL(`${f.t.url}/cart`);
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('$25.00');
    expect(await page.getByTestId('cart-shipping').count()).toBe(0);
    expect(await page.getByTestId('cart-total-label').textContent()).toBe('Total before tax');

    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByTestId('nothing-shipped').waitFor();
    expect(await page.getByRole('group', { name: 'Shipping address' }).count()).toBe(0);
    await page.getByLabel('E-mail').fill('reader@example.com');
    const billing = page.getByRole('group', { name: 'Billing address' });
    await billing.getByLabel('First name').fill('Ada');
    await billing.getByLabel('Last name').fill('Reader');
    await billing.getByLabel('Street and number').fill('1 Library Row');
    await billing.getByLabel('City').fill('Porto');
    await billing.getByLabel('Country (2 letters)').fill('PT');
    await page.getByRole('button', { name: 'Save details' }).click();
    const pay = page.getByRole('button', { name: 'Place order and pay' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    expect(await page.getByTestId('shipping-options').count()).toBe(0);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await pay.click();
    await page.waitForURL(/\/order-confirmation\//);
    await expect.poll(() => page.getByTestId('summary-lines').textContent()).toBe('1 × Gift CardSize: $25$25.00');
    expect(await page.getByTestId('summary-total').textContent()).toBe('$25.00');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('links a colour variant from the cart, and sends the shopper to the address when no delivery reaches it', async () => {
    const page = await f.browser.newPage();
    await open(page, `${f.t.url}/product-page/pour-over-dripper?Color=Black`);
    await page.getByTestId('add-to-cart').click();
    await page.getByTestId('cart-drawer').getByRole('link', { name: 'View cart and check out' }).click();
    await page.waitForURL(`${f.t.url}/cart`);
    const lineLink = page.getByTestId('cart-line').getByRole('link', { name: 'Pour-Over Dripper' });
    expect(await lineLink.getAttribute('href')).toBe('/product-page/pour-over-dripper?Color=Black');
    await lineLink.click();
    await page.waitForURL(/\/product-page\/pour-over-dripper\?/);
    await expect.poll(() => page.getByRole('button', { name: 'Black', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.goBack();
    await page.waitForURL(`${f.t.url}/cart`);

    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\//);
    // The store delivers to Portugal (this test file's region) and to the demo's regions, not to Japan.
    await page.getByLabel('E-mail').fill('far@example.com');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Far');
    await page.getByLabel('Street and number').fill('1-1 Marunouchi');
    await page.getByLabel('City').fill('Tokyo');
    await page.getByLabel('Country (2 letters)').fill('JP');
    await page.getByRole('button', { name: 'Save and see shipping options' }).click();
    const problem = page.getByTestId('checkout-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('We do not ship these items to this address. Change the shipping address');
    expect(await problem.getByRole('link', { name: 'Fix it in the cart' }).count()).toBe(0);
    await problem.getByRole('button', { name: 'Change the shipping address' }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName');
    expect(await page.getByRole('button', { name: 'Place order and pay' }).isDisabled()).toBe(true);
    await page.context().close();
  });
});
