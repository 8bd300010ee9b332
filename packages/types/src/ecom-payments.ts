/**
 * Payments of ecom orders: the order transactions (payments and refunds of an order) and the payments
 * collector calls (collect, mark as paid, capture, void, refund). REST field names; amounts are decimal
 * strings in the order's currency.
 */
import type { BulkActionMetadata, BulkItemMetadata, IsoDate } from './common.js';

/** A money amount: decimal text with the currency's number of decimals (`"10.00"`). */
export interface PaymentPrice { amount: string; formattedAmount?: string }

/** Status of one payment (transaction). */
export type TransactionPaymentStatus =
  | 'APPROVED' | 'PENDING' | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'AUTHORIZED' | 'VOIDED';

export type CaptureStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';
export type RefundTransactionStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'SCHEDULED' | 'STARTED';
export type DeclinedReason = 'CHARGE_FAILED' | 'EXPIRED' | 'INSUFFICIENT_FUNDS' | 'GIFT_CARD_DISABLED';
export type ScheduledActionType = 'VOID' | 'CAPTURE';

export interface AuthorizationCapture {
  id: string;
  status: CaptureStatus;
  amount: PaymentPrice;
  createdDate: IsoDate;
  failureDetails?: { failureCode: string };
}

export interface AuthorizationVoid {
  status: CaptureStatus;
  voidedDate: IsoDate;
  failureDetails?: { failureCode: string };
  reason: 'MANUAL' | 'SCHEDULED';
}

export interface AuthorizationDetails {
  delayedCapture: boolean;
  authorizedDate: IsoDate;
  captures: AuthorizationCapture[];
  void?: AuthorizationVoid;
  scheduledAction?: { actionType: ScheduledActionType; executionDate: IsoDate };
}

export interface PaymentMethodName {
  buyerLanguageName?: string | null;
  siteLanguageName?: string | null;
  userDefinedName?: { predefined?: 'CASH' | 'BANK_TRANSFER' | 'CHECK'; custom?: string | null };
}

export interface RegularPaymentDetails {
  paymentOrderId?: string | null;
  gatewayTransactionId?: string | null;
  paymentMethod?: string | null;
  providerTransactionId?: string | null;
  offlinePayment: boolean;
  /** Same as the payment's `status` (kept by the contract for older readers). */
  status: TransactionPaymentStatus;
  savedPaymentMethod: boolean;
  creditCardDetails?: { lastFourDigits?: string | null; brand?: string | null };
  authorizationDetails?: AuthorizationDetails;
  paymentMethodName?: PaymentMethodName;
}

export interface MembershipPaymentDetails {
  membershipId?: string;
  lineItemId?: string;
  status?: 'CHARGED' | 'CHARGE_FAILED' | 'CHARGE_PENDING' | 'VOIDED';
  name?: { original?: string; translated?: string | null };
  externalTransactionId?: string | null;
  voided?: boolean;
  providerAppId?: string;
}

export interface GiftCardPaymentDetails {
  giftCardPaymentId?: string;
  giftCardId?: string;
  appId?: string;
  voided?: boolean;
  giftCardCode?: string | null;
}

/** One payment of an order. */
export interface OrderPayment {
  id: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  amount: PaymentPrice;
  refundDisabled: boolean;
  supportReceiptGeneration: boolean;
  status: TransactionPaymentStatus;
  chargeCorrelationId?: string | null;
  regularPaymentDetails?: RegularPaymentDetails;
  membershipPaymentDetails?: MembershipPaymentDetails;
  giftcardPaymentDetails?: GiftCardPaymentDetails;
}

export interface RefundLineItem { lineItemId: string; quantity: number }

/** What a refund covers (items, shipping, fees, reason). */
export interface RefundDetails {
  items?: RefundLineItem[];
  lineItems?: RefundLineItem[];
  shippingIncluded?: boolean;
  reason?: string | null;
  additionalFees?: { additionalFeeId: string; amount: PaymentPrice }[];
  shipping?: { amount: PaymentPrice };
}

