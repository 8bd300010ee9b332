/**
 * Catalog V1 product of the domain, and the pure rules that derive one field from others: discounted
 * prices, formatted prices, variants from options, ranges and stock status. No I/O here. The wire
 * shapes are defined once in `@vitrine/types` and re-exported here for the domain's files.
 */
import type {
  CostAndProfit, Discount, InventoryStatus, MeasurementUnit, MediaType, NumericRange, PriceData, PricePerUnitData, ProductOption, Variant,
  ProductV1 as WireProductV1,
} from '@vitrine/types/stores';

export type {
  Choice, CostAndProfit, Discount, DiscountType, FormattedPrice, InventoryStatus, MeasurementUnit, MediaImage, MediaItem, MediaType, MediaVideo,
  NumericRange, OptionType, PriceData, PricePerUnitData, ProductMedia, ProductOption, ProductType, Stock, Variant, VariantData, VariantStock,
} from '@vitrine/types/stores';

export const MEASUREMENT_UNITS = ['ML', 'CL', 'L', 'CBM', 'MG', 'G', 'KG', 'MM', 'CM', 'M', 'SQM', 'OZ', 'LB', 'FLOZ', 'PT', 'QT', 'GAL', 'IN', 'FT', 'YD', 'SQFT'] as const satisfies readonly MeasurementUnit[];
export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'zip'] as const satisfies readonly MediaType[];

/** An owner's per-variant change (updateProductVariants); absent fields follow the product. */
export interface VariantOverride { price?: number; cost?: number; weight?: number; sku?: string; visible?: boolean }
/** Stock of one variant as the inventory table holds it. */
export interface StockRow { variantId: string; trackQuantity: boolean; quantity: number | null; inStock: boolean; preorderEnabled: boolean; preorderLimit: number | null }

/**
 * The domain's product: the wire document (`@vitrine/types`) plus the owner inputs derived fields are
 * computed from. Services return it; `present.ts` turns it into the wire shape for a caller.
 */
export interface ProductV1 extends WireProductV1 {
  /** Owner inputs that derived fields are computed from; stored, never sent. */
  _src?: { cost?: number; overrides: Record<string, VariantOverride> };
}

/** Rounds to cents without binary drift (1.005 -> 1.01). */
export function roundMoney(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}

/** Formatters per currency: building an Intl.NumberFormat costs far more than formatting with one. */
const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string): string {
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formatters.set(currency, f);
  }
  return f.format(amount);
}

export function discountedPrice(price: number, discount: Discount): number {
  switch (discount.type) {
    case 'PERCENT': return roundMoney(Math.max(0, price * (1 - discount.value / 100)));
    case 'AMOUNT': return roundMoney(Math.max(0, price - discount.value));
    default: return price;
  }
}

/** `ppu`: price per unit settings; the price per base unit is the discounted price over the total quantity. */
export function priceData(price: number, discount: Discount, currency: string, ppu?: PricePerUnitData): PriceData {
  const discounted = discountedPrice(price, discount);
  const pd: PriceData = { currency, price, discountedPrice: discounted, formatted: { price: formatMoney(price, currency), discountedPrice: formatMoney(discounted, currency) } };
  if (ppu && ppu.totalQuantity > 0) {
    const perUnit = roundMoney((discounted / ppu.totalQuantity) * ppu.baseQuantity);
    pd.pricePerUnit = perUnit;
    pd.formatted.pricePerUnit = `${formatMoney(perUnit, currency)}/${ppu.baseQuantity === 1 ? '' : ppu.baseQuantity}${ppu.baseMeasurementUnit}`;
  }
  return pd;
}

export function costAndProfit(cost: number, discounted: number, currency: string): CostAndProfit {
  const profit = roundMoney(discounted - cost);
  return {
    itemCost: cost, formattedItemCost: formatMoney(cost, currency), profit, formattedProfit: formatMoney(profit, currency),
    profitMargin: discounted > 0 ? roundMoney(profit / discounted) : 0,
  };
}

/** Stable key of a choices map (option order does not matter). */
export function choicesKey(choices: Record<string, string>): string {
  return JSON.stringify(Object.keys(choices).sort().map((k) => [k, choices[k]]));
}

/** The built-in collection every product is in (the platform's fixed id). */
export const ALL_PRODUCTS_COLLECTION_ID = '00000000-000000-000000-000000000001';

/** The id of the only variant of a product without options. */
export const DEFAULT_VARIANT_ID = '00000000-0000-0000-0000-000000000000';

/** Every combination of option choices, in option order (the cartesian product). */
export function choiceCombinations(options: ProductOption[]): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const option of options) {
    combos = combos.flatMap((combo) => option.choices.map((choice) => ({ ...combo, [option.name]: choice.value })));
  }
  return combos;
}

export function inventoryStatus(variants: Variant[], productInStock: boolean): InventoryStatus {
  if (variants.length <= 1) return productInStock ? 'IN_STOCK' : 'OUT_OF_STOCK';
  const inStock = variants.filter((v) => v.stock.inStock).length;
  if (inStock === 0) return 'OUT_OF_STOCK';
  return inStock === variants.length ? 'IN_STOCK' : 'PARTIALLY_OUT_OF_STOCK';
}

/** Preorder across variants: ENABLED when all allow it, PARTIALLY_ENABLED when some do. */
export function preorderStatus(rows: { preorderEnabled: boolean }[]): 'ENABLED' | 'DISABLED' | 'PARTIALLY_ENABLED' {
  const on = rows.filter((r) => r.preorderEnabled).length;
  if (on === 0) return 'DISABLED';
  return on === rows.length ? 'ENABLED' : 'PARTIALLY_ENABLED';
}

export function range(values: number[]): NumericRange {
  return values.length === 0 ? { minValue: 0, maxValue: 0 } : { minValue: Math.min(...values), maxValue: Math.max(...values) };
}

/** JSON with object keys sorted: equality of documents that went through jsonb (which reorders keys). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

/** The stock location every variant has an item at; storefront availability and checkout read only it. */
export { DEFAULT_LOCATION_ID } from '../inventory/index.js';

/** A stored product's visitor document (JSON text, see present.ts) with what a listing needs beside it. */
export interface PublicProductRow { id: string; publicDoc: string; collectionIds: string[]; createdDate: string; lastUpdated: string }

export type Catalog = 'v1' | 'v3';

/** V3 `SecuredMedia` of a variant's `digitalProperties.digitalFile`. */
export type { DigitalFile, SecureFileType } from '@vitrine/types/stores';
