import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { digitalProduct, paidDigitalOrder } from '../packages/server/test/orders-support.js';
import { launchBrowser } from './browser.js';
import { axeViolations } from './a11y.js';
import { openSection, signedInPage } from './dashboard-helpers.js';

/**
 * Owner dashboard, orders: list with a payment filter and search (a leading # allowed, filters kept in
 * the address), the order page (items with their choices and SKU, recipient, delivery, totals,
 * activity), an edit previewed then saved, cancel after confirmation; a double click records one
 * payment and one refund; the refund dialog says why it cannot refund; cancelling a paid order warns
 * that it refunds nothing and offers the refund first.
 */
let t: TestServer;
let browser: Browser;
let page: Page;
let orderId = '';

beforeAll(async () => {
  t = await startTestServer();
  const res = await call(t.url, '/ecom/v1/orders', {
    ...asOwner(t),
    body: { order: { lineItems: [{ productName: { original: 'Gift wrap' }, quantity: 2, price: { amount: '5.00' } }], buyerInfo: { email: 'buyer@shop.test' } } },
  });
  expect(res.status).toBe(200);
  orderId = res.body.order.id;
  browser = await launchBrowser();
  page = await signedInPage(browser, t);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('orders', () => {
  it('lists orders, filters by payment, opens one and cancels it after confirmation', async () => {
    await openSection(page, 'Orders', 'Orders');
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    expect(await page.getByTestId('order-row').textContent()).toContain('buyer@shop.test');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Payment').selectOption('PAID');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No order matches.');
    await page.getByLabel('Payment').selectOption('');
    await page.getByLabel('Search', { exact: true }).fill('nobody@');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No order matches.');
    await page.getByLabel('Search', { exact: true }).fill('buyer@');
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    await page.getByTestId('order-row').getByRole('link').click();
    const drawer = page.getByRole('main');
    await page.getByRole('heading', { name: /^Order #/ }).waitFor();
    await expect.poll(() => drawer.getByTestId('order-item').allTextContents()).toEqual([expect.stringMatching(/^Gift wrap2/)]);
    await page.screenshot({ path: 'e2e/artifacts/order.png', fullPage: true });
    // Edit: the draft previews the new total before the change is committed.
    await drawer.getByRole('button', { name: 'Edit order' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit order' });
    await edit.getByLabel('Gift wrap quantity').fill('3');
    await expect.poll(() => edit.getByTestId('edit-preview').textContent()).toMatch(/^New total \$?15\.00;/);
    expect((await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.lineItems[0].quantity).toBe(2);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.lineItems[0].quantity).toBe(3);
    await expect.poll(() => drawer.getByTestId('order-item').allTextContents()).toEqual([expect.stringMatching(/^Gift wrap3/)]);
    await drawer.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('dialog', { name: 'Cancel order' }).getByRole('button', { name: 'Cancel order and restock' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order.status).toBe('CANCELED');
    await expect.poll(() => drawer.getByTestId('order-detail').textContent()).toContain('StatusCANCELED');
  });

  it('finds "#<number>" and keeps the filters in the address across a reload', async () => {
    const { number } = (await call(t.url, `/ecom/v1/orders/${orderId}`, asOwner(t))).body.order;
    await page.goto(`${t.url}/dashboard/orders`);
    await page.getByLabel('Search', { exact: true }).fill(`#${number}`);
    await expect.poll(() => page.getByTestId('order-row').allTextContents()).toEqual([expect.stringContaining(`#${number}`)]);
    await page.getByLabel('Payment').selectOption('NOT_PAID');
    await page.waitForURL((url) => url.searchParams.get('payment') === 'NOT_PAID' && url.searchParams.get('search') === `#${number}`);
    await page.reload();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe(`#${number}`);
    expect(await page.getByLabel('Payment').inputValue()).toBe('NOT_PAID');
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
  });

  it('shows what to ship, sends one payment and one refund for a double click, and warns that cancelling refunds nothing', async () => {
    const made = await call(t.url, '/ecom/v1/orders', { ...asOwner(t), body: { order: {
      lineItems: [{
        productName: { original: 'Roaster Hoodie' }, quantity: 1, price: { amount: '40.00' },
        descriptionLines: [
          { name: { original: 'Color' }, colorInfo: { original: 'Black', code: '#000000' }, lineType: 'COLOR' },
          { name: { original: 'Size' }, plainText: { original: 'M' }, lineType: 'PLAIN_TEXT' },
        ],
        physicalProperties: { sku: 'HOOD-BLK-M', shippable: true },
      }],
      buyerInfo: { email: 'ana@shop.test' },
      shippingInfo: { title: 'Express courier', logistics: { deliveryTime: '1-2 days', shippingDestination: {
        address: { addressLine1: 'Rua Augusta 1', city: 'Lisboa', country: 'PT' }, contactDetails: { firstName: 'Ana', lastName: 'Silva' },
      } } },
    } } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id: string = made.body.order.id;
    const transactions = async () => (await call(t.url, `/ecom/v1/payments/orders/${id}`, asOwner(t))).body.orderTransactions as { payments: unknown[]; refunds: unknown[] };
    await page.goto(`${t.url}/dashboard/orders/${id}`);
    const main = page.getByRole('main');
    await expect.poll(() => main.getByTestId('order-item-choices').textContent()).toBe('Color: Black, Size: M');
    expect(await main.getByTestId('order-item-sku').textContent()).toBe('SKU HOOD-BLK-M');
    expect(await main.getByTestId('order-recipient').textContent()).toBe('Ana Silva');
    expect(await main.getByTestId('order-delivery').textContent()).toBe('Express courier · 1-2 days');

    // A double click on "Record payment" records one payment.
    const payments = page.getByRole('region', { name: 'Payments' });
    await payments.getByRole('button', { name: 'Record manual payment' }).click();
    await page.getByRole('dialog', { name: 'Record manual payment' }).getByRole('button', { name: 'Record payment' }).dblclick();
    await expect.poll(() => payments.getByTestId('payment').count()).toBe(1);
    expect(await payments.getByTestId('payment').textContent()).toMatch(/^\$40\.00/);
    expect((await transactions()).payments).toHaveLength(1);

    // The refund dialog says why it cannot refund, then a double click refunds once.
    await payments.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund payment' });
    const amount = refund.getByLabel('Refund amount');
    const why = async (text: string) => {
      await amount.fill(text);
      expect(await refund.getByRole('button', { name: /^Refund/ }).isDisabled()).toBe(true);
      return refund.getByTestId('refund-problem').textContent();
    };
    expect(await why('40.001')).toBe('Use at most two decimals.');
    expect(await why('41')).toBe('At most $40.00 can be refunded from this payment.');
    expect(await why('ten')).toBe('Enter an amount in digits, like 12.50.');
    expect(await why('0')).toBe('Enter an amount above 0.');
    await amount.fill('15');
    await refund.getByRole('button', { name: 'Refund $15.00' }).dblclick();
    await expect.poll(() => payments.getByTestId('refund').count()).toBe(1);
    expect(await payments.getByTestId('refund').textContent()).toMatch(/^Refund \$15\.00 · /);
    expect((await transactions()).refunds).toHaveLength(1);

    // Cancelling the paid order says the money stays and offers the refund first.
    await main.getByRole('button', { name: 'Cancel order' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel order' });
    expect(await cancel.getByTestId('cancel-refund-warning').textContent()).toContain('Cancelling does not refund the customer. $25.00 paid for this order stays with the store');
    expect(await axeViolations(page)).toEqual([]);
    await cancel.getByRole('button', { name: 'Refund first' }).click();
    expect(await page.getByRole('dialog', { name: 'Refund payment' }).getByLabel('Refund amount').inputValue()).toBe('25.00');
    await page.getByRole('dialog', { name: 'Refund payment' }).getByRole('button', { name: 'Refund $25.00' }).click();
    await expect.poll(() => payments.getByTestId('refund').count()).toBe(2);
    await main.getByRole('button', { name: 'Cancel order' }).click();
    expect(await cancel.getByTestId('cancel-refund-warning').count()).toBe(0);
    await cancel.getByRole('button', { name: 'Cancel order and restock' }).click();
    await expect.poll(async () => (await call(t.url, `/ecom/v1/orders/${id}`, asOwner(t))).body.order.status).toBe('CANCELED');
  });

  it('links the file of a paid digital line', async () => {
    const pattern = await digitalProduct(t, 'Knitting pattern', '%PDF-1.7 pattern', '6');
    const order = await call(t.url, '/ecom/v1/orders', { ...asOwner(t), body: { order: paidDigitalOrder(pattern, 'Knitting pattern (PDF)', '6.00', { email: 'knitter@shop.test' }) } });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    await page.goto(`${t.url}/dashboard/orders/${order.body.order.id}`);
    const link = page.getByTestId('order-item-download');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(order.body.order.lineItems[0].digitalFile.link);
    expect(await axeViolations(page)).toEqual([]);
  });
});
