/** Money arithmetic and the engine's refusal of inputs it cannot price exactly. */
import { describe, expect, it } from 'vitest';
import { allocate, calculatePricing, currencyOf, divRound, formatMoney, parseMoney, PricingInputError, type PricingInput } from '../src/domains/cart/pricing/index.js';

const usd = currencyOf('USD');

describe('money', () => {
  it('knows zero- and three-decimal currencies', () => {
    expect([currencyOf('JPY').exponent, currencyOf('KRW').exponent, currencyOf('BHD').exponent, currencyOf('KWD').exponent, usd.exponent]).toEqual([0, 0, 3, 3, 2]);
    expect(() => currencyOf('usd')).toThrow(PricingInputError);
  });

  it('parses and formats without floats', () => {
    expect(parseMoney('0.1', usd, 'x') + parseMoney('0.2', usd, 'x')).toBe(30n);
    expect([formatMoney(5n, usd), formatMoney(-5n, usd), formatMoney(1234n, currencyOf('BHD')), formatMoney(1234n, currencyOf('JPY'))]).toEqual(['0.05', '-0.05', '1.234', '1234']);
    expect(parseMoney('12', usd, 'x')).toBe(1200n);
    expect(() => parseMoney('1.005', usd, 'x')).toThrow(/at most 2 decimals/);
    expect(() => parseMoney('1.5', currencyOf('JPY'), 'x')).toThrow(/at most 0 decimals/);
    expect(() => parseMoney('-1', usd, 'x')).toThrow(/negative/);
    expect(() => parseMoney('1e3', usd, 'x')).toThrow(PricingInputError);
    expect(() => parseMoney('1'.repeat(19), usd, 'x')).toThrow(/at most 18 digits/);
  });

  it('checks every call the same when the amount was read or formatted before (kept per process)', () => {
    expect(parseMoney('-2.50', usd, 'x', { allowNegative: true })).toBe(-250n);
    expect(() => parseMoney('-2.50', usd, 'x')).toThrow(/negative/);
    expect(parseMoney('2.5', usd, 'x')).toBe(250n);
    expect(() => parseMoney('2.5', currencyOf('JPY'), 'x')).toThrow(/at most 0 decimals/);
    expect([formatMoney(250n, usd), formatMoney(250n, currencyOf('JPY')), formatMoney(250n, currencyOf('BHD'))]).toEqual(['2.50', '250', '0.250']);
  });

  it('rounds halves up (away from zero) or to even', () => {
    const cases: [bigint, bigint][] = [[5n, 2n], [15n, 2n], [25n, 2n], [-5n, 2n], [7n, 3n], [-7n, 3n]];
    expect(cases.map(([n, d]) => divRound(n, d, 'HALF_UP'))).toEqual([3n, 8n, 13n, -3n, 2n, -2n]);
    expect(cases.map(([n, d]) => divRound(n, d, 'HALF_EVEN'))).toEqual([2n, 8n, 12n, -2n, 2n, -2n]);
  });
});

describe('allocate', () => {
  it('gives the units left over to the largest remainders, and breaks ties by order, not by key', () => {
    // 10 over three equal weights: 3 each and one unit left, to the share whose order comes first.
    const shares = (keys: [string, string, string]) => [
      { key: keys[0], weight: 1n, order: 'b-mug' }, { key: keys[1], weight: 1n, order: 'a-tea' }, { key: keys[2], weight: 1n, order: 'c-cup' },
    ];
    expect(Object.fromEntries(allocate(10n, shares(['x1', 'x2', 'x3'])))).toEqual({ x1: 3n, x2: 4n, x3: 3n });
    // The same content under other ids (a cart filled in another order): the unit lands on the same item.
    expect(Object.fromEntries(allocate(10n, shares(['z9', 'a0', 'm5'])))).toEqual({ z9: 3n, a0: 4n, m5: 3n });
    // Without an order the key decides, and the parts always add up.
    expect(Object.fromEntries(allocate(7n, [{ key: 'b', weight: 1n }, { key: 'a', weight: 1n }]))).toEqual({ a: 4n, b: 3n });
  });
});

describe('inputs the engine refuses', () => {
  const base: PricingInput = { currency: 'USD', now: '2026-06-01T12:00:00Z', lineItems: [{ id: 'a', price: '1.00', quantity: 1, itemType: 'DIGITAL' }] };
  const refused: [string, PricingInput, string][] = [
    ['duplicate line id', { ...base, lineItems: [base.lineItems[0]!, base.lineItems[0]!] }, 'lineItems[1].id'],
    ['zero quantity', { ...base, lineItems: [{ ...base.lineItems[0]!, quantity: 0 }] }, 'lineItems[0].quantity'],
    ['quantity above the bound', { ...base, lineItems: [{ ...base.lineItems[0]!, quantity: 100_001 }] }, 'lineItems[0].quantity'],
    ['too many decimals', { ...base, lineItems: [{ ...base.lineItems[0]!, price: '1.001' }] }, 'lineItems[0].price'],
    ['a date without a zone', { ...base, now: '2026-06-01 12:00' }, 'now'],
    // The cast lets the test send what a careless caller could: a mode outside the type.
    ['unknown rounding mode', { ...base, roundingMode: 'DOWN' as never }, 'roundingMode'],
    ['merchant discount with both kinds', { ...base, merchantDiscounts: [{ amount: '1.00', percentage: 5 }] }, 'merchantDiscounts[0]'],
    ['merchant discount for a missing line', { ...base, merchantDiscounts: [{ amount: '1.00', lineItemIds: ['zz'] }] }, 'merchantDiscounts[0].lineItemIds[0]'],
    ['percentage above 100', { ...base, discountRules: [{ id: 'r', name: 'r', discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 101 }] } }] }, 'discountRules[0].discounts.values[0].percentage'],
    ['tax rate above 1', { ...base, tax: { regions: [], manualTaxMappings: [{ id: 'm', taxRegionId: 'r', taxGroupId: null, taxRate: '1.5', taxName: 't', jurisdiction: 'X', jurisdictionType: 'COUNTRY' }] } }, 'tax.manualTaxMappings[0].taxRate'],
    ['fractional quantity bound in a trigger', { ...base, discountRules: [{ id: 'r', name: 'r', trigger: { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 1.5 } }, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 5 }] } }] }, 'discountRules[0].trigger.itemQuantityRange.from'],
    ['open weight range before the last', { ...base, lineItems: [{ ...base.lineItems[0]!, itemType: 'PHYSICAL' }], shippingAddress: { country: 'US' }, shipping: { regions: [{ id: 's', name: 's', destinations: [{ country: 'US' }], options: [{ code: 'w', title: 'w', rate: { type: 'BY_WEIGHT', ranges: [{ price: '1.00' }, { upTo: 2, price: '2.00' }] } }] }] } }, 'shipping.regions[0].options[0].rate.ranges[0].upTo'],
    ['too many lines', { ...base, lineItems: Array.from({ length: 301 }, (_, i) => ({ ...base.lineItems[0]!, id: `l${i}` })) }, 'lineItems'],
  ];
  for (const [name, input, field] of refused) {
    it(name, () => {
      let error: unknown;
      try { calculatePricing(input); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(PricingInputError);
      expect(error instanceof PricingInputError && error.field).toBe(field);
    });
  }
});
