/**
 * Exact money and decimal arithmetic for pricing. Amounts are integers of the currency's minor unit
 * (bigint), rates are integers of millionths; nothing here ever touches a float. Decimal strings come
 * in (the contract's `amount` fields) and go out with exactly the currency's number of decimals.
 */
import { LruMap } from '../../../lru-map.js';
import { PricingInputError } from './errors.js';

export type RoundingMode = 'HALF_UP' | 'HALF_EVEN';
/** Commercial rounding (half away from zero) unless the site chooses banker's rounding. */
export const DEFAULT_ROUNDING_MODE: RoundingMode = 'HALF_UP';

/** ISO 4217 minor-unit exponents that are not 2; every other well-formed code has 2 decimals. */
const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0,
  VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};
const DEFAULT_EXPONENT = 2;
const CURRENCY_CODE = /^[A-Z]{3}$/;

/** Rates (tax rates, percentages) are kept as integers of millionths: the contract allows 6 decimals. */
export const RATE_SCALE = 6;
export const RATE_ONE = 1_000_000n;
/** Percentages (0.1..100 in the contract) may carry this many decimals. */
export const PERCENT_MAX_SCALE = 4;
/** Longest amount we accept, in digits, so a hostile input cannot make bigint work unbounded. */
export const MAX_AMOUNT_DIGITS = 18;

export interface Currency { code: string; exponent: number }

export function currencyOf(code: string, field = 'currency'): Currency {
  if (!CURRENCY_CODE.test(code)) throw new PricingInputError(field, 'must be a 3-letter ISO 4217 code');
  return { code, exponent: CURRENCY_EXPONENTS[code] ?? DEFAULT_EXPONENT };
}

/** An exact decimal: value = coefficient / 10^scale. */
export interface Decimal { coefficient: bigint; scale: number }

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string, field: string): Decimal {
  const m = DECIMAL_TEXT.exec(text);
  if (!m) throw new PricingInputError(field, 'must be a decimal number like "12.50"');
  const [, sign = '', whole = '', fraction = ''] = m;
  if (whole.length + fraction.length > MAX_AMOUNT_DIGITS) throw new PricingInputError(field, `must have at most ${MAX_AMOUNT_DIGITS} digits`);
  const coefficient = BigInt(whole + fraction);
  return { coefficient: sign === '-' ? -coefficient : coefficient, scale: fraction.length };
}

/** `d` expressed with exactly `scale` decimals; fails when that would drop non-zero digits. */
export function rescale(d: Decimal, scale: number, field: string, what: string): bigint {
  if (d.scale <= scale) return d.coefficient * 10n ** BigInt(scale - d.scale);
  const factor = 10n ** BigInt(d.scale - scale);
  if (d.coefficient % factor !== 0n) throw new PricingInputError(field, `must have at most ${scale} decimals (${what})`);
  return d.coefficient / factor;
}

/** A money amount in minor units; more decimals than the currency has is an input error, not a rounding. */
export function parseMoney(text: string, currency: Currency, field: string, opts: { allowNegative?: boolean } = {}): bigint {
  let known = moneyValues.get(currency.exponent);
  if (!known) moneyValues.set(currency.exponent, (known = new LruMap<string, bigint>(MONEY_VALUES_MAX)));
  let minor = known.get(text);
  if (minor === undefined) {
    minor = rescale(parseDecimal(text, field), currency.exponent, field, currency.code);
    known.set(text, minor);
  }
  if (minor < 0n && !opts.allowNegative) throw new PricingInputError(field, 'must not be negative');
  return minor;
}

/** Amounts already read, per currency exponent (only well-formed texts are kept): prices repeat across calculations. */
export const MONEY_VALUES_MAX = 10_000;
const moneyValues = new Map<number, LruMap<string, bigint>>();

/**
 * Texts of amounts already formatted, per currency exponent: a calculation formats about ten amounts
 * per line, most of them the same few prices, and a lookup costs a third of formatting again.
 */
export const MONEY_TEXTS_MAX = 10_000;
const moneyTexts = new Map<number, LruMap<bigint, string>>();

export function formatMoney(minor: bigint, currency: Currency): string {
  let known = moneyTexts.get(currency.exponent);
  if (!known) moneyTexts.set(currency.exponent, (known = new LruMap<bigint, string>(MONEY_TEXTS_MAX)));
  let text = known.get(minor);
  if (text === undefined) {
    text = moneyText(minor, currency.exponent);
    known.set(minor, text);
  }
  return text;
}

