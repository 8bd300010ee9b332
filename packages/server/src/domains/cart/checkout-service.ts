/**
 * Checkouts (docs/checkout.md): made from the current cart or directly, priced like the cart on every
 * read while open (a completed one answers as it was bought), and turned into an order once. Each
 * write runs in one transaction with its outbox event and the abandoned-checkout report.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Checkout } from '@vitrine/types/ecom-cart';
import { isElevated, type RequestContext } from '../../http/context.js';
import { ApplicationError, notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent, recordEvents } from '../events/index.js';
import { markCheckoutCompleted, trackCheckoutActivity } from './abandoned/index.js';
import { resolveLines } from './catalog-lines.js';
import { addLines, removeLines, setQuantities } from './line-edits.js';
import type { ChannelType, CheckoutDoc, EcomAddress, ResolvedLine, SelectedShippingOption, StoredCheckout } from './model.js';
import { ownerOf } from './owner.js';
import { checkCheckoutUrl, checkCustomLines, withFewerLines } from './owner-inputs.js';
import { presentCheckout } from './present.js';
import type { CheckoutInfoInput, CustomLineItemInput, LineItemInput } from './schema.js';
import { findCoupon, findCurrentCart, linkCheckout, removeOrderedCart } from './service.js';
import { claimCheckoutOrder, findCheckout, findCheckoutByCart, insertCheckout, setCheckoutCompleted, updateCheckoutDoc } from './store.js';
import { calculateTotals, type Totals } from './totals.js';

export const CHECKOUT_FQDN = 'wix.ecom.v1.checkout';

export interface CheckoutView { checkout: StoredCheckout; lines: ResolvedLine[]; totals: Totals }

const checkoutNotFound = (id: string) => notFound('CHECKOUT_NOT_FOUND', `Checkout ${id} not found`, { checkoutId: id });

/** Gift cards are not offered by this server: refused with a clear code rather than ignored. */
function refuseGiftCard(code: string | null | undefined): void {
  if (code) throw new ApplicationError(400, 'GIFT_CARD_NOT_SUPPORTED', 'Gift cards are not supported by this store', { giftCardCode: code });
}

/** Prices a checkout now: its lines from the catalog, its choices, the store's rules. */
export async function priceCheckout(ctx: RequestContext, checkout: StoredCheckout): Promise<CheckoutView> {
  const d = checkout.doc;
  const lines = await resolveLines(ctx, d.lineItems, ctx.site.currency);
  const totals = await calculateTotals(ctx, lines, {
    shippingAddress: d.shippingDestination?.address ?? null,
    billingAddress: d.billingInfo?.address ?? null,
    selectedShippingOption: d.selectedShippingOption,
    couponCode: d.coupon?.code ?? null,
    merchantDiscounts: d.merchantDiscounts,
    memberId: d.buyer.memberId ?? null,
  });
  return { checkout, lines, totals };
}

export interface CheckoutAnswer { checkout: Checkout }

export function checkoutAnswer(v: CheckoutView): CheckoutAnswer {
  return { checkout: presentCheckout(v.checkout, v.lines, v.totals.result) };
}

/** What a read answers: a completed checkout as it was when it completed, an open one priced now. */
async function readAnswer(ctx: RequestContext, co: StoredCheckout): Promise<CheckoutAnswer> {
  if (co.completedView !== null) return { checkout: JSON.parse(co.completedView) as Checkout };
  return checkoutAnswer(await priceCheckout(ctx, co));
}

/** A checkout the caller may use: its own (same visitor, member or key) or any for an owner; else 404. */
async function ownCheckout(ctx: RequestContext, id: string, lock = false): Promise<StoredCheckout> {
  const co = await findCheckout(ctx.db, ctx.site.id, id, { lock });
  if (!co || (!isElevated(ctx.caller) && co.ownerKey !== ownerOf(ctx.caller).key)) throw checkoutNotFound(id);
  return co;
}

