import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { markCheckoutCompleted, trackCheckoutActivity } from '../src/domains/cart/abandoned/index.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

const rows = (checkoutId: string) => t.server.deps.storage.db.selectFrom('abandoned_checkouts')
  .select(['status', 'total_amount', 'currency', 'line_item_count', 'buyer_email', 'recovered_date'])
  .where('checkout_id', '=', checkoutId).execute();

describe('tracking reported checkouts', () => {
  it('keeps one row per checkout with its latest snapshot, and COMPLETED once completed in time', async () => {
    const ctx = serviceContext(t);
    const checkoutId = randomUUID();
    const snapshot = { checkoutId, cartId: null, buyer: { email: 'a@example.com' }, total: { amount: '10.5', currency: 'USD' }, lineItemCount: 1 };
    await trackCheckoutActivity(ctx, snapshot);
    await Promise.all([
      trackCheckoutActivity(ctx, { ...snapshot, total: { amount: '12', currency: 'USD' }, lineItemCount: 2 }),
      trackCheckoutActivity(ctx, { ...snapshot, total: { amount: '12', currency: 'USD' }, lineItemCount: 2 }),
    ]);
    expect(await rows(checkoutId)).toEqual([{ status: 'ACTIVE', total_amount: '12.00', currency: 'USD', line_item_count: 2, buyer_email: 'a@example.com', recovered_date: null }]);
    await markCheckoutCompleted(ctx, checkoutId);
    await trackCheckoutActivity(ctx, { ...snapshot, total: { amount: '99', currency: 'USD' } });
    expect(await rows(checkoutId)).toEqual([{ status: 'COMPLETED', total_amount: '12.00', currency: 'USD', line_item_count: 2, buyer_email: 'a@example.com', recovered_date: null }]);
  });
});
