import type { orders, orderTransactions } from '@vitrine/sdk/ecom';
import { centsText, toCents } from '../lib/money';

export type Order = orders.Order;
export type Payment = orderTransactions.Payment;

/** The orders server's text bounds (its limits.ts): tracking numbers and carriers, comments, tag ids. */
export const ORDER_TEXT_MAX = { short: 500, long: 5_000, tag: 100 } as const;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A price as the server formatted it; else, given the order's currency, formatted the way the server
 * formats (en-US, "€20.00"); else its decimal amount. Payments and refunds come without a formatted text.
 */
export function money(p: { amount: string; formattedAmount?: string } | undefined, currency?: string): string {
  if (!p) return '—';
  if (p.formattedAmount) return p.formattedAmount;
  if (!currency) return p.amount;
  let format = formatters.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formatters.set(currency, format);
  }
  // Display only: a decimal string of a price is exact enough as a double for printing.
  return format.format(Number(p.amount));
}

/**
 * Why an amount the owner typed cannot be sent, in words ("At most 12.50 can be refunded"), or
 * undefined when it can: a positive decimal with at most two decimals, at most `maxCents`.
 */
export function amountProblem(text: string, maxCents: number, limit: string): string | undefined {
  const t = text.trim();
  if (!/^\d+(\.\d*)?$/.test(t)) return 'Enter an amount in digits, like 12.50.';
  if (/\.\d{3,}$/.test(t)) return 'Use at most two decimals.';
  const cents = toCents(t);
  if (cents === undefined || cents <= 0) return 'Enter an amount above 0.';
  if (cents > maxCents) return limit;
  return undefined;
}

/** One line of a line item's choices ("Color: Black, Size: M") from its description lines. */
export function descriptionText(lines: readonly Record<string, unknown>[] | undefined): string {
  return (lines ?? []).map((line) => {
    const name = textOf(line.name);
    const value = textOf(line.plainText) || textOf(line.colorInfo);
    return name && value ? `${name}: ${value}` : name || value;
  }).filter(Boolean).join(', ');
}

const textOf = (v: unknown): string => {
  const r = record(v);
  const text = r.translated ?? r.original;
  return typeof text === 'string' ? text : '';
};

/** Who receives the parcel: the shipping destination's contact (else the recipient info's), as one line. */
export function recipientText(order: Order): string | undefined {
  const contact = record(record(record(record(order.shippingInfo).logistics).shippingDestination).contactDetails);
  const fallback = record(record(order.recipientInfo).contactDetails);
  const c = Object.keys(contact).length > 0 ? contact : fallback;
  const parts = [[c.firstName, c.lastName].filter((p) => typeof p === 'string' && p).join(' '), c.company, c.phone]
    .filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? parts.join(' · ') : undefined;
}

/** The delivery the buyer chose: the option's title and its delivery time or pickup note. */
export function deliveryText(order: Order): string | undefined {
  const info = record(order.shippingInfo);
  const logistics = record(info.logistics);
  const parts = [info.title, logistics.deliveryTime, logistics.instructions].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? parts.join(' · ') : undefined;
}

/** The object inside a free-form order field (addresses, shipping info), or an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
}

/** What is left to refund on a payment: its amount less its successful and pending refunds (in cents). */
export function refundableCents(payment: Payment, refunds: orderTransactions.Refund[]): number {
  const paid = toCents(payment.amount.amount) ?? 0;
  const refunded = refunds.flatMap((r) => r.transactions)
    .filter((t) => t.paymentId === payment._id && t.refundStatus !== 'FAILED')
    .reduce((sum, t) => sum + (toCents(t.amount.amount) ?? 0), 0);
  return Math.max(0, paid - refunded);
}

export { centsText, toCents };