/** Inside the write's transaction: price (unless the caller just did), record the event, report to abandoned checkouts. */
async function afterWrite(ctx: RequestContext, co: StoredCheckout, slug: 'created' | 'updated', priced?: CheckoutView): Promise<CheckoutView> {
  const v = priced ?? await priceCheckout(ctx, co);
  const wire = presentCheckout(co, v.lines, v.totals.result);
  await recordEvent(ctx, { entityFqdn: CHECKOUT_FQDN, slug, entityId: co.id, entity: wire });
  const contact = co.doc.billingInfo?.contactDetails ?? co.doc.shippingDestination?.contactDetails ?? null;
  await trackCheckoutActivity(ctx, {
    checkoutId: co.id, cartId: co.cartId,
    buyer: { email: co.doc.email, memberId: co.doc.buyer.memberId ?? null, visitorId: co.doc.buyer.visitorId ?? null, contactId: null },
    total: { amount: wire.priceSummary.total.amount, currency: wire.currency },
    lineItemCount: co.doc.lineItems.length,
    details: {
      checkoutUrl: hostedCheckoutUrl(ctx, co),
      subtotal: { amount: wire.priceSummary.subtotal.amount },
      buyerLanguage: co.doc.buyerLanguage,
      ...(contact ? { contactDetails: { firstName: contact.firstName ?? null, lastName: contact.lastName ?? null, phone: contact.phone ?? null, company: contact.company ?? null } } : {}),
      lineItems: wire.lineItems.map((l) => ({
        id: l.id, quantity: l.quantity, ...(l.catalogReference ? { catalogReference: l.catalogReference } : {}), productName: l.productName,
        price: { amount: l.price.amount }, priceBeforeDiscounts: { amount: l.priceBeforeDiscounts.amount },
      })),
    },
  });
  return v;
}

function newDoc(ctx: RequestContext): CheckoutDoc {
  return {
    lineItems: [], buyer: ownerOf(ctx.caller).buyer, email: null, buyerNote: null, buyerLanguage: null, billingInfo: null, shippingDestination: null,
    selectedShippingOption: null, coupon: null, merchantDiscounts: [], channelType: 'WEB', customFields: [], overrideCheckoutUrl: null,
    pageToken: randomBytes(24).toString('base64url'), thankYouPageUrl: null,
  };
}

async function insertNew(ctx: RequestContext, doc: CheckoutDoc, cartId: string | null): Promise<CheckoutView> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const now = new Date().toISOString();
    const co: StoredCheckout = { id: randomUUID(), ownerKey: ownerOf(ctx.caller).key, cartId, doc, completed: false, orderId: null, createdDate: now, updatedDate: now, completedView: null };
    await insertCheckout(trx, ctx.site.id, co);
    const v = await priceCheckout(tctx, co);
    // The checkout's lines are a copy of the cart's: the cart's `updated` event reuses their resolution.
    if (cartId) await linkCheckout(tctx, co.id, { stored: co.doc.lineItems, resolved: v.lines });
    return afterWrite(tctx, co, 'created', v);
  });
}

export async function createCheckoutFromCurrentCart(ctx: RequestContext, input: {
  channelType?: ChannelType | null | undefined; shippingAddress?: EcomAddress | null | undefined; billingAddress?: EcomAddress | null | undefined;
  selectedShippingOption?: SelectedShippingOption | null | undefined; email?: string | null | undefined;
}): Promise<StoredCheckout> {
  const cart = await findCurrentCart(ctx);
  if (!cart) throw notFound('CART_NOT_FOUND', 'The caller has no current cart');
  if (cart.doc.lineItems.length === 0) throw new ApplicationError(400, 'CART_IS_EMPTY', 'The cart has no line items');
  const c = cart.doc;
  const doc: CheckoutDoc = {
    ...newDoc(ctx),
    lineItems: structuredClone(c.lineItems),
    email: input.email ?? c.email,
    buyerNote: c.buyerNote,
    buyerLanguage: c.buyerLanguage,
    billingInfo: input.billingAddress ? { address: input.billingAddress } : null,
    shippingDestination: input.shippingAddress ? { address: input.shippingAddress, contactDetails: c.contactInfo?.contactDetails ?? null } : c.contactInfo,
    selectedShippingOption: input.selectedShippingOption ?? c.selectedShippingOption,
    coupon: c.coupon,
    merchantDiscounts: c.merchantDiscounts,
    channelType: input.channelType ?? 'WEB',
    overrideCheckoutUrl: c.overrideCheckoutUrl,
  };
  return (await insertNew(ctx, doc, cart.id)).checkout;
}

