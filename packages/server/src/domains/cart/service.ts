/**
 * The current cart (docs/cart.md): one per visitor or member, found by the caller's own id. A write is
 * its guarded update alone, or in one transaction with its outbox event when anyone receives it;
 * prices and availability are computed on every read.
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze } from '../../deep-freeze.js';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { eventIsRecorded, recordEvent } from '../events/index.js';
import { onVisitorLogin } from '../identity/index.js';
import { resolveLines } from './catalog-lines.js';
import { addLines, mergeLines, removeLines, setQuantities } from './line-edits.js';
import type { CartDoc, ResolvedLine, StoredCart, StoredLine } from './model.js';
import { memberKey, ownerOf, visitorKey, type Owner } from './owner.js';
import { cartObject, cartOnWire, presentCart, type CartOnWire } from './present.js';
import type { CustomLineItemInput, LineItemInput, UpdateCartInput } from './schema.js';
import { loadPricingSetup } from './rules/index.js';
import { seenListingVersion, stableJson } from '../catalog/index.js';
import {
  deleteCartRow, deleteCartUnlessMovedOn, findCartAtHead, findCartByOwner, insertCart, moveCart, readCartHeads, rekeyOpenCheckouts, updateCart, type CartHeads,
} from './store.js';
import { forgetCart, keepCart, keptCart } from './kept-carts.js';
import { checkCheckoutUrl, checkCustomLines, checkMerchantDiscounts, requireElevated, withFewerLines } from './owner-inputs.js';

export const CART_FQDN = 'wix.ecom.v1.cart';

/** A cart as the routes answer it: the stored cart and its lines priced now. */
export interface CartView { cart: StoredCart; lines: ResolvedLine[]; currency: string }

/** A cart just written: its view and its wire shape, made once for the answer and the event (when one is recorded). */
export interface WrittenCart extends CartView { onWire: CartOnWire }

const notFoundCart = () => notFound('CART_NOT_FOUND', 'The caller has no current cart');

function emptyDoc(owner: Owner): CartDoc {
  return {
    lineItems: [], buyer: owner.buyer, email: null, buyerNote: null, buyerLanguage: null, contactInfo: null, selectedShippingOption: null,
    businessLocationId: null, overrideCheckoutUrl: null, coupon: null, merchantDiscounts: [], checkoutId: null,
  };
}

async function view(ctx: RequestContext, cart: StoredCart, listingVersion?: number): Promise<CartView> {
  const currency = ctx.site.currency;
  return { cart, lines: await resolveLines(ctx, cart.doc.lineItems, currency, listingVersion), currency };
}

/**
 * The caller's cart priced now. Outside a transaction its head and the catalog's listing version are
 * read in one statement first (`readCartHeads`; `heads` when the caller read them already).
 */
export async function getCurrentCart(ctx: RequestContext, heads?: CartHeads): Promise<CartView> {
  const ownerKey = ownerOf(ctx.caller).key;
  const known = heads ?? (ctx.db.isTransaction ? undefined : await readCartHeads(ctx.db, ctx.site.id, ownerKey));
  const cart = known ? await findCartAtHead(ctx.db, ctx.site.id, ownerKey, known.cart) : await findCartByOwner(ctx.db, ctx.site.id, ownerKey);
  if (!cart) throw notFoundCart();
  return view(ctx, cart, known?.listingVersion);
}

/** The caller's cart for the read side of another service (checkout from the current cart). */
export async function findCurrentCart(ctx: RequestContext): Promise<StoredCart | undefined> {
  return findCartByOwner(ctx.db, ctx.site.id, ownerOf(ctx.caller).key);
}

/** Tries of a cart write: one optimistic, then under the cart's lock (a first write racing another first write may need one more). */
export const CART_WRITE_ATTEMPTS = 5;

type CartChange = (doc: CartDoc) => CartDoc;
interface ChangeOptions { create: boolean; resolved?: ResolvedLines | undefined }

