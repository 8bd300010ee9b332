/**
 * How an order's payment status follows from its payments (pure; the service stores the result on
 * the order through the orders domain in the same transaction as the payment change).
 */
import type { OrderPaymentStatus, Payment, TransactionPaymentStatus } from './model.js';
import { sumMinor } from './money.js';

/** Statuses of payments whose money was taken (captured). */
export const CAPTURED_STATUSES: readonly TransactionPaymentStatus[] = ['APPROVED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
/** Statuses of payments still on their way (an authorization or a pending online charge). */
const IN_FLIGHT_STATUSES: readonly TransactionPaymentStatus[] = ['PENDING', 'AUTHORIZED'];

export interface OrderMoney {
  /** Captured by every payment. */
  captured: bigint;
  /** Refunded by succeeded refunds. */
  refunded: bigint;
  /** Held by authorizations and pending online charges. */
  inFlight: bigint;
  /** Still to collect: total - captured - in flight (never below 0). */
  balance: bigint;
}

/** Online payments in flight; an offline one awaiting the merchant (PENDING_MERCHANT) collects nothing yet. */
function inFlight(p: Payment): boolean {
  return IN_FLIGHT_STATUSES.includes(p.status) && !p.offline;
}

export function orderMoney(total: bigint, payments: readonly Payment[]): OrderMoney {
  const captured = sumMinor(payments.filter((p) => CAPTURED_STATUSES.includes(p.status)).map((p) => p.captured));
  const refunded = sumMinor(payments.map((p) => p.refunded));
  const held = sumMinor(payments.filter(inFlight).map((p) => p.amount));
  const balance = total - captured - held;
  return { captured, refunded, inFlight: held, balance: balance > 0n ? balance : 0n };
}

/**
 * - any refund: FULLY_REFUNDED when everything captured went back, else PARTIALLY_REFUNDED;
 * - captured money: PAID when it covers the total, else PARTIALLY_PAID;
 * - an authorization or pending online charge: PENDING;
 * - an online payment awaiting the provider's merchant confirmation: PENDING_MERCHANT;
 * - otherwise (nothing, declined, voided or canceled payments, offline ones not yet received): NOT_PAID.
 */
export function orderPaymentStatus(total: bigint, payments: readonly Payment[]): OrderPaymentStatus {
  const money = orderMoney(total, payments);
  if (money.refunded > 0n) return money.refunded >= money.captured ? 'FULLY_REFUNDED' : 'PARTIALLY_REFUNDED';
  // A captured payment of 0 pays an order of 0 (nothing else): it is no part payment.
  const anyCaptured = payments.some((p) => CAPTURED_STATUSES.includes(p.status));
  if (anyCaptured && money.captured >= total) return 'PAID';
  if (money.captured > 0n) return 'PARTIALLY_PAID';
  if (payments.some(inFlight)) return 'PENDING';
  if (payments.some((p) => p.status === 'PENDING_MERCHANT' && !p.offline)) return 'PENDING_MERCHANT';
  return 'NOT_PAID';
}

/** Whether an order in `status` has been paid in full at some point (refunds come after payment). */
export function wasPaid(status: OrderPaymentStatus): boolean {
  return status === 'PAID' || status === 'PARTIALLY_REFUNDED' || status === 'FULLY_REFUNDED';
}
