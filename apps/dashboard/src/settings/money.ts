/**
 * Amount and percentage text typed in the store settings, checked before it is sent, so an obvious
 * typo is named in the form; the server still checks everything it stores (and its words win).
 */
import { toCents, centsText } from '../lib/money';

/** "12.5" -> "12.50"; undefined when it is not a non-negative amount with at most two decimals. */
export function amountText(text: string): string | undefined {
  const cents = toCents(text);
  return cents === undefined ? undefined : centsText(cents);
}

/** "7.25" (percent) -> 7.25; undefined unless 0 < p <= 100. */
export function percentValue(text: string): number | undefined {
  if (!/^\s*\d+(\.\d{1,4})?\s*$/.test(text)) return undefined;
  const p = Number(text);
  return p > 0 && p <= 100 ? p : undefined;
}

/** Decimals a tax rate takes in percent: the server stores the fraction with at most 4 decimals. */
export const RATE_PERCENT_DECIMALS = 2;

/** A tax rate in percent ("8.25") as the fraction text the server stores ("0.0825"); undefined when out of 0..100 or too precise. */
export function rateFraction(text: string): string | undefined {
  const m = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const tenThousandths = Number(`${m[1]}${(m[2] ?? '').padEnd(RATE_PERCENT_DECIMALS, '0')}`); // percent x 100 = fraction x 10^4
  if (tenThousandths > 10_000) return undefined;
  const whole = Math.floor(tenThousandths / 10_000);
  const frac = String(tenThousandths % 10_000).padStart(4, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** "0.08875" -> "8.875%". */
export function rateText(fraction: string): string {
  const n = Number(fraction) * 100;
  return `${Number(n.toFixed(4))}%`;
}
