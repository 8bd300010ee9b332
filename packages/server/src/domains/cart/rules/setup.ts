import type { RequestContext } from '../../../http/context.js';
import { LruMap } from '../../../lru-map.js';
import { ApplicationError, notFound } from '../../../http/errors.js';
import {
  DEFAULT_ROUNDING_MODE, type AdditionalFeeInput, type CouponInput, type DiscountRuleInput, type PricingAddress, type RoundingMode,
  type ShippingRegionInput, type TaxSettingsInput,
} from '../pricing/index.js';
import { couponCodeKey, couponToEngine } from './coupon-map.js';
import { shippingRegionToEngine } from './shipping-map.js';
import { MAX_DISCOUNT_RULES, MAX_SHIPPING_REGIONS, MAX_TAX_REGIONS } from './limits.js';
import { DEFAULT_PRICING_SETTINGS, type StoredCheckoutSettings } from './model.js';
import { findCoupon, findCouponByCode, findSiteSettings, listActiveDiscountRules, listShippingRegionRows, takeCouponUse } from './store.js';
import { findPricingVersion } from './store-version.js';
import { listAllTaxRegions, listManualRates } from './store-tax.js';
import { DEFAULT_CHECKOUT_SETTINGS } from './checkout-defaults.js';

/**
 * What the cart and checkout price with: the site's live rules, the coupon the buyer entered, tax
 * regions with their manual rates, shipping regions and settings, in the engine's input types.
 */
export interface PricingSetup {
  currency: string;
  roundingMode: RoundingMode;
  discountRules: DiscountRuleInput[];
  coupon: CouponInput | null;
  /** 'NOT_FOUND' when a code was given and no coupon of the site has it. */
  couponError: 'NOT_FOUND' | null;
  tax: TaxSettingsInput;
  shippingRegions: ShippingRegionInput[];
  additionalFees: AdditionalFeeInput[];
  businessAddress: PricingAddress | null;
  /** The site's pricing version these inputs were read at (store-version.ts): any owner change moves it. */
  version: string;
  /**
   * The first instant after `now` (ms) at which a discount rule or the coupon starts or ends, or null:
   * until then the same inputs price the same way at any moment (delivery slots aside, which count
   * from `now` itself).
   */
  steadyUntil: number | null;
}

/**
 * What pricing reads of the site whatever the call: all active discount rules (their time windows are
 * checked per call), settings, tax regions with manual rates and shipping regions, already in the
 * engine's types. Held per process under the site's pricing version (store-version.ts), so a pricing
 * costs one version read instead of five listings while the owner changes nothing.
 */
interface SiteInputs {
  version: string;
  rules: (DiscountRuleInput & { start: string | null; end: string | null })[];
  roundingMode: RoundingMode;
  tax: TaxSettingsInput;
  shippingRegions: ShippingRegionInput[];
  businessAddress: PricingAddress | null;
}

/** Sites whose inputs one process keeps (least recently used dropped first). */
export const PRICING_INPUTS_CACHE_SITES = 1_000;
const siteInputs = new LruMap<string, SiteInputs>(PRICING_INPUTS_CACHE_SITES);

async function loadSiteInputs(ctx: RequestContext, knownVersion: string | undefined): Promise<SiteInputs> {
  const siteId = ctx.site.id;
  // The version before the listings: a write committing between them can only make an entry newer
  // than its version says (reloaded at the next read), never older.
  const version = knownVersion ?? await findPricingVersion(ctx.db, siteId);
  const cached = siteInputs.get(siteId);
  if (cached && cached.version === version) return cached;
  // One after another: the caller's transaction (if any) is one connection.
  const rules = await listActiveDiscountRules(ctx.db, siteId, MAX_DISCOUNT_RULES);
  const settings = await findSiteSettings(ctx.db, siteId);
  const regions = await listAllTaxRegions(ctx.db, siteId, MAX_TAX_REGIONS);
  const rates = await listManualRates(ctx.db, siteId);
  const shipping = await listShippingRegionRows(ctx.db, siteId, MAX_SHIPPING_REGIONS);
  const pricing = settings?.pricing ?? DEFAULT_PRICING_SETTINGS;
  const entry: SiteInputs = {
    version,
    rules: rules.map((r) => ({
      id: r.id, name: r.name, active: r.active, trigger: r.trigger, activeTimeInfo: r.activeTimeInfo, discounts: r.discounts,
      start: r.activeTimeInfo?.start ?? null, end: r.activeTimeInfo?.end ?? null,
    })),
    roundingMode: pricing.roundingMode ?? DEFAULT_ROUNDING_MODE,
    tax: {
      taxableAddressType: pricing.taxableAddressType,
      taxShipping: pricing.taxShipping,
      regions: regions.map((t) => ({ id: t.id, country: t.country, subdivision: t.subdivision || null, taxIncludedInPrice: t.taxIncludedInPrice })),
      manualTaxMappings: rates.map((m) => ({
        id: m.id, taxRegionId: m.taxRegionId, taxGroupId: m.taxGroupId, taxRate: m.taxRate, taxName: m.taxName, taxType: m.taxType,
        jurisdiction: m.jurisdiction, jurisdictionType: m.jurisdictionType,
      })),
    },
    shippingRegions: shipping.map(shippingRegionToEngine),
    businessAddress: pricing.businessAddress,
  };
  siteInputs.set(siteId, entry);
  return entry;
}

