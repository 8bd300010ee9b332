/**
 * Estimate totals: the caller's cart priced for an address, a shipping option and the tax, shipping
 * and fee switches (docs/cart.md). A shopper's cart and checkout pages ask again and again while
 * nothing changed; the answer for a 20-line cart is about 56 KB of JSON that took pricing,
 * presentation and encoding to build. So an answer is kept per cart, with everything it was made
 * from, and sent again when all of it is still the same:
 *
 * - the cart at the same id and revision (any write of the cart, in any process, moves the revision);
 * - the same resolved line objects: lines are looked up on every call (catalog version, inventory)
 *   and a kept line is the same frozen object only while its product, quantity, reference and
 *   availability are (kept-lines.ts, and the per-line memo of catalog-lines.ts); an answer with a
 *   line that is not kept is not kept either;
 * - the same pricing version (rules, settings, tax and shipping regions of the site), the same coupon
 *   (as the engine reads it, with its remaining uses), the same input and member, the same currency;
 * - no discount rule or coupon starting or ending since (the setup's `steadyUntil`), and, for an
 *   answer with a delivery slot, the same minute (slots count from the minute of pricing).
 */
import type { RequestContext } from '../../http/context.js';
import { memberIdOf } from '../../http/context.js';
import { EncodedJson } from '../../http/wire.js';
import { LruMap, LruMaps } from '../../lru-map.js';
import type { Executor } from '../../storage/database.js';
import type { ResolvedLine } from './model.js';
import { ownerOf } from './owner.js';
import { SLOT_STEP_MS, slotBase, type PricingResult } from './pricing/index.js';
import { encodeTotals } from './present.js';
import { loadPricingSetup } from './rules/index.js';
import type { EstimateTotalsInput } from './schema.js';
import { getCurrentCart } from './service.js';
import { readCartHeads } from './store.js';
import { priceWith } from './totals.js';

/**
 * Bytes of kept answers per database handle (least recently used dropped first): about 75 answers of
 * 20-line carts. An answer is kept as its UTF-8 bytes only.
 */
export const ESTIMATE_ANSWERS_BYTES = 4 * 1024 * 1024;

/** What a kept answer was made from, besides the instant. */
interface Made {
  cartId: string;
  revision: number;
  lines: readonly ResolvedLine[];
  pricingVersion: string;
  coupon: string;
  input: string;
  memberId: string | null;
  currency: string;
}

interface Kept extends Made { steadyUntil: number | null; answer: EncodedJson }

const kept = new LruMaps<string, Kept>(() => new LruMap(ESTIMATE_ANSWERS_BYTES, (k) => k.answer.bytes().length));

/** None inside a transaction: what it reads may still roll back. */
const answersOf = (db: Executor): LruMap<string, Kept> | undefined => (db.isTransaction ? undefined : kept.of(db));

/** The same line objects in the same order (kept lines are frozen: the same object is the same line). */
function sameLineObjects(a: readonly ResolvedLine[], b: readonly ResolvedLine[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function stillHolds(k: Kept, made: Made, nowMs: number): boolean {
  return k.cartId === made.cartId && k.revision === made.revision && sameLineObjects(k.lines, made.lines) && k.pricingVersion === made.pricingVersion
    && k.coupon === made.coupon && k.input === made.input && k.memberId === made.memberId && k.currency === made.currency
    && (k.steadyUntil === null || nowMs < k.steadyUntil);
}

const hasDeliverySlot = (r: PricingResult) =>
  r.shippingInfo.selectedCarrierServiceOption?.logistics.deliveryTimeSlot != null
  || r.shippingInfo.carrierServiceOptions.some((c) => c.shippingOptions.some((o) => o.logistics.deliveryTimeSlot !== null));

/** Until when an answer holds: the setup's next rule or coupon boundary, and the minute's end when it names a delivery slot. */
function keptUntil(steadyUntil: number | null, r: PricingResult, nowMs: number): number | null {
  if (!hasDeliverySlot(r)) return steadyUntil;
  const minuteEnd = slotBase(nowMs) + SLOT_STEP_MS;
  return steadyUntil === null ? minuteEnd : Math.min(steadyUntil, minuteEnd);
}

/** The estimate answer for the caller's cart (404 without one). */
export async function estimateTotals(ctx: RequestContext, input: EstimateTotalsInput): Promise<EncodedJson> {
  // The cart's head, the listing version and the pricing version in one statement (outside a transaction).
  const heads = ctx.db.isTransaction ? undefined : await readCartHeads(ctx.db, ctx.site.id, ownerOf(ctx.caller).key);
  const v = await getCurrentCart(ctx, heads);
  const d = v.cart.doc;
  const couponCode = d.coupon?.code ?? null;
  const now = new Date();
  const setup = await loadPricingSetup(ctx, { couponCode, now, ...(heads ? { version: heads.pricingVersion } : {}) });
  const memberId = memberIdOf(ctx.caller) ?? null;
  const made: Made = {
    cartId: v.cart.id, revision: v.cart.revision, lines: v.lines, pricingVersion: setup.version,
    coupon: JSON.stringify([setup.coupon, setup.couponError]), input: JSON.stringify(input), memberId, currency: v.currency,
  };
  const answers = answersOf(ctx.db);
  const key = `${ctx.site.id}\u0000${ownerOf(ctx.caller).key}`;
  const hit = answers?.get(key);
  if (hit && stillHolds(hit, made, now.getTime())) return hit.answer;
  const result = priceWith(setup, now, v.lines, {
    shippingAddress: input.shippingAddress ?? d.contactInfo?.address ?? null,
    billingAddress: input.billingAddress ?? null,
    selectedShippingOption: input.selectedShippingOption ?? d.selectedShippingOption,
    couponCode,
    merchantDiscounts: d.merchantDiscounts,
    memberId,
    calculateTax: input.calculateTax, calculateShipping: input.calculateShipping, calculateAdditionalFees: input.calculateAdditionalFees,
  });
  const answer = new EncodedJson(encodeTotals(v.cart, v.lines, result));
  if (answers && v.lines.every((l) => Object.isFrozen(l))) {
    answers.set(key, { ...made, steadyUntil: keptUntil(setup.steadyUntil, result, now.getTime()), answer: answer.toKeep() });
  }
  return answer;
}
