/**
 * The payments domain's own model: stored payments (transactions), refunds and payment gateway
 * orders, as services return them. Wire shapes come from `@vitrine/types`; present.ts turns these into
 * them. Amounts are bigint minor units of the order's currency.
 */
export type {
  OrderPaymentStatus, TransactionPaymentStatus, DeclinedReason, CaptureStatus, RefundTransactionStatus, OrderTransactions,
  PaymentCollectabilityStatus, Refundability, RefundDetails, PaymentCard,
} from '@vitrine/types';
import type {
  CaptureStatus, DeclinedReason, MembershipPaymentDetails, PaymentMethodName, RefundDetails, RefundTransactionStatus,
  ScheduledActionType, TransactionPaymentStatus,
} from '@vitrine/types';

/** Who moves the money of a payment: built-in providers, or a record of money moved elsewhere. */
export type ProviderName = 'test' | 'manual' | 'external' | 'membership';

/** What a payment is. */
export type PaymentKind = 'REGULAR' | 'MEMBERSHIP';

export interface CaptureRecord {
  id: string;
  status: CaptureStatus;
  amount: bigint;
  createdDate: string;
  failureCode: string | null;
}

export interface VoidRecord {
  status: CaptureStatus;
  date: string;
  reason: 'MANUAL' | 'SCHEDULED';
  failureCode: string | null;
}

/** Extra wire details stored as given (membership charges, user-defined method names). */
export interface PaymentExtras {
  membership?: MembershipPaymentDetails;
  paymentMethodName?: PaymentMethodName;
  scheduledAction?: { actionType: ScheduledActionType; executionDate: string };
}

export interface Payment {
  id: string;
  siteId: string;
  orderId: string;
  kind: PaymentKind;
  provider: ProviderName;
  currency: string;
  amount: bigint;
  status: TransactionPaymentStatus;
  /** Captured (charged) so far: the amount once approved, 0 while authorized or pending. */
  captured: bigint;
  /** Refunded by succeeded refunds. */
  refunded: bigint;
  /** Reserved by refunds still in flight; refunded + refundPending never exceeds captured. */
  refundPending: bigint;
  offline: boolean;
  refundDisabled: boolean;
  declinedReason: DeclinedReason | null;
  cardBrand: string | null;
  cardLast4: string | null;
  paymentMethod: string | null;
  providerTransactionId: string | null;
  gatewayOrderId: string | null;
  chargeCorrelationId: string | null;
  delayedCapture: boolean;
  authorizedDate: string | null;
  capture: CaptureRecord | null;
  void: VoidRecord | null;
  extras: PaymentExtras;
  createdDate: string;
  updatedDate: string;
}

export interface RefundTransactionRecord {
  paymentId: string;
  amount: bigint;
  status: RefundTransactionStatus;
  external: boolean;
  providerRefundId: string | null;
  reasonCode: string | null;
  description: string | null;
}

export interface RestockLine { lineItemId: string; quantity: number }

export interface Refund {
  id: string;
  orderId: string;
  currency: string;
  details: RefundDetails;
  restock: RestockLine[];
  transactions: RefundTransactionRecord[];
  createdDate: string;
}

/** Every payment and refund of one order, as the transactions listing answers it. */
export interface OrderLedger {
  orderId: string;
  currency: string;
  payments: Payment[];
  refunds: Refund[];
}

export interface GatewayOrder {
  id: string;
  orderId: string;
  currency: string;
  amount: bigint;
  delayedCapture: boolean;
  scheduledAction: ScheduledActionType | null;
  delayMinutes: number | null;
  status: 'OPEN' | 'PAID' | 'CANCELED';
  createdDate: string;
}
