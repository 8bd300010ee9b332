/**
 * Money changes happen once: the same capture, void, refund or mark-as-paid request sent twice or
 * concurrently (with an Idempotency-Key: one effect and the first answer; without one: the guarded
 * state change lets one through), and concurrent refunds never add up to more than was captured.
 * Real server over HTTP, on SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { collector, newOrder, owner, paymentRows, paymentStatusOf, payWithCard, refundRows, TEST_CARDS, usePaymentsServer } from './payments-support.js';

const f = usePaymentsServer();

const CONCURRENCY = 20;
const key = () => `k-${Math.random().toString(36).slice(2)}`;
const codes = (responses: { status: number; body: { details?: { applicationError?: { code: string } } } }[]) =>
  responses.map((r) => (r.status === 200 ? 'OK' : `${r.status} ${r.body.details?.applicationError?.code}`)).sort();

/** One success and the rest refused with `refusal`, in the sorted order `codes` gives. */
const oneOk = (refusal: string) => [...Array(CONCURRENCY - 1).fill(refusal), 'OK'].sort();

async function authorized(): Promise<{ id: string; paymentId: string }> {
  const id = await newOrder(f, 2);
  const res = await payWithCard(f, id, TEST_CARDS.authorizeOnly);
  return { id, paymentId: res.body.paymentId };
}

async function paid(): Promise<{ id: string; paymentId: string }> {
  const id = await newOrder(f, 2);
  const res = await payWithCard(f, id, TEST_CARDS.success);
  return { id, paymentId: res.body.paymentId };
}

