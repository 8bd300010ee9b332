/**
 * Properties of estimate-totals over real HTTP, on carts fast-check generates against a store with a
 * cart rule, an item rule, a tax region and a shipping option: the totals do not depend on the order the
 * lines were added in, and the summary identity holds (total = subtotal - discount + shipping + tax +
 * fees; tax excluded here, so it is added).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './harness.js';
import { as, CART, line, productV1, STORES_APP_ID, visitor } from './cart-support.js';
import { currencyOf, parseMoney } from '../src/domains/cart/pricing/index.js';

let t: TestServer;
const ids: string[] = [];
const PRICES = [0.99, 3.33, 12.5, 19.99, 47.1, 250];

beforeAll(async () => {
  t = await startTestServer();
  const owner = as(t, 'owner');
  for (const [i, price] of PRICES.entries()) ids.push((await productV1(t, { name: `prop ${i}`, price, weight: 0.3 * (i + 1) })).productId);
  const ok = (r: { status: number; body: unknown }) => { if (r.status !== 200) throw new Error(JSON.stringify(r.body)); return r.body as Record<string, Record<string, string>>; };
  ok(await owner.post('/ecom/v1/discount-rules', { discountRule: { name: 'cart 7%', active: true, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 7 }] } } }));
  ok(await owner.post('/ecom/v1/discount-rules', { discountRule: { name: 'item 1.25 off', active: true, discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES_APP_ID, catalogItemIds: [ids[3]!, ids[1]!] } }] }, discountType: 'FIXED_AMOUNT', fixedAmount: '1.25' }] } } }));
  const region = ok(await owner.post('/billing/v1/tax-regions', { taxRegion: { country: 'US', subdivision: 'US-WA', taxIncludedInPrice: false } }));
  ok(await owner.put(`/billing/v1/tax-regions/${region.taxRegion!.id}/manual-rates`, { manualRates: [{ taxRate: '0.065', taxName: 'State', jurisdiction: 'WA', jurisdictionType: 'STATE' }, { taxRate: '0.0275', taxName: 'City', jurisdiction: 'Seattle', jurisdictionType: 'CITY' }] }));
  ok(await owner.post('/ecom/v1/shipping-regions', { shippingRegion: { name: 'US', destinations: [{ country: 'US' }], options: [{ code: 'W', title: 'By weight', rate: { type: 'BY_WEIGHT', weightRanges: [{ upTo: 1, price: '3.95' }, { upTo: 5, price: '7.45' }, { price: '12.00' }] }, freeOver: '300.00' }] } }));
});
afterAll(() => t?.close());

const cartArb = fc.uniqueArray(fc.record({ product: fc.integer({ min: 0, max: PRICES.length - 1 }), quantity: fc.integer({ min: 1, max: 7 }) }), { selector: (l) => l.product, minLength: 1, maxLength: PRICES.length })
  .chain((lines) => fc.tuple(fc.constant(lines), fc.shuffledSubarray(lines, { minLength: lines.length, maxLength: lines.length })));

const USD = currencyOf('USD');
const minor = (p: { amount: string }) => parseMoney(p.amount, USD, 'amount');

describe('estimate-totals properties over HTTP', () => {
  it('totals are the same whatever order the lines were added in, and add up', async () => {
    await fc.assert(fc.asyncProperty(cartArb, async ([lines, shuffled]) => {
      const estimate = async (order: typeof lines) => {
        const buyer = as(t, await visitor(t));
        await buyer.post(`${CART}/add-to-cart`, { lineItems: order.map((l) => line(ids[l.product]!, l.quantity)) });
        const res = await buyer.post(`${CART}/estimate-totals`, { shippingAddress: { country: 'US', subdivision: 'US-WA' } });
        expect([res.status, res.status === 200 ? null : res.body]).toEqual([200, null]);
        return res.body;
      };
      const a = await estimate(lines);
      const b = await estimate(shuffled);
      expect(b.priceSummary).toEqual(a.priceSummary);
      expect(b.taxSummary).toEqual(a.taxSummary);
      // Per product, each line is priced the same in both orders.
      const byProduct = (body: typeof a) => Object.fromEntries(body.cart.lineItems.map((l: { id: string; catalogReference: { catalogItemId: string } }) =>
        [l.catalogReference.catalogItemId, body.calculatedLineItems.find((c: { lineItemId: string }) => c.lineItemId === l.id).pricesBreakdown.totalPriceAfterTax.amount]));
      expect(byProduct(b)).toEqual(byProduct(a));
      const s = a.priceSummary;
      expect(minor(s.total)).toBe(minor(s.subtotal) - minor(s.discount) + minor(s.shipping) + minor(s.tax) + minor(s.additionalFees));
      expect(minor(s.discount) >= 0n && minor(s.tax) >= 0n && minor(s.total) >= 0n).toBe(true);
    }), { numRuns: 25 });
  }, 120_000);
});
