import { describe, expect, it } from 'vitest';
import { couponFields, couponTerms, editableCoupon } from './coupon-fields';
import { ruleTerms } from './rule-fields';

describe('discount rule fields', () => {
  it('turns a percentage with a minimum into the rule terms', () => {
    expect(ruleTerms({ target: 'GLOBAL', kind: 'PERCENTAGE', value: '15', minimum: '30' })).toEqual({
      terms: { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '30.00' } }, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 15 }] } },
    });
  });
  it('an amount off shipping for every cart has a null trigger (clears a minimum)', () => {
    expect(ruleTerms({ target: 'SHIPPING', kind: 'FIXED_AMOUNT', value: '4.5', minimum: ' ' })).toEqual({
      terms: { trigger: null, discounts: { values: [{ targetType: 'SHIPPING', discountType: 'FIXED_AMOUNT', fixedAmount: '4.50' }] } },
    });
  });
  it('names the field in error', () => {
    expect(ruleTerms({ target: 'GLOBAL', kind: 'PERCENTAGE', value: '101', minimum: '' })).toEqual({ error: 'Discount: a percentage above 0 and at most 100' });
    expect(ruleTerms({ target: 'GLOBAL', kind: 'FIXED_AMOUNT', value: '1.234', minimum: '' })).toEqual({ error: 'Discount: an amount such as 5 or 4.99' });
    expect(ruleTerms({ target: 'GLOBAL', kind: 'PERCENTAGE', value: '5', minimum: 'ten' })).toEqual({ error: 'Minimum subtotal: an amount such as 50 or 49.99' });
  });
});

describe('coupon fields', () => {
  it('sends every term, the ones not set as null', () => {
    expect(couponTerms({ kind: 'amount', value: '5', minimum: '', limit: '3', expires: '' })).toEqual({
      terms: { percentOffRate: null, moneyOffAmount: '5.00', freeShipping: null, minimumSubtotal: null, usageLimit: 3, expirationTime: null },
    });
    expect(couponTerms({ kind: 'shipping', value: 'ignored', minimum: '20', limit: '', expires: '' })).toEqual({
      terms: { percentOffRate: null, moneyOffAmount: null, freeShipping: true, minimumSubtotal: '20.00', usageLimit: null, expirationTime: null },
    });
  });
  it('refuses a use limit that is not a whole number of at least 1', () => {
    expect(couponTerms({ kind: 'percent', value: '10', minimum: '', limit: '0', expires: '' })).toEqual({ error: 'Uses: a whole number of at least 1' });
    expect(couponTerms({ kind: 'percent', value: '10', minimum: '', limit: '1.5', expires: '' })).toEqual({ error: 'Uses: a whole number of at least 1' });
  });
  it('reads a stored coupon back into the form, the last day in the browser zone', () => {
    const expirationTime = new Date(2031, 4, 9, 23, 59, 59).toISOString();
    expect(couponFields({ name: 'x', code: 'X', startTime: '2030-01-01T00:00:00.000Z', percentOffRate: 12.5, minimumSubtotal: '40.00', usageLimit: 7, expirationTime }))
      .toEqual({ kind: 'percent', value: '12.5', minimum: '40.00', limit: '7', expires: '2031-05-09' });
    expect(couponFields({ name: 'x', code: 'X', startTime: '2030-01-01T00:00:00.000Z', freeShipping: true })).toEqual({ kind: 'shipping', value: '', minimum: '', limit: '', expires: '' });
  });
  it('leaves fixed-price and item-scoped coupons to the API', () => {
    expect(editableCoupon({ name: 'x', code: 'X', startTime: '', moneyOffAmount: '1.00' })).toBe(true);
    expect(editableCoupon({ name: 'x', code: 'X', startTime: '', fixedPriceAmount: '1.00' })).toBe(false);
    expect(editableCoupon({ name: 'x', code: 'X', startTime: '', moneyOffAmount: '1.00', limitedToOneItem: true })).toBe(false);
  });
});