function moneyText(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString();
  if (exponent === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(exponent + 1, '0');
  const cut = padded.length - exponent;
  return `${negative ? '-' : ''}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** Intl formatters per currency code: building one costs far more than formatting with it. */
const displayFormatters = new Map<string, Intl.NumberFormat>();

/**
 * Display texts already made, by currency and amount. Formatting a decimal string with Intl costs a
 * few microseconds, and a 20-line cart shows about 80 amounts, most of them the same few prices.
 */
/** Texts kept per process (least recently used dropped first; a store's prices are a small set). */
export const DISPLAY_TEXTS_MAX = 10_000;
const displayTexts = new LruMap<string, string>(DISPLAY_TEXTS_MAX);

/** Display text of an exact decimal amount ("$1,234.50"); Intl formats a decimal string without a float. */
export function displayAmount(amount: string, currencyCode: string): string {
  const key = `${currencyCode} ${amount}`;
  const known = displayTexts.get(key);
  if (known !== undefined) return known;
  let f = displayFormatters.get(currencyCode);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: currencyCode });
    } catch {
      return `${amount} ${currencyCode}`; // not an ISO code Intl knows
    }
    displayFormatters.set(currencyCode, f);
  }
  const text = f.format(amount as unknown as number); // ES2023 Intl takes a decimal string exactly; the typings lag.
  displayTexts.set(key, text);
  return text;
}

/** A fraction rate such as the contract's taxRate "0.0825", as millionths. */
export function parseRate(text: string, field: string): bigint {
  const micros = rescale(parseDecimal(text, field), RATE_SCALE, field, 'rate');
  if (micros < 0n) throw new PricingInputError(field, 'must not be negative');
  return micros;
}

/** Rate texts already made (a store has a few rates; effective rates of combined amounts add some more). */
export const RATE_TEXTS_MAX = 1_000;
const rateTexts = new LruMap<bigint, string>(RATE_TEXTS_MAX);

export function formatRate(micros: bigint): string {
  let text = rateTexts.get(micros);
  if (text === undefined) {
    text = rateText(micros);
    rateTexts.set(micros, text);
  }
  return text;
}

function rateText(micros: bigint): string {
  const text = micros.toString().padStart(RATE_SCALE + 1, '0');
  const whole = text.slice(0, -RATE_SCALE);
  const fraction = text.slice(-RATE_SCALE).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A percentage number (the contract sends `percentage: 12.5`) as millionths of one. The number is read
 * through its shortest decimal spelling, which is exact for every value with at most 4 decimals.
 */
export function parsePercentage(value: number, field: string): bigint {
  if (!Number.isFinite(value) || value <= 0 || value > 100) throw new PricingInputError(field, 'must be a percentage above 0 and at most 100');
  const text = String(value);
  if (!DECIMAL_TEXT.test(text)) throw new PricingInputError(field, `must have at most ${PERCENT_MAX_SCALE} decimals`);
  // percent * 10^4 = millionths of one
  return rescale(parseDecimal(text, field), PERCENT_MAX_SCALE, field, 'percentage');
}

export function formatPercentage(micros: bigint): number {
  // Back to the contract's number; at most 4 decimals, so the conversion is exact in spelling.
  return Number(formatRate(micros * 100n));
}

/** n / d rounded to an integer with `mode`; d > 0. HALF_UP rounds halves away from zero. */
export function divRound(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  const twiceRemainder = (abs % d) * 2n;
  if (twiceRemainder > d || (twiceRemainder === d && (mode === 'HALF_UP' || q % 2n === 1n))) q += 1n;
  return negative ? -q : q;
}

/** amount * rate (millionths), rounded once. */
export function applyRate(amount: bigint, rateMicros: bigint, mode: RoundingMode): bigint {
  return divRound(amount * rateMicros, RATE_ONE, mode);
}

/** The tax already inside a gross amount: gross * r / (1 + r), rounded once. */
export function includedPart(gross: bigint, rateMicros: bigint, mode: RoundingMode): bigint {
  return divRound(gross * rateMicros, RATE_ONE + rateMicros, mode);
}

export const sum = (values: Iterable<bigint>): bigint => { let s = 0n; for (const v of values) s += v; return s; };
export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

export interface Share {
  key: string;
  weight: bigint;
  /** Breaks ties between equal remainders; `key` when absent. Lines pass their content (allocationOrder). */
  order?: string;
}

/**
 * Splits a non-negative `total` over `shares` in proportion to their non-negative weights, by largest
 * remainder: everyone gets the floor of their exact share, and the minor units left over go one each to
 * the largest fractional parts (ties broken by `order`, else key). The parts always add up to `total` exactly, no part
 * exceeds its weight when total <= sum of weights, and the result does not depend on the order of `shares`.
 * All-zero weights split evenly.
 */
export function allocate(total: bigint, shares: readonly Share[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (shares.length === 0) {
    if (total !== 0n) throw new RangeError('cannot allocate a non-zero amount over nothing');
    return out;
  }
  if (total < 0n) throw new RangeError('allocate expects a non-negative total');
  let totalWeight = 0n;
  for (const s of shares) {
    if (s.weight < 0n) throw new RangeError('allocation weights must be non-negative');
    totalWeight += s.weight;
  }
  const anyWeight = totalWeight > 0n;
  if (!anyWeight) totalWeight = BigInt(shares.length);
  let given = 0n;
  const remainders: { key: string; order: string; remainder: bigint }[] = [];
  for (const s of shares) {
    const exact = total * (anyWeight ? s.weight : 1n);
    const part = exact / totalWeight;
    out.set(s.key, part);
    given += part;
    remainders.push({ key: s.key, order: s.order ?? s.key, remainder: exact % totalWeight });
  }
  // Most splits come out even (a zero total, one share, proportional parts): nothing left to place.
  if (given === total) return out;
  const byOrder = (a: { key: string; order: string }, b: { key: string; order: string }) =>
    (a.order < b.order ? -1 : a.order > b.order ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  remainders.sort((a, b) => (a.remainder === b.remainder ? byOrder(a, b) : a.remainder > b.remainder ? -1 : 1));
  for (let i = 0; given < total; i++, given++) {
    const r = remainders[i % remainders.length]!;
    out.set(r.key, (out.get(r.key) ?? 0n) + 1n);
  }
  return out;
}
