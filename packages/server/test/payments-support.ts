/** Helpers of the payments tests: orders to pay (through the orders domain), collector calls over HTTP, payment rows. */
import { afterAll, beforeAll } from 'vitest';
import { asOwner, call, startTestServer, type ApiResponse, type CallOptions, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { draftOf, v1Product } from './orders-support.js';
import { createOrderFromCheckout, getOrderForPayment, type OrderDraft } from '../src/domains/orders/index.js';
import type { RequestContext } from '../src/http/context.js';

export { TEST_CARDS } from '../src/domains/payments/index.js';

export interface PaymentsFixture {
  t: TestServer;
  ctx: RequestContext;
  product: { productId: string; variantId: string };
}

/** A server for a file's tests with one product of plenty of stock; closed after the file. */
export function usePaymentsServer(): PaymentsFixture {
  const f = {} as PaymentsFixture;
  beforeAll(async () => {
    f.t = await startTestServer();
    f.ctx = serviceContext(f.t);
    f.product = await v1Product(f.t, 'Payments test item', 1_000_000);
  });
  afterAll(() => f.t?.close());
  return f;
}

/** A new order of `quantity` units at 5.00 (total 5.00 x quantity), NOT_PAID. */
export async function newOrder(f: PaymentsFixture, quantity = 2, buyer: OrderDraft['buyerInfo'] = { email: 'buyer@example.com' }): Promise<string> {
  const draft = draftOf([{ ref: f.product, quantity }], buyer);
  return (await createOrderFromCheckout(f.ctx, draft)).orderId;
}

/** An order of two lines (line-1: 2 x 5.00, line-2: 1 x 5.00), total 15.00. */
export async function twoLineOrder(f: PaymentsFixture): Promise<string> {
  const draft = draftOf([{ ref: f.product, quantity: 2 }, { ref: f.product, quantity: 1 }]);
  return (await createOrderFromCheckout(f.ctx, draft)).orderId;
}

export const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' });

const COLLECTOR = '/ecom/v1/payments-collector/orders';

/** An owner call of a payments path. */
export function owner(f: PaymentsFixture, path: string, options: Omit<CallOptions, 'auth' | 'siteId'> = {}): Promise<ApiResponse> {
  return call(f.t.url, path, { ...asOwner(f.t), ...options });
}

export const collector = (orderId: string, action: string) => `${COLLECTOR}/${orderId}/${action}`;

/** Opens a payment gateway order for `amount` of the order and pays it with `number`; answers the pay call. */
export async function payWithCard(f: PaymentsFixture, orderId: string, number: string, opts: { amount?: string; delayedCapture?: boolean } = {}): Promise<ApiResponse> {
  const collectability = await owner(f, collector(orderId, 'payment-collectability-status'));
  const prepared = await owner(f, collector(orderId, 'prepare-payment-collection'), {
    body: { amount: { amount: opts.amount ?? collectability.body.amount.amount }, delayedCapture: opts.delayedCapture ?? false },
  });
  if (prepared.status !== 200) throw new Error(`prepare failed ${prepared.status} ${JSON.stringify(prepared.body)}`);
  return owner(f, `/_api/vitrine/payments/v1/gateway-orders/${prepared.body.paymentGatewayOrderId}/pay`, { body: { card: card(number) } });
}

export async function transactions(f: PaymentsFixture, orderId: string): Promise<ApiResponse> {
  return owner(f, `/ecom/v1/payments/orders/${orderId}`);
}

export async function paymentStatusOf(f: PaymentsFixture, orderId: string): Promise<string> {
  return (await getOrderForPayment(f.ctx, orderId)).paymentStatus;
}

/** Rows of the payments table for an order (what was really written). */
export async function paymentRows(f: PaymentsFixture, orderId: string) {
  return f.ctx.db.selectFrom('payments').select(['id', 'status', 'amount', 'captured', 'refunded', 'refund_pending'])
    .where('site_id', '=', f.t.site.id).where('order_id', '=', orderId).orderBy('position').execute()
    .then((rows) => rows.map((r) => ({ ...r, amount: Number(r.amount), captured: Number(r.captured), refunded: Number(r.refunded), refund_pending: Number(r.refund_pending) })));
}

export async function refundRows(f: PaymentsFixture, orderId: string) {
  return f.ctx.db.selectFrom('payment_refunds').innerJoin('payment_refund_transactions', 'payment_refund_transactions.refund_id', 'payment_refunds.id')
    .select(['payment_refunds.id', 'payment_refund_transactions.status', 'payment_refund_transactions.amount'])
    .where('payment_refunds.site_id', '=', f.t.site.id).where('payment_refunds.order_id', '=', orderId).execute()
    .then((rows) => rows.map((r) => ({ ...r, amount: Number(r.amount) })));
}

/** Waits until `check` passes (jobs run on the server's runner), bounded. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
