import type { ActionOutcome, AuthorizeOutcome, PaymentProvider } from './provider.js';

/**
 * The `manual` provider: money collected offline (cash, bank transfer, check, pay on delivery). The
 * merchant confirms it (mark as paid, record a manual payment); refunds happen outside as well, so
 * refundability answers MANUAL / OFFLINE and a refund is only recorded.
 */
export const manualProvider: PaymentProvider = {
  name: 'manual',
  refundsOnline: false,
  available: () => true,
  async authorize(): Promise<AuthorizeOutcome> {
    throw new Error('the manual provider takes no cards');
  },
  async capture(): Promise<ActionOutcome> {
    return { status: 'SUCCEEDED', providerReference: null };
  },
  async void(): Promise<ActionOutcome> {
    return { status: 'SUCCEEDED', providerReference: null };
  },
  async refund(): Promise<ActionOutcome> {
    return { status: 'SUCCEEDED', providerReference: null };
  },
};
