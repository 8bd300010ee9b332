/**
 * Catalog V1 product as it travels on the wire (REST names of the platform's stores V1 API), and the
 * pure rules that derive one field from others: discounted prices, formatted prices, variants from
 * options, ranges and stock status. No I/O here.
 */

export type ProductType = 'physical' | 'digital';
export type DiscountType = 'NONE' | 'AMOUNT' | 'PERCENT';
export type OptionType = 'drop_down' | 'color';
export type InventoryStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';

export interface FormattedPrice { price: string; discountedPrice: string; pricePerUnit?: string }
export interface PriceData { currency: string; price: number; discountedPrice: number; formatted: FormattedPrice; pricePerUnit?: number }
export interface NumericRange { minValue: number; maxValue: number }
export interface Discount { type: DiscountType; value: number }
export interface Stock { trackInventory: boolean; quantity?: number; inStock: boolean; inventoryStatus: InventoryStatus }

export interface MediaImage { url: string; width: number; height: number }
export interface MediaItem { id: string; title: string; mediaType: 'image' | 'video' | 'audio' | 'document' | 'zip'; image?: MediaImage; thumbnail?: MediaImage }
export interface ProductMedia { mainMedia?: MediaItem; items: MediaItem[] }

export interface Choice { value: string; description: string; inStock: boolean; visible: boolean; media?: ProductMedia }
export interface ProductOption { optionType: OptionType; name: string; choices: Choice[] }

export interface VariantData { priceData: PriceData; convertedPriceData: PriceData; weight?: number; sku?: string; visible: boolean }
export interface Variant { id: string; choices: Record<string, string>; variant: VariantData; stock: { trackQuantity: boolean; quantity?: number; inStock: boolean } }

export interface ProductV1 {
  id: string;
  name: string;
  slug: string;
  visible: boolean;
  productType: ProductType;
  description: string;
  sku?: string;
  weight?: number;
  stock: Stock;
  price: PriceData;
  priceData: PriceData;
  convertedPriceData: PriceData;
  priceRange: NumericRange;
  costAndProfitData?: { itemCost: number; formattedItemCost: string; profit: number; formattedProfit: string; profitMargin: number };
  costRange?: NumericRange;
  weightRange?: NumericRange;
  additionalInfoSections: { title: string; description: string }[];
  ribbons: { text: string }[];
  media: ProductMedia;
  customTextFields: { title: string; maxLength: number; mandatory: boolean }[];
  manageVariants: boolean;
  productOptions: ProductOption[];
  productPageUrl: { base: string; path: string };
  numericId: string;
  inventoryItemId: string;
  discount: Discount;
  collectionIds: string[];
  variants: Variant[];
  lastUpdated: string;
  createdDate: string;
  ribbon?: string;
  brand?: string;
}

/** Rounds to cents without binary drift (1.005 -> 1.01). */
export function roundMoney(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}

export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
}

export function discountedPrice(price: number, discount: Discount): number {
  switch (discount.type) {
    case 'PERCENT': return roundMoney(Math.max(0, price * (1 - discount.value / 100)));
    case 'AMOUNT': return roundMoney(Math.max(0, price - discount.value));
    default: return price;
  }
}

export function priceData(price: number, discount: Discount, currency: string): PriceData {
  const discounted = discountedPrice(price, discount);
  return { currency, price, discountedPrice: discounted, formatted: { price: formatMoney(price, currency), discountedPrice: formatMoney(discounted, currency) } };
}

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

export function range(values: number[]): NumericRange {
  return values.length === 0 ? { minValue: 0, maxValue: 0 } : { minValue: Math.min(...values), maxValue: Math.max(...values) };
}
