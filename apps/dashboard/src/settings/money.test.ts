import { describe, expect, it } from 'vitest';
import { amountText, percentValue, rateFraction, rateText } from './money';

describe('settings amounts', () => {
  it('normalizes amounts and refuses what is not one', () => {
    expect(amountText('12.5')).toBe('12.50');
    expect(amountText('0')).toBe('0.00');
    expect(amountText('1.234')).toBeUndefined();
    expect(amountText('-3')).toBeUndefined();
  });
  it('takes percentages above 0 up to 100 with at most 4 decimals', () => {
    expect(percentValue('10')).toBe(10);
    expect(percentValue('7.125')).toBe(7.125);
    expect(percentValue('0')).toBeUndefined();
    expect(percentValue('100.01')).toBeUndefined();
    expect(percentValue('abc')).toBeUndefined();
  });
  it('turns a percent tax rate into the exact fraction text and back', () => {
    expect(rateFraction('8')).toBe('0.08');
    expect(rateFraction('8.25')).toBe('0.0825');
    expect(rateFraction('0.01')).toBe('0.0001');
    expect(rateFraction('8.875')).toBeUndefined();
    expect(rateFraction('100')).toBe('1');
    expect(rateFraction('0')).toBe('0');
    expect(rateFraction('100.5')).toBeUndefined();
    expect(rateFraction('x')).toBeUndefined();
    expect(rateText('0.08875')).toBe('8.875%');
  });
});
