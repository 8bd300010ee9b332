import { foldCase } from '../../../storage/dialect.js';
import type { CouponInput, DiscountValue } from '../pricing/index.js';
import { STORES_APP_ID } from '../model.js';
import type { CouponRecord, CouponSpecification } from './model.js';


/** The key codes are unique and looked up by: case-insensitive, the same fold as the database's. */
export function couponCodeKey(code: string): string {
  return foldCase(code.trim());
}

/** The coupon's one discount as the engine's value: an amount, a percentage or a fixed price on items, or free shipping. */
export function couponDiscount(spec: CouponSpecification): DiscountValue {
  const productId = spec.scope?.group?.entityId;
  const scopes = productId ? [{ type: 'CATALOG_ITEM' as const, catalogItemFilter: { catalogAppId: STORES_APP_ID, catalogItemIds: [productId] } }] : [];
  const items = productId ? { targetType: 'SPECIFIC_ITEMS' as const, specificItemsInfo: { scopes } } : { targetType: 'GLOBAL' as const };
  if (spec.freeShipping) return { targetType: 'SHIPPING', discountType: 'PERCENTAGE', percentage: 100 };
  if (spec.percentOffRate != null) return { ...items, discountType: 'PERCENTAGE', percentage: spec.percentOffRate };
  if (spec.fixedPriceAmount != null) return { targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes }, discountType: 'FIXED_PRICE', fixedPrice: spec.fixedPriceAmount };
  return { ...items, discountType: 'FIXED_AMOUNT', fixedAmount: spec.moneyOffAmount ?? '0' };
}

export function couponToEngine(c: CouponRecord): CouponInput {
  const s = c.specification;
  return {
    id: c.id,
    code: s.code,
    name: s.name,
    active: s.active !== false,
    discount: couponDiscount(s),
    minimumSubtotal: s.minimumSubtotal ?? null,
    startTime: s.startTime,
    expirationTime: s.expirationTime ?? null,
    remainingUses: s.usageLimit == null ? null : Math.max(0, s.usageLimit - c.numberOfUsages),
    limitedToOneItem: s.limitedToOneItem === true,
  };
}
