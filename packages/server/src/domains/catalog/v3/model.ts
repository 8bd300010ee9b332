import { formatMoney, preorderStatus, roundMoney } from '../model.js';

/**
 * Catalog V3 product rules (money as decimal text, ranges, inventory summary). The wire shapes are
 * defined once in `@vitrine/types` and re-exported here for the domain's files.
 */
import type { AvailabilityStatus, Money, MoneyRange, ProductV3, SubscriptionV3 } from '@vitrine/types/stores';

export type {
  AvailabilityStatus, ChoiceType, ImageRef, ModifierChoiceV3, ModifierV3, Money, MoneyRange, OptionChoiceV3, OptionV3, ProductMediaV3, ProductV3,
  SubscriptionV3, TagsV3, VariantChoiceV3, VariantV3,
} from '@vitrine/types/stores';

/** The category every V3 product is in. */
export const ALL_PRODUCTS_CATEGORY_ID = '00000000-0000-0000-0000-000000000001';

export function money(amount: number, currency: string): Money {
  return { amount: decimal(amount), formattedAmount: formatMoney(amount, currency) };
}

/** Decimal text without binary noise: 10 -> "10", 10.5 -> "10.5", 1.005 -> "1.01". */
export function decimal(amount: number): string {
  return String(roundMoney(amount));
}

export function moneyRange(values: number[], currency: string): MoneyRange {
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 0;
  return { minValue: money(lo, currency), maxValue: money(hi, currency) };
}

/** Text of a rich-content document (nodes with textData.text), for search and plainDescription. */
export function richText(doc: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 50 || !node || typeof node !== 'object') return;
    const n = node as { textData?: { text?: unknown }; nodes?: unknown[] };
    if (typeof n.textData?.text === 'string') out.push(n.textData.text);
    if (Array.isArray(n.nodes)) for (const c of n.nodes) walk(c, depth + 1);
  };
  walk(doc, 0);
  return out.join(' ').replace(/\s+/g, ' ').trim();
}

/** Inventory summary of a product from its variants' stock. */
export function inventorySummary(variants: { inStock: boolean; preorderEnabled: boolean }[]): ProductV3['inventory'] {
  const inStock = variants.filter((v) => v.inStock).length;
  const availabilityStatus: AvailabilityStatus = inStock === 0 ? 'OUT_OF_STOCK' : inStock === variants.length ? 'IN_STOCK' : 'PARTIALLY_OUT_OF_STOCK';
  const pre = preorderStatus(variants);
  return { availabilityStatus, preorderStatus: pre, preorderAvailability: pre === 'ENABLED' ? 'ALL_VARIANTS' : pre === 'DISABLED' ? 'NO_VARIANTS' : 'SOME_VARIANTS' };
}

/** Price of a variant under a subscription, after the subscription's discount. */
export function subscriptionPrice(price: number, s: SubscriptionV3): number {
  if (!s.discount) return price;
  if (s.discount.type === 'PERCENT') return roundMoney(Math.max(0, price * (1 - (s.discount.percentOff ?? 0) / 100)));
  return roundMoney(Math.max(0, price - Number(s.discount.amountOff ?? 0)));
}
