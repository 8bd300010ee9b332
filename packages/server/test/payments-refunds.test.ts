/**
 * Refunds and the order transactions calls over real HTTP: refundability with each reason, full /
 * partial / per item refunds with restock, refunds the provider refuses or answers later, and payments
 * recorded and moved by hand.
 */
import { describe, expect, it } from 'vitest';
import { getOrder, getOrderForPayment } from '../src/domains/orders/index.js';
import { updateOrderStatus } from '../src/domains/orders/service.js';
import { onHand } from './orders-support.js';
import {
  collector, eventually, newOrder, owner, paymentRows, paymentStatusOf, payWithCard, refundRows, TEST_CARDS, transactions, twoLineOrder,
  usePaymentsServer,
} from './payments-support.js';

const f = usePaymentsServer();

const refund = (orderId: string, body: object) => owner(f, collector(orderId, 'trigger-refund'), { body });
const refundability = async (orderId: string) => (await owner(f, collector(orderId, 'refundability'))).body;

async function paidByCard(number: string = TEST_CARDS.success, quantity = 2): Promise<{ id: string; paymentId: string }> {
  const id = await newOrder(f, quantity);
  const paid = await payWithCard(f, id, number);
  return { id, paymentId: paid.body.paymentId };
}

describe('refundability', () => {
  it('answers a reason for every payment that cannot be refunded online', async () => {
    const none = await newOrder(f, 1);
    expect(await refundability(none)).toEqual({ refundabilities: [{ refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'TRANSACTION_NOT_FOUND' }], refundablePerItem: true });

    const card = await paidByCard();
    expect(await refundability(card.id)).toEqual({ refundabilities: [{ paymentId: card.paymentId, refundabilityStatus: 'REFUNDABLE' }], refundablePerItem: true });

    const declined = await newOrder(f, 1);
    const d = await payWithCard(f, declined, TEST_CARDS.declined);
    const a = await payWithCard(f, declined, TEST_CARDS.authorizeOnly);
    expect((await refundability(declined)).refundabilities).toEqual([
      { paymentId: d.body.paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'NOT_PAID' },
      { paymentId: a.body.paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'NOT_PAID' },
    ]);

    const offline = await newOrder(f, 1);
    await owner(f, collector(offline, 'mark-as-paid'), { body: {} });
    expect((await refundability(offline)).refundabilities).toEqual([{ paymentId: expect.any(String), refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'OFFLINE' }]);

    await refund(card.id, { payments: [{ paymentId: card.paymentId }] });
    expect((await refundability(card.id)).refundabilities).toEqual([{ paymentId: card.paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'ALREADY_REFUNDED' }]);

    const recorded = await newOrder(f, 4);
    const added = await owner(f, `/ecom/v1/payments/orders/${recorded}/add-payment`, { body: { payments: [
      { amount: { amount: '5.00' }, regularPaymentDetails: { providerTransactionId: 'ext-1' } },
      { amount: { amount: '5.00' }, refundDisabled: true },
      { amount: { amount: '0' } },
    ] } });
    expect(added.status).toBe(200);
    const [external, disabled, zero] = added.body.paymentsIds;
    expect((await refundability(recorded)).refundabilities).toEqual([
      { paymentId: external, refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'NOT_SUPPORTED' },
      { paymentId: disabled, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'DISABLED_BY_PROVIDER' },
      { paymentId: zero, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'ZERO_PRICE' },
    ]);
  });

  it('membership payments are FORBIDDEN, a refund in flight is PENDING_REFUND, an outage is PROVIDER_IS_DOWN', async () => {
    const member = await newOrder(f, 1);
    await owner(f, collector(member, 'charge-membership'), { body: { memberId: 'm-1', membershipCharges: [{ membershipId: 'plan', lineItemId: 'line-1' }] } });
    expect((await refundability(member)).refundabilities).toEqual([{ paymentId: expect.any(String), refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'FORBIDDEN' }]);

    const slow = await paidByCard(TEST_CARDS.asyncResult, 1);
    await eventually(async () => expect(await paymentStatusOf(f, slow.id)).toBe('PAID'));
    const started = await refund(slow.id, { payments: [{ paymentId: slow.paymentId, amount: { amount: '2.00' } }] });
    expect(started.body.orderTransactions.refunds[0].transactions[0].refundStatus).toBe('PENDING');
    expect((await refundability(slow.id)).refundabilities).toEqual([{ paymentId: slow.paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'PENDING_REFUND' }]);
    await eventually(async () => expect(await paymentStatusOf(f, slow.id)).toBe('PARTIALLY_REFUNDED'));
    expect(await refundRows(f, slow.id)).toEqual([{ id: started.body.refundId, status: 'SUCCEEDED', amount: 200 }]);

    const card = await paidByCard();
    process.env.PAYMENTS_TEST_PROVIDER_DOWN = '1';
    try {
      expect((await refundability(card.id)).refundabilities).toEqual([{ paymentId: card.paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'PROVIDER_IS_DOWN' }]);
      const refused = await refund(card.id, { payments: [{ paymentId: card.paymentId }] });
      expect([refused.status, refused.body.details.applicationError.code]).toEqual([409, 'REFUND_NOT_AVAILABLE']);
    } finally {
      delete process.env.PAYMENTS_TEST_PROVIDER_DOWN;
    }
  });

  it('pending and rejected orders: ORDER_IS_PENDING, ORDER_IS_REJECTED', async () => {
    // A part payment leaves the order INITIALIZED, so it can still go PENDING, then REJECTED.
    const id = await newOrder(f, 2);
    const added = await owner(f, `/ecom/v1/payments/orders/${id}/add-payment`, { body: { payments: [{ amount: { amount: '4.00' } }] } });
    const [paymentId] = added.body.paymentsIds;
    await updateOrderStatus(f.ctx, id, 'PENDING');
    expect((await refundability(id)).refundabilities).toEqual([{ paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'ORDER_IS_PENDING' }]);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body.status).toBe('NONCOLLECTABLE_ORDER_IS_PENDING');
    await updateOrderStatus(f.ctx, id, 'REJECTED');
    expect((await refundability(id)).refundabilities).toEqual([{ paymentId, refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'ORDER_IS_REJECTED' }]);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body.status).toBe('NONCOLLECTABLE_ORDER_IS_REJECTED');
    const refused = await refund(id, { payments: [{ paymentId }] });
    expect([refused.status, refused.body.details.applicationError.code]).toEqual([409, 'REFUND_NOT_AVAILABLE']);
  });
});

