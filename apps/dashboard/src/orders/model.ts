import type { orders, orderTransactions } from '@vitrine/sdk/ecom';
import { centsText, toCents } from '../lib/money';

export type Order = orders.Order;
export type Payment = orderTransactions.Payment;

/** A price as the server formatted it, else its decimal amount. */
export const money = (p: { amount: string; formattedAmount?: string } | undefined): string => (p ? p.formattedAmount ?? p.amount : '—');

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
