/**
 * Inputs a store must refuse though they have the right shape: codes no country or currency has, a
 * day the calendar lacks, an address no mailer takes, a range that holds nothing, a line named twice.
 * Each is a 400 naming its field, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type ApiResponse, type TestServer } from './harness.js';
import { as, CART, line, productV1, STORES_APP_ID, visitor } from './cart-support.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

const owner = (path: string, body: unknown) => call(t.url, path, { ...asOwner(t), body });
const refused = (res: ApiResponse) => [res.status, res.body.details?.validationError?.fieldViolations?.map((v: { field: string; description: string }) => `${v.field}: ${v.description}`)];

describe('inputs of the right shape that name nothing real', () => {
  it('country and currency codes, calendar days and e-mail addresses', async () => {
    expect(refused(await owner('/billing/v1/tax-regions', { taxRegion: { country: 'XX' } })))
      .toEqual([400, ['taxRegion.country: must be an ISO 3166-1 alpha-2 country code, like "US"']]);
    expect(refused(await owner('/billing/v1/tax-regions', { taxRegion: { country: 'UK' } }))[0]).toBe(400);

    const p = await productV1(t, { name: 'Checked', price: 5 });
    const order = (extra: Record<string, unknown>) => owner('/ecom/v1/orders', { order: {
      lineItems: [{ productName: { original: 'Checked' }, quantity: 1, price: { amount: '5.00' }, catalogReference: { catalogItemId: p.productId, appId: STORES_APP_ID, options: { variantId: p.variantId } } }],
      buyerInfo: { email: 'buyer@example.com' }, ...extra,
    } });
    expect(refused(await order({ currency: 'ABC' }))).toEqual([400, ['order.currency: must be an ISO 4217 currency code in use, like "USD"']]);
    expect(refused(await order({ purchasedDate: '2024-02-30T00:00:00Z' }))).toEqual([400, ['order.purchasedDate: must be a valid date']]);
    expect(refused(await order({ buyerInfo: { email: 'not an email' } }))).toEqual([400, ['order.buyerInfo.email: must be an e-mail address']]);
    expect(refused(await order({ buyerInfo: { email: 'a@b' } }))[0]).toBe(400);
    const search = await owner('/ecom/v1/orders/search', { search: { cursorPaging: { limit: 0 } } });
    expect(refused(search)).toEqual([400, ['search.cursorPaging.limit: must be at least 1']]);
    const leap = await order({ purchasedDate: '2024-02-29T12:00:00Z' });
    expect([leap.status, leap.body.order?.purchasedDate]).toEqual([200, '2024-02-29T12:00:00Z']);
  });

  it('a discount trigger range that holds nothing, and an exclusive bound worded as such', async () => {
    const rule = (trigger: unknown, percentage = 10) => owner('/ecom/v1/discount-rules', { discountRule: {
      name: 'Never', active: true, trigger, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage }] },
    } });
    expect(refused(await rule({ triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100', to: '10' } })))
      .toEqual([400, ['discountRule.trigger.subtotalRange.to: to must not be below from (the range would hold nothing)']]);
    expect(refused(await rule({ triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 5, to: 2 } }))[0]).toBe(400);
    expect(refused(await rule({ triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '10' } }, 0)))
      .toEqual([400, ['discountRule.discounts.values[0].percentage: must be more than 0']]);
  });

  it('a cart line named twice in one quantity change', async () => {
    const v = as(t, await visitor(t));
    const p = await productV1(t, { name: 'Twice', price: 3 });
    const id = (await v.post(`${CART}/add-to-cart`, { lineItems: [line(p.productId, 1)] })).body.cart.lineItems[0].id;
    const res = await v.post(`${CART}/update-line-items-quantity`, { lineItems: [{ id, quantity: 3 }, { id, quantity: 7 }] });
    expect(refused(res)).toEqual([400, ['lineItems[1].id: names a line item given before in this call']]);
    expect((await v.get(CART)).body.cart.lineItems[0].quantity).toBe(1);
  });
});