/** Whether a rule's window holds `now` (ISO text compares as time; start inclusive, end exclusive). */
const liveAt = (now: string) => (r: { start: string | null; end: string | null }) => (r.start === null || r.start <= now) && (r.end === null || r.end > now);

/** `opts.version`: the site's pricing version when the caller read it already (cart/estimate.ts). */
export async function loadPricingSetup(ctx: RequestContext, opts: { couponCode?: string | null; now: Date; version?: string }): Promise<PricingSetup> {
  const inputs = await loadSiteInputs(ctx, opts.version);
  const now = opts.now.toISOString();
  const coupon = opts.couponCode ? await findCouponByCode(ctx.db, ctx.site.id, couponCodeKey(opts.couponCode)) : undefined;
  const engineCoupon = coupon ? couponToEngine(coupon) : null;
  const boundaries = inputs.rules.flatMap((r) => [r.start, r.end]);
  if (engineCoupon) boundaries.push(engineCoupon.startTime ?? null, engineCoupon.expirationTime ?? null);
  // The engine gets fresh outer objects; it reads its inputs and never writes them, so the shared inner ones stay as loaded.
  return {
    currency: ctx.site.currency,
    roundingMode: inputs.roundingMode,
    discountRules: inputs.rules.filter(liveAt(now)).map(({ start: _start, end: _end, ...rule }) => rule),
    coupon: engineCoupon,
    couponError: opts.couponCode && !coupon ? 'NOT_FOUND' : null,
    tax: inputs.tax,
    shippingRegions: inputs.shippingRegions,
    additionalFees: [],
    businessAddress: inputs.businessAddress,
    version: inputs.version,
    steadyUntil: firstAfter(boundaries, opts.now.getTime()),
  };
}

/** The earliest of `instants` (ISO text) after `nowMs`, in ms; null when none is. */
function firstAfter(instants: (string | null | undefined)[], nowMs: number): number | null {
  let first: number | null = null;
  for (const instant of instants) {
    if (!instant) continue;
    const ms = Date.parse(instant);
    // An instant that does not parse is refused by the engine itself; it bounds nothing here.
    if (Number.isNaN(ms)) continue;
    if (ms > nowMs && (first === null || ms < first)) first = ms;
  }
  return first;
}

/**
 * Counts one use of a coupon, inside the caller's transaction (the order that used it). One guarded
 * UPDATE, so concurrent checkouts never exceed the usage limit: the loser gets COUPON_USAGE_EXCEEDED
 * (409) and its transaction rolls back.
 */
export async function recordCouponUse(ctx: RequestContext, couponId: string): Promise<void> {
  if (!(await takeCouponUse(ctx.db, ctx.site.id, couponId, new Date().toISOString()))) {
    if (!(await findCoupon(ctx.db, ctx.site.id, couponId))) throw notFound('COUPON_NOT_FOUND', `Coupon ${couponId} not found`, { couponId });
    throw new ApplicationError(409, 'COUPON_USAGE_EXCEEDED', 'This coupon has reached its usage limit', { couponId });
  }
}

/** The site's checkout settings (defaults until the owner saves some). */
export async function getCheckoutSettings(ctx: RequestContext): Promise<StoredCheckoutSettings & { createdDate: string | null; updatedDate: string | null }> {
  const stored = await findSiteSettings(ctx.db, ctx.site.id);
  return { ...(stored?.checkout ?? DEFAULT_CHECKOUT_SETTINGS), createdDate: stored?.createdDate ?? null, updatedDate: stored?.updatedDate ?? null };
}
