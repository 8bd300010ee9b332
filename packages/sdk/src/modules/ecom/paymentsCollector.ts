/**
 * The payments collector calls of the public `@wix/ecom` orders module (same names and argument
 * order), in their own file so `orders` can re-export them: collectability, payment gateway orders,
 * mark as paid, manual payments, memberships, capture / void of authorizations, refundability and
 * refunds. Elevated, except `payGatewayOrder` (our hosted-payment extension, any caller holding the
 * gateway order id). docs/payments.md.
 */
import type * as wire from '@vitrine/types/ecom-payments';
import type { BulkActionMetadata, BulkItemMetadata } from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';
import { TRANSACTIONS_DECODE, type OrderTransactions } from './transactions-wire.js';

const base = (orderId: string) => `/ecom/v1/payments-collector/orders/${encodeURIComponent(orderId)}`;
type Price = wire.PaymentPrice;

/** `getPaymentCollectabilityStatus(ecomOrderId)` -> `{ status, amount }` */
export const getPaymentCollectabilityStatus = defineMethod((client, ecomOrderId: string) =>
  client.request<wire.GetPaymentCollectabilityStatusResponse>({ method: 'GET', path: `${base(ecomOrderId)}/payment-collectability-status`, payload: { ecomOrderId } }));

/** `preparePaymentCollection(ecomOrderId, amount, { paymentGatewayOrderId, delayedCapture, delayedCaptureSettings })` -> `{ paymentGatewayOrderId }` */
export const preparePaymentCollection = defineMethod((client, ecomOrderId: string, amount: Price, options: Omit<wire.PreparePaymentCollectionRequest, 'ecomOrderId' | 'amount'> = {}) =>
  client.request<wire.PreparePaymentCollectionResponse>({ method: 'POST', path: `${base(ecomOrderId)}/prepare-payment-collection`, payload: { ecomOrderId, amount, ...options } }));

/** `paymentCollectionCreatePaymentGatewayOrder(ecomOrderId, { chargedBy })` -> `{ paymentGatewayOrderId }` */
export const paymentCollectionCreatePaymentGatewayOrder = defineMethod((client, ecomOrderId: string, options: { chargedBy?: { _id?: string; fullName?: string | null } } = {}) =>
  client.request<wire.CreatePaymentGatewayOrderResponse>({ method: 'POST', path: `${base(ecomOrderId)}/create-payment-gateway-order`, payload: { ecomOrderId, ...options } }));

/** `recordManuallyCollectedPayment(orderId, amount)` */
export const recordManuallyCollectedPayment = defineMethod((client, orderId: string, amount: Price) =>
  client.request<Record<string, never>>({ method: 'POST', path: `${base(orderId)}/manual-payment`, payload: { orderId, amount } }).then(() => undefined));

/** `paymentCollectionMarkOrderAsPaid(ecomOrderId)` -> `{ order }` (the order as the orders module shapes it) */
export const paymentCollectionMarkOrderAsPaid = defineMethod((client, ecomOrderId: string) =>
  client.request<{ order: Record<string, unknown> }>({ method: 'POST', path: `${base(ecomOrderId)}/mark-as-paid`, payload: { ecomOrderId }, decode: { dates: ['order.createdDate', 'order.updatedDate'] } }));

/** `paymentCollectionBulkMarkOrdersAsPaid(ecomOrderIds)` -> per-order results (at most 100) */
export const paymentCollectionBulkMarkOrdersAsPaid = defineMethod((client, ecomOrderIds: string[]) =>
  client.request<{ results: { itemMetadata: FromWire<BulkItemMetadata> }[]; bulkActionMetadata: BulkActionMetadata }>({ method: 'POST', path: '/v1/bulk/payments-collector/mark-as-paid', payload: { ecomOrderIds } }));

/** `getRefundabilityStatus(ecomOrderId)` -> `{ refundabilities, refundablePerItem }` */
export const getRefundabilityStatus = defineMethod((client, ecomOrderId: string) =>
  client.request<wire.GetRefundabilityStatusResponse>({ method: 'GET', path: `${base(ecomOrderId)}/refundability`, payload: { ecomOrderId } }));

/** `chargeMemberships(ecomOrderId, memberId, { membershipCharges })` */
export const chargeMemberships = defineMethod((client, ecomOrderId: string, memberId: string, options: { membershipCharges: wire.MembershipChargeInput[] }) =>
  client.request<Record<string, never>>({ method: 'POST', path: `${base(ecomOrderId)}/charge-membership`, payload: { ecomOrderId, memberId, ...options } }).then(() => undefined));

/** `triggerRefund(ecomOrderId, payments, { details, sideEffects })` -> `{ orderTransactions, refundId, failedPaymentIds }` */
export const triggerRefund = defineMethod((client, ecomOrderId: string, payments: wire.TriggerRefundRequest['payments'], options: Pick<wire.TriggerRefundRequest, 'details' | 'sideEffects'> = {}) =>
  client.request<{ orderTransactions: OrderTransactions; refundId: string; failedPaymentIds: FromWire<BulkItemMetadata>[] }>({
    method: 'POST', path: `${base(ecomOrderId)}/trigger-refund`, payload: { ecomOrderId, payments, ...options }, decode: TRANSACTIONS_DECODE,
  }));

/** `voidAuthorizedPayments(ecomOrderId, paymentIds)` -> `{ orderTransactions }` */
export const voidAuthorizedPayments = defineMethod((client, ecomOrderId: string, paymentIds: string[]) =>
  client.request<{ orderTransactions: OrderTransactions }>({ method: 'POST', path: `${base(ecomOrderId)}/void-authorized-payments`, payload: { ecomOrderId, paymentIds }, decode: TRANSACTIONS_DECODE }));

/** `captureAuthorizedPayments(ecomOrderId, payments)` -> `{ orderTransactions }` (no amount: the whole authorization) */
export const captureAuthorizedPayments = defineMethod((client, ecomOrderId: string, payments: { paymentId: string; amount?: Price }[]) =>
  client.request<{ orderTransactions: OrderTransactions }>({ method: 'POST', path: `${base(ecomOrderId)}/capture-authorized-payments`, payload: { ecomOrderId, payments }, decode: TRANSACTIONS_DECODE }));

/** Ours: the buyer pays a payment gateway order with a card -> `{ paymentId, status, declinedReason? }`. */
export const payGatewayOrder = defineMethod((client, paymentGatewayOrderId: string, card: wire.PaymentCard) =>
  client.request<wire.PayGatewayOrderResponse>({ method: 'POST', path: `/_api/vitrine/payments/v1/gateway-orders/${encodeURIComponent(paymentGatewayOrderId)}/pay`, payload: { paymentGatewayOrderId, card } }));
