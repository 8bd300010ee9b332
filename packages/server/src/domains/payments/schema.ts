import { z } from 'zod';
import type {
  AddPaymentsRequest, BulkMarkOrdersAsPaidRequest, BulkUpdatePaymentStatusesRequest, CaptureAuthorizedPaymentsRequest,
  ChargeMembershipsRequest, CreatePaymentGatewayOrderRequest, ListTransactionsForMultipleOrdersRequest, PayGatewayOrderRequest,
  PreparePaymentCollectionRequest, RecordManuallyCollectedPaymentRequest, TriggerRefundRequest, UpdatePaymentStatusRequest,
  VoidAuthorizedPaymentsRequest,
} from '@vitrine/types';
import { conforms } from '../../http/conforms.js';
import { decimalString, identifier } from '../../http/wire-schemas.js';

/** Every bound of the payments calls (the contract's sizes where it gives them). */
export const PAYMENTS_LIMITS = {
  idLength: 100,
  /** Orders per bulk mark-as-paid and per transactions listing. */
  ordersPerCall: 100,
  /** Payments per capture or void call. */
  paymentsPerAuthorizationCall: 100,
  /** Payments per add-payments call. */
  paymentsPerAdd: 50,
  /** Items per bulk payment status update. */
  statusUpdatesPerCall: 300,
  /** Membership charges per call; line items per refund or restock. */
  itemsPerCall: 300,
  additionalFeesPerRefund: 100,
  reasonLength: 200,
  customMessageLength: 1000,
  nameLength: 200,
  paymentMethodLength: 150,
  /** Free-form membership data, as JSON text. */
  membershipDataBytes: 4_000,
  quantityMax: 100_000,
  delayCountMax: 100_000,
} as const;

const L = PAYMENTS_LIMITS;
const id = identifier(L.idLength, 1);
const price = z.object({ amount: decimalString, formattedAmount: z.string().max(50).optional() });
const transactionStatus = z.enum(['APPROVED', 'PENDING', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'AUTHORIZED', 'VOIDED']);
const lineQuantity = z.object({ lineItemId: id, quantity: z.number().int().min(1).max(L.quantityMax) });

export const orderIdRequest = z.object({ ecomOrderId: id });
export const orderTransactionsRequest = z.object({ orderId: id });

export const prepareRequest = conforms<PreparePaymentCollectionRequest>()(z.object({
  ecomOrderId: id,
  amount: price,
  paymentGatewayOrderId: id.nullish(),
  delayedCapture: z.boolean().optional(),
  delayedCaptureSettings: z.object({
    scheduledAction: z.enum(['VOID', 'CAPTURE']).optional(),
    delayDuration: z.object({ count: z.number().int().min(1).max(L.delayCountMax), unit: z.enum(['MINUTES', 'HOURS', 'DAYS']) }).optional(),
  }).optional(),
}));

export const createGatewayOrderRequest = conforms<CreatePaymentGatewayOrderRequest>()(z.object({
  ecomOrderId: id,
  chargedBy: z.object({ id: id.optional(), fullName: z.string().min(1).max(L.nameLength).nullish() }).optional(),
}));

export const manualPaymentRequest = conforms<RecordManuallyCollectedPaymentRequest>()(z.object({ orderId: id, amount: price }));

export const bulkMarkAsPaidRequest = conforms<BulkMarkOrdersAsPaidRequest>()(z.object({
  ecomOrderIds: z.array(id).min(1).max(L.ordersPerCall),
}));

export const chargeMembershipsRequest = conforms<ChargeMembershipsRequest>()(z.object({
  ecomOrderId: id,
  memberId: id,
  membershipCharges: z.array(z.object({
    membershipId: id,
    appId: id.optional(),
    membershipName: z.object({ original: z.string().max(100).optional(), translated: z.string().max(100).nullish() }).optional(),
    membershipAdditionalData: z.record(z.string(), z.unknown()).nullish()
      .refine((v) => v == null || JSON.stringify(v).length <= L.membershipDataBytes, { message: `must be at most ${L.membershipDataBytes} bytes as JSON`, params: { rule: 'MAX_SIZE' } }),
    catalogReference: z.object({ catalogItemId: id, appId: id, options: z.record(z.string(), z.unknown()).nullish() }).optional(),
    serviceProperties: z.object({ scheduledDate: z.string().max(40).nullish(), numberOfParticipants: z.number().int().min(0).max(L.quantityMax).nullish() }).optional(),
    rootCatalogItemId: id.nullish(),
    lineItemId: id,
  })).min(1).max(L.itemsPerCall),
}));