export interface RefundTransaction {
  paymentId: string;
  amount: PaymentPrice;
  refundStatus: RefundTransactionStatus;
  refundStatusInfo?: { paymentGatewayReasonCode?: string | null; description?: string | null };
  gatewayRefundId?: string | null;
  providerRefundId?: string | null;
  externalRefund: boolean;
}

export interface RefundSummary {
  requestedRefund: PaymentPrice;
  pendingRefund: PaymentPrice;
  refunded: PaymentPrice;
  failedRefundAmount: PaymentPrice;
  pending: boolean;
}

export interface OrderRefund {
  id: string;
  transactions: RefundTransaction[];
  details: RefundDetails;
  createdDate: IsoDate;
  summary: RefundSummary;
}

/** Every payment and refund of one order. */
export interface OrderTransactions {
  orderId: string;
  payments: OrderPayment[];
  refunds: OrderRefund[];
}

// ---- orderTransactions calls ----

export interface ListTransactionsForSingleOrderResponse { orderTransactions: OrderTransactions }
export interface ListTransactionsForMultipleOrdersRequest { orderIds: string[] }
export interface ListTransactionsForMultipleOrdersResponse { orderTransactions: OrderTransactions[] }

/** A payment recorded from outside (another gateway, an offline collection). */
export interface AddPaymentInput {
  amount: PaymentPrice;
  createdDate?: IsoDate;
  refundDisabled?: boolean;
  status?: TransactionPaymentStatus;
  chargeCorrelationId?: string;
  regularPaymentDetails?: {
    paymentOrderId?: string;
    gatewayTransactionId?: string;
    paymentMethod?: string;
    providerTransactionId?: string;
    offlinePayment?: boolean;
    status?: TransactionPaymentStatus;
    savedPaymentMethod?: boolean;
    creditCardDetails?: { lastFourDigits?: string; brand?: string };
    paymentMethodName?: PaymentMethodName;
  };
}
export interface AddPaymentsRequest { orderId: string; payments: AddPaymentInput[] }
export interface AddPaymentsResponse { orderTransactions: OrderTransactions; paymentsIds: string[] }
export interface UpdatePaymentStatusRequest { orderId: string; paymentId: string; status: TransactionPaymentStatus }
export interface UpdatePaymentStatusResponse { orderTransactions: OrderTransactions }
export interface BulkUpdatePaymentStatusesRequest {
  paymentAndOrderIds: { orderId: string; paymentId: string }[];
  returnFullEntity?: boolean;
  status: TransactionPaymentStatus;
}
export interface BulkUpdatePaymentStatusesResponse {
  results: { itemMetadata: BulkItemMetadata; item?: OrderPayment }[];
  bulkActionMetadata: BulkActionMetadata;
}

// ---- payments collector calls ----

export type PaymentCollectabilityStatus =
  | 'COLLECTABLE' | 'NONCOLLECTABLE_ORDER_IS_CANCELLED' | 'NONCOLLECTABLE_ORDER_IS_PAID' | 'NONCOLLECTABLE_MISSING_PAYMENT_METHOD'
  | 'NONCOLLECTABLE_ORDER_IS_PENDING' | 'NONCOLLECTABLE_ORDER_IS_REJECTED' | 'NONCOLLECTABLE_ORDER_HAS_SUBSCRIPTIONS';

export interface GetPaymentCollectabilityStatusResponse { status: PaymentCollectabilityStatus; amount: PaymentPrice }