describe('trigger refund', () => {
  it('a full refund: SUCCEEDED transaction, payment REFUNDED, order FULLY_REFUNDED', async () => {
    const { id, paymentId } = await paidByCard();
    const res = await refund(id, { payments: [{ paymentId }], details: { reason: 'changed mind' } });
    expect(res.status).toBe(200);
    expect(res.body.failedPaymentIds).toEqual([]);
    expect(res.body.orderTransactions.refunds).toEqual([{
      id: res.body.refundId, createdDate: expect.any(String), details: { reason: 'changed mind' },
      transactions: [{ paymentId, amount: { amount: '10.00' }, refundStatus: 'SUCCEEDED', gatewayRefundId: null, providerRefundId: expect.stringMatching(/^test_re_/), externalRefund: false }],
      summary: { requestedRefund: { amount: '10.00' }, pendingRefund: { amount: '0.00' }, refunded: { amount: '10.00' }, failedRefundAmount: { amount: '0.00' }, pending: false },
    }]);
    expect(res.body.orderTransactions.payments[0].status).toBe('REFUNDED');
    expect(await paymentStatusOf(f, id)).toBe('FULLY_REFUNDED');
    const order = await getOrder(f.ctx, id);
    expect(order.activities.map((a) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_PAID', 'ORDER_REFUNDED']);
    expect(order.balanceSummary).toMatchObject({ paid: { amount: '10.00' }, refunded: { amount: '10.00' } });
    const more = await refund(id, { payments: [{ paymentId, amount: { amount: '0.01' } }] });
    expect([more.status, more.body.details.applicationError.code]).toEqual([409, 'REFUND_NOT_AVAILABLE']);
  });

  it('partial refunds add up to the captured amount and never beyond it', async () => {
    const { id, paymentId } = await paidByCard();
    expect((await refund(id, { payments: [{ paymentId, amount: { amount: '3.00' } }] })).status).toBe(200);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_REFUNDED');
    const over = await refund(id, { payments: [{ paymentId, amount: { amount: '7.01' } }] });
    expect([over.status, over.body.details.applicationError.code]).toEqual([400, 'INVALID_AMOUNT']);
    expect((await refund(id, { payments: [{ paymentId, amount: { amount: '7.00' } }] })).status).toBe(200);
    expect(await paymentStatusOf(f, id)).toBe('FULLY_REFUNDED');
    expect(await paymentRows(f, id)).toEqual([{ id: paymentId, status: 'REFUNDED', amount: 1000, captured: 1000, refunded: 1000, refund_pending: 0 }]);
  });

  it('per line item with restock: the lines\' value is refunded, stock comes back, a line is refunded at most its quantity', async () => {
    const id = await twoLineOrder(f);
    const paid = await payWithCard(f, id, TEST_CARDS.success);
    const before = await onHand(f.ctx, f.product);
    const res = await refund(id, {
      payments: [{ paymentId: paid.body.paymentId }],
      details: { lineItems: [{ lineItemId: 'line-1', quantity: 1 }] },
      sideEffects: { restockInfo: { type: 'ALL_ITEMS' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.orderTransactions.refunds[0].transactions[0].amount).toEqual({ amount: '5.00' });
    expect(await onHand(f.ctx, f.product)).toEqual({ quantity: before.quantity! + 1, reserved: before.reserved });
    expect((await getOrderForPayment(f.ctx, id)).lineItems[0]).toMatchObject({ id: 'line-1', refundedQuantity: 1 });
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_REFUNDED');

    const tooMany = await refund(id, { payments: [{ paymentId: paid.body.paymentId }], details: { lineItems: [{ lineItemId: 'line-1', quantity: 2 }] } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.validationError.fieldViolations).toEqual([{ field: 'details.lineItems[0].quantity', description: 'must be at most 1 (what is left to refund of the line)', violatedRule: 'MAX', data: { max: 1 } }]);
    const unknown = await refund(id, { payments: [{ paymentId: paid.body.paymentId }], details: { lineItems: [{ lineItemId: 'line-9', quantity: 1 }] } });
    expect(unknown.body.details.validationError.fieldViolations[0].field).toBe('details.lineItems[0].lineItemId');
    // Nothing was written by the refused calls.
    expect((await refundRows(f, id)).length).toBe(1);

    const some = await refund(id, {
      payments: [{ paymentId: paid.body.paymentId }],
      details: { lineItems: [{ lineItemId: 'line-2', quantity: 1 }], shipping: { amount: { amount: '0.00' } } },
      sideEffects: { restockInfo: { type: 'NO_ITEMS' } },
    });
    expect(some.body.orderTransactions.refunds[1].transactions[0].amount).toEqual({ amount: '5.00' });
    expect(await onHand(f.ctx, f.product)).toEqual({ quantity: before.quantity! + 1, reserved: before.reserved });
  });

  it('refunds no more shipping or fees than the order charged, and only fees it has', async () => {
    const { id, paymentId } = await paidByCard(); // no shipping, no fees
    const shipping = await refund(id, { payments: [{ paymentId }], details: { shipping: { amount: { amount: '10.00' } } } });
    expect([shipping.status, shipping.body.details.validationError.fieldViolations]).toEqual([400, [
      { field: 'details.shipping.amount.amount', description: 'must be at most 0.00 (what is left to refund of it)', violatedRule: 'DECIMAL_LTE', data: { max: '0.00' } },
    ]]);
    const fee = await refund(id, { payments: [{ paymentId }], details: { additionalFees: [{ additionalFeeId: 'x', amount: { amount: '5.00' } }] } });
    expect([fee.status, fee.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'details.additionalFees[0].additionalFeeId']);
    expect(await refundRows(f, id)).toEqual([]);
    expect(await paymentStatusOf(f, id)).toBe('PAID');
  });

  it('a refund the provider refuses is FAILED, named in failedPaymentIds, and moves no money', async () => {
    const { id, paymentId } = await paidByCard(TEST_CARDS.refundFails);
    const res = await refund(id, { payments: [{ paymentId, amount: { amount: '4.00' } }] });
    expect(res.status).toBe(200);
    expect(res.body.failedPaymentIds).toEqual([{ id: paymentId, originalIndex: 0, success: false, error: { code: 'REFUND_FAILED', description: 'The test card declines every refund', data: { failureCode: 'REFUND_DECLINED' } } }]);
    expect(res.body.orderTransactions.refunds[0].transactions[0]).toMatchObject({ refundStatus: 'FAILED', refundStatusInfo: { paymentGatewayReasonCode: 'REFUND_DEC', description: 'The test card declines every refund' } });
    expect(await paymentStatusOf(f, id)).toBe('PAID');
    expect(await paymentRows(f, id)).toEqual([{ id: paymentId, status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);
  });

  it('an external refund of an offline payment is only recorded; unknown payments are PAYMENTS_NOT_FOUND', async () => {
    const id = await newOrder(f, 2);
    await owner(f, collector(id, 'mark-as-paid'), { body: {} });
    const [payment] = await paymentRows(f, id);
    const res = await refund(id, { payments: [{ paymentId: payment!.id, amount: { amount: '2.50' }, externalRefund: true }] });
    expect(res.body.orderTransactions.refunds[0].transactions[0]).toMatchObject({ refundStatus: 'SUCCEEDED', externalRefund: true, providerRefundId: null });
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_REFUNDED');
    const unknown = await refund(id, { payments: [{ paymentId: 'nope' }] });
    expect([unknown.status, unknown.body.details.applicationError.code]).toEqual([404, 'PAYMENTS_NOT_FOUND']);
    const two = await refund(id, { payments: [{ paymentId: payment!.id }, { paymentId: payment!.id }] });
    expect(two.status).toBe(400);
  });
});

describe('order transactions calls', () => {
  it('add payments, move a pending one by hand, refuse moves that are not allowed', async () => {
    const id = await newOrder(f, 2);
    const added = await owner(f, `/ecom/v1/payments/orders/${id}/add-payment`, { body: { payments: [
      { amount: { amount: '4.00' }, regularPaymentDetails: { paymentMethod: 'PayPal', providerTransactionId: 'pp-1' } },
      { amount: { amount: '6.00' }, status: 'PENDING', regularPaymentDetails: { offlinePayment: true, paymentMethodName: { userDefinedName: { predefined: 'BANK_TRANSFER' } } } },
    ] } });
    expect(added.status).toBe(200);
    const [first, second] = added.body.paymentsIds;
    expect(added.body.orderTransactions.payments.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([[first, 'APPROVED'], [second, 'PENDING']]);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_PAID');

    const path = `/ecom/v1/payments/${second}/orders/${id}/update-payment-transaction-status`;
    const approved = await owner(f, path, { body: { status: 'APPROVED' } });
    expect(approved.status).toBe(200);
    expect(await paymentStatusOf(f, id)).toBe('PAID');
    const same = await owner(f, path, { body: { status: 'APPROVED' } });
    expect(same.status).toBe(200);
    const refused = await owner(f, path, { body: { status: 'REFUNDED' } });
    expect([refused.status, refused.body.details.applicationError]).toEqual([409, { code: 'PAYMENT_STATUS_TRANSITION_NOT_ALLOWED', description: 'A APPROVED payment cannot become REFUNDED', data: { from: 'APPROVED', to: 'REFUNDED' } }]);
    const over = await owner(f, `/ecom/v1/payments/orders/${id}/add-payment`, { body: { payments: [{ amount: { amount: '0.01' } }] } });
    expect([over.status, over.body.details.applicationError.code]).toEqual([400, 'INVALID_AMOUNT']);
    const badStatus = await owner(f, `/ecom/v1/payments/orders/${id}/add-payment`, { body: { payments: [{ amount: { amount: '1.00' }, status: 'REFUNDED' }] } });
    expect([badStatus.status, badStatus.body.details.applicationError.code]).toEqual([400, 'INVALID_PAYMENT_STATUS']);
    expect((await paymentRows(f, id)).length).toBe(2);
  });

  it('every part payment moves the order\'s balance; a payment of 0 is recorded but pays nothing', async () => {
    const id = await newOrder(f, 2); // 2 x 5.00
    const balance = async () => {
      const o = await getOrder(f.ctx, id);
      return [o.paymentStatus, o.balanceSummary.paid.amount, o.balanceSummary.balance.amount];
    };
    const add = (amount: string) => owner(f, `/ecom/v1/payments/orders/${id}/add-payment`, { body: { payments: [{ amount: { amount } }] } });
    expect((await add('0.00')).status).toBe(200);
    expect(await balance()).toEqual(['NOT_PAID', '0.00', '10.00']);
    expect((await add('4.00')).status).toBe(200);
    expect(await balance()).toEqual(['PARTIALLY_PAID', '4.00', '6.00']);
    expect((await add('3.00')).status).toBe(200);
    expect(await balance()).toEqual(['PARTIALLY_PAID', '7.00', '3.00']);
    expect((await owner(f, collector(id, 'payment-collectability-status'))).body.amount).toEqual({ amount: '3.00' });
  });

  it('bulk status updates answer per payment; list-by-ids answers each order', async () => {
    const a = await newOrder(f, 1);
    const b = await newOrder(f, 1);
    const pa = (await owner(f, `/ecom/v1/payments/orders/${a}/add-payment`, { body: { payments: [{ amount: { amount: '5.00' }, status: 'PENDING_MERCHANT' }] } })).body.paymentsIds[0];
    const pb = (await owner(f, `/ecom/v1/payments/orders/${b}/add-payment`, { body: { payments: [{ amount: { amount: '5.00' }, status: 'PENDING' }] } })).body.paymentsIds[0];
    const res = await owner(f, '/ecom/v1/bulk/payments/update-payment-transaction-status', { body: {
      paymentAndOrderIds: [{ orderId: a, paymentId: pa }, { orderId: b, paymentId: 'nope' }, { orderId: b, paymentId: pb }], status: 'DECLINED', returnFullEntity: true,
    } });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } }; item?: { status: string } }) => [r.itemMetadata.success, r.itemMetadata.error?.code, r.item?.status])).toEqual([
      [true, undefined, 'DECLINED'], [false, 'PAYMENT_NOT_FOUND', undefined], [true, undefined, 'DECLINED'],
    ]);
    expect(res.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    expect([await paymentStatusOf(f, a), await paymentStatusOf(f, b)]).toEqual(['NOT_PAID', 'NOT_PAID']);

    const listed = await owner(f, '/ecom/v1/payments/list-by-ids', { body: { orderIds: [a, b, a] } });
    expect(listed.body.orderTransactions.map((o: { orderId: string; payments: { id: string }[] }) => [o.orderId, o.payments.map((p) => p.id)])).toEqual([[a, [pa]], [b, [pb]]]);
    expect((await transactions(f, a)).body.orderTransactions.payments[0].status).toBe('DECLINED');
  });
});
