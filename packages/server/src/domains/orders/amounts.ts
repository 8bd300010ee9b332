import { currencyOf, DEFAULT_ROUNDING_MODE, displayAmount, divRound, formatMoney, parseMoney, type Currency } from '../cart/index.js';
import type { OrderPrice } from './model.js';

/**
 * Order amounts: decimal strings on the wire, minor units (bigint) in arithmetic, with the pricing
 * engine's money helpers, so nothing here is ever a float.
 */
export { currencyOf, type Currency };

/** `amount * part / whole`, rounded as the pricing engine rounds by default (0 when `whole` is 0). */
export function scaled(amount: bigint, part: bigint, whole: bigint): bigint {
  return whole === 0n ? 0n : divRound(amount * part, whole, DEFAULT_ROUNDING_MODE);
}

export function toMinor(amount: string | undefined, currency: Currency, field: string, opts: { allowNegative?: boolean } = {}): bigint {
  return amount === undefined || amount === '' ? 0n : parseMoney(amount, currency, field, opts);
}

/** A wire price: the amount with the currency's decimals and a display text. */
export function price(minor: bigint, currency: Currency): OrderPrice {
  const amount = formatMoney(minor, currency);
  return { amount, formattedAmount: displayAmount(amount, currency.code) };
}

/** The same price with its amount normalized to the currency (and checked). */
export function normalizePrice(p: OrderPrice | undefined, currency: Currency, field: string): OrderPrice | undefined {
  return p === undefined ? undefined : price(toMinor(p.amount, currency, `${field}.amount`, { allowNegative: false }), currency);
}
