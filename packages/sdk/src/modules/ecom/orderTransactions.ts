/**
 * Order transactions (`@vitrine/sdk/ecom` -> `orderTransactions`), as the public `@wix/ecom`
 * orderTransactions module: an order's payments and refunds, payments recorded from outside, and
 * status changes by hand. Elevated. docs/payments.md.
 */
import type * as wire from '@vitrine/types/ecom-payments';
import type { BulkActionMetadata, BulkItemMetadata } from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';
import { PAYMENT_ITEMS_DECODE, TRANSACTIONS_DECODE, type OrderTransactions, type Payment } from './transactions-wire.js';

export type { OrderTransactions, Payment, Refund } from './transactions-wire.js';
export type PaymentInput = FromWire<wire.AddPaymentInput>;
export type PaymentStatus = wire.TransactionPaymentStatus;

/** `orderTransactions.listTransactionsForSingleOrder(orderId)` -> `{ orderTransactions }` */
export const listTransactionsForSingleOrder = defineMethod((client, orderId: string) =>
  client.request<{ orderTransactions: OrderTransactions }>({ method: 'GET', path: `/ecom/v1/payments/orders/${encodeURIComponent(orderId)}`, payload: { orderId }, decode: TRANSACTIONS_DECODE }));

/** `orderTransactions.listTransactionsForMultipleOrders(orderIds)` -> `{ orderTransactions: [...] }` (at most 100 ids). */
export const listTransactionsForMultipleOrders = defineMethod((client, orderIds: string[]) =>
  client.request<{ orderTransactions: OrderTransactions[] }>({ method: 'POST', path: '/ecom/v1/payments/list-by-ids', payload: { orderIds }, decode: TRANSACTIONS_DECODE }));

/** `orderTransactions.addPayments(orderId, payments)` -> `{ orderTransactions, paymentsIds }` */
export const addPayments = defineMethod((client, orderId: string, payments: PaymentInput[]) =>
  client.request<{ orderTransactions: OrderTransactions; paymentsIds: string[] }>({ method: 'POST', path: `/ecom/v1/payments/orders/${encodeURIComponent(orderId)}/add-payment`, payload: { orderId, payments }, decode: TRANSACTIONS_DECODE }));

/** `orderTransactions.updatePaymentStatus({ orderId, paymentId }, { status })` -> `{ orderTransactions }` */
export const updatePaymentStatus = defineMethod((client, identifiers: { orderId: string; paymentId: string }, options: { status?: PaymentStatus } = {}) =>
  client.request<{ orderTransactions: OrderTransactions }>({
    method: 'POST',
    path: `/ecom/v1/payments/${encodeURIComponent(identifiers.paymentId)}/orders/${encodeURIComponent(identifiers.orderId)}/update-payment-transaction-status`,
    payload: { ...identifiers, ...options },
    decode: TRANSACTIONS_DECODE,
  }));

/** `orderTransactions.bulkUpdatePaymentStatuses(paymentAndOrderIds, { status, returnFullEntity })` -> per-payment results */
export const bulkUpdatePaymentStatuses = defineMethod((client, paymentAndOrderIds: { orderId: string; paymentId: string }[], options: { status?: PaymentStatus; returnFullEntity?: boolean } = {}) =>
  client.request<{ results: { itemMetadata: FromWire<BulkItemMetadata>; item?: Payment }[]; bulkActionMetadata: BulkActionMetadata }>({
    method: 'POST', path: '/ecom/v1/bulk/payments/update-payment-transaction-status', payload: { paymentAndOrderIds, ...options }, decode: PAYMENT_ITEMS_DECODE,
  }));
