import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { serviceContext } from '../../server/test/member-tokens.js';
import { markCheckoutCompleted, trackCheckoutActivity } from '../../server/src/domains/cart/abandoned/index.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { abandonedCheckouts, backInStockNotifications } from '../src/modules/ecom/index.js';
import { dotR, recordingFetch } from './helpers.js';

/** `@vitrine/sdk/ecom` -> `abandonedCheckouts` and `backInStockNotifications` against a real server. */
let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
const admin = () => createClient({ modules: { abandonedCheckouts, backInStockNotifications }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url, fetch: rec.fetch });
const visitor = () => createClient({ modules: { backInStockNotifications }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: rec.fetch });
const STORES_APP = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

beforeAll(async () => {
  t = await startTestServer({ abandonedCheckouts: { abandonAfterMs: 200, scanEveryMs: 100 } });
  rec = recordingFetch();
});
afterAll(() => t?.close());

describe('abandonedCheckouts', () => {
  it('queries, reads, annotates, searches, reports analytics, redirects and deletes', async () => {
    const ctx = serviceContext(t);
    const checkoutIds = [randomUUID(), randomUUID()];
    for (const [i, checkoutId] of checkoutIds.entries()) {
      await trackCheckoutActivity(ctx, { checkoutId, cartId: null, buyer: { email: `sdk${i}@example.com` }, total: { amount: `${10 * (i + 1)}`, currency: 'USD' }, lineItemCount: 1 });
    }
    const a = admin();
    const deadline = Date.now() + 15_000;
    let page = await a.abandonedCheckouts.queryAbandonedCheckouts().in('checkoutId', checkoutIds).ascending('buyerInfo.email').limit(1).find();
    while (page.items.length === 0 || !page.hasNext()) {
      if (Date.now() > deadline) throw new Error('checkouts were not abandoned in time');
      await new Promise((r) => setTimeout(r, 100));
      page = await a.abandonedCheckouts.queryAbandonedCheckouts().in('checkoutId', checkoutIds).ascending('buyerInfo.email').limit(1).find();
    }
    expect(rec.calls.at(-1)!.body).toEqual({ query: { filter: { checkoutId: { $in: checkoutIds } }, sort: [{ fieldName: 'buyerInfo.email', order: 'ASC' }], cursorPaging: { limit: 1 } } });
    const first = page.items[0]!;
    expect(first).toMatchObject({ checkoutId: checkoutIds[0], status: 'ABANDONED', totalPrice: { amount: '10.00' }, buyerInfo: { email: 'sdk0@example.com' } });
    expect(first._createdDate).toBeInstanceOf(Date);
    const second = await page.next();
    expect(second.items.map((c) => c.checkoutId)).toEqual([checkoutIds[1]]);

    const got = await a.abandonedCheckouts.getAbandonedCheckout(first._id);
    expect(got._id).toBe(first._id);
    const { abandonedCheckout } = await a.abandonedCheckouts.addAbandonedCheckoutActivity(first._id, { activityType: 'EMAIL_SENT' });
    expect(abandonedCheckout.activities.map((x) => x.type)).toEqual(['EMAIL_SENT']);
    expect(abandonedCheckout.activities[0]!._createdDate).toBeInstanceOf(Date);

    const found = await a.abandonedCheckouts.searchAbandonedCheckouts({ search: { expression: 'sdk1@' }, filter: { checkoutId: { $in: checkoutIds } } });
    expect(found.abandonedCheckouts.map((c) => c.checkoutId)).toEqual([checkoutIds[1]]);

    await markCheckoutCompleted(ctx, checkoutIds[1]!);
    const analytics = await a.abandonedCheckouts.getAbandonedCheckoutAnalytics(new Date(Date.now() - 60_000).toISOString(), { endDate: new Date(Date.now() + 60_000).toISOString(), metrics: ['RECOVERED_VALUE', 'RECOVERY_RATE'] });
    expect(analytics).toEqual({ currency: 'USD', recoveredValue: '20.00', recoveryRate: 0.5 });

    const redirect = await a.abandonedCheckouts.redirectToCheckout(first._id, t.site.id);
    expect(redirect).toEqual({ body: new Uint8Array(), statusCode: 302, headers: [{ key: 'Location', value: `${t.url}/_hosted/checkout?checkoutId=${checkoutIds[0]}` }] });

    const bulk = await a.abandonedCheckouts.bulkDeleteAbandonedCheckouts([second.items[0]!._id]);
    expect(bulk.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 });
    await a.abandonedCheckouts.deleteAbandonedCheckout(first._id);
    const gone = await a.abandonedCheckouts.getAbandonedCheckout(first._id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VitrineError);
    expect((gone as VitrineError).code).toBe('ABANDONED_CHECKOUT_NOT_FOUND');
  });
});

describe('backInStockNotifications', () => {
  it('a visitor asks; the owner queries, counts, marks, reports and deletes', async () => {
    const itemId = randomUUID();
    const ref = { catalogItemId: itemId, appId: STORES_APP, options: { variantId: randomUUID() } };
    const created = await visitor().backInStockNotifications.createBackInStockNotificationRequest({ catalogReference: ref, email: 'sdk-ask@example.com' }, { name: 'Mug', price: '5' });
    expect(created).toMatchObject({ catalogReference: ref, email: 'sdk-ask@example.com', status: 'RECEIVED', autoNotified: true });
    expect(created._createdDate).toBeInstanceOf(Date);

    const a = admin();
    const page = await a.backInStockNotifications.queryBackInStockNotificationRequests().eq('catalogReference.catalogItemId', itemId).find();
    expect(dotR(rec.calls.at(-1)!)).toEqual({ query: { filter: { 'catalogReference.catalogItemId': itemId }, cursorPaging: { limit: 50 } } });
    expect(page.items.map((r) => r._id)).toEqual([created._id]);
    const counts = await a.backInStockNotifications.getBackInStockNotificationRequestsCountByCatalogReferences([ref]);
    expect(counts).toEqual({ countsPerCatalogReference: [{ catalogReference: ref, count: 1 }] });
    expect((await a.backInStockNotifications.getBackInStockNotificationRequest(created._id)).status).toBe('RECEIVED');
    const marked = await a.backInStockNotifications.markAsNotificationSent(created._id);
    expect(marked.request.status).toBe('NOTIFICATION_SENT');
    await a.backInStockNotifications.reportItemsBackInStock({ name: 'Mug' }, { catalogReference: ref });
    expect(rec.calls.at(-1)!.body).toEqual({ itemDetails: { name: 'Mug' }, catalogReference: ref });
    await a.backInStockNotifications.deleteBackInStockNotificationRequest(created._id);
    const gone = await a.backInStockNotifications.getBackInStockNotificationRequest(created._id).catch((e: unknown) => e);
    expect((gone as VitrineError).code).toBe('BACK_IN_STOCK_REQUEST_NOT_FOUND');
  });
});
