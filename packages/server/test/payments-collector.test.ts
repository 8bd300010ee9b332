/**
 * The payments collector over real HTTP: card payments through the test provider (charged, declined,
 * authorized then captured or voided, asynchronous), collectability, mark as paid (single and bulk),
 * manual payments, memberships, and the order's payment status following its transactions.
 */
import { describe, expect, it } from 'vitest';
import { chargeOrder } from '../src/domains/payments/index.js';
import { cancelOrder } from '../src/domains/orders/service.js';
import { getOrder, getOrderForPayment } from '../src/domains/orders/index.js';
import {
  card, collector, eventually, newOrder, owner, paymentRows, paymentStatusOf, payWithCard, TEST_CARDS, transactions, twoLineOrder,
  usePaymentsServer,
} from './payments-support.js';
import { memberToken } from './member-tokens.js';
import { call } from './harness.js';

const f = usePaymentsServer();

describe('card payments through the test provider', () => {
  it('a charged card pays the order: APPROVED transaction, order PAID and APPROVED, nothing left to collect', async () => {
    const id = await newOrder(f, 2);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body).toEqual({ status: 'COLLECTABLE', amount: { amount: '10.00' } });
    const paid = await payWithCard(f, id, TEST_CARDS.success);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ paymentId: expect.any(String), status: 'APPROVED' });
    expect(await getOrderForPayment(f.ctx, id)).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID' });

    const listed = await transactions(f, id);
    expect(listed.status).toBe(200);
    expect(listed.body.orderTransactions.orderId).toBe(id);
    expect(listed.body.orderTransactions.refunds).toEqual([]);
    expect(listed.body.orderTransactions.payments).toEqual([{
      id: paid.body.paymentId, createdDate: expect.any(String), updatedDate: expect.any(String), amount: { amount: '10.00' },
      refundDisabled: false, supportReceiptGeneration: false, status: 'APPROVED', chargeCorrelationId: null,
      regularPaymentDetails: {
        paymentOrderId: expect.any(String), gatewayTransactionId: expect.stringMatching(/^test_ch_/), paymentMethod: 'CreditCard',
        providerTransactionId: expect.stringMatching(/^test_ch_/), offlinePayment: false, status: 'APPROVED', savedPaymentMethod: false,
        creditCardDetails: { lastFourDigits: '4242', brand: 'Visa' },
      },
    }]);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body).toEqual({ status: 'NONCOLLECTABLE_ORDER_IS_PAID', amount: { amount: '0.00' } });
    const again = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '1.00' } } });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.code).toBe('ORDER_ALREADY_PAID');
  });

  it('a declined card leaves the order NOT_PAID with a DECLINED transaction (CHARGE_FAILED, INSUFFICIENT_FUNDS)', async () => {
    const id = await newOrder(f, 2);
    const declined = await payWithCard(f, id, TEST_CARDS.declined);
    expect(declined.status).toBe(200);
    expect(declined.body).toEqual({ paymentId: expect.any(String), status: 'DECLINED', declinedReason: 'CHARGE_FAILED' });
    const poor = await payWithCard(f, id, TEST_CARDS.insufficientFunds);
    expect(poor.body).toEqual({ paymentId: expect.any(String), status: 'DECLINED', declinedReason: 'INSUFFICIENT_FUNDS' });
    expect(await paymentStatusOf(f, id)).toBe('NOT_PAID');
    expect((await getOrderForPayment(f.ctx, id)).status).toBe('INITIALIZED');
    expect(await paymentRows(f, id)).toEqual([
      { id: declined.body.paymentId, status: 'DECLINED', amount: 1000, captured: 0, refunded: 0, refund_pending: 0 },
      { id: poor.body.paymentId, status: 'DECLINED', amount: 1000, captured: 0, refunded: 0, refund_pending: 0 },
    ]);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body).toEqual({ status: 'COLLECTABLE', amount: { amount: '10.00' } });
  });

  it('invalid and expired cards are 400s naming the field, and record nothing', async () => {
    const id = await newOrder(f, 1);
    const prepared = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '5.00' } } });
    const pay = (c: object) => owner(f, `/_api/vitrine/payments/v1/gateway-orders/${prepared.body.paymentGatewayOrderId}/pay`, { body: { card: c } });
    const badDigit = await pay(card('4242424242424241'));
    expect(badDigit.status).toBe(400);
    expect(badDigit.body.details.validationError.fieldViolations).toEqual([{ field: 'card.number', description: 'is not a valid card number', violatedRule: 'FORMAT', data: {} }]);
    const expired = await pay({ ...card(TEST_CARDS.success), expYear: 2020 });
    expect(expired.status).toBe(400);
    expect(expired.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['card.expYear']);
    const badCvc = await pay({ ...card(TEST_CARDS.success), cvc: '1a3' });
    expect(badCvc.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['card.cvc']);
    expect(await paymentRows(f, id)).toEqual([]);
    expect(await paymentStatusOf(f, id)).toBe('NOT_PAID');
  });

  it('authorize then capture: PENDING while authorized, PAID once captured; a second capture is refused', async () => {
    const id = await newOrder(f, 2);
    const auth = await payWithCard(f, id, TEST_CARDS.authorizeOnly);
    expect(auth.body.status).toBe('AUTHORIZED');
    expect(await paymentStatusOf(f, id)).toBe('PENDING');
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body).toEqual({ status: 'NONCOLLECTABLE_ORDER_IS_PAID', amount: { amount: '0.00' } });

    const captured = await owner(f, collector(id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: auth.body.paymentId }] } });
    expect(captured.status).toBe(200);
    const payment = captured.body.orderTransactions.payments[0];
    expect(payment.status).toBe('APPROVED');
    expect(payment.regularPaymentDetails.authorizationDetails).toEqual({
      delayedCapture: false, authorizedDate: expect.any(String),
      captures: [{ id: expect.any(String), status: 'SUCCEEDED', amount: { amount: '10.00' }, createdDate: expect.any(String) }],
    });
    expect(await getOrderForPayment(f.ctx, id)).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID' });
    const order = await getOrder(f.ctx, id);
    expect(order.activities.map((a) => a.type)).toEqual(['ORDER_PLACED', 'AUTHORIZED_PAYMENT_CREATED', 'AUTHORIZED_PAYMENT_CAPTURED', 'ORDER_PAID']);
    expect(order.balanceSummary).toMatchObject({ paid: { amount: '10.00' }, balance: { amount: '0.00' } });

    const twice = await owner(f, collector(id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: auth.body.paymentId }] } });
    expect(twice.status).toBe(409);
    expect(twice.body.details.applicationError.code).toBe('PAYMENT_ALREADY_CAPTURED');
    expect(await paymentRows(f, id)).toEqual([{ id: auth.body.paymentId, status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);
  });

  it('a delayed capture captures part of the authorization: PARTIALLY_PAID; more than authorized is INVALID_AMOUNT', async () => {
    const id = await newOrder(f, 2);
    const auth = await payWithCard(f, id, TEST_CARDS.success, { delayedCapture: true });
    expect(auth.body.status).toBe('AUTHORIZED');
    const tooMuch = await owner(f, collector(id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: auth.body.paymentId, amount: { amount: '10.01' } }] } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details.applicationError.code).toBe('INVALID_AMOUNT');
    const part = await owner(f, collector(id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: auth.body.paymentId, amount: { amount: '4.00' } }] } });
    expect(part.status).toBe(200);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_PAID');
    expect(await paymentRows(f, id)).toEqual([{ id: auth.body.paymentId, status: 'APPROVED', amount: 1000, captured: 400, refunded: 0, refund_pending: 0 }]);
  });

  it('authorize then void: VOIDED, the order back to NOT_PAID; void and capture afterwards are refused', async () => {
    const id = await newOrder(f, 2);
    const auth = await payWithCard(f, id, TEST_CARDS.authorizeOnly);
    const voided = await owner(f, collector(id, 'void-authorized-payments'), { body: { paymentIds: [auth.body.paymentId] } });
    expect(voided.status).toBe(200);
    expect(voided.body.orderTransactions.payments[0]).toMatchObject({ status: 'VOIDED', regularPaymentDetails: { authorizationDetails: { void: { status: 'SUCCEEDED', reason: 'MANUAL' } } } });
    expect(await paymentStatusOf(f, id)).toBe('NOT_PAID');
    const again = await owner(f, collector(id, 'void-authorized-payments'), { body: { paymentIds: [auth.body.paymentId] } });
    expect([again.status, again.body.details.applicationError.code]).toEqual([409, 'PAYMENT_ALREADY_VOIDED']);
    const capture = await owner(f, collector(id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: auth.body.paymentId }] } });
    expect([capture.status, capture.body.details.applicationError.code]).toEqual([409, 'PAYMENT_ALREADY_VOIDED']);
    const unknown = await owner(f, collector(id, 'void-authorized-payments'), { body: { paymentIds: ['no-such-payment'] } });
    expect([unknown.status, unknown.body.details.applicationError.code]).toEqual([404, 'PAYMENT_NOT_FOUND']);
  });

  it('an asynchronous result: PENDING at once, APPROVED and PAID when the provider\'s report job runs', async () => {
    const id = await newOrder(f, 1);
    const pending = await payWithCard(f, id, TEST_CARDS.asyncResult);
    expect(pending.body.status).toBe('PENDING');
    expect(await paymentStatusOf(f, id)).toBe('PENDING');
    await eventually(async () => expect(await paymentStatusOf(f, id)).toBe('PAID'));
    expect(await paymentRows(f, id)).toEqual([{ id: pending.body.paymentId, status: 'APPROVED', amount: 500, captured: 500, refunded: 0, refund_pending: 0 }]);
  });

  it('a delayed capture\'s scheduled action captures the authorization when its time comes', async () => {
    const id = await newOrder(f, 1);
    const prepared = await owner(f, collector(id, 'prepare-payment-collection'), { body: {
      amount: { amount: '5.00' }, delayedCaptureSettings: { scheduledAction: 'CAPTURE', delayDuration: { count: 1, unit: 'HOURS' } },
    } });
    const paid = await owner(f, `/_api/vitrine/payments/v1/gateway-orders/${prepared.body.paymentGatewayOrderId}/pay`, { body: { card: card(TEST_CARDS.success) } });
    expect(paid.body.status).toBe('AUTHORIZED');
    const listed = await transactions(f, id);
    const scheduled = listed.body.orderTransactions.payments[0].regularPaymentDetails.authorizationDetails.scheduledAction;
    expect(scheduled.actionType).toBe('CAPTURE');
    expect(Date.parse(scheduled.executionDate) - Date.parse(listed.body.orderTransactions.payments[0].createdDate)).toBe(3_600_000);
    // Bring the job's time forward instead of waiting an hour.
    await f.ctx.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('kind', '=', 'payments.scheduled-action').where('status', '=', 'QUEUED').execute();
    f.t.server.jobs.wake();
    await eventually(async () => expect(await paymentStatusOf(f, id)).toBe('PAID'));
    expect(await paymentRows(f, id)).toEqual([{ id: paid.body.paymentId, status: 'APPROVED', amount: 500, captured: 500, refunded: 0, refund_pending: 0 }]);
    const other = await newOrder(f, 1);
    const tooLong = await owner(f, collector(other, 'prepare-payment-collection'), { body: { amount: { amount: '1.00' }, delayedCaptureSettings: { scheduledAction: 'VOID', delayDuration: { count: 31, unit: 'DAYS' } } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'delayedCaptureSettings.delayDuration.count', violatedRule: 'MAX' });
  });

  it('a member cannot pay another buyer\'s gateway order', async () => {
    const id = await newOrder(f, 1, { email: 'ann@example.com', memberId: 'member-ann' });
    const prepared = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '5.00' } } });
    const bob = await memberToken(f.t, 'member-bob');
    const res = await call(f.t.url, `/_api/vitrine/payments/v1/gateway-orders/${prepared.body.paymentGatewayOrderId}/pay`, { auth: bob, body: { card: card(TEST_CARDS.success) } });
    expect([res.status, res.body.details.applicationError.code]).toEqual([403, 'FORBIDDEN']);
    expect(await paymentRows(f, id)).toEqual([]);
    const ann = await memberToken(f.t, 'member-ann');
    const own = await call(f.t.url, `/_api/vitrine/payments/v1/gateway-orders/${prepared.body.paymentGatewayOrderId}/pay`, { auth: ann, body: { card: card(TEST_CARDS.success) } });
    expect([own.status, own.body.status]).toEqual([200, 'APPROVED']);
  });
});

