/**
 * Properties of the pricing engine over generated carts (fast-check): totals do not depend on line
 * order, the summary identity holds, nothing is negative, and every split adds up to what was split.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, calculatePricing, currencyOf, formatMoney, type PricingInput, type PricingResult } from '../src/domains/cart/pricing/index.js';
import type { DiscountRuleInput, DiscountValue, PricingLineItem } from '../src/domains/cart/pricing/index.js';

const APP = 'app';
const NOW = '2026-06-01T12:00:00Z';
const RUNS = 300;

/** Minor units of an amount string, whatever its currency ("12.50" -> 1250n, "500" -> 500n). */
const minor = (amount: string): bigint => BigInt(amount.replace('.', ''));
const money = (currency: string) => (n: number) => formatMoney(BigInt(n), currencyOf(currency));

const discountValue = (currency: string, ids: string[]): fc.Arbitrary<DiscountValue> => fc.record({
  targetType: fc.constantFrom('GLOBAL', 'SPECIFIC_ITEMS', 'SHIPPING'),
  kind: fc.constantFrom('PERCENTAGE', 'FIXED_AMOUNT', 'FIXED_PRICE'),
  percentage: fc.integer({ min: 1, max: 1000 }).map((n) => n / 10),
  amount: fc.integer({ min: 0, max: 20_000 }).map(money(currency)),
  scoped: fc.subarray(ids, { minLength: 1 }),
}).map((v): DiscountValue => ({
  targetType: v.targetType,
  discountType: v.kind,
  ...(v.kind === 'PERCENTAGE' ? { percentage: v.percentage } : v.kind === 'FIXED_AMOUNT' ? { fixedAmount: v.amount } : { fixedPrice: v.amount }),
  ...(v.targetType === 'SPECIFIC_ITEMS' ? { specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: APP, catalogItemIds: v.scoped.map((id) => `p-${id}`) } }] } } : {}),
}));

const cartArb: fc.Arbitrary<PricingInput> = fc.constantFrom('USD', 'JPY', 'BHD').chain((currency) =>
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'b', 'c', 'd', 'e') }), { minLength: 1, maxLength: 8 }).chain((ids) => {
    const amount = fc.integer({ min: 0, max: 50_000 }).map(money(currency));
    const line = (id: string): fc.Arbitrary<PricingLineItem> => fc.record({
      price: amount, quantity: fc.integer({ min: 1, max: 5 }), physical: fc.boolean(), weight: fc.integer({ min: 0, max: 3000 }),
      group: fc.constantFrom(null, 'reduced'), unavailable: fc.integer({ min: 0, max: 9 }),
    }).map((l) => ({
      id, price: l.price, quantity: l.quantity, itemType: l.physical ? 'PHYSICAL' : 'DIGITAL', taxGroupId: l.group,
      catalogReference: { appId: APP, catalogItemId: `p-${id}` }, physicalProperties: { weight: l.weight / 1000 },
      ...(l.unavailable === 0 ? { availability: { status: 'NOT_AVAILABLE' as const } } : {}),
    }));
    return fc.record({
      lineItems: fc.tuple(...ids.map(line)),
      rules: fc.array(fc.tuple(fc.uuid(), discountValue(currency, ids), fc.option(amount)), { maxLength: 4 }),
      coupon: fc.option(fc.tuple(discountValue(currency, ids), fc.option(amount))),
      merchant: fc.array(fc.oneof(
        fc.record({ amount, lineItemIds: fc.subarray(ids) }),
        fc.record({ percentage: fc.integer({ min: 1, max: 100 }), lineItemIds: fc.subarray(ids) }),
      ), { maxLength: 2 }),
      included: fc.boolean(),
      rate: fc.integer({ min: 0, max: 300_000 }),
      reducedRate: fc.integer({ min: 0, max: 100_000 }),
      taxShipping: fc.boolean(),
      flat: amount,
      freeOver: fc.option(amount),
      fees: fc.array(fc.record({ price: amount, taxable: fc.boolean() }), { maxLength: 2 }),
      rounding: fc.constantFrom('HALF_UP' as const, 'HALF_EVEN' as const),
      selected: fc.constantFrom('flat', 'weight', 'pickup', 'nope'),
    }).map((g): PricingInput => ({
      currency, now: NOW, roundingMode: g.rounding, lineItems: [...g.lineItems],
      discountRules: g.rules.map(([id, value, from]): DiscountRuleInput => ({
        id, name: id, discounts: { values: [value] }, ...(from ? { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from } } } : {}),
      })),
      coupon: g.coupon ? { id: 'c', code: 'C', name: 'C', discount: g.coupon[0], minimumSubtotal: g.coupon[1] } : null,
      merchantDiscounts: g.merchant.map((m) => ('amount' in m ? { amount: m.amount, lineItemIds: m.lineItemIds } : { percentage: m.percentage, lineItemIds: m.lineItemIds })),
      shippingAddress: { country: 'DE', subdivision: 'BE' },
      tax: {
        taxShipping: g.taxShipping,
        regions: [{ id: 'de', country: 'DE', taxIncludedInPrice: g.included }],
        manualTaxMappings: [
          { id: 'std', taxRegionId: 'de', taxGroupId: null, taxRate: (g.rate / 1e6).toFixed(6), taxName: 'VAT', jurisdiction: 'DE', jurisdictionType: 'COUNTRY' },
          { id: 'fed', taxRegionId: 'de', taxGroupId: null, taxRate: '0.013', taxName: 'Extra', jurisdiction: 'BE', jurisdictionType: 'STATE' },
          { id: 'red', taxRegionId: 'de', taxGroupId: 'reduced', taxRate: (g.reducedRate / 1e6).toFixed(6), taxName: 'Reduced', jurisdiction: 'DE', jurisdictionType: 'COUNTRY' },
        ],
      },
      shipping: {
        selectedShippingOption: { code: g.selected },
        regions: [{ id: 'eu', name: 'EU', destinations: [{ country: 'DE' }], options: [
          { code: 'flat', title: 'Flat', rate: { type: 'FLAT', price: g.flat }, freeOver: g.freeOver },
          { code: 'weight', title: 'By weight', rate: { type: 'BY_WEIGHT', ranges: [{ upTo: 2, price: g.flat }, { upTo: 10, price: money(currency)(900) }] } },
          { code: 'pickup', title: 'Pickup', rate: { type: 'FREE' }, pickup: { address: { country: 'DE' }, pickupMethod: 'STORE_PICKUP' } },
        ] }],
      },
      additionalFees: g.fees.map((f, i) => ({ code: `f${i}`, name: `Fee ${i}`, price: f.price, taxable: f.taxable })),
    }));
  }));

