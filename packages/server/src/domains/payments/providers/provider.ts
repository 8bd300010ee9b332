/**
 * The payment provider interface: what moves money for a payment. A provider answers each call at
 * once (APPROVED / DECLINED / SUCCEEDED / FAILED) or says PENDING and reports the final outcome later
 * through `ProviderCall.reportLater` (a job of kind `payments.provider-result`, which is also what a
 * real gateway's webhook route enqueues). docs/payments.md shows how a gateway such as Stripe plugs in.
 *
 * Every call carries `reference`, an id of ours that is stable across retries (the payment, capture or
 * refund id): a provider passes it on as its own idempotency key, so a retried call never moves money twice.
 */
import type { DeclinedReason, PaymentCard } from '../model.js';

/** A final outcome a provider reports after answering PENDING. */
export type ProviderReport =
  | { action: 'authorize'; paymentId: string; outcome: AuthorizeOutcome }
  | { action: 'capture'; paymentId: string; captureId: string; outcome: ActionOutcome }
  | { action: 'void'; paymentId: string; outcome: ActionOutcome }
  | { action: 'refund'; paymentId: string; refundId: string; outcome: ActionOutcome };

/** What a provider call may use besides its request. */
export interface ProviderCall {
  siteId: string;
  /**
   * Queues the final outcome of a call answered PENDING, to be applied after `delayMs` by the job
   * system, in the transaction of the call (it is queued only if the call's change commits).
   */
  reportLater(report: ProviderReport, delayMs: number): Promise<void>;
}

export interface AuthorizeRequest {
  reference: string;
  amount: bigint;
  currency: string;
  card: PaymentCard;
  /** true: hold the money only (capture later); false: charge it now. */
  authorizeOnly: boolean;
}

export type AuthorizeOutcome =
  | { status: 'APPROVED' | 'AUTHORIZED'; providerTransactionId: string; brand: string }
  | { status: 'PENDING'; providerTransactionId: string; brand: string }
  | { status: 'DECLINED'; reason: DeclinedReason; providerTransactionId: string | null; brand: string };

export interface ActionRequest {
  reference: string;
  providerTransactionId: string | null;
  amount: bigint;
  currency: string;
}

export type ActionOutcome =
  | { status: 'SUCCEEDED'; providerReference: string | null }
  | { status: 'PENDING'; providerReference: string | null }
  | { status: 'FAILED'; failureCode: string; description: string };

export interface PaymentProvider {
  readonly name: 'test' | 'manual';
  /** Whether money taken by this provider can be refunded through it (false: refunds are manual). */
  readonly refundsOnline: boolean;
  /** Whether the provider is reachable now (refundability answers PROVIDER_IS_DOWN when not). */
  available(): boolean;
  authorize(call: ProviderCall, request: AuthorizeRequest): Promise<AuthorizeOutcome>;
  capture(call: ProviderCall, request: ActionRequest & { paymentId: string; captureId: string }): Promise<ActionOutcome>;
  void(call: ProviderCall, request: ActionRequest & { paymentId: string }): Promise<ActionOutcome>;
  refund(call: ProviderCall, request: ActionRequest & { paymentId: string; refundId: string }): Promise<ActionOutcome>;
}
