/**
 * Which events get an outbox row under the default setting (EVENTS_RECORD=subscribed): those an
 * active webhook subscription of the site matches, and those a mail template sends from; a write
 * nobody receives records nothing. Real server, real database, a real webhook receiver.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { FAST_EVENTS, Receiver, ownerContext, recordInTransaction, waitFor, SLOW_START_MS } from './events-support.js';
import { CART, as, line, productV1, visitor } from './cart-support.js';
import { eventIsRecorded, listMail, recordEvent } from '../src/domains/events/index.js';
import { POSTGRES_POOL_SIZE } from '../src/storage/database.js';
import { inTransaction } from '../src/storage/transaction.js';
import { loadEventsSettings } from '../src/domains/events/settings.js';

const CART_FQDN = 'wix.ecom.v1.cart';
const THING = 'test.recording.v1.thing';

let t: TestServer;
let receiver: Receiver;
let productId: string;

beforeAll(async () => {
  t = await startTestServer({ events: FAST_EVENTS });
  receiver = await new Receiver(() => 200).start();
  ({ productId } = await productV1(t, { name: 'Recorded mug', price: 12 }));
}, SLOW_START_MS);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const rowsOf = (entityId: string) => t.server.deps.storage.db.selectFrom('outbox_events').select(['entity_fqdn', 'slug', 'sequence'])
  .where('site_id', '=', t.site.id).where('entity_id', '=', entityId).orderBy('sequence').execute();

async function subscribe(eventTypes: { entityFqdn: string; slug: string }[]): Promise<string> {
  const res = await call(t.url, '/webhooks/v1/subscriptions', { ...asOwner(t), body: { subscription: { url: receiver.url, eventTypes, description: 'recording' } } });
  expect(res.status).toBe(200);
  receiver.secret = res.body.secret;
  return res.body.subscription.id;
}

describe('event recording (default: subscribed)', () => {
  it('is the default, and EVENTS_RECORD chooses it', () => {
    expect(t.config.events.record).toBe('subscribed');
    expect(loadEventsSettings({}).record).toBe('subscribed');
    expect(loadEventsSettings({ EVENTS_RECORD: 'ALL' }).record).toBe('all');
    expect(() => loadEventsSettings({ EVENTS_RECORD: 'some' })).toThrow('EVENTS_RECORD must be one of subscribed, all');
  });

  it('a write nobody receives leaves no outbox row; a subscription made here receives the next write, until it is deleted', async () => {
    const buyer = as(t, await visitor(t));
    const first = await buyer.post(`${CART}/add-to-cart`, { lineItems: [line(productId)] });
    expect(first.status).toBe(200);
    const cartId: string = first.body.cart.id;
    await recordInTransaction(ownerContext(t), { entityFqdn: THING, slug: 'updated', entityId: 'thing-1', entity: { n: 1 } });
    expect(await rowsOf(cartId)).toEqual([]);
    expect(await rowsOf('thing-1')).toEqual([]);

    const subscriptionId = await subscribe([{ entityFqdn: CART_FQDN, slug: 'updated' }]);
    expect((await buyer.post(`${CART}/add-to-cart`, { lineItems: [line(productId)] })).status).toBe(200);
    // Only the subscribed type: the cart's first recorded event is number 1.
    expect(await rowsOf(cartId)).toEqual([{ entity_fqdn: CART_FQDN, slug: 'updated', sequence: 1 }]);
    await waitFor(() => receiver.accepted.size === 1, 10_000, 'the cart update delivered');
    const delivered = [...receiver.accepted.values()][0]!;
    expect([delivered.entityFqdn, delivered.slug, delivered.entityId, delivered.entityEventSequence]).toEqual([CART_FQDN, 'updated', cartId, 1]);
    expect((delivered.entity as { lineItems: { quantity: number }[] }).lineItems.map((l) => l.quantity)).toEqual([2]);

    expect((await call(t.url, `/webhooks/v1/subscriptions/${subscriptionId}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    expect((await buyer.post(`${CART}/add-to-cart`, { lineItems: [line(productId)] })).status).toBe(200);
    expect(await rowsOf(cartId)).toHaveLength(1);
  });

  it('an event a mail is sent from is kept without any subscription, and its mail goes out', async () => {
    const memberId = 'member-recorded-1';
    await recordInTransaction(ownerContext(t), {
      entityFqdn: 'wix.members.v1.member', slug: 'created', entityId: memberId,
      entity: { id: memberId, loginEmail: 'recorded@example.com', contact: { firstName: 'Rec' } },
    });
    expect(await rowsOf(memberId)).toEqual([{ entity_fqdn: 'wix.members.v1.member', slug: 'created', sequence: 1 }]);
    await waitFor(async () => (await listMail(t.server.deps.storage.db, t.site.id, 'recorded@example.com')).length === 1, 10_000, 'the welcome mail');
    const [mail] = await listMail(t.server.deps.storage.db, t.site.id, 'recorded@example.com');
    expect(mail!.template).toBe('member-welcome');
  });

  it('transactions holding every connection record their events while a read outside them waits for one', async () => {
    // A site whose subscribed event types this process has not read yet.
    const ctx = { ...ownerContext(t), site: { ...t.site, id: randomUUID() } };
    const connections = ctx.dialect === 'postgres' ? POSTGRES_POOL_SIZE : 1;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    const entered: Promise<void>[] = [];
    const done = Array.from({ length: connections }, (_, i) => {
      let enter!: () => void;
      entered.push(new Promise<void>((resolve) => { enter = resolve; }));
      return inTransaction(ctx.db, async (trx) => {
        enter();
        await gate;
        await recordEvent({ ...ctx, db: trx }, { entityFqdn: THING, slug: 'updated', entityId: `held-${i}`, entity: { i } });
        return 'recorded';
      });
    });
    await Promise.all(entered);
    // Every connection is held by a transaction: this read of the site's subscriptions waits for one.
    const outside = eventIsRecorded(ctx, THING, 'updated');
    open();
    const deadline = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000).unref());
    expect(await Promise.race([Promise.all(done).then((r) => r.join()), deadline])).toBe(Array(connections).fill('recorded').join());
    expect(await Promise.race([outside, deadline])).toBe(false);
  });
});
