/** Helpers of the orders tests: products with stock, checkout-shaped drafts, stock reads, outbox rows. */
import { asOwner, call, type TestServer } from './harness.js';
import { availability } from '../src/domains/inventory/index.js';
import type { RequestContext } from '../src/http/context.js';
import type { OrderDraft } from '../src/domains/orders/index.js';

export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

/** A V1 product with one tracked default variant of `quantity` units. */
export async function v1Product(t: TestServer, name: string, quantity: number): Promise<{ productId: string; variantId: string }> {
  const res = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name, priceData: { price: 5 }, stock: { trackInventory: true, quantity } } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variants[0].id };
}

/** A V3 product with one tracked variant of `quantity` units at the default location. */
export async function v3Product(t: TestServer, name: string, quantity: number): Promise<{ productId: string; variantId: string }> {
  const res = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: {
    name, productType: 'PHYSICAL', visible: true,
    variantsInfo: { variants: [{ choices: [], price: { actualPrice: { amount: '10' } }, inventoryItem: { trackQuantity: true, quantity } }] },
  } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variantsInfo.variants[0].id };
}

/** A digital V3 product of one variant at `price` whose secure file (a PDF) holds `content`. */
export async function digitalProduct(t: TestServer, name: string, content: string, price = '5'): Promise<{ productId: string; variantId: string; fileId: string }> {
  const upload = await fetch(new URL(`/_api/vitrine/media/v1/files?fileName=${encodeURIComponent(`${name}.pdf`)}&secure=true`, t.url), {
    method: 'POST', headers: { 'content-type': 'application/pdf', authorization: t.apiKey, 'wix-site-id': t.site.id }, body: content,
  });
  if (upload.status !== 200) throw new Error(`upload failed ${upload.status} ${await upload.text()}`);
  const fileId = ((await upload.json()) as { file: { id: string } }).file.id;
  const res = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: {
    name, productType: 'DIGITAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: price } }, digitalProperties: { digitalFile: { id: fileId } } }] },
  } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variantsInfo.variants[0].id, fileId };
}

/** An owner's paid order of one unit of a digital product (its line gets its download link). */
export function paidDigitalOrder(p: { productId: string; variantId: string }, name: string, price: string, buyerInfo: { memberId?: string; email?: string }) {
  return {
    paymentStatus: 'PAID' as const, buyerInfo,
    lineItems: [{
      productName: { original: name }, quantity: 1, price: { amount: price }, itemType: { preset: 'DIGITAL' as const },
      catalogReference: { catalogItemId: p.productId, appId: STORES_APP_ID, options: { variantId: p.variantId } },
    }],
  };
}

export async function onHand(ctx: RequestContext, ref: { productId: string; variantId: string }): Promise<{ quantity: number | null; reserved: number }> {
  const [a] = await availability(ctx, [ref]);
  return { quantity: a!.quantity, reserved: a!.reserved };
}

let seq = 0;
/** A checkout-shaped draft of `lines` (5.00 each) for a buyer. */
export function draftOf(lines: { ref: { productId: string; variantId: string }; quantity: number }[], buyer: OrderDraft['buyerInfo'] = { email: 'buyer@example.com' }): OrderDraft {
  seq += 1;
  const subtotal = lines.reduce((s, l) => s + 500 * l.quantity, 0);
  const amount = (cents: number) => ({ amount: (cents / 100).toFixed(2) });
  return {
    checkoutId: `checkout-${Date.now()}-${seq}-${Math.random().toString(36).slice(2)}`,
    currency: 'USD',
    channelType: 'WEB',
    buyerInfo: buyer,
    lineItems: lines.map((l, i) => ({
      id: `line-${i + 1}`, productName: { original: `Item ${i + 1}` }, quantity: l.quantity, price: amount(500),
      catalogReference: { catalogItemId: l.ref.productId, appId: STORES_APP_ID, options: { variantId: l.ref.variantId } },
    })),
    priceSummary: { subtotal: amount(subtotal), shipping: amount(0), tax: amount(0), discount: amount(0), total: amount(subtotal) },
  };
}

/** Outbox events of one entity (an order by default), in sequence order (slug list). */
export async function eventSlugs(ctx: RequestContext, entityId: string, fqdn = 'wix.ecom.v1.order'): Promise<string[]> {
  const rows = await ctx.db.selectFrom('outbox_events').select(['slug', 'sequence']).where('site_id', '=', ctx.site.id).where('entity_id', '=', entityId)
    .where('entity_fqdn', '=', fqdn).orderBy('sequence').execute();
  return rows.map((r) => r.slug);
}
