/**
 * Abandoned checkouts over HTTP: checkouts reported by the cart domain (its tracking calls, driven here
 * directly) go ABANDONED through the periodic job with a short idle time, RECOVERED when completed
 * afterwards; the owner API reads, filters, pages, searches, annotates and deletes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberToken, memberWithToken, serviceContext } from './member-tokens.js';
import { markCheckoutCompleted, trackCheckoutActivity, type CheckoutSnapshot } from '../src/domains/cart/abandoned/index.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

const IDLE_MS = 400;
let t: TestServer;
let visitor: string;
let member: string;

beforeAll(async () => {
  t = await startTestServer({ abandonedCheckouts: { abandonAfterMs: IDLE_MS, scanEveryMs: 100 } });
  visitor = (await visitorTokens(t)).accessToken;
  const m = await memberWithToken(t, { loginEmail: 'abandoned-member@example.com' });
  member = await memberToken(t, m.id);
});
afterAll(() => t?.close());

const owner = () => asOwner(t);
const db = () => t.server.deps.storage.db;
const rowOf = (checkoutId: string) => db().selectFrom('abandoned_checkouts').selectAll().where('checkout_id', '=', checkoutId).executeTakeFirst();
const events = (entityId: string) => db().selectFrom('outbox_events').select(['slug', 'entity_fqdn']).where('entity_id', '=', entityId).orderBy('sequence').execute();

function snapshot(overrides: Partial<CheckoutSnapshot> = {}): CheckoutSnapshot {
  return {
    checkoutId: randomUUID(), cartId: randomUUID(), buyer: { email: 'buyer@example.com', visitorId: randomUUID() },
    total: { amount: '10.00', currency: 'USD' }, lineItemCount: 1, ...overrides,
  };
}

/** Waits (bounded) until the job has turned the checkout ABANDONED; answers its row. */
async function abandonedRow(checkoutId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const row = await rowOf(checkoutId);
    if (row?.status === 'ABANDONED') return row;
    if (Date.now() > deadline) throw new Error(`checkout ${checkoutId} not abandoned in time (status ${row?.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const query = (body: unknown) => call(t.url, '/ecom/v1/abandoned-checkout/query', { ...owner(), body });

describe('abandoned checkouts: transitions', () => {
  it('an idle checkout becomes ABANDONED, then RECOVERED when completed; completed-in-time and empty ones never appear', async () => {
    const ctx = serviceContext(t);
    const idle = snapshot({
      buyer: { email: 'idle@example.com', memberId: randomUUID() }, total: { amount: '25.5', currency: 'USD' }, lineItemCount: 2,
      details: { contactDetails: { firstName: 'Ida', lastName: 'Idle' }, subtotal: { amount: '25.50' }, lineItems: [{ id: 'l1', quantity: 2, productName: { original: 'Lamp' } }] },
    });
    const done = snapshot();
    const empty = snapshot({ lineItemCount: 0 });
    await trackCheckoutActivity(ctx, idle);
    await trackCheckoutActivity(ctx, done);
    await trackCheckoutActivity(ctx, empty);
    await markCheckoutCompleted(ctx, done.checkoutId);
    const row = await abandonedRow(idle.checkoutId);

    const got = await call(t.url, `/ecom/v1/abandoned-checkout/${row.id}`, owner());
    expect(got.status).toBe(200);
    expect(got.body.abandonedCheckout).toEqual({
      id: row.id, createdDate: row.abandoned_date, updatedDate: row.updated_date, checkoutId: idle.checkoutId, cartId: idle.cartId,
      status: 'ABANDONED', buyerInfo: { memberId: idle.buyer.memberId, contactId: null, email: 'idle@example.com' },
      contactDetails: { firstName: 'Ida', lastName: 'Idle' }, currency: 'USD', totalPrice: { amount: '25.50' }, subtotalPrice: { amount: '25.50' },
      activities: [], checkoutRecoveredDate: null, checkoutUrl: `${t.url}/_hosted/checkout?checkoutId=${idle.checkoutId}`,
      lineItems: [{ id: 'l1', quantity: 2, productName: { original: 'Lamp' } }],
    });
    expect(await rowOf(done.checkoutId)).toMatchObject({ status: 'COMPLETED', abandoned_date: null });
    expect(await rowOf(empty.checkoutId)).toMatchObject({ status: 'ACTIVE', abandoned_date: null });
    expect(await events(row.id)).toEqual([{ slug: 'created', entity_fqdn: 'wix.ecom.v1.abandoned_checkout' }]);

    // The buyer comes back: still ABANDONED, the snapshot is refreshed, an `updated` event follows.
    await trackCheckoutActivity(ctx, { ...idle, total: { amount: '30', currency: 'USD' } });
    expect(await rowOf(idle.checkoutId)).toMatchObject({ status: 'ABANDONED', total_amount: '30.00', abandoned_date: row.abandoned_date });

    await markCheckoutCompleted(ctx, idle.checkoutId);
    await markCheckoutCompleted(ctx, idle.checkoutId); // a repeat changes nothing
    const recovered = (await call(t.url, `/ecom/v1/abandoned-checkout/${row.id}`, owner())).body.abandonedCheckout;
    expect(recovered.status).toBe('RECOVERED');
    expect(recovered.checkoutRecoveredDate).toBe((await rowOf(idle.checkoutId))!.recovered_date);
    expect(Date.parse(recovered.checkoutRecoveredDate)).toBeGreaterThanOrEqual(Date.parse(row.abandoned_date!));
    expect((await events(row.id)).map((e) => e.slug)).toEqual(['created', 'updated', 'recovered', 'updated']);
    const payload = await db().selectFrom('outbox_events').select('payload').where('entity_id', '=', row.id).where('slug', '=', 'recovered').executeTakeFirstOrThrow();
    const data = (typeof payload.payload === 'string' ? JSON.parse(payload.payload) : payload.payload) as { data: { abandonedCheckout: { status: string } } };
    expect(data.data.abandonedCheckout.status).toBe('RECOVERED');

    // A recovered checkout is not revived by a late report.
    await trackCheckoutActivity(ctx, { ...idle, total: { amount: '99', currency: 'USD' } });
    expect(await rowOf(idle.checkoutId)).toMatchObject({ status: 'RECOVERED', total_amount: '30.00' });
  });

  it('a checkout touched within the idle time stays ACTIVE', async () => {
    const ctx = serviceContext(t);
    const busy = snapshot();
    await trackCheckoutActivity(ctx, busy);
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, IDLE_MS / 2));
      await trackCheckoutActivity(ctx, busy);
    }
    expect((await rowOf(busy.checkoutId))!.status).toBe('ACTIVE');
  });
});

describe('abandoned checkouts: owner API', () => {
  const made: { id: string; checkoutId: string; email: string }[] = [];
  beforeAll(async () => {
    const ctx = serviceContext(t);
    const specs = [
      { email: 'ann@shop.test', first: 'Ann', last: 'Archer', amount: '10.00' },
      { email: 'bob@shop.test', first: 'Bob', last: 'Baker', amount: '20.00' },
      { email: 'cy@other.test', first: 'Cy', last: 'Archer', amount: '30.00' },
      { email: 'dee@shop.test', first: 'Dee', last: 'Dale', amount: '40.00' },
    ];
    const snaps = specs.map((s) => snapshot({ buyer: { email: s.email }, total: { amount: s.amount, currency: 'USD' }, details: { contactDetails: { firstName: s.first, lastName: s.last } } }));
    for (const s of snaps) await trackCheckoutActivity(ctx, s);
    for (const [i, s] of snaps.entries()) made.push({ id: (await abandonedRow(s.checkoutId)).id, checkoutId: s.checkoutId, email: specs[i]!.email });
    // Bob's and Dee's checkouts are recovered.
    await markCheckoutCompleted(ctx, snaps[1]!.checkoutId);
    await markCheckoutCompleted(ctx, snaps[3]!.checkoutId);
  });

  const mine = { 'buyerInfo.email': { $in: ['ann@shop.test', 'bob@shop.test', 'cy@other.test', 'dee@shop.test'] } };

  it('queries with filters, sort and offset paging', async () => {
    const byStatus = await query({ query: { filter: { ...mine, status: 'RECOVERED' }, sort: [{ fieldName: 'buyerInfo.email', order: 'ASC' }] } });
    expect(byStatus.status).toBe(200);
    expect(byStatus.body.abandonedCheckouts.map((c: { buyerInfo: { email: string } }) => c.buyerInfo.email)).toEqual(['bob@shop.test', 'dee@shop.test']);
    expect(byStatus.body.results).toEqual(byStatus.body.abandonedCheckouts);
    expect(byStatus.body.metadata).toEqual({ count: 2, offset: 0, total: 2, tooManyToCount: false });

    const paged = await query({ query: { filter: mine, sort: [{ fieldName: 'buyerInfo.email', order: 'DESC' }], paging: { limit: 3, offset: 1 } } });
    expect(paged.body.abandonedCheckouts.map((c: { buyerInfo: { email: string } }) => c.buyerInfo.email)).toEqual(['cy@other.test', 'bob@shop.test', 'ann@shop.test']);
    expect(paged.body.metadata).toEqual({ count: 3, offset: 1, total: 4, tooManyToCount: false });

    const since = await query({ query: { filter: { ...mine, checkoutRecoveredDate: { $exists: true }, 'contactDetails.lastName': { $startsWith: 'da' } } } });
    expect(since.body.abandonedCheckouts.map((c: { id: string }) => c.id)).toEqual([made[3]!.id]);
  });

  it('pages with cursors that carry the filter and sort', async () => {
    const first = await query({ query: { filter: mine, sort: [{ fieldName: 'buyerInfo.email', order: 'ASC' }], cursorPaging: { limit: 3 } } });
    expect(first.body.abandonedCheckouts.map((c: { buyerInfo: { email: string } }) => c.buyerInfo.email)).toEqual(['ann@shop.test', 'bob@shop.test', 'cy@other.test']);
    expect(first.body.metadata.cursors.prev).toBeNull();
    const next = await query({ query: { cursorPaging: { cursor: first.body.metadata.cursors.next } } });
    expect(next.body.abandonedCheckouts.map((c: { buyerInfo: { email: string } }) => c.buyerInfo.email)).toEqual(['dee@shop.test']);
    expect(next.body.metadata.cursors.next).toBeNull();
    const forged = await query({ query: { cursorPaging: { cursor: `${first.body.metadata.cursors.next}x` } } });
    expect(forged.status).toBe(400);
    expect(forged.body.details.validationError.fieldViolations[0].field).toBe('query.cursorPaging.cursor');
  });

  it('searches e-mail and names: every word by default, any word with mode OR', async () => {
    const search = (body: unknown) => call(t.url, '/ecom/v1/abandoned-checkout/search', { ...owner(), body });
    const archers = await search({ search: { filter: mine, search: { expression: 'archer' }, sort: [{ fieldName: 'buyerInfo.email' }] } });
    expect(archers.status).toBe(200);
    expect(archers.body.abandonedCheckouts.map((c: { buyerInfo: { email: string } }) => c.buyerInfo.email)).toEqual(['ann@shop.test', 'cy@other.test']);
    expect(archers.body.pagingMetadata).toEqual({ count: 2, offset: 0, total: 2, tooManyToCount: false });
    const both = await search({ search: { filter: mine, search: { expression: 'archer shop.test' } } });
    expect(both.body.abandonedCheckouts.map((c: { id: string }) => c.id)).toEqual([made[0]!.id]);
    const either = await search({ search: { filter: mine, search: { expression: 'Baker Dale', mode: 'OR', fields: ['contactDetails.lastName'] }, sort: [{ fieldName: 'buyerInfo.email' }] } });
    expect(either.body.abandonedCheckouts.map((c: { id: string }) => c.id)).toEqual([made[1]!.id, made[3]!.id]);
  });

  it('answers analytics of recoverable versus recovered checkouts in a date range', async () => {
    const range = { startDate: new Date(Date.now() - 3_600_000).toISOString(), endDate: new Date(Date.now() + 60_000).toISOString() };
    // Other tests of this file add checkouts too: compare with what the table says.
    const rows = await db().selectFrom('abandoned_checkouts').select(['status', 'total_amount']).where('status', 'in', ['ABANDONED', 'RECOVERED']).execute();
    const cents = (status: string) => rows.filter((r) => r.status === status).reduce((s, r) => s + Math.round(Number(r.total_amount) * 100), 0);
    const count = (status: string) => rows.filter((r) => r.status === status).length;
    const res = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...owner(), body: range });
    expect(res.status).toBe(200);
    const money = (c: number) => (c / 100).toFixed(2);
    expect(res.body).toEqual({
      currency: 'USD',
      recoverableValue: money(cents('ABANDONED')), recoverableCheckoutCount: count('ABANDONED'),
      averageRecoverableCheckoutValue: money(Math.round(cents('ABANDONED') / count('ABANDONED'))),
      recoveredValue: money(cents('RECOVERED')), recoveredCheckoutCount: count('RECOVERED'),
      recoveryRate: Math.round((count('RECOVERED') / rows.length) * 10_000) / 10_000,
    });
    const picked = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...owner(), body: { ...range, metrics: ['RECOVERED_CHECKOUT_COUNT'], statuses: ['ABANDONED'] } });
    expect(picked.body).toEqual({ currency: 'USD', recoveredCheckoutCount: 0 });
    const before = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...owner(), body: { startDate: '2001-01-01T00:00:00Z', endDate: '2001-02-01T00:00:00Z' } });
    expect(before.body).toEqual({
      currency: 'USD', recoverableValue: '0.00', recoverableCheckoutCount: 0, averageRecoverableCheckoutValue: '0.00', recoveredValue: '0.00', recoveredCheckoutCount: 0, recoveryRate: 0,
    });
  });

  it('adds activities, and refuses bad ones without changing anything', async () => {
    const id = made[0]!.id;
    const added = await call(t.url, `/ecom/v1/abandoned-checkouts/${id}/add-activity`, { ...owner(), body: { activityType: 'EMAIL_SENT' } });
    expect(added.status).toBe(200);
    expect(added.body.abandonedCheckout.activities).toEqual([{ createdDate: expect.any(String), type: 'EMAIL_SENT' }]);
    // A retry with the same Idempotency-Key answers the first response and appends nothing.
    const key = { 'idempotency-key': randomUUID() };
    const once = await call(t.url, `/ecom/v1/abandoned-checkouts/${id}/add-activity`, { ...owner(), headers: key, body: { activityType: 'TASK_CREATED' } });
    const retry = await call(t.url, `/ecom/v1/abandoned-checkouts/${id}/add-activity`, { ...owner(), headers: key, body: { activityType: 'TASK_CREATED' } });
    expect(retry.body).toEqual(once.body);
    expect(retry.body.abandonedCheckout.activities.map((a: { type: string }) => a.type)).toEqual(['EMAIL_SENT', 'TASK_CREATED']);
    const before = await rowOf(made[0]!.checkoutId);
    const bad = await call(t.url, `/ecom/v1/abandoned-checkouts/${id}/add-activity`, { ...owner(), body: { activityType: 'PHONED' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['activityType']);
    const missing = await call(t.url, `/ecom/v1/abandoned-checkouts/${randomUUID()}/add-activity`, { ...owner(), body: { activityType: 'EMAIL_SENT' } });
    expect([missing.status, missing.body.details.applicationError.code]).toEqual([404, 'ABANDONED_CHECKOUT_NOT_FOUND']);
    expect(await rowOf(made[0]!.checkoutId)).toEqual(before);
  });

  it('refuses bad queries, analytics and bulk sizes with 400s that change nothing', async () => {
    const count = async () => (await db().selectFrom('abandoned_checkouts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const n = await count();
    const unknownField = await query({ query: { filter: { secret: 'x' } } });
    expect([unknownField.status, unknownField.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'query.filter.secret']);
    const bigPage = await query({ query: { paging: { limit: 101 } } });
    expect(bigPage.status).toBe(400);
    const backwards = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...owner(), body: { startDate: '2030-01-01T00:00:00Z', endDate: '2020-01-01T00:00:00Z' } });
    expect([backwards.status, backwards.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'endDate']);
    const noDates = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...owner(), body: {} });
    expect(noDates.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['endDate', 'startDate']);
    const tooMany = await call(t.url, '/ecom/v1/bulk/abandoned-checkout/delete', { ...owner(), body: { abandonedCheckoutIds: [...Array(101)].map(() => made[0]!.id) } });
    expect(tooMany.status).toBe(400);
    expect(await count()).toBe(n);
  });

  it('is owner-only except the recovery link; visitors and members get 403', async () => {
    for (const auth of [visitor, member]) {
      const got = await call(t.url, `/ecom/v1/abandoned-checkout/${made[0]!.id}`, { auth });
      expect([got.status, got.body.details.applicationError.code]).toEqual([403, 'ELEVATED_REQUIRED']);
      const q = await call(t.url, '/ecom/v1/abandoned-checkout/query', { auth, body: { query: {} } });
      expect(q.status).toBe(403);
    }
    const anonymous = await call(t.url, '/ecom/v1/abandoned-checkout/query', { body: { query: {} } });
    expect(anonymous.status).toBe(401);
  });

  it('an owner of another site sees and deletes none of this site\'s abandoned checkouts', async () => {
    const site = await createSite(db(), { slug: 'abandoned-other', name: 'Other' });
    const other = { auth: (await createApiKey(db(), { siteId: site.id, name: 'other owner' })).apiKey, siteId: site.id };
    const { id } = made[0]!;
    expect((await call(t.url, `/ecom/v1/abandoned-checkout/${id}`, other)).status).toBe(404);
    expect((await call(t.url, `/ecom/v1/abandoned-checkout/${id}`, { ...other, method: 'DELETE' })).status).toBe(404);
    const bulk = await call(t.url, '/ecom/v1/bulk/abandoned-checkout/delete', { ...other, body: { abandonedCheckoutIds: [id] } });
    expect(bulk.body.bulkActionMetadata).toEqual({ totalSuccesses: 0, totalFailures: 1, undetailedFailures: 0 });
    expect((await call(t.url, '/ecom/v1/abandoned-checkout/query', { ...other, body: { query: {} } })).body.abandonedCheckouts).toEqual([]);
    const analytics = await call(t.url, '/ecom/v1/abandoned-checkout/get-analytics', { ...other, body: { startDate: '2000-01-01T00:00:00Z', endDate: '2100-01-01T00:00:00Z', metrics: ['RECOVERABLE_CHECKOUT_COUNT'] } });
    expect(analytics.body.recoverableCheckoutCount).toBe(0);
    expect((await call(t.url, `/ecom/v1/abandoned-checkout/${id}/redirect-to-checkout`, { query: { metasiteId: site.id } })).status).toBe(404);
    expect((await call(t.url, `/ecom/v1/abandoned-checkout/${id}`, owner())).status).toBe(200);
  });

  it('redirects the recovery link to the hosted checkout page (302 for browsers, the redirect as data for API clients)', async () => {
    const { id, checkoutId } = made[2]!;
    const path = `/ecom/v1/abandoned-checkout/${id}/redirect-to-checkout`;
    const location = `${t.url}/_hosted/checkout?checkoutId=${checkoutId}`;
    const browser = await fetch(new URL(`${path}?metasiteId=${t.site.id}`, t.url), { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect([browser.status, browser.headers.get('location')]).toEqual([302, location]);
    const api = await call(t.url, path, { query: { metasiteId: t.site.id } });
    expect(api.status).toBe(200);
    expect(api.body).toEqual({ body: '', statusCode: 302, headers: [{ key: 'Location', value: location }] });
    const otherSite = await call(t.url, path, { query: { metasiteId: randomUUID() } });
    expect([otherSite.status, otherSite.body.details.applicationError.code]).toEqual([404, 'ABANDONED_CHECKOUT_NOT_FOUND']);
    const noSite = await call(t.url, path);
    expect(noSite.status).toBe(400);
  });

  it('leads to the checkout page address the cart domain reported (with its access token)', async () => {
    const own = snapshot({ details: { checkoutUrl: `${t.url}/_hosted/checkout?checkoutId=abc&token=secret-token` } });
    await trackCheckoutActivity(serviceContext(t), own);
    const row = await abandonedRow(own.checkoutId);
    const got = await call(t.url, `/ecom/v1/abandoned-checkout/${row.id}`, owner());
    expect(got.body.abandonedCheckout.checkoutUrl).toBe(own.details!.checkoutUrl);
    const api = await call(t.url, `/ecom/v1/abandoned-checkout/${row.id}/redirect-to-checkout`, { query: { metasiteId: t.site.id } });
    expect(api.body.headers).toEqual([{ key: 'Location', value: own.details!.checkoutUrl }]);
  });

  it('deletes one and many (per-item results), with events', async () => {
    const [a, b] = [made[2]!, made[3]!];
    const del = await call(t.url, `/ecom/v1/abandoned-checkout/${a.id}`, { ...owner(), method: 'DELETE' });
    expect([del.status, del.body]).toEqual([200, {}]);
    const again = await call(t.url, `/ecom/v1/abandoned-checkout/${a.id}`, { ...owner(), method: 'DELETE' });
    expect(again.status).toBe(404);
    const missing = randomUUID();
    const bulk = await call(t.url, '/ecom/v1/bulk/abandoned-checkout/delete', { ...owner(), body: { abandonedCheckoutIds: [b.id, missing, b.id] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({
      results: [
        { itemMetadata: { id: b.id, originalIndex: 0, success: true } },
        { itemMetadata: { id: missing, originalIndex: 1, success: false, error: { code: 'ABANDONED_CHECKOUT_NOT_FOUND', description: `Abandoned checkout ${missing} not found`, data: {} } } },
        { itemMetadata: { id: b.id, originalIndex: 2, success: false, error: { code: 'ABANDONED_CHECKOUT_NOT_FOUND', description: `Abandoned checkout ${b.id} not found`, data: {} } } },
      ],
      bulkActionMetadata: { totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 },
    });
    expect(await rowOf(a.checkoutId)).toBeUndefined();
    expect(await rowOf(b.checkoutId)).toBeUndefined();
    expect((await events(a.id)).map((e) => e.slug).at(-1)).toBe('deleted');
    expect((await events(b.id)).map((e) => e.slug).at(-1)).toBe('deleted');
  });
});
