/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` abandonedCheckouts), unchanged, against our
 * abandoned checkouts: its hosts are routed to the test server (test/public-client.ts).
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { abandonedCheckouts } from '@wix/ecom';
import { usePublicClientServer } from './public-client.js';
import { serviceContext } from './member-tokens.js';
import { markCheckoutCompleted, trackCheckoutActivity } from '../src/domains/cart/abandoned/index.js';

const f = usePublicClientServer(async () => ({ abandonedCheckouts: { abandonAfterMs: 200, scanEveryMs: 100 } }));
const admin = () => createClient({ modules: { abandonedCheckouts }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });

describe('@wix/ecom abandonedCheckouts', () => {
  it('queries with the builder, gets, reads analytics, redirects and deletes', async () => {
    const ctx = serviceContext(f.t);
    const checkoutIds = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, checkoutId] of checkoutIds.entries()) {
      await trackCheckoutActivity(ctx, { checkoutId, cartId: null, buyer: { email: `pc${i}@example.com` }, total: { amount: '15', currency: 'USD' }, lineItemCount: 2 });
    }
    const wix = admin();
    const emails = checkoutIds.map((_, i) => `pc${i}@example.com`);
    const query = () => wix.abandonedCheckouts.queryAbandonedCheckouts().in('buyerInfo.email', emails).ascending('buyerInfo.email').limit(2).find();
    const deadline = Date.now() + 15_000;
    let page = await query();
    while (page.items.length < 2) {
      if (Date.now() > deadline) throw new Error('checkouts were not abandoned in time');
      await new Promise((r) => setTimeout(r, 100));
      page = await query();
    }
    // Wait for the third as well, so paging is stable.
    while ((await wix.abandonedCheckouts.queryAbandonedCheckouts().in('buyerInfo.email', emails).find()).items.length < 3) {
      if (Date.now() > deadline) throw new Error('checkouts were not abandoned in time');
      await new Promise((r) => setTimeout(r, 100));
    }
    page = await query();
    expect(page.items.map((c) => c.buyerInfo?.email)).toEqual(['pc0@example.com', 'pc1@example.com']);
    expect(page.items[0]!._createdDate).toBeInstanceOf(Date);
    expect(page.hasNext()).toBe(true);
    const rest = await page.next();
    expect(rest.items.map((c) => c.checkoutId)).toEqual([checkoutIds[2]]);
    expect(rest.hasNext()).toBe(false);

    const one = await wix.abandonedCheckouts.getAbandonedCheckout(page.items[0]!._id!);
    expect(one).toMatchObject({ _id: page.items[0]!._id, status: 'ABANDONED', totalPrice: { amount: '15.00' }, checkoutUrl: `${f.t.url}/_hosted/checkout?checkoutId=${checkoutIds[0]}` });

    await markCheckoutCompleted(ctx, checkoutIds[0]!);
    const analytics = await wix.abandonedCheckouts.getAbandonedCheckoutAnalytics(new Date(Date.now() - 60_000).toISOString(), { endDate: new Date(Date.now() + 60_000).toISOString() });
    expect(analytics).toEqual({
      currency: 'USD', recoverableValue: '30.00', recoverableCheckoutCount: 2, averageRecoverableCheckoutValue: '15.00',
      recoveredValue: '15.00', recoveredCheckoutCount: 1, recoveryRate: 0.3333,
    });

    const redirect = await wix.abandonedCheckouts.redirectToCheckout(one._id!, f.t.site.id);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers).toEqual([{ key: 'Location', value: `${f.t.url}/_hosted/checkout?checkoutId=${checkoutIds[0]}` }]);

    const bulk = await wix.abandonedCheckouts.bulkDeleteAbandonedCheckouts([rest.items[0]!._id!]);
    expect(bulk.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 });
    await wix.abandonedCheckouts.deleteAbandonedCheckout(one._id!);
    const gone: unknown = await wix.abandonedCheckouts.getAbandonedCheckout(one._id!).then(() => undefined, (e: unknown) => e);
    expect((gone as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('ABANDONED_CHECKOUT_NOT_FOUND');
  });
});