function applyInfo(doc: CheckoutDoc, info: CheckoutInfoInput | null | undefined): CheckoutDoc {
  if (!info) return doc;
  const next = { ...doc };
  if (info.billingInfo !== undefined) next.billingInfo = info.billingInfo;
  if (info.shippingInfo?.shippingDestination !== undefined) next.shippingDestination = info.shippingInfo.shippingDestination;
  if (info.shippingInfo?.selectedCarrierServiceOption !== undefined) {
    const o = info.shippingInfo.selectedCarrierServiceOption;
    next.selectedShippingOption = o ? { code: o.code, ...(o.carrierId ? { carrierId: o.carrierId } : {}) } : null;
  }
  if (info.buyerNote !== undefined) next.buyerNote = info.buyerNote;
  if (info.buyerInfo?.email !== undefined) next.email = info.buyerInfo.email;
  if (info.buyerLanguage !== undefined) next.buyerLanguage = info.buyerLanguage;
  if (info.customFields !== undefined) next.customFields = info.customFields ?? [];
  if (info.channelType) next.channelType = info.channelType;
  return next;
}

export async function createCheckout(ctx: RequestContext, input: {
  checkoutInfo?: CheckoutInfoInput | null | undefined; couponCode?: string | null | undefined; lineItems?: LineItemInput[] | undefined;
  customLineItems?: CustomLineItemInput[] | undefined; channelType: ChannelType; giftCardCode?: string | null | undefined; overrideCheckoutUrl?: string | null | undefined;
}): Promise<CheckoutView> {
  refuseGiftCard(input.giftCardCode);
  checkCustomLines(ctx, input.customLineItems);
  checkCheckoutUrl(ctx, input.overrideCheckoutUrl);
  const coupon = input.couponCode ? await findCoupon(ctx, input.couponCode) : null;
  const doc: CheckoutDoc = {
    ...applyInfo(newDoc(ctx), input.checkoutInfo),
    lineItems: addLines([], input.lineItems, input.customLineItems),
    coupon,
    channelType: input.channelType,
    overrideCheckoutUrl: input.overrideCheckoutUrl ?? null,
  };
  return insertNew(ctx, doc, null);
}

export async function getCheckout(ctx: RequestContext, id: string): Promise<CheckoutAnswer> {
  return readAnswer(ctx, await ownCheckout(ctx, id));
}

export async function getCheckoutByCartId(ctx: RequestContext, cartId: string): Promise<CheckoutAnswer> {
  const co = await findCheckoutByCart(ctx.db, ctx.site.id, cartId);
  if (!co || (!isElevated(ctx.caller) && co.ownerKey !== ownerOf(ctx.caller).key)) throw notFound('CHECKOUT_NOT_FOUND', `No checkout for cart ${cartId}`, { cartId });
  return readAnswer(ctx, co);
}

/** Changes an open checkout in one transaction with its event and abandoned-checkout report. */
async function changeCheckout(ctx: RequestContext, id: string, change: (doc: CheckoutDoc) => CheckoutDoc | Promise<CheckoutDoc>): Promise<CheckoutView> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const co = await ownCheckout(tctx, id, true);
    if (co.completed) throw new ApplicationError(409, 'CHECKOUT_ALREADY_COMPLETED', `Checkout ${id} is completed and can no longer change`, { checkoutId: id });
    const now = new Date().toISOString();
    const next: StoredCheckout = { ...co, doc: await change(structuredClone(co.doc)), updatedDate: now };
    await updateCheckoutDoc(trx, ctx.site.id, id, next.doc, now);
    return afterWrite(tctx, next, 'updated');
  });
}

export async function updateCheckout(ctx: RequestContext, id: string, input: {
  checkout: CheckoutInfoInput; couponCode?: string | null | undefined; giftCardCode?: string | null | undefined; overrideCheckoutUrl?: string | null | undefined;
  lineItems?: LineItemInput[] | undefined; customLineItems?: CustomLineItemInput[] | undefined;
}): Promise<CheckoutView> {
  refuseGiftCard(input.giftCardCode);
  checkCustomLines(ctx, input.customLineItems);
  checkCheckoutUrl(ctx, input.overrideCheckoutUrl);
  const coupon = input.couponCode ? await findCoupon(ctx, input.couponCode) : undefined;
  return changeCheckout(ctx, id, (doc) => ({
    ...applyInfo(doc, input.checkout),
    lineItems: addLines(doc.lineItems, input.lineItems, input.customLineItems),
    ...(coupon ? { coupon } : {}),
    ...(input.overrideCheckoutUrl ? { overrideCheckoutUrl: input.overrideCheckoutUrl } : {}),
  }));
}

