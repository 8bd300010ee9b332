import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../harness.js';
import { FAST_EVENTS_ENV, Receiver } from '../events-support.js';
import { startMailbox, type Mailbox } from '../mailbox.js';
import { checkoutOf, ok, sleep, startFleet, stockedProduct, placeOrder, visitorToken, type Fleet } from './support.js';

/**
 * SIGKILL during checkout, payment and refund load: buyers place and pay orders while the owner
 * refunds paid ones; the process is killed mid-stream and started again. Afterwards: every order a
 * client got a 200 for is stored; every stored order has exactly one captured payment of its total
 * and its unit taken from stock (sold units = stored orders); every refund answered 200 is stored,
 * none twice, and no payment is refunded beyond what was captured. Each stored order's confirmation
 * e-mail and `order/created` webhook arrive, and exactly once after de-duplication (by Message-ID and
 * by event id); none arrives for an order that was never stored.
 */
const BUYERS = 6;
const STOCK = 10_000;
/** The kill comes once this many refunds were acknowledged (the load is then surely under way), bounded in time. */
const REFUNDS_BEFORE_KILL = 15;
const KILL_AT_LATEST_MS = 60_000;
const REFUND_CENTS = 100;
/** How long the restarted process may take to send the e-mails and webhooks the kill left queued. */
const DELIVERY_MS = 60_000;
const ORDER_FQDN = 'wix.ecom.v1.order';

let fleet: Fleet | undefined;
let mailbox: Mailbox | undefined;
const receiver = new Receiver();
afterAll(async () => {
  await fleet?.stop();
  await mailbox?.close();
  await receiver.close();
});

/** Order number -> the distinct Message-IDs of its confirmation mails (and how many copies came in all). */
function confirmations(box: Mailbox): { byNumber: Map<number, Set<string>>; copies: number } {
  const byNumber = new Map<number, Set<string>>();
  let copies = 0;
  for (const m of box.messages) {
    const number = /^Your order #(\d+) at /.exec(m.subject)?.[1];
    if (!number) continue;
    copies++;
    const id = /^Message-ID: (.*)$/im.exec(m.raw)?.[1]?.trim() ?? `missing ${copies}`;
    byNumber.set(Number(number), (byNumber.get(Number(number)) ?? new Set()).add(id));
  }
  return { byNumber, copies };
}