describe('chargeOrder (used by the checkout)', () => {
  it('charges a card, or records a MANUAL payment that mark-as-paid later confirms', async () => {
    const a = await newOrder(f, 1);
    expect(await chargeOrder(f.ctx, a, { method: 'CARD', card: card(TEST_CARDS.success) })).toEqual({ transactionId: expect.any(String), status: 'APPROVED' });
    expect(await paymentStatusOf(f, a)).toBe('PAID');
    const declined = await newOrder(f, 1);
    expect(await chargeOrder(f.ctx, declined, { method: 'CARD', card: card(TEST_CARDS.declined) })).toEqual({ transactionId: expect.any(String), status: 'DECLINED', declineCode: 'CHARGE_FAILED' });
    expect(await paymentStatusOf(f, declined)).toBe('NOT_PAID');

    const b = await newOrder(f, 2);
    const manual = await chargeOrder(f.ctx, b, { method: 'MANUAL' });
    expect(manual.status).toBe('PENDING_MERCHANT');
    expect(await paymentStatusOf(f, b)).toBe('NOT_PAID');
    const marked = await owner(f, collector(b, 'mark-as-paid'), { body: {} });
    expect(marked.status).toBe(200);
    expect(marked.body.order).toMatchObject({ id: b, paymentStatus: 'PAID', status: 'APPROVED' });
    expect(await paymentRows(f, b)).toEqual([{ id: manual.transactionId, status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);
  });
});

describe('offline money', () => {
  it('mark as paid records the missing amount once; a second call is ORDER_ALREADY_PAID', async () => {
    const id = await newOrder(f, 3);
    const first = await owner(f, collector(id, 'mark-as-paid'), { body: {} });
    expect(first.status).toBe(200);
    expect(first.body.order).toMatchObject({ id, paymentStatus: 'PAID' });
    const second = await owner(f, collector(id, 'mark-as-paid'), { body: {} });
    expect([second.status, second.body.details.applicationError.code]).toEqual([409, 'ORDER_ALREADY_PAID']);
    const rows = await paymentRows(f, id);
    expect(rows).toEqual([{ id: expect.any(String), status: 'APPROVED', amount: 1500, captured: 1500, refunded: 0, refund_pending: 0 }]);
    const listed = await transactions(f, id);
    expect(listed.body.orderTransactions.payments[0].regularPaymentDetails).toMatchObject({ offlinePayment: true, paymentMethod: 'Offline', providerTransactionId: null });
  });

  it('bulk mark as paid answers per order', async () => {
    const a = await newOrder(f, 1);
    const b = await newOrder(f, 1);
    const paid = await newOrder(f, 1);
    await owner(f, collector(paid, 'mark-as-paid'), { body: {} });
    const res = await owner(f, '/v1/bulk/payments-collector/mark-as-paid', { body: { ecomOrderIds: [a, paid, 'no-such-order', b] } });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { itemMetadata: object }) => r.itemMetadata)).toEqual([
      { id: a, originalIndex: 0, success: true },
      { id: paid, originalIndex: 1, success: false, error: { code: 'ORDER_ALREADY_PAID', description: expect.any(String), data: { paymentStatus: 'PAID' } } },
      { id: 'no-such-order', originalIndex: 2, success: false, error: { code: 'ORDER_NOT_FOUND', description: expect.any(String), data: expect.any(Object) } },
      { id: b, originalIndex: 3, success: true },
    ]);
    expect(res.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 2, undetailedFailures: 0 });
    expect([await paymentStatusOf(f, a), await paymentStatusOf(f, b)]).toEqual(['PAID', 'PAID']);
    const tooMany = await owner(f, '/v1/bulk/payments-collector/mark-as-paid', { body: { ecomOrderIds: Array.from({ length: 101 }, (_, i) => `o${i}`) } });
    expect(tooMany.status).toBe(400);
  });

  it('manual payments add up: PARTIALLY_PAID, more than is left is INVALID_AMOUNT, then PAID', async () => {
    const id = await newOrder(f, 2);
    const four = await owner(f, collector(id, 'manual-payment'), { body: { amount: { amount: '4.00' } } });
    expect([four.status, four.body]).toEqual([200, {}]);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_PAID');
    const tooMuch = await owner(f, collector(id, 'manual-payment'), { body: { amount: { amount: '7.00' } } });
    expect([tooMuch.status, tooMuch.body.details.applicationError.code]).toEqual([400, 'INVALID_AMOUNT']);
    const badScale = await owner(f, collector(id, 'manual-payment'), { body: { amount: { amount: '1.001' } } });
    expect(badScale.status).toBe(400);
    await owner(f, collector(id, 'manual-payment'), { body: { amount: { amount: '6.00' } } });
    expect(await paymentStatusOf(f, id)).toBe('PAID');
    expect((await paymentRows(f, id)).map((r) => r.captured)).toEqual([400, 600]);
  });

  it('a canceled order collects nothing', async () => {
    const id = await newOrder(f, 1);
    await cancelOrder(f.ctx, id, {});
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body).toEqual({ status: 'NONCOLLECTABLE_ORDER_IS_CANCELLED', amount: { amount: '5.00' } });
    const prepared = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '5.00' } } });
    expect([prepared.status, prepared.body.details.applicationError.code]).toEqual([409, 'ORDER_CANCELED']);
    const marked = await owner(f, collector(id, 'mark-as-paid'), { body: {} });
    expect(marked.body.details.applicationError.code).toBe('ORDER_CANCELED');
  });

  it('without an online provider an order is NONCOLLECTABLE_MISSING_PAYMENT_METHOD', async () => {
    const id = await newOrder(f, 1);
    process.env.PAYMENTS_ONLINE_PROVIDER = 'none';
    try {
      expect((await owner(f, collector(id, 'payment-collectability-status'))).body.status).toBe('NONCOLLECTABLE_MISSING_PAYMENT_METHOD');
    } finally {
      delete process.env.PAYMENTS_ONLINE_PROVIDER;
    }
  });
});