/**
 * Changes the caller's cart (creating it when `create`) and answers the cart as it is afterwards.
 * First optimistically: the lines are looked up in the catalog and inventory BEFORE the write, so the
 * write is only the guarded update (at the revision read), with the cart event when anyone receives it. A write
 * that lost that race does it all again inside one transaction holding the cart (its row locked on
 * PostgreSQL; SQLite has one writer), so concurrent changes of one cart (a double click, two tabs,
 * a storefront adding several items at once) queue instead of failing.
 */
async function changeCart(ctx: RequestContext, change: CartChange, opts: ChangeOptions): Promise<WrittenCart> {
  const optimistic = await changeCartOptimistically(ctx, change, opts);
  if (optimistic) return optimistic;
  for (let attempt = 2; ; attempt++) {
    try {
      const written = await inTransaction(ctx.db, (trx) => changeCartInside({ ...ctx, db: trx }, change, opts));
      if (written) return kept(ctx, written);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // a concurrent first write created the cart: read it and retry
    }
    if (attempt >= CART_WRITE_ATTEMPTS) throw new ApplicationError(409, 'CART_CHANGED', 'The cart kept changing meanwhile; try again');
  }
}

/** The cart after `change`, its view and wire shape (nothing written); its lines resolved at `listingVersion` when given. */
async function nextCart(ctx: RequestContext, existing: StoredCart | undefined, change: CartChange, opts: ChangeOptions, listingVersion?: number): Promise<WrittenCart> {
  const owner = ownerOf(ctx.caller);
  const now = new Date().toISOString();
  const before = existing ?? { id: randomUUID(), ownerKey: owner.key, doc: emptyDoc(owner), revision: 0, createdDate: now, updatedDate: now };
  // `before.doc` is this attempt's own parse (or a fresh empty doc), so the change may build on it without a copy.
  const cart: StoredCart = { ...before, doc: change(before.doc), revision: before.revision + 1, updatedDate: now };
  // Its lines frozen now rather than when the cart is kept: a changed line's resolution, stored text
  // and wire bytes are then kept from this write on (per line object: catalog-lines.ts, store.ts,
  // present.ts), where otherwise the cart's next write made them all again.
  for (const line of cart.doc.lineItems) deepFreeze(line);
  const v = opts.resolved && sameLines(cart.doc.lineItems, opts.resolved.stored)
    ? { cart, lines: opts.resolved.resolved, currency: ctx.site.currency } : await view(ctx, cart, listingVersion);
  return { ...v, onWire: cartOnWire(cart, v.lines, v.currency) };
}

/**
 * Writes `next` over `existing` (at its revision, and at `listingVersion` when given: see updateCart),
 * one statement; false when another write came first or the catalog moved on.
 */
async function storeCart(ctx: RequestContext, existing: StoredCart | undefined, next: WrittenCart, listingVersion?: number): Promise<boolean> {
  if (existing) return updateCart(ctx.db, ctx.site.id, next.cart, existing.revision, listingVersion);
  await insertCart(ctx.db, ctx.site.id, next.cart);
  return true;
}

/** `storeCart` with the cart event, in the caller's transaction. */
async function writeCart(ctx: RequestContext, existing: StoredCart | undefined, next: WrittenCart, listingVersion?: number): Promise<boolean> {
  if (!(await storeCart(ctx, existing, next, listingVersion))) return false;
  await recordEvent(ctx, { entityFqdn: CART_FQDN, slug: existing ? 'updated' : 'created', entityId: next.cart.id, entity: cartObject(next.onWire) });
  return true;
}

/**
 * `writeCart` in a transaction of its own; or, when nobody receives the cart event (no webhook
 * subscription, no mail: most stores), the row's one statement alone, which is as atomic.
 */
async function writeCartAlone(ctx: RequestContext, existing: StoredCart | undefined, next: WrittenCart, listingVersion?: number): Promise<boolean> {
  if (!(await eventIsRecorded(ctx, CART_FQDN, existing ? 'updated' : 'created'))) return storeCart(ctx, existing, next, listingVersion);
  return inTransaction(ctx.db, (trx) => writeCart({ ...ctx, db: trx }, existing, next, listingVersion));
}

