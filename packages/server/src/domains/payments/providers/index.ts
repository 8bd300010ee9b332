import type { ProviderName } from '../model.js';
import { manualProvider } from './manual.js';
import type { PaymentProvider } from './provider.js';
import { testProvider } from './test.js';

export type { ActionOutcome, AuthorizeOutcome, PaymentProvider, ProviderCall, ProviderReport } from './provider.js';
export { TEST_CARDS, TEST_ASYNC_RESULT_DELAY_MS } from './test.js';

const providers: Record<PaymentProvider['name'], PaymentProvider> = { test: testProvider, manual: manualProvider };

/** The provider that moves a payment's money; undefined for payments recorded from elsewhere. */
export function providerFor(name: ProviderName): PaymentProvider | undefined {
  return name === 'test' || name === 'manual' ? providers[name] : undefined;
}

/**
 * The provider that takes card payments online. `PAYMENTS_ONLINE_PROVIDER=none` leaves a site with
 * offline payment only (collectability answers NONCOLLECTABLE_MISSING_PAYMENT_METHOD); read per call.
 */
export function onlineProvider(): PaymentProvider | undefined {
  return process.env.PAYMENTS_ONLINE_PROVIDER === 'none' ? undefined : testProvider;
}
