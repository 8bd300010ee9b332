import { describe, expect, it } from 'vitest';
import { calculatePricing, type PricingResult } from '../src/domains/cart/pricing/index.js';
import { PRICING_CASES } from './pricing.cases.js';

/** Follows a dotted path (array indexes included) through the plain JSON-like result. */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] /* any object is indexable by key here */ : undefined), value);
}

function summaryOf(r: PricingResult): string[] {
  const s = r.priceSummary;
  return [s.subtotal.amount, s.discount.amount, s.shipping.amount, s.tax.amount, s.additionalFees.amount, s.total.amount];
}

describe('pricing case table', () => {
  it('has at least 30 hand-computed cases with distinct names', () => {
    expect(PRICING_CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(PRICING_CASES.map((c) => c.name)).size).toBe(PRICING_CASES.length);
  });

  for (const c of PRICING_CASES) {
    it(c.name, () => {
      const r = calculatePricing(c.input);
      const e = c.expected;
      expect(summaryOf(r)).toEqual(e.priceSummary);
      for (const [id, [discount, tax, after]] of Object.entries(e.lines ?? {})) {
        const line = r.calculatedLineItems.find((l) => l.lineItemId === id)?.pricesBreakdown;
        expect([line?.totalDiscount.amount, line?.taxDetails.totalTax.amount, line?.totalPriceAfterTax.amount], `line ${id}`).toEqual([discount, tax, after]);
      }
      if (e.appliedDiscounts) {
        expect(r.appliedDiscounts.map((d) => [
          d.discountRule?.id ?? d.coupon?.code ?? 'merchant', d.discountType,
          (d.discountRule?.amount ?? d.coupon?.amount ?? d.merchantDiscount?.amount)?.amount,
        ])).toEqual(e.appliedDiscounts);
      }
      if (e.selectedShippingOption !== undefined) expect(r.shippingInfo.selectedCarrierServiceOption?.code ?? null).toBe(e.selectedShippingOption);
      const errorCodes = Object.fromEntries(Object.entries(r.calculationErrors).map(([k, v]) => [k, v.applicationError.code]));
      expect(errorCodes).toEqual(e.calculationErrors ?? {});
      expect(r.violations.map((v) => [v.severity, 'lineItem' in v.target ? v.target.lineItem.id : 'other'])).toEqual(e.violations ?? []);
      for (const [path, value] of e.paths ?? []) expect(at(r, path), path).toEqual(value);
    });
  }
});
