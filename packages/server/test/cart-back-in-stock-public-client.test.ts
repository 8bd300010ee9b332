/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` backInStockNotifications), unchanged, against
 * our back-in-stock requests: a visitor asks, the owner manages (test/public-client.ts routes the hosts).
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { backInStockNotifications } from '@wix/ecom';
import { usePublicClientServer } from './public-client.js';

const f = usePublicClientServer(async () => ({ backInStock: { settleEveryMs: 100 } }));
const STORES_APP = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const admin = () => createClient({ modules: { backInStockNotifications }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });
const visitor = () => createClient({ modules: { backInStockNotifications }, auth: OAuthStrategy({ clientId: f.t.clientId }) });

describe('@wix/ecom backInStockNotifications', () => {
  it('a visitor asks; the owner queries, counts, gets, marks as sent, reports and deletes', async () => {
    const catalogItemId = randomUUID();
    const catalogReference = { catalogItemId, appId: STORES_APP, options: { variantId: randomUUID() } };
    const shopper = visitor();
    const created = await shopper.backInStockNotifications.createBackInStockNotificationRequest({ catalogReference, email: 'pc-ask@example.com' }, { name: 'Teapot', price: '20' });
    expect(created).toMatchObject({ catalogReference, email: 'pc-ask@example.com', status: 'RECEIVED', autoNotified: true });
    const other = await shopper.backInStockNotifications.createBackInStockNotificationRequest({ catalogReference, email: 'pc-other@example.com' }, { name: 'Teapot', price: '20' });

    const wix = admin();
    // The server of this file holds only these two requests.
    const page = await wix.backInStockNotifications.queryBackInStockNotificationRequests().eq('status', 'RECEIVED').ascending('_createdDate').limit(1).find();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!._createdDate).toBeInstanceOf(Date);
    expect(page.hasNext()).toBe(true);
    const second = await page.next();
    expect([...page.items, ...second.items].map((r) => r._id).sort()).toEqual([created._id, other._id].sort());
    expect(second.hasNext()).toBe(false);
    const byUrl = await wix.backInStockNotifications.queryBackInStockNotificationRequests().eq('itemUrl', null).find();
    expect(byUrl.items).toHaveLength(2);

    const counts = await wix.backInStockNotifications.getBackInStockNotificationRequestsCountByCatalogReferences([catalogReference]);
    expect(counts.countsPerCatalogReference).toEqual([{ catalogReference, count: 2 }]);
    expect((await wix.backInStockNotifications.getBackInStockNotificationRequest(created._id!)).status).toBe('RECEIVED');
    const marked = await wix.backInStockNotifications.markAsNotificationSent(created._id!);
    expect(marked.request?.status).toBe('NOTIFICATION_SENT');

    await wix.backInStockNotifications.reportItemsBackInStock({ name: 'Teapot', price: '20' }, { requestIds: [other._id!] });
    const deadline = Date.now() + 15_000;
    while ((await wix.backInStockNotifications.getBackInStockNotificationRequest(other._id!)).status !== 'NOTIFICATION_SENT') {
      if (Date.now() > deadline) throw new Error('the reported request was not settled');
      await new Promise((r) => setTimeout(r, 200));
    }
    await wix.backInStockNotifications.deleteBackInStockNotificationRequest(other._id!);
    const gone: unknown = await wix.backInStockNotifications.getBackInStockNotificationRequest(other._id!).then(() => undefined, (e: unknown) => e);
    expect((gone as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('BACK_IN_STOCK_REQUEST_NOT_FOUND');
  });
});