export async function addToCheckout(ctx: RequestContext, id: string, lineItems: LineItemInput[] | undefined, customLineItems: CustomLineItemInput[] | undefined): Promise<CheckoutView> {
  checkCustomLines(ctx, customLineItems);
  return changeCheckout(ctx, id, (doc) => ({ ...doc, lineItems: addLines(doc.lineItems, lineItems, customLineItems) }));
}

export const removeCheckoutLines = (ctx: RequestContext, id: string, ids: string[]) => changeCheckout(ctx, id, (doc) => withFewerLines(doc, removeLines(doc.lineItems, ids)));
export const updateCheckoutQuantities = (ctx: RequestContext, id: string, lines: { id: string; quantity: number }[]) => changeCheckout(ctx, id, (doc) => withFewerLines(doc, setQuantities(doc.lineItems, lines)));
export const removeCheckoutCoupon = (ctx: RequestContext, id: string) => changeCheckout(ctx, id, (doc) => ({ ...doc, coupon: null }));
export const removeOverrideCheckoutUrl = (ctx: RequestContext, id: string) => changeCheckout(ctx, id, (doc) => ({ ...doc, overrideCheckoutUrl: null }));
/** No gift card can be on a checkout here, so removing one only answers the checkout. */
export const removeGiftCard = (ctx: RequestContext, id: string) => getCheckout(ctx, id);

/** The hosted checkout page of a checkout (its own page token is the capability). */
export function hostedCheckoutUrl(ctx: RequestContext, co: StoredCheckout): string {
  return `${ctx.origin}/_hosted/checkout?checkoutId=${encodeURIComponent(co.id)}&token=${encodeURIComponent(co.doc.pageToken)}`;
}

export async function getCheckoutUrl(ctx: RequestContext, id: string, opts: { ignoreOverride: boolean }): Promise<{ checkoutUrl: string }> {
  const co = await ownCheckout(ctx, id);
  if (!opts.ignoreOverride && co.doc.overrideCheckoutUrl) return { checkoutUrl: co.doc.overrideCheckoutUrl };
  return { checkoutUrl: hostedCheckoutUrl(ctx, co) };
}

/** Marks the checkout completed (without an order: paid elsewhere); the abandoned report follows. */
export async function markAsCompleted(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const co = await ownCheckout(tctx, id, true);
    if (co.completed) return;
    await completeInTransaction(tctx, co);
  });
  return {};
}

/**
 * Completion inside the caller's transaction: the flag with the checkout's answer as of now (what
 * later reads answer), the abandoned-checkout report, the `completed` event. With `orderId` the same
 * write claims the checkout for that order, and refuses if another order has it.
 */
export async function completeInTransaction(ctx: RequestContext, co: StoredCheckout, opts: { priced?: CheckoutView; orderId?: string } = {}): Promise<void> {
  const now = new Date().toISOString();
  // The caller's pricing of this same checkout, in this transaction, is the completed checkout's too.
  const v = opts.priced ?? await priceCheckout(ctx, co);
  const done = presentCheckout({ ...co, completed: true, updatedDate: now }, v.lines, v.totals.result);
  const view = JSON.stringify(done);
  if (opts.orderId === undefined) await setCheckoutCompleted(ctx.db, ctx.site.id, co.id, now, view);
  else if (!(await claimCheckoutOrder(ctx.db, ctx.site.id, co.id, opts.orderId, now, view))) {
    // Cannot happen while the caller holds the row's lock; refusing keeps a second order from ever committing.
    throw new ApplicationError(409, 'CHECKOUT_ALREADY_ORDERED', `Checkout ${co.id} already has an order`, { checkoutId: co.id });
  }
  await markCheckoutCompleted(ctx, co.id);
  const cartGone = co.cartId ? await removeOrderedCart(ctx, co.cartId, co.id, { stored: co.doc.lineItems, resolved: v.lines }) : undefined;
  // Both events in one outbox write (and one fan-out nudge after the commit).
  await recordEvents(ctx, [
    ...(cartGone ? [cartGone] : []),
    { entityFqdn: CHECKOUT_FQDN, slug: 'completed', entityId: co.id, entity: done },
  ]);
}
