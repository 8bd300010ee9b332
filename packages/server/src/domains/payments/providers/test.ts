import { randomUUID } from 'node:crypto';
import { cardBrand } from '../card.js';
import type { ActionOutcome, AuthorizeOutcome, PaymentProvider } from './provider.js';

/**
 * The `test` provider: no money moves; the card number picks the outcome, so every path of a real
 * gateway can be exercised (docs/payments.md lists the numbers). Any future expiry and any CVC work.
 */
export const TEST_CARDS = {
  /** Charged (or authorized, when the payment asks for delayed capture). */
  success: '4242424242424242',
  /** Declined by the issuer: CHARGE_FAILED. */
  declined: '4000000000000002',
  /** Declined: INSUFFICIENT_FUNDS. */
  insufficientFunds: '4000000000009995',
  /** Always only authorized: the money must be captured (or voided) later. */
  authorizeOnly: '4000000000000036',
  /** Charged fine; every refund of it fails. */
  refundFails: '4000000000000341',
  /** Answered PENDING; the approval arrives later through the job system, as a gateway webhook would. */
  asyncResult: '4000000000003063',
} as const;

/** How long after the call the asynchronous card's outcome (and its refunds') is reported. */
export const TEST_ASYNC_RESULT_DELAY_MS = 300;

const ref = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** The provider transaction id encodes the behaviour of the card, so later calls (refunds) know it. */
function transactionId(card: string): string {
  if (card === TEST_CARDS.refundFails) return ref('test_ch_norefund');
  if (card === TEST_CARDS.asyncResult) return ref('test_ch_async');
  return ref('test_ch');
}

export const testProvider: PaymentProvider = {
  name: 'test',
  refundsOnline: true,
  // PAYMENTS_TEST_PROVIDER_DOWN=1 plays an outage (refundability then answers PROVIDER_IS_DOWN).
  available: () => process.env.PAYMENTS_TEST_PROVIDER_DOWN !== '1',

  async authorize(call, request): Promise<AuthorizeOutcome> {
    const brand = cardBrand(request.card.number);
    switch (request.card.number) {
      case TEST_CARDS.declined:
        return { status: 'DECLINED', reason: 'CHARGE_FAILED', providerTransactionId: null, brand };
      case TEST_CARDS.insufficientFunds:
        return { status: 'DECLINED', reason: 'INSUFFICIENT_FUNDS', providerTransactionId: null, brand };
      case TEST_CARDS.authorizeOnly:
        return { status: 'AUTHORIZED', providerTransactionId: transactionId(request.card.number), brand };
      case TEST_CARDS.asyncResult: {
        const providerTransactionId = transactionId(request.card.number);
        await call.reportLater({
          action: 'authorize', paymentId: request.reference,
          outcome: { status: request.authorizeOnly ? 'AUTHORIZED' : 'APPROVED', providerTransactionId, brand },
        }, TEST_ASYNC_RESULT_DELAY_MS);
        return { status: 'PENDING', providerTransactionId, brand };
      }
      default:
        return { status: request.authorizeOnly ? 'AUTHORIZED' : 'APPROVED', providerTransactionId: transactionId(request.card.number), brand };
    }
  },

  async capture(): Promise<ActionOutcome> {
    return { status: 'SUCCEEDED', providerReference: ref('test_cap') };
  },

  async void(): Promise<ActionOutcome> {
    return { status: 'SUCCEEDED', providerReference: null };
  },

  async refund(call, request): Promise<ActionOutcome> {
    if (request.providerTransactionId?.startsWith('test_ch_norefund')) {
      return { status: 'FAILED', failureCode: 'REFUND_DECLINED', description: 'The test card declines every refund' };
    }
    if (request.providerTransactionId?.startsWith('test_ch_async')) {
      await call.reportLater({
        action: 'refund', paymentId: request.paymentId, refundId: request.refundId,
        outcome: { status: 'SUCCEEDED', providerReference: ref('test_re') },
      }, TEST_ASYNC_RESULT_DELAY_MS);
      return { status: 'PENDING', providerReference: null };
    }
    return { status: 'SUCCEEDED', providerReference: ref('test_re') };
  },
};