/**
 * The optimistic try: read and resolve outside, write alone or in a short transaction; undefined when
 * it lost a race. It starts from what this process saw last, without reading anything: the cart it
 * kept for the caller (kept-carts.ts) and the listing version it read last, its lines resolved at that
 * version; the guarded write checks both (cart revision and listing version). When either moved on,
 * the try is made again from the cart's head and the version, read in one statement.
 */
async function changeCartOptimistically(ctx: RequestContext, change: CartChange, opts: ChangeOptions): Promise<WrittenCart | undefined> {
  const ownerKey = ownerOf(ctx.caller).key;
  const remembered = keptCart(ctx.db, ctx.site.id, ownerKey);
  const seenVersion = remembered ? seenListingVersion(ctx.db, ctx.site.id) : undefined;
  if (remembered && seenVersion !== undefined) {
    try {
      const written = await tryWrite(ctx, remembered, change, opts, seenVersion);
      if (written) return written;
    } catch (error) {
      // A change refused on the kept cart (a line it does not have yet) is decided on the row.
      if (!(error instanceof ApplicationError)) throw error;
    }
  }
  // Kept carts and the version are the handle's own: inside a transaction the row is read as before.
  const heads = ctx.db.isTransaction ? undefined : await readCartHeads(ctx.db, ctx.site.id, ownerKey);
  const existing = heads ? await findCartAtHead(ctx.db, ctx.site.id, ownerKey, heads.cart) : await findCartByOwner(ctx.db, ctx.site.id, ownerKey);
  if (!existing && !opts.create) throw notFoundCart();
  return tryWrite(ctx, existing, change, opts, heads?.listingVersion);
}

/** One optimistic write of `change` over `existing`, its lines resolved at `listingVersion` (read when not given). */
async function tryWrite(ctx: RequestContext, existing: StoredCart | undefined, change: CartChange, opts: ChangeOptions, listingVersion: number | undefined): Promise<WrittenCart | undefined> {
  const next = await nextCart(ctx, existing, change, opts, listingVersion);
  let written: boolean;
  try {
    written = await writeCartAlone(ctx, existing, next, listingVersion);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    written = false;
  }
  return written ? kept(ctx, next) : undefined;
}

/** A cart just committed, kept for the owner's next call (not while a caller's transaction is still open). */
function kept(ctx: RequestContext, written: WrittenCart): WrittenCart {
  return { ...written, cart: keepCart(ctx.db, ctx.site.id, written.cart) };
}

/** Read, resolve and write inside the caller's transaction, the cart held from the read on. */
async function changeCartInside(ctx: RequestContext, change: CartChange, opts: ChangeOptions): Promise<WrittenCart | undefined> {
  const existing = await findCartByOwner(ctx.db, ctx.site.id, ownerOf(ctx.caller).key, ctx.dialect);
  if (!existing && !opts.create) throw notFoundCart();
  const next = await nextCart(ctx, existing, change, opts);
  return (await writeCart(ctx, existing, next)) ? next : undefined;
}

export async function addToCart(ctx: RequestContext, input: { lineItems?: LineItemInput[] | undefined; customLineItems?: CustomLineItemInput[] | undefined; businessLocationId?: string | null | undefined }): Promise<WrittenCart> {
  checkCustomLines(ctx, input.customLineItems);
  if (!input.lineItems?.length && !input.customLineItems?.length) {
    throw new ApplicationError(400, 'NO_LINE_ITEMS', 'Give at least one of lineItems or customLineItems');
  }
  return changeCart(ctx, (doc) => ({
    ...doc,
    lineItems: addLines(doc.lineItems, input.lineItems, input.customLineItems),
    ...(input.businessLocationId !== undefined ? { businessLocationId: input.businessLocationId } : {}),
  }), { create: true });
}