export const triggerRefundRequest = conforms<TriggerRefundRequest>()(z.object({
  ecomOrderId: id,
  payments: z.array(z.object({ paymentId: id, amount: price.optional(), externalRefund: z.boolean().optional() })).min(1).max(1),
  details: z.object({
    items: z.array(lineQuantity).max(L.itemsPerCall).optional(),
    lineItems: z.array(lineQuantity).max(L.itemsPerCall).optional(),
    shippingIncluded: z.boolean().optional(),
    reason: z.string().max(L.reasonLength).nullish(),
    additionalFees: z.array(z.object({ additionalFeeId: id, amount: price })).max(L.additionalFeesPerRefund).optional(),
    shipping: z.object({ amount: price }).optional(),
  }).optional(),
  sideEffects: z.object({
    restockInfo: z.object({ type: z.enum(['NO_ITEMS', 'ALL_ITEMS', 'SOME_ITEMS']), items: z.array(lineQuantity).max(L.itemsPerCall).optional() }).optional(),
    sendOrderRefundedEmail: z.boolean().optional(),
    customMessage: z.string().min(1).max(L.customMessageLength).nullish(),
  }).optional(),
}));

export const voidRequest = conforms<VoidAuthorizedPaymentsRequest>()(z.object({
  ecomOrderId: id,
  paymentIds: z.array(id).min(1).max(L.paymentsPerAuthorizationCall),
}));

export const captureRequest = conforms<CaptureAuthorizedPaymentsRequest>()(z.object({
  ecomOrderId: id,
  payments: z.array(z.object({ paymentId: id, amount: price.optional() })).min(1).max(L.paymentsPerAuthorizationCall),
}));

export const listByIdsRequest = conforms<ListTransactionsForMultipleOrdersRequest>()(z.object({
  orderIds: z.array(id).min(1).max(L.ordersPerCall),
}));

const methodName = z.string().max(L.paymentMethodLength);

export const addPaymentsRequest = conforms<AddPaymentsRequest>()(z.object({
  orderId: id,
  payments: z.array(z.object({
    amount: price,
    createdDate: z.string().datetime({ offset: true }).optional(),
    refundDisabled: z.boolean().optional(),
    status: transactionStatus.optional(),
    chargeCorrelationId: id.optional(),
    regularPaymentDetails: z.object({
      paymentOrderId: id.optional(),
      gatewayTransactionId: id.optional(),
      paymentMethod: methodName.optional(),
      providerTransactionId: id.optional(),
      offlinePayment: z.boolean().optional(),
      status: transactionStatus.optional(),
      savedPaymentMethod: z.boolean().optional(),
      creditCardDetails: z.object({ lastFourDigits: z.string().regex(/^\d{4}$/).optional(), brand: z.string().max(100).optional() }).optional(),
      paymentMethodName: z.object({
        buyerLanguageName: methodName.nullish(),
        siteLanguageName: methodName.nullish(),
        userDefinedName: z.object({ predefined: z.enum(['CASH', 'BANK_TRANSFER', 'CHECK']).optional(), custom: z.string().min(1).max(L.paymentMethodLength).nullish() }).optional(),
      }).optional(),
    }).optional(),
  })).min(1).max(L.paymentsPerAdd),
}));

export const updatePaymentStatusRequest = conforms<UpdatePaymentStatusRequest>()(z.object({
  orderId: id,
  paymentId: id,
  status: transactionStatus,
}));

export const bulkUpdatePaymentStatusesRequest = conforms<BulkUpdatePaymentStatusesRequest>()(z.object({
  paymentAndOrderIds: z.array(z.object({ orderId: id, paymentId: id })).min(1).max(L.statusUpdatesPerCall),
  returnFullEntity: z.boolean().optional(),
  status: transactionStatus,
}));

export const payGatewayOrderRequest = conforms<PayGatewayOrderRequest>()(z.object({
  paymentGatewayOrderId: id,
  card: z.object({
    number: z.string().min(1).max(30),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(9999),
    cvc: z.string().min(1).max(4),
  }),
}));