function summary(r: PricingResult) {
  const s = r.priceSummary;
  return { subtotal: minor(s.subtotal.amount), discount: minor(s.discount.amount), shipping: minor(s.shipping.amount), tax: minor(s.tax.amount), fees: minor(s.additionalFees.amount), total: minor(s.total.amount) };
}

/** Everything that must not depend on line order, keyed by line id. */
function orderFree(r: PricingResult) {
  return {
    priceSummary: r.priceSummary,
    lines: Object.fromEntries(r.calculatedLineItems.map((l) => [l.lineItemId, l.pricesBreakdown])),
    discounts: r.appliedDiscounts.map((d) => ({ ...d, lineItemIds: [...d.lineItemIds].sort(), lineItemDiscounts: [...d.lineItemDiscounts].sort((a, b) => (a.id < b.id ? -1 : 1)) })),
    shipping: r.shippingInfo.selectedCarrierServiceOption?.cost,
    tax: r.taxSummary.aggregatedTaxBreakdown,
  };
}

describe('pricing properties', () => {
  it('totals and per-line results do not depend on line order', () => {
    fc.assert(fc.property(cartArb, fc.infiniteStream(fc.nat()), (input, seeds) => {
      const shuffled = [...input.lineItems].map((l) => ({ l, k: seeds.next().value })).sort((a, b) => a.k - b.k).map((x) => x.l);
      expect(orderFree(calculatePricing({ ...input, lineItems: shuffled }))).toEqual(orderFree(calculatePricing(input)));
    }), { numRuns: RUNS });
  });

  it('total = subtotal - discount + shipping + fees + tax (tax added only when prices exclude it)', () => {
    fc.assert(fc.property(cartArb, (input) => {
      const r = calculatePricing(input);
      const s = summary(r);
      const taxOnTop = r.taxSummary.taxIncludedInPrice ? 0n : s.tax;
      expect(s.total).toBe(s.subtotal - s.discount + s.shipping + s.fees + taxOnTop);
      const priced = r.calculatedLineItems.filter((l) => l.priced);
      const shipping = r.shippingInfo.selectedCarrierServiceOption?.cost;
      expect(s.subtotal).toBe(priced.reduce((a, l) => a + minor(l.pricesBreakdown.lineItemPrice.amount), 0n));
      expect(s.discount).toBe(priced.reduce((a, l) => a + minor(l.pricesBreakdown.totalDiscount.amount), 0n) + minor(shipping?.totalDiscount.amount ?? '0'));
      expect(s.tax).toBe(priced.reduce((a, l) => a + minor(l.pricesBreakdown.taxDetails.totalTax.amount), 0n)
        + minor(shipping?.taxDetails.totalTax.amount ?? '0') + r.additionalFees.reduce((a, f) => a + minor(f.taxDetails.totalTax.amount), 0n));
      expect(minor(r.taxSummary.totalTax.amount)).toBe(s.tax);
    }), { numRuns: RUNS });
  });

  it('nothing is negative', () => {
    fc.assert(fc.property(cartArb, (input) => {
      const r = calculatePricing(input);
      for (const v of Object.values(summary(r))) expect(v >= 0n).toBe(true);
      for (const l of r.calculatedLineItems) {
        const p = l.pricesBreakdown;
        for (const a of [p.totalDiscount, p.totalPriceBeforeTax, p.totalPriceAfterTax, p.taxDetails.totalTax]) expect(minor(a.amount) >= 0n).toBe(true);
      }
      const shipping = r.shippingInfo.selectedCarrierServiceOption?.cost;
      if (shipping) expect(minor(shipping.totalPriceBeforeTax.amount) >= 0n).toBe(true);
    }), { numRuns: RUNS });
  });

  it('every split adds up exactly to what was split', () => {
    fc.assert(fc.property(cartArb, (input) => {
      const r = calculatePricing(input);
      for (const d of r.appliedDiscounts) {
        const amount = minor((d.discountRule?.amount ?? d.coupon?.amount ?? d.merchantDiscount?.amount)?.amount ?? '0');
        if (d.discountType !== 'SHIPPING') expect(d.lineItemDiscounts.reduce((a, x) => a + minor(x.totalDiscountAmount.amount), 0n)).toBe(amount);
      }
      const selected = r.shippingInfo.selectedCarrierServiceOption;
      if (selected) {
        const net = minor(selected.cost.price.amount) - minor(selected.cost.totalDiscount.amount);
        expect(selected.lineAllocations.reduce((a, x) => a + minor(x.amount.amount), 0n)).toBe(net);
        expect(selected.lineAllocations.reduce((a, x) => a + minor(x.tax.amount), 0n)).toBe(minor(selected.cost.taxDetails.totalTax.amount));
      }
      const details = [...r.calculatedLineItems.map((l) => l.pricesBreakdown.taxDetails), ...r.additionalFees.map((f) => f.taxDetails), ...(selected ? [selected.cost.taxDetails] : [])];
      for (const t of details) expect(t.rateBreakdown.reduce((a, x) => a + minor(x.tax.amount), 0n)).toBe(minor(t.totalTax.amount));
      expect(r.taxSummary.aggregatedTaxBreakdown.reduce((a, x) => a + minor(x.aggregatedTaxAmount.amount), 0n)).toBe(minor(r.taxSummary.totalTax.amount));
    }), { numRuns: RUNS });
  });

  it('allocate: exact sum, no part above its weight, independent of order', () => {
    const shares = fc.uniqueArray(fc.record({ key: fc.string({ minLength: 1, maxLength: 3 }), weight: fc.oneof(fc.bigInt({ min: 0n, max: 4n }), fc.bigInt({ min: 0n, max: 10n ** 12n })) }), { minLength: 1, maxLength: 20, selector: (s) => s.key });
    fc.assert(fc.property(shares, fc.bigInt({ min: 0n, max: 10n ** 12n }), (list, t) => {
      const weightSum = list.reduce((a, s) => a + s.weight, 0n);
      const total = weightSum === 0n ? t : t % (weightSum + 1n);
      const parts = allocate(total, list);
      expect([...parts.values()].reduce((a, v) => a + v, 0n)).toBe(total);
      if (weightSum > 0n) for (const s of list) expect((parts.get(s.key) ?? 0n) <= s.weight).toBe(true);
      expect(allocate(total, [...list].reverse())).toEqual(parts);
    }), { numRuns: RUNS * 3 });
  });
});