/** A coupon code the store knows, else an application error (a typo should not silently do nothing). */
export async function findCoupon(ctx: RequestContext, code: string): Promise<{ id: string; code: string }> {
  const setup = await loadPricingSetup(ctx, { couponCode: code, now: new Date() });
  if (!setup.coupon) throw new ApplicationError(400, 'COUPON_DOES_NOT_EXIST', `Coupon ${code} does not exist`, { couponCode: code });
  return { id: setup.coupon.id, code: setup.coupon.code };
}

export async function updateCurrentCart(ctx: RequestContext, input: UpdateCartInput): Promise<WrittenCart> {
  checkCustomLines(ctx, input.customLineItems);
  if (input.merchantDiscounts) requireElevated(ctx, 'merchant discounts');
  checkCheckoutUrl(ctx, input.cartInfo?.overrideCheckoutUrl);
  const coupon = input.couponCode ? await findCoupon(ctx, input.couponCode) : undefined;
  const info = input.cartInfo;
  return changeCart(ctx, (doc) => {
    const next: CartDoc = { ...doc, lineItems: addLines(doc.lineItems, input.lineItems, input.customLineItems) };
    if (info) {
      if (info.buyerNote !== undefined) next.buyerNote = info.buyerNote;
      if (info.buyerLanguage !== undefined) next.buyerLanguage = info.buyerLanguage;
      if (info.contactInfo !== undefined) next.contactInfo = info.contactInfo;
      if (info.selectedShippingOption !== undefined) next.selectedShippingOption = info.selectedShippingOption;
      if (info.businessLocationId !== undefined) next.businessLocationId = info.businessLocationId;
      if (info.overrideCheckoutUrl !== undefined) next.overrideCheckoutUrl = info.overrideCheckoutUrl;
      if (info.buyerInfo?.email !== undefined) next.email = info.buyerInfo.email;
    }
    if (coupon) next.coupon = coupon;
    if (input.merchantDiscounts) {
      checkMerchantDiscounts(ctx, input.merchantDiscounts, next.lineItems);
      next.merchantDiscounts = input.merchantDiscounts;
    }
    return next;
  }, { create: true });
}

export async function removeLineItems(ctx: RequestContext, ids: string[]): Promise<WrittenCart> {
  return changeCart(ctx, (doc) => withFewerLines(doc, removeLines(doc.lineItems, ids)), { create: false });
}

export async function updateLineItemsQuantity(ctx: RequestContext, lines: { id: string; quantity: number }[]): Promise<WrittenCart> {
  return changeCart(ctx, (doc) => withFewerLines(doc, setQuantities(doc.lineItems, lines)), { create: false });
}

export async function removeCoupon(ctx: RequestContext): Promise<WrittenCart> {
  return changeCart(ctx, (doc) => ({ ...doc, coupon: null }), { create: false });
}

/**
 * Lines as another read of the same transaction resolved them: a checkout copied from the cart has the
 * cart's lines, so their resolution serves both (reused only while the stored lines are the same).
 */
export interface ResolvedLines { stored: StoredLine[]; resolved: ResolvedLine[] }

/** Records the checkout made from the cart (the cart keeps pointing at its newest checkout). */
export async function linkCheckout(ctx: RequestContext, checkoutId: string, resolved?: ResolvedLines): Promise<void> {
  await changeCart(ctx, (doc) => ({ ...doc, checkoutId }), { create: false, resolved });
}

export async function deleteCurrentCart(ctx: RequestContext): Promise<Record<string, never>> {
  const owner = ownerOf(ctx.caller);
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const cart = await findCartByOwner(trx, ctx.site.id, owner.key, ctx.dialect);
    if (!cart) throw notFoundCart();
    await deleteCartRow(trx, ctx.site.id, cart.id);
    const v = await view(tctx, cart);
    await recordEvent(tctx, { entityFqdn: CART_FQDN, slug: 'deleted', entityId: cart.id, entity: presentCart(cart, v.lines, v.currency) });
  });
  forgetCart(ctx.db, ctx.site.id, owner.key);
  return {};
}

/**
 * After its checkout completed: the cart the checkout came from is done, so the shopper's next visit
 * starts empty; a cart that has since moved on to another checkout stays. Answers the cart's `deleted`
 * event for the caller to record with its own (one outbox write).
 */
