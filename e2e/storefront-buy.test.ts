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
    await drawer.getByRole('link', { name: 'View cart and check out' }).click();
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
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toBe('$99.05');
    await screenshots(page, 'checkout');
    // A declined card is shown in place; the order is kept and another card pays it.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Place order and pay' }).click();
    await expect.poll(() => page.getByTestId('payment-declined').textContent()).toBe('The card was declined. Your order is saved: try another card.');
    expect(page.url()).toMatch(/\/checkout\//);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Place order and pay' }).click();
    await page.waitForURL(/\/order-confirmation\//);
    await page.getByText(/Order (number|reference)/).waitFor();
    await screenshots(page, 'confirmation');
    expect(errors).toEqual([]);
  });

  it('shows an item that went out of stock between cart and checkout on its line, with the way forward', async () => {
    const page = f.page;
    await open(page, `${f.t.url}/product-page/hand-grinder`);
    await page.getByTestId('add-to-cart').click();
    await page.getByTestId('cart-drawer').getByRole('link', { name: 'View cart and check out' }).click();
    await page.waitForURL(`${f.t.url}/cart`);
    await page.getByRole('button', { name: 'Check out' }).waitFor();

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
});
