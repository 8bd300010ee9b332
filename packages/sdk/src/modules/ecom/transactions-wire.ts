/**
 * Shared by `orderTransactions` and the payments collector calls: the order transactions shape as
 * callers see it, and the wire paths of its dates.
 */
import type * as wire from '@vitrine/types/ecom-payments';
import type { FromWire } from '../../wire-types.js';

type Dates = 'createdDate' | 'updatedDate' | 'authorizedDate' | 'voidedDate';
export type OrderTransactions = FromWire<wire.OrderTransactions, Dates>;
export type Payment = FromWire<wire.OrderPayment, Dates>;
export type Refund = FromWire<wire.OrderRefund, Dates>;

const AT = (root: string) => [
  `${root}.payments.createdDate`, `${root}.payments.updatedDate`,
  `${root}.payments.regularPaymentDetails.authorizationDetails.authorizedDate`,
  `${root}.payments.regularPaymentDetails.authorizationDetails.captures.createdDate`,
  `${root}.payments.regularPaymentDetails.authorizationDetails.void.voidedDate`,
  `${root}.refunds.createdDate`,
];

/** Decoding of answers carrying `orderTransactions` (one or a list: arrays are walked through). */
export const TRANSACTIONS_DECODE = { dates: AT('orderTransactions') };
/** Decoding of bulk answers carrying payments as `results.item`. */
export const PAYMENT_ITEMS_DECODE = { dates: ['results.item.createdDate', 'results.item.updatedDate', 'results.item.regularPaymentDetails.authorizationDetails.authorizedDate'] };
