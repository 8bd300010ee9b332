import { formatMoney, preorderStatus, roundMoney } from '../model.js';
import type { DigitalFile } from '../model.js';

/**
 * Catalog V3 product as it travels on the wire (REST names of stores V3). Money is decimal text
 * (`"10.50"`), ids are UUIDs, `revision` is an int64 string used for optimistic concurrency.
 */

export interface Money { amount: string; formattedAmount: string }
export interface MoneyRange { minValue: Money; maxValue: Money }
export type ChoiceType = 'CHOICE_TEXT' | 'ONE_COLOR' | 'MULTIPLE_COLORS' | 'IMAGE';
export type AvailabilityStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';

export interface ImageRef { id: string; url: string; width?: number; height?: number; altText?: string | null; filename?: string | null }
export interface ProductMediaV3 { id: string; url?: string; image?: ImageRef; mediaType: 'IMAGE' | 'VIDEO'; altText?: string | null; displayName?: string | null }

export interface OptionChoiceV3 {
  choiceId: string; name: string; choiceType: ChoiceType; key: string;
  colorCode?: string; multipleColors?: { colorCodes: string[] }; image?: ImageRef;
  inStock: boolean; visible: boolean; linkedMedia?: ProductMediaV3[];
}
export interface OptionV3 { id: string; name: string; key: string; optionRenderType: 'TEXT_CHOICES' | 'SWATCH_CHOICES'; choicesSettings: { choices: OptionChoiceV3[] } }

export interface ModifierChoiceV3 { choiceId: string; name: string; key: string; choiceType: ChoiceType; colorCode?: string; multipleColors?: { colorCodes: string[] }; addedPrice?: string | null }
export interface ModifierV3 {
  id: string; name: string; key: string; modifierRenderType: 'FREE_TEXT' | 'TEXT_CHOICES' | 'SWATCH_CHOICES'; mandatory: boolean;
  freeTextSettings?: { minCharCount: number; maxCharCount: number; defaultAddedPrice?: string | null; title: string; key: string };
  choicesSettings?: { choices: ModifierChoiceV3[] };
}

export interface VariantChoiceV3 {
  optionChoiceIds: { optionId: string; choiceId: string };
  optionChoiceNames: { optionName: string; choiceName: string; renderType: 'TEXT_CHOICES' | 'SWATCH_CHOICES' };
}

export interface SubscriptionV3 {
  id: string; title: string; description?: string | null; visible: boolean; frequency: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; interval: number;
  autoRenewal: boolean; billingCycles?: number; discount?: { type: 'AMOUNT' | 'PERCENT'; amountOff?: string; percentOff?: number };
}

export interface VariantV3 {
  id: string; visible: boolean; sku?: string | null; barcode?: string | null;
  choices: VariantChoiceV3[];
  price: { actualPrice: Money; compareAtPrice?: Money };
  revenueDetails?: { cost: Money; profit: Money; profitMargin: number };
  physicalProperties?: { weight?: number | null };
  digitalProperties?: { digitalFile: DigitalFile };
  inventoryStatus: { inStock: boolean; preorderEnabled: boolean };
  subscriptionPricesInfo?: { subscriptionPrices: { subscriptionId: string; price: Money }[] };
}

/** Tag ids of a product: public ones anyone may see, private ones only elevated callers. */
export interface TagsV3 { privateTags?: { tagIds: string[] }; publicTags?: { tagIds: string[] } }

export interface ProductV3 {
  id: string;
  revision: string;
  createdDate: string;
  updatedDate: string;
  name: string;
  slug: string;
  url: { relativePath: string; url: string };
  description?: unknown;
  plainDescription: string;
  visible: boolean;
  visibleInPos: boolean;
  media: { main?: ProductMediaV3; itemsInfo: { items: ProductMediaV3[] } };
  options: OptionV3[];
  modifiers: ModifierV3[];
  brand?: { id: string; name: string };
  ribbon?: { id: string; name: string };
  infoSections: { id: string; uniqueName: string; title: string; description?: unknown; plainDescription?: string }[];
  directCategoriesInfo: { categories: { id: string; index: number }[] };
  allCategoriesInfo: { categories: { id: string; index: number }[] };
  mainCategoryId: string;
  costRange?: MoneyRange;
  inventory: { availabilityStatus: AvailabilityStatus; preorderStatus: 'ENABLED' | 'DISABLED' | 'PARTIALLY_ENABLED'; preorderAvailability: 'ALL_VARIANTS' | 'NO_VARIANTS' | 'SOME_VARIANTS' };
  productType: 'PHYSICAL' | 'DIGITAL';
  physicalProperties?: { shippingWeightRange?: { minValue: number; maxValue: number } };
  currency: string;
  actualPriceRange: MoneyRange;
  compareAtPriceRange: MoneyRange;
  variantsInfo: { variants: VariantV3[] };
  subscriptionDetails?: { subscriptions: SubscriptionV3[]; allowOneTimePurchases: boolean };
  variantSummary: { variantCount: number };
  tags?: TagsV3;
}

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
