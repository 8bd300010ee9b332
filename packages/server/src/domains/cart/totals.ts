/**
 * One calculation: the resolved lines, the buyer's choices and the store's rules go into the pricing
 * engine (domains/cart/pricing), whose result the presenters put on the wire. Nothing here rounds or
 * adds money itself.
 */
import type { RequestContext } from '../../http/context.js';
import { calculatePricing, type MerchantDiscountInput as EngineMerchantDiscount, type PricingAddress, type PricingResult } from './pricing/index.js';
import type { EcomAddress, MerchantDiscountInput, ResolvedLine, SelectedShippingOption } from './model.js';
import { loadPricingSetup, type PricingSetup } from './rules/index.js';

export interface TotalsOptions {
  shippingAddress?: EcomAddress | null | undefined;
  billingAddress?: EcomAddress | null | undefined;
  selectedShippingOption?: SelectedShippingOption | null | undefined;
  couponCode?: string | null | undefined;
  merchantDiscounts?: MerchantDiscountInput[] | undefined;
  memberId?: string | null | undefined;
  /** Default true; false leaves tax out (no tax settings reach the engine). */
  calculateTax?: boolean | null | undefined;
  /** Default true; false leaves shipping out. */
  calculateShipping?: boolean | null | undefined;
  calculateAdditionalFees?: boolean | null | undefined;
}

export interface Totals { setup: PricingSetup; result: PricingResult }

export function pricingAddress(a: EcomAddress | null | undefined): PricingAddress | null {
  if (!a) return null;
  return { country: a.country ?? null, subdivision: a.subdivision ?? null, city: a.city ?? null, postalCode: a.postalCode ?? null, addressLine1: a.addressLine ?? null };
}

function engineMerchant(list: MerchantDiscountInput[]): EngineMerchantDiscount[] {
  return list.map((m) => ({ amount: m.amount ?? null, percentage: m.percentage ?? null, lineItemIds: m.lineItemIds ?? null }));
}

export async function calculateTotals(ctx: RequestContext, lines: ResolvedLine[], o: TotalsOptions): Promise<Totals> {
  const now = new Date();
  const setup = await loadPricingSetup(ctx, { couponCode: o.couponCode ?? null, now });
  return { setup, result: priceWith(setup, now, lines, o) };
}

/** The engine's answer for `lines` with a loaded setup (its coupon is `o.couponCode`'s), at `now`. */
export function priceWith(setup: PricingSetup, now: Date, lines: ResolvedLine[], o: TotalsOptions): PricingResult {
  const result = calculatePricing({
    currency: setup.currency,
    now: now.toISOString(),
    roundingMode: setup.roundingMode,
    lineItems: lines.map((l) => ({
      id: l.id, quantity: l.quantity, price: l.price, fullPrice: l.fullPrice,
      catalogReference: l.catalogReference ? { catalogItemId: l.catalogReference.catalogItemId, appId: l.catalogReference.appId } : null,
      rootCatalogItemId: l.rootCatalogItemId ?? null, itemType: l.itemType, taxGroupId: l.taxGroupId ?? null,
      physicalProperties: l.physicalProperties ? { weight: l.physicalProperties.weight ?? null, shippable: l.physicalProperties.shippable } : null,
      availability: { status: l.availability.status, quantityAvailable: l.availability.quantityAvailable ?? null },
    })),
    buyer: { memberId: o.memberId ?? null },
    discountRules: setup.discountRules,
    coupon: setup.coupon,
    merchantDiscounts: engineMerchant(o.merchantDiscounts ?? []),
    shippingAddress: pricingAddress(o.shippingAddress),
    billingAddress: pricingAddress(o.billingAddress),
    businessAddress: setup.businessAddress,
    tax: o.calculateTax === false ? null : setup.tax,
    shipping: o.calculateShipping === false ? null : { regions: setup.shippingRegions, selectedShippingOption: o.selectedShippingOption ? { code: o.selectedShippingOption.code } : null },
    additionalFees: o.calculateAdditionalFees === false ? [] : setup.additionalFees,
  });
  if (setup.couponError === 'NOT_FOUND' && o.couponCode) {
    result.calculationErrors.couponCalculationError = { applicationError: { code: 'COUPON_DOES_NOT_EXIST', description: `Coupon ${o.couponCode} does not exist`, data: { couponCode: o.couponCode } } };
  }
  return result;
}
