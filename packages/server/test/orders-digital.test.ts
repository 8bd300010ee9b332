import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, visitor, type Actor } from './identity-helpers.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { payWithCard, TEST_CARDS, type PaymentsFixture } from './payments-support.js';
import { digitalProduct, STORES_APP_ID } from './orders-support.js';
import { serviceContext } from './member-tokens.js';
import { DIGITAL_LINK_TTL_MS } from '../src/domains/orders/limits.js';
import { orderDownloadLink } from '../src/domains/orders/digital.js';
import { findOrder, updateOrderRow } from '../src/domains/orders/store.js';
import { totalMinor } from '../src/domains/orders/record.js';

/**
 * A digital product bought through the storefront's calls (cart, checkout, order, card payment): once
 * the order is paid its line carries the file's download link, the paid e-mail (real SMTP) carries
 * it too, and the link downloads the file's exact bytes while the order is still paid: before
 * payment there is none, and a refund stops it.
 */
let t: TestServer;
let mail: Mailbox;
const CART = '/ecom/v1/carts/current';
const BOOK = '%PDF-1.7 the whole book';

beforeAll(async () => {
  mail = await startMailbox();
  t = await startTestServer({ smtpUrl: mail.url });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

async function physical(name: string, price: string): Promise<{ productId: string }> {
  const res = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: { name, productType: 'PHYSICAL', physicalProperties: {}, variantsInfo: { variants: [{ price: { actualPrice: { amount: price } } }] } } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { productId: res.body.product.id };
}

/** A visitor's order of `products` (one unit each), placed through the cart and checkout calls. */
async function order(v: Actor, email: string, products: { productId: string }[]): Promise<string> {
  const added = await call(t.url, `${CART}/add-to-cart`, as(v, { lineItems: products.map((p) => ({ quantity: 1, catalogReference: { catalogItemId: p.productId, appId: STORES_APP_ID } })) }));
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const co = await call(t.url, `${CART}/create-checkout`, as(v, { channelType: 'WEB', email, shippingAddress: { country: 'US', subdivision: 'US-CA', city: 'Oakland', addressLine1: '1 Main St', postalCode: '94601' } }));
  expect(co.status, JSON.stringify(co.body)).toBe(200);
  const placed = await call(t.url, `/ecom/v1/checkouts/${co.body.checkoutId}/create-order`, as(v, { id: co.body.checkoutId }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body.orderId;
}

const getOrder = async (id: string) => (await call(t.url, `/ecom/v1/orders/${id}`, asOwner(t))).body.order;

describe('digital products', () => {
  it('a paid order carries each digital line\'s download link, in the order and in the paid e-mail', async () => {
    const book = await digitalProduct(t, 'Field guide', BOOK, '12');
    const fileId = book.fileId;
    const mug = await physical('Guide mug', '8');
    const email = `reader-${Date.now()}@example.com`;
    const orderId = await order(await visitor(t), email, [book, mug]);

    const unpaid = await getOrder(orderId);
    expect(unpaid.paymentStatus).toBe('NOT_PAID');
    expect(unpaid.lineItems.map((l: { digitalFile?: unknown }) => l.digitalFile)).toEqual([undefined, undefined]);

    const f = { t, ctx: serviceContext(t) } as PaymentsFixture;
    const paid = await payWithCard(f, orderId, TEST_CARDS.success);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const before = Date.now();
    const o = await getOrder(orderId);
    expect(o.paymentStatus).toBe('PAID');
    const [bookLine, mugLine] = o.lineItems;
    expect(bookLine.catalogReference.catalogItemId).toBe(book.productId);
    expect(bookLine.digitalFile).toEqual({ fileId, link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/_api\/vitrine\/orders\/v1\/downloads\//), expirationDate: expect.any(String) });
    const lifetime = Date.parse(bookLine.digitalFile.expirationDate) - before;
    expect(lifetime).toBeGreaterThan(DIGITAL_LINK_TTL_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(DIGITAL_LINK_TTL_MS);
    expect(mugLine.digitalFile).toBeUndefined();

    const download = await fetch(bookLine.digitalFile.link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(await download.text()).toBe(BOOK);

    const paidMail = await mail.waitFor(email, /Payment received/);
    expect(paidMail.text).toContain(`Download: ${bookLine.digitalFile.link}`);
    expect(paidMail.text.match(/Download:/g)).toHaveLength(1);

    // The link names this order's line and nothing else: any change to it is refused.
    const link = new URL(bookLine.digitalFile.link);
    const refused = async (url: URL) => {
      const res = await fetch(url);
      return [res.status, ((await res.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code];
    };
    const otherLine = new URL(link.href.replace(bookLine.id, mugLine.id));
    expect(await refused(otherLine)).toEqual([403, 'DOWNLOAD_URL_INVALID']);
    const later = new URL(link.href);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 1000));
    expect(await refused(later)).toEqual([403, 'DOWNLOAD_URL_INVALID']);
    // Signed right but expired (made with the server's own signing, an hour ago).
    const expired = await orderDownloadLink(t.server.deps.storage.db, t.url, t.site.id, orderId, bookLine.id, Date.now() - 3600_000);
    expect(await refused(new URL(expired))).toEqual([403, 'DOWNLOAD_URL_EXPIRED']);

    // Refunded in full: the same link stops at once.
    const payment = (await call(t.url, `/ecom/v1/payments-collector/orders/${orderId}/refundability`, asOwner(t))).body.refundabilities[0].paymentId;
    const refund = await call(t.url, `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, { ...asOwner(t), body: { payments: [{ paymentId: payment }] } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect((await getOrder(orderId)).paymentStatus).toBe('FULLY_REFUNDED');
    expect(await refused(link)).toEqual([403, 'DOWNLOAD_NOT_AVAILABLE']);
  });

  it('a free digital product is the buyer\'s at once: the order is created paid with its link', async () => {
    const sample = await digitalProduct(t, 'Free sample', '%PDF-1.7 free sample', '0');
    const fileId = sample.fileId;
    const email = `sampler-${Date.now()}@example.com`;
    const o = await getOrder(await order(await visitor(t), email, [sample]));
    expect(o.paymentStatus).toBe('PAID');
    expect(o.lineItems[0].digitalFile).toMatchObject({ fileId });
    expect(await (await fetch(o.lineItems[0].digitalFile.link)).text()).toBe('%PDF-1.7 free sample');
    expect((await mail.waitFor(email, /Thank you for your order/)).text).toContain(`Download: ${o.lineItems[0].digitalFile.link}`);
  });

  it('a read of the order after its link ran out gives a new one; the old one stays expired', async () => {
    const kept = await digitalProduct(t, 'Kept guide', '%PDF-1.7 long kept', '0');
    const fileId = kept.fileId;
    const orderId = await order(await visitor(t), `keeper-${Date.now()}@example.com`, [kept]);
    // The stored link as it would be 31 days later: run out.
    const db = t.server.deps.storage.db;
    const rec = (await findOrder(db, t.site.id, orderId))!;
    const line = rec.order.lineItems[0]!;
    const past = Date.now() - 24 * 3600_000;
    const oldLink = await orderDownloadLink(db, t.url, t.site.id, orderId, line.id, past);
    rec.order.lineItems = [{ ...line, digitalFile: { fileId, link: oldLink, expirationDate: new Date(past).toISOString() } }];
    await updateOrderRow(db, t.site.id, rec, totalMinor(rec.order));

    const before = Date.now();
    const read = (await getOrder(orderId)).lineItems[0].digitalFile;
    expect(read.fileId).toBe(fileId);
    expect(read.link).not.toBe(oldLink);
    expect(Date.parse(read.expirationDate) - before).toBeGreaterThan(DIGITAL_LINK_TTL_MS - 60_000);
    expect(await (await fetch(read.link)).text()).toBe('%PDF-1.7 long kept');
    const stale = await fetch(oldLink);
    expect([stale.status, ((await stale.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code]).toEqual([403, 'DOWNLOAD_URL_EXPIRED']);
  });
});