export interface PreparePaymentCollectionRequest {
  ecomOrderId: string;
  amount: PaymentPrice;
  paymentGatewayOrderId?: string | null;
  delayedCapture?: boolean;
  delayedCaptureSettings?: { scheduledAction?: ScheduledActionType; delayDuration?: { count: number; unit: 'MINUTES' | 'HOURS' | 'DAYS' } };
}
export interface PreparePaymentCollectionResponse { paymentGatewayOrderId: string }
export interface CreatePaymentGatewayOrderRequest { ecomOrderId: string; chargedBy?: { id?: string; fullName?: string | null } }
export interface CreatePaymentGatewayOrderResponse { paymentGatewayOrderId: string }
export interface RecordManuallyCollectedPaymentRequest { orderId: string; amount: PaymentPrice }
export interface BulkMarkOrdersAsPaidRequest { ecomOrderIds: string[] }
/** `item` (the order) is left to the orders module; the payments collector answers ids and outcomes. */
export interface BulkMarkOrdersAsPaidResponse {
  results: { itemMetadata: BulkItemMetadata }[];
  bulkActionMetadata: BulkActionMetadata;
}

export interface MembershipChargeInput {
  membershipId: string;
  appId?: string;
  membershipName?: { original?: string; translated?: string | null };
  membershipAdditionalData?: Record<string, unknown> | null;
  catalogReference?: { catalogItemId: string; appId: string; options?: Record<string, unknown> | null };
  serviceProperties?: { scheduledDate?: IsoDate | null; numberOfParticipants?: number | null };
  rootCatalogItemId?: string | null;
  lineItemId: string;
}
export interface ChargeMembershipsRequest { ecomOrderId: string; memberId: string; membershipCharges: MembershipChargeInput[] }

export type RefundableStatus = 'NOT_REFUNDABLE' | 'MANUAL' | 'REFUNDABLE';
export type NonRefundableReason =
  | 'ALREADY_REFUNDED' | 'PROVIDER_IS_DOWN' | 'NOT_PAID' | 'ZERO_PRICE' | 'DISABLED_BY_PROVIDER' | 'PENDING_REFUND' | 'FORBIDDEN'
  | 'TRANSACTION_NOT_FOUND' | 'ORDER_IS_PENDING' | 'ORDER_IS_REJECTED';
export type ManuallyRefundableReason = 'EXPIRED' | 'NOT_SUPPORTED' | 'OFFLINE' | 'REQUIRES_CARD_READER';

export interface Refundability {
  paymentId?: string;
  refundabilityStatus: RefundableStatus;
  nonRefundableReason?: NonRefundableReason;
  manuallyRefundableReason?: ManuallyRefundableReason;
  providerLink?: string | null;
}
export interface GetRefundabilityStatusResponse { refundabilities: Refundability[]; refundablePerItem: boolean }

export interface TriggerRefundRequest {
  ecomOrderId: string;
  payments: { paymentId: string; amount?: PaymentPrice; externalRefund?: boolean }[];
  details?: RefundDetails;
  sideEffects?: {
    restockInfo?: { type: 'NO_ITEMS' | 'ALL_ITEMS' | 'SOME_ITEMS'; items?: RefundLineItem[] };
    sendOrderRefundedEmail?: boolean;
    customMessage?: string | null;
  };
}
export interface TriggerRefundResponse { orderTransactions: OrderTransactions; refundId: string; failedPaymentIds: BulkItemMetadata[] }

export interface VoidAuthorizedPaymentsRequest { ecomOrderId: string; paymentIds: string[] }
export interface CaptureAuthorizedPaymentsRequest { ecomOrderId: string; payments: { paymentId: string; amount?: PaymentPrice }[] }
export interface AuthorizedPaymentsResponse { orderTransactions: OrderTransactions }

/** Our hosted-payment extension: a buyer pays a payment gateway order with a card. */
export interface PaymentCard { number: string; expMonth: number; expYear: number; cvc: string }
export interface PayGatewayOrderRequest { paymentGatewayOrderId: string; card: PaymentCard }
export interface PayGatewayOrderResponse { paymentId: string; status: TransactionPaymentStatus; declinedReason?: DeclinedReason }