describe('memberships and payment gateway orders', () => {
  it('charge-membership pays the line items it names, once each', async () => {
    const id = await twoLineOrder(f);
    const res = await owner(f, collector(id, 'charge-membership'), { body: { memberId: 'member-x', membershipCharges: [{ membershipId: 'plan-1', lineItemId: 'line-1' }] } });
    expect([res.status, res.body]).toEqual([200, {}]);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_PAID');
    const again = await owner(f, collector(id, 'charge-membership'), { body: { memberId: 'member-x', membershipCharges: [{ membershipId: 'plan-1', lineItemId: 'line-1' }] } });
    expect([again.status, again.body.details.applicationError.code]).toEqual([409, 'LINE_ITEM_ALREADY_CHARGED']);
    await owner(f, collector(id, 'charge-membership'), { body: { memberId: 'member-x', membershipCharges: [{ membershipId: 'plan-1', lineItemId: 'line-2' }] } });
    expect(await paymentStatusOf(f, id)).toBe('PAID');
    const paidAlready = await owner(f, collector(id, 'charge-membership'), { body: { memberId: 'member-x', membershipCharges: [{ membershipId: 'plan-2', lineItemId: 'line-2' }] } });
    expect([paidAlready.status, paidAlready.body.details.applicationError.code]).toEqual([409, 'ORDER_ALREADY_PAID']);
    const card = await twoLineOrder(f);
    await owner(f, collector(card, 'manual-payment'), { body: { amount: { amount: '6.00' } } });
    const overpay = await owner(f, collector(card, 'charge-membership'), { body: { memberId: 'member-x', membershipCharges: [{ membershipId: 'plan-1', lineItemId: 'line-1' }] } });
    expect([overpay.status, overpay.body.details.applicationError.code]).toEqual([400, 'INVALID_AMOUNT']);
    const listed = await transactions(f, id);
    expect(listed.body.orderTransactions.payments.map((p: { amount: { amount: string }; membershipPaymentDetails: object }) => [p.amount.amount, p.membershipPaymentDetails])).toEqual([
      ['10.00', { membershipId: 'plan-1', lineItemId: 'line-1', status: 'CHARGED', voided: false }],
      ['5.00', { membershipId: 'plan-1', lineItemId: 'line-2', status: 'CHARGED', voided: false }],
    ]);
  });

  it('create-payment-gateway-order opens one for the balance; prepare with its id resets the amount', async () => {
    const id = await newOrder(f, 2);
    const created = await owner(f, collector(id, 'create-payment-gateway-order'), { body: { chargedBy: { id: '3f1e0f9e-0000-4000-8000-000000000001', fullName: 'Clerk' } } });
    expect(created.status).toBe(200);
    const gw = created.body.paymentGatewayOrderId;
    const reset = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '3.00' }, paymentGatewayOrderId: gw } });
    expect(reset.body).toEqual({ paymentGatewayOrderId: gw });
    const paid = await owner(f, `/_api/vitrine/payments/v1/gateway-orders/${gw}/pay`, { body: { card: card(TEST_CARDS.success) } });
    expect(paid.body.status).toBe('APPROVED');
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_PAID');
    const closed = await owner(f, `/_api/vitrine/payments/v1/gateway-orders/${gw}/pay`, { body: { card: card(TEST_CARDS.success) } });
    expect([closed.status, closed.body.details.applicationError.code]).toEqual([409, 'PAYMENT_GATEWAY_ORDER_CLOSED']);
    const tooMuch = await owner(f, collector(id, 'prepare-payment-collection'), { body: { amount: { amount: '7.01' } } });
    expect([tooMuch.status, tooMuch.body.details.applicationError.code]).toEqual([400, 'INVALID_AMOUNT']);
    const missing = await owner(f, '/_api/vitrine/payments/v1/gateway-orders/nope/pay', { body: { card: card(TEST_CARDS.success) } });
    expect([missing.status, missing.body.details.applicationError.code]).toEqual([404, 'PAYMENT_GATEWAY_ID_NOT_FOUND']);
  });
});