describe('SIGKILL during checkout, payment and refund load', () => {
  it('loses no acknowledged order or refund, charges and refunds once, keeps stock and orders in step', async () => {
    mailbox = await startMailbox();
    await receiver.start();
    fleet = await startFleet(1, 'vitrine-checkout-kill-', { ...FAST_EVENTS_ENV, SMTP_URL: mailbox.url });
    const f = fleet;
    let url = f.procs[0]!.url;
    const sub = ok(await call(url, '/webhooks/v1/subscriptions', { ...f.owner, body: { subscription: { url: receiver.url, eventTypes: [{ entityFqdn: ORDER_FQDN, slug: 'created' }] } } }), 'subscribe');
    receiver.secret = sub.body.secret as string;
    const ref = await stockedProduct(url, f.owner, 'Kill me', STOCK);
    const ackedOrders: string[] = [];
    const ackedRefunds: string[] = [];
    let stop = false;
    const buyer = async (b: number) => {
      const auth = await visitorToken(url, f.clientId);
      while (!stop) {
        try {
          const checkoutId = await checkoutOf(url, auth, ref.productId, `kill${b}@example.com`);
          const placed = await placeOrder(url, auth, checkoutId);
          if (placed.status !== 200) continue;
          const orderId = placed.body.orderId as string;
          ackedOrders.push(orderId);
          const payments = await call(url, `/ecom/v1/payments/orders/${orderId}`, f.owner);
          const paymentId = payments.body?.orderTransactions?.payments?.[0]?.id as string | undefined;
          if (!paymentId) continue;
          const refund = await call(url, `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, { ...f.owner, body: { payments: [{ paymentId, amount: { amount: (REFUND_CENTS / 100).toFixed(2) } }] } });
          if (refund.status === 200) ackedRefunds.push(refund.body.refundId as string);
        } catch {
          // the process died under this request: its outcome is whatever the database says
        }
      }
    };
    const buyers = Array.from({ length: BUYERS }, (_, b) => buyer(b));
    const latest = Date.now() + KILL_AT_LATEST_MS;
    while (ackedRefunds.length < REFUNDS_BEFORE_KILL && Date.now() < latest) await sleep(50);
    f.procs[0]!.child.kill('SIGKILL');
    await f.procs[0]!.exited;
    stop = true;
    await Promise.all(buyers);
    console.log(`checkout-kill: ${ackedOrders.length} orders and ${ackedRefunds.length} refunds acknowledged before the kill`);
    expect(ackedOrders.length).toBeGreaterThan(0);
    expect(ackedRefunds.length).toBeGreaterThan(0);

    url = (await f.add()).url;
    const siteId = f.owner.siteId!;
    const readState = () => f.db.read(async (db) => ({
      orders: await db.selectFrom('orders').select(['id', 'number']).where('site_id', '=', siteId).execute(),
      payments: await db.selectFrom('payments').select(['order_id', 'status', 'amount', 'captured', 'refunded']).where('site_id', '=', siteId).execute(),
      refunds: await db.selectFrom('payment_refunds').innerJoin('payment_refund_transactions', 'payment_refund_transactions.refund_id', 'payment_refunds.id')
        .select(['payment_refunds.id', 'payment_refunds.order_id', 'payment_refund_transactions.amount']).where('payment_refunds.site_id', '=', siteId).execute(),
    }));
    // The order and its charge commit together: the state is whole as soon as the process is back.
    const state = await readState();
    const stored = new Set(state.orders.map((o) => o.id));
    expect(ackedOrders.filter((id) => !stored.has(id))).toEqual([]);
    // Every order has exactly one payment, captured in full; never a refund beyond the capture.
    const charged = (id: string) => state.payments.filter((p) => p.order_id === id);
    expect(state.orders.filter((o) => charged(o.id).length !== 1)).toEqual([]);
    expect(state.payments.filter((p) => Number(p.captured) !== Number(p.amount) || Number(p.refunded) > Number(p.captured))).toEqual([]);
    // Stock moved with the orders: sold units equal stored orders (one unit each).
    const product = await call(url, `/stores-reader/v1/products/${ref.productId}`, f.owner);
    expect(STOCK - Number(product.body.product.stock.quantity)).toBe(state.orders.length);
    // Refunds: every acknowledged one stored, none twice, each payment's refunded sum matching its refunds.
    const refundIds = state.refunds.map((r) => r.id);
    expect(new Set(refundIds).size).toBe(refundIds.length);
    expect(ackedRefunds.filter((id) => !refundIds.includes(id))).toEqual([]);
    for (const p of state.payments) {
      const sum = state.refunds.filter((r) => r.order_id === p.order_id).reduce((s, r) => s + Number(r.amount), 0);
      expect([p.order_id, Number(p.refunded)]).toEqual([p.order_id, sum]);
    }

    // E-mails and webhooks: what the kill left queued is sent by the restarted process. At least once
    // on the wire; exactly once per stored order after de-duplication; nothing for an order not stored.
    const numbers = new Set(state.orders.map((o) => Number(o.number)));
    const webhookOrders = () => new Set([...receiver.accepted.values()].filter((e) => e.entityFqdn === ORDER_FQDN).map((e) => e.entityId));
    const complete = () => webhookOrders().size >= stored.size && [...numbers].every((n) => confirmations(mailbox!).byNumber.has(n));
    for (const latest = Date.now() + DELIVERY_MS; !complete() && Date.now() < latest;) await sleep(250);
    await sleep(1_000); // a late duplicate would show here
    const mails = confirmations(mailbox);
    const webhooks = [...receiver.accepted.values()].filter((e) => e.entityFqdn === ORDER_FQDN);
    const rawWebhooks = receiver.arrivals.filter((a) => typeof a.status === 'number' && a.status < 300).length;
    console.log(`checkout-kill: ${stored.size} orders; ${mails.copies} confirmation mails (${mails.byNumber.size} after de-duplication), ${rawWebhooks} order webhooks (${webhooks.length} after de-duplication)`);
    expect([...mails.byNumber.keys()].sort((a, b) => a - b)).toEqual([...numbers].sort((a, b) => a - b));
    expect([...mails.byNumber.entries()].filter(([, ids]) => ids.size !== 1)).toEqual([]);
    expect(webhooks.map((e) => e.entityId).sort()).toEqual([...stored].sort());
    expect(receiver.badSignatures).toEqual([]);
  });
});