describe('one effect per request', () => {
  it('capture: a repeat with the key replays the first answer; concurrent repeats with or without a key capture once', async () => {
    const a = await authorized();
    const body = { payments: [{ paymentId: a.paymentId }] };
    const k = key();
    const first = await owner(f, collector(a.id, 'capture-authorized-payments'), { body, headers: { 'Idempotency-Key': k } });
    const second = await owner(f, collector(a.id, 'capture-authorized-payments'), { body, headers: { 'Idempotency-Key': k } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentRows(f, a.id)).toEqual([{ id: a.paymentId, status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);

    const b = await authorized();
    const kb = key();
    const keyed = await Promise.all(Array.from({ length: CONCURRENCY }, () =>
      owner(f, collector(b.id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: b.paymentId }] }, headers: { 'Idempotency-Key': kb } })));
    expect(codes(keyed)).toEqual(Array(CONCURRENCY).fill('OK'));
    expect(new Set(keyed.map((r) => JSON.stringify(r.body))).size).toBe(1);

    const c = await authorized();
    const bare = await Promise.all(Array.from({ length: CONCURRENCY }, () =>
      owner(f, collector(c.id, 'capture-authorized-payments'), { body: { payments: [{ paymentId: c.paymentId }] } })));
    expect(codes(bare)).toEqual(oneOk('409 PAYMENT_ALREADY_CAPTURED'));
    for (const o of [b, c]) {
      expect(await paymentRows(f, o.id)).toEqual([{ id: o.paymentId, status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);
      expect(await paymentStatusOf(f, o.id)).toBe('PAID');
    }
  });

  it('void: keyed repeats replay, concurrent bare ones void once', async () => {
    const a = await authorized();
    const k = key();
    const first = await owner(f, collector(a.id, 'void-authorized-payments'), { body: { paymentIds: [a.paymentId] }, headers: { 'Idempotency-Key': k } });
    const second = await owner(f, collector(a.id, 'void-authorized-payments'), { body: { paymentIds: [a.paymentId] }, headers: { 'Idempotency-Key': k } });
    expect([first.status, second.status, second.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(second.body).toEqual(first.body);

    const b = await authorized();
    const bare = await Promise.all(Array.from({ length: CONCURRENCY }, () => owner(f, collector(b.id, 'void-authorized-payments'), { body: { paymentIds: [b.paymentId] } })));
    expect(codes(bare)).toEqual(oneOk('409 PAYMENT_ALREADY_VOIDED'));
    expect((await paymentRows(f, b.id)).map((r) => r.status)).toEqual(['VOIDED']);
  });

  it('refund: the same keyed refund sent twice and concurrently refunds once', async () => {
    const a = await paid();
    const body = { payments: [{ paymentId: a.paymentId, amount: { amount: '2.00' } }] };
    const k = key();
    const first = await owner(f, collector(a.id, 'trigger-refund'), { body, headers: { 'Idempotency-Key': k } });
    const again = await owner(f, collector(a.id, 'trigger-refund'), { body, headers: { 'Idempotency-Key': k } });
    expect(again.body).toEqual(first.body);
    const storm = await Promise.all(Array.from({ length: CONCURRENCY }, () => owner(f, collector(a.id, 'trigger-refund'), { body, headers: { 'Idempotency-Key': k } })));
    expect(codes(storm)).toEqual(Array(CONCURRENCY).fill('OK'));
    expect(storm.every((r) => r.body.refundId === first.body.refundId)).toBe(true);
    expect(await refundRows(f, a.id)).toEqual([{ id: first.body.refundId, status: 'SUCCEEDED', amount: 200 }]);

    const b = await paid();
    const kb = key();
    const concurrent = await Promise.all(Array.from({ length: CONCURRENCY }, () =>
      owner(f, collector(b.id, 'trigger-refund'), { body: { payments: [{ paymentId: b.paymentId, amount: { amount: '1.00' } }] }, headers: { 'Idempotency-Key': kb } })));
    expect(new Set(concurrent.map((r) => r.body.refundId)).size).toBe(1);
    expect((await refundRows(f, b.id)).length).toBe(1);
    // The same key with another body is refused and changes nothing.
    const reused = await owner(f, collector(b.id, 'trigger-refund'), { body: { payments: [{ paymentId: b.paymentId, amount: { amount: '3.00' } }] }, headers: { 'Idempotency-Key': kb } });
    expect([reused.status, reused.body.details.applicationError.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await refundRows(f, b.id)).length).toBe(1);
  });

  it(`${CONCURRENCY} concurrent refunds never exceed the captured amount`, async () => {
    const a = await paid(); // 10.00 captured
    const res = await Promise.all(Array.from({ length: CONCURRENCY }, () =>
      owner(f, collector(a.id, 'trigger-refund'), { body: { payments: [{ paymentId: a.paymentId, amount: { amount: '0.75' } }] } })));
    const ok = res.filter((r) => r.status === 200);
    // 13 x 0.75 = 9.75 fits; a 14th would make 10.50.
    expect(ok.length).toBe(13);
    expect(codes(res.filter((r) => r.status !== 200))).toEqual(Array(CONCURRENCY - 13).fill('400 INVALID_AMOUNT'));
    const refunds = await refundRows(f, a.id);
    expect(refunds.length).toBe(13);
    expect(refunds.reduce((s, r) => s + r.amount, 0)).toBe(975);
    expect(await paymentRows(f, a.id)).toEqual([{ id: a.paymentId, status: 'PARTIALLY_REFUNDED', amount: 1000, captured: 1000, refunded: 975, refund_pending: 0 }]);

    // Whole refunds racing each other: exactly one takes everything.
    const b = await paid();
    const whole = await Promise.all(Array.from({ length: CONCURRENCY }, () => owner(f, collector(b.id, 'trigger-refund'), { body: { payments: [{ paymentId: b.paymentId }] } })));
    expect(whole.filter((r) => r.status === 200).length).toBe(1);
    expect(await paymentRows(f, b.id)).toEqual([{ id: b.paymentId, status: 'REFUNDED', amount: 1000, captured: 1000, refunded: 1000, refund_pending: 0 }]);
    expect(await paymentStatusOf(f, b.id)).toBe('FULLY_REFUNDED');
  });

  it('mark as paid: keyed repeats replay the first order, concurrent bare ones pay once', async () => {
    const a = await newOrder(f, 2);
    const k = key();
    const first = await owner(f, collector(a, 'mark-as-paid'), { body: {}, headers: { 'Idempotency-Key': k } });
    const again = await owner(f, collector(a, 'mark-as-paid'), { body: {}, headers: { 'Idempotency-Key': k } });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.body).toEqual(first.body);
    expect((await paymentRows(f, a)).length).toBe(1);

    const b = await newOrder(f, 2);
    const bare = await Promise.all(Array.from({ length: CONCURRENCY }, () => owner(f, collector(b, 'mark-as-paid'), { body: {} })));
    expect(codes(bare)).toEqual(oneOk('409 ORDER_ALREADY_PAID'));
    expect(await paymentRows(f, b)).toEqual([{ id: expect.any(String), status: 'APPROVED', amount: 1000, captured: 1000, refunded: 0, refund_pending: 0 }]);

    const c = await newOrder(f, 1);
    const bulk = await Promise.all(Array.from({ length: 5 }, () => owner(f, '/v1/bulk/payments-collector/mark-as-paid', { body: { ecomOrderIds: [c] } })));
    expect(bulk.map((r) => r.body.bulkActionMetadata.totalSuccesses).sort()).toEqual([0, 0, 0, 0, 1]);
    expect((await paymentRows(f, c)).length).toBe(1);
  });
});

describe('owner-only access', () => {
  it('visitor and member tokens cannot move money (403), anonymous callers 401; nothing changes', async () => {
    const { visitorTokens, call } = await import('./harness.js');
    const { memberToken } = await import('./member-tokens.js');
    const a = await paid();
    const visitor = (await visitorTokens(f.t)).accessToken;
    const member = await memberToken(f.t, 'member-1');
    for (const auth of [visitor, member]) {
      const refund = await call(f.t.url, collector(a.id, 'trigger-refund'), { auth, body: { payments: [{ paymentId: a.paymentId }] } });
      expect(refund.status).toBe(403);
      const list = await call(f.t.url, `/ecom/v1/payments/orders/${a.id}`, { auth });
      expect(list.status).toBe(403);
    }
    expect((await call(f.t.url, collector(a.id, 'mark-as-paid'), { body: {} })).status).toBe(401);
    expect(await refundRows(f, a.id)).toEqual([]);
  });
});
