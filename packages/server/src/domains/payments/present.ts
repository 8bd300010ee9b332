import type {
  AuthorizationDetails, BulkItemMetadata, OrderPayment, OrderRefund, OrderTransactions, PaymentPrice, RefundTransaction,
} from '@vitrine/types';
import type { OrderLedger, Payment, Refund } from './model.js';
import { toAmount, sumMinor } from './money.js';

/** The one place payments are encoded for the wire: services return ledgers, the routes call these. */

const price = (minor: bigint, currency: string): PaymentPrice => ({ amount: toAmount(minor, currency) });

function authorizationDetails(p: Payment): AuthorizationDetails | undefined {
  if (!p.authorizedDate) return undefined;
  return {
    delayedCapture: p.delayedCapture,
    authorizedDate: p.authorizedDate,
    captures: p.capture ? [{
      id: p.capture.id, status: p.capture.status, amount: price(p.capture.amount, p.currency), createdDate: p.capture.createdDate,
      ...(p.capture.failureCode ? { failureDetails: { failureCode: p.capture.failureCode } } : {}),
    }] : [],
    ...(p.void ? {
      void: {
        status: p.void.status, voidedDate: p.void.date, reason: p.void.reason,
        ...(p.void.failureCode ? { failureDetails: { failureCode: p.void.failureCode } } : {}),
      },
    } : {}),
    ...(p.extras.scheduledAction ? { scheduledAction: p.extras.scheduledAction } : {}),
  };
}

export function presentPayment(p: Payment): OrderPayment {
  const base = {
    id: p.id, createdDate: p.createdDate, updatedDate: p.updatedDate, amount: price(p.amount, p.currency),
    refundDisabled: p.refundDisabled, supportReceiptGeneration: false, status: p.status, chargeCorrelationId: p.chargeCorrelationId,
  };
  if (p.kind === 'MEMBERSHIP') return { ...base, membershipPaymentDetails: p.extras.membership ?? {} };
  const auth = authorizationDetails(p);
  return {
    ...base,
    regularPaymentDetails: {
      paymentOrderId: p.gatewayOrderId,
      gatewayTransactionId: p.offline ? null : p.providerTransactionId,
      paymentMethod: p.paymentMethod,
      providerTransactionId: p.offline ? null : p.providerTransactionId,
      offlinePayment: p.offline,
      status: p.status,
      savedPaymentMethod: false,
      ...(p.cardLast4 ? { creditCardDetails: { lastFourDigits: p.cardLast4, brand: p.cardBrand } } : {}),
      ...(auth ? { authorizationDetails: auth } : {}),
      ...(p.extras.paymentMethodName ? { paymentMethodName: p.extras.paymentMethodName } : {}),
    },
  };
}

export function presentRefund(r: Refund): OrderRefund {
  const total = (statuses: readonly string[]) => sumMinor(r.transactions.filter((t) => statuses.includes(t.status)).map((t) => t.amount));
  const pending = total(['PENDING', 'SCHEDULED', 'STARTED']);
  return {
    id: r.id,
    transactions: r.transactions.map((t): RefundTransaction => ({
      paymentId: t.paymentId, amount: price(t.amount, r.currency), refundStatus: t.status,
      ...(t.reasonCode || t.description ? { refundStatusInfo: { paymentGatewayReasonCode: t.reasonCode, description: t.description } } : {}),
      gatewayRefundId: null, providerRefundId: t.providerRefundId, externalRefund: t.external,
    })),
    details: r.details,
    createdDate: r.createdDate,
    summary: {
      requestedRefund: price(sumMinor(r.transactions.map((t) => t.amount)), r.currency),
      pendingRefund: price(pending, r.currency),
      refunded: price(total(['SUCCEEDED']), r.currency),
      failedRefundAmount: price(total(['FAILED']), r.currency),
      pending: pending > 0n,
    },
  };
}

export function presentTransactions(ledger: OrderLedger): OrderTransactions {
  return { orderId: ledger.orderId, payments: ledger.payments.map(presentPayment), refunds: ledger.refunds.map(presentRefund) };
}

export function transactionsAnswer(ledger: OrderLedger) {
  return { orderTransactions: presentTransactions(ledger) };
}

/** One failed item of a bulk call or a refund's failed payment. */
export function failedItem(id: string, originalIndex: number, code: string, description: string, data: Record<string, unknown> = {}): BulkItemMetadata {
  return { id, originalIndex, success: false, error: { code, description, data } };
}

export function bulkMetadata(items: readonly BulkItemMetadata[]) {
  const failures = items.filter((i) => !i.success).length;
  return { totalSuccesses: items.length - failures, totalFailures: failures, undetailedFailures: 0 };
}