export async function removeOrderedCart(ctx: RequestContext, cartId: string, checkoutId: string, checkoutLines?: ResolvedLines): Promise<CartEvent | undefined> {
  const cart = await deleteCartUnlessMovedOn(ctx.db, ctx.dialect, ctx.site.id, cartId, checkoutId);
  if (!cart) return undefined;
  // Runs inside the order's transaction: the kept cart is dropped from the handle's own memory.
  forgetCart(ctx.deps.storage.db, ctx.site.id, cart.ownerKey);
  // The checkout was copied from this cart: when its lines are still the cart's, their resolution is reused.
  const lines = checkoutLines && sameLines(cart.doc.lineItems, checkoutLines.stored) ? checkoutLines.resolved : (await view(ctx, cart)).lines;
  return { entityFqdn: CART_FQDN, slug: 'deleted', entityId: cart.id, entity: presentCart(cart, lines, ctx.site.currency) };
}

export type CartEvent = Parameters<typeof recordEvent>[1];

/** Whether two line lists are the same lines, whatever order their keys came in (PostgreSQL's jsonb orders keys its own way). */
function sameLines(a: StoredLine[], b: StoredLine[]): boolean {
  return a.length === b.length && a.every((l, i) => stableJson(l) === stableJson(b[i]));
}

/**
 * At login, the visitor's cart becomes the member's: moved as it is when the member has none, else its
 * lines are merged into the member's cart (same items add up) and the visitor's cart is deleted. Open
 * checkouts of the visitor move to the member too. Runs inside the login's transaction when it has one.
 */
export async function mergeVisitorCart(ctx: RequestContext, visitorId: string, memberId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx, caller: { kind: 'member' as const, memberId, clientId: '', familyId: '' } };
    await rekeyOpenCheckouts(trx, ctx.site.id, visitorKey(visitorId), memberKey(memberId), memberId);
    const visitorCart = await findCartByOwner(trx, ctx.site.id, visitorKey(visitorId), ctx.dialect);
    if (!visitorCart) return;
    const memberCart = await findCartByOwner(trx, ctx.site.id, memberKey(memberId), ctx.dialect);
    const now = new Date().toISOString();
    if (!memberCart) {
      const moved: StoredCart = { ...visitorCart, ownerKey: memberKey(memberId), doc: { ...visitorCart.doc, buyer: { memberId } }, revision: visitorCart.revision + 1, updatedDate: now };
      await moveCart(trx, ctx.site.id, moved, visitorCart.revision);
      const v = await view(tctx, moved);
      await recordEvent(tctx, { entityFqdn: CART_FQDN, slug: 'updated', entityId: moved.id, entity: presentCart(moved, v.lines, v.currency) });
      return;
    }
    const merged: StoredCart = {
      ...memberCart,
      doc: { ...memberCart.doc, lineItems: mergeLines(memberCart.doc.lineItems, visitorCart.doc.lineItems), coupon: memberCart.doc.coupon ?? visitorCart.doc.coupon },
      revision: memberCart.revision + 1, updatedDate: now,
    };
    await updateCart(trx, ctx.site.id, merged, memberCart.revision);
    await deleteCartRow(trx, ctx.site.id, visitorCart.id);
    const gone = await view(tctx, visitorCart);
    await recordEvent(tctx, { entityFqdn: CART_FQDN, slug: 'deleted', entityId: visitorCart.id, entity: presentCart(visitorCart, gone.lines, gone.currency) });
    const v = await view(tctx, merged);
    await recordEvent(tctx, { entityFqdn: CART_FQDN, slug: 'updated', entityId: merged.id, entity: presentCart(merged, v.lines, v.currency) });
  });
}

// A failed merge must not fail the login: the visitor's cart stays where it was and is logged.
onVisitorLogin(async (ctx, { visitorId, memberId }) => {
  try {
    await mergeVisitorCart(ctx, visitorId, memberId);
  } catch (error) {
    ctx.log.warn({ err: error, memberId }, 'cart: merging the visitor cart at login failed');
  }
});
