/**
 * Money of payments: bigint minor units in, decimal text out, through the pricing engine's helpers
 * (no floats anywhere). A payment amount is bounded so it stays exact in both databases' integers
 * and in JavaScript numbers the drivers may hand back.
 */
import { currencyOf, formatMoney, parseMoney } from '../cart/index.js';
import { ValidationError } from '../../http/errors.js';

/** Largest amount of one payment or refund, in minor units (2^53 - 1). */
export const MAX_PAYMENT_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** `text` (a decimal amount) in minor units of `currency`; a bad amount is a 400 on `field`. */
export function toMinor(text: string, currency: string, field: string, opts: { allowZero?: boolean } = {}): bigint {
  const minor = parseMoney(text, currencyOf(currency), field);
  if (minor === 0n && !opts.allowZero) {
    throw new ValidationError([{ field, description: 'must be greater than 0', violatedRule: 'DECIMAL_GT', data: { value: '0' } }]);
  }
  if (minor > MAX_PAYMENT_MINOR) {
    throw new ValidationError([{ field, description: 'is too large', violatedRule: 'DECIMAL_LTE', data: {} }]);
  }
  return minor;
}

/** Minor units as the wire's decimal text ("12.50"). */
export function toAmount(minor: bigint, currency: string): string {
  return formatMoney(minor, currencyOf(currency));
}

export const sumMinor = (values: Iterable<bigint>): bigint => {
  let s = 0n;
  for (const v of values) s += v;
  return s;
};
