import { randomUUID } from 'node:crypto';
import {
  choiceCombinations, inventoryStatus, priceData, range, roundMoney, formatMoney,
  type Discount, type ProductMedia, type ProductOption, type ProductType, type ProductV1, type Variant,
} from './model.js';

/** What an owner (or the seed) gives to create a V1 product; everything else is derived. */
export interface NewProductInput {
  id?: string;
  name: string;
  slug?: string;
  description?: string;
  productType?: ProductType;
  price: number;
  cost?: number;
  discount?: Discount;
  sku?: string;
  weight?: number;
  visible?: boolean;
  brand?: string;
  ribbon?: string;
  productOptions?: ProductOption[];
  /** Per-variant overrides keyed by the choices, e.g. `{Size: 'L'}`: price surcharge and stock. */
  variantOverrides?: { choices: Record<string, string>; priceDelta?: number; quantity?: number; inStock?: boolean }[];
  trackInventory?: boolean;
  quantity?: number;
  inStock?: boolean;
  media?: ProductMedia;
  collectionIds?: string[];
  additionalInfoSections?: { title: string; description: string }[];
}

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'product';
}

/** Numeric ids are int64 on the wire (as strings); ours stay below 2^53 so they survive JSON. */
export function newNumericId(now = new Date()): string {
  return String(now.getTime() * 1000 + Math.floor(Math.random() * 1000));
}

function sameChoices(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

export function buildProductV1(input: NewProductInput, currency: string, now = new Date()): ProductV1 {
  const discount: Discount = input.discount ?? { type: 'NONE', value: 0 };
  const options = input.productOptions ?? [];
  const trackInventory = input.trackInventory ?? false;
  const variants: Variant[] = choiceCombinations(options).map((choices) => {
    const override = input.variantOverrides?.find((o) => sameChoices(o.choices, choices));
    const variantPrice = roundMoney(input.price + (override?.priceDelta ?? 0));
    const pd = priceData(variantPrice, discount, currency);
    const quantity = trackInventory ? (override?.quantity ?? input.quantity ?? 0) : undefined;
    const inStock = trackInventory ? (quantity ?? 0) > 0 : (override?.inStock ?? input.inStock ?? true);
    return {
      id: Object.keys(choices).length === 0 ? '00000000-0000-0000-0000-000000000000' : randomUUID(),
      choices,
      variant: { priceData: pd, convertedPriceData: pd, weight: input.weight, sku: input.sku, visible: true },
      stock: { trackQuantity: trackInventory, ...(quantity === undefined ? {} : { quantity }), inStock },
    };
  });
  const productInStock = variants.some((v) => v.stock.inStock);
  const totalQuantity = trackInventory ? variants.reduce((sum, v) => sum + (v.stock.quantity ?? 0), 0) : undefined;
  const pd = priceData(input.price, discount, currency);
  const prices = variants.map((v) => v.variant.priceData.price);
  const cost = input.cost;
  const product: ProductV1 = {
    id: input.id ?? randomUUID(),
    name: input.name,
    slug: input.slug ?? slugify(input.name),
    visible: input.visible ?? true,
    productType: input.productType ?? 'physical',
    description: input.description ?? '',
    ...(input.sku ? { sku: input.sku } : {}),
    ...(input.weight !== undefined ? { weight: input.weight, weightRange: { minValue: input.weight, maxValue: input.weight } } : {}),
    stock: {
      trackInventory,
      ...(totalQuantity === undefined ? {} : { quantity: totalQuantity }),
      inStock: productInStock,
      inventoryStatus: inventoryStatus(variants, productInStock),
    },
    price: pd,
    priceData: pd,
    convertedPriceData: pd,
    priceRange: range(prices),
    ...(cost !== undefined ? {
      costAndProfitData: {
        itemCost: cost,
        formattedItemCost: formatMoney(cost, currency),
        profit: roundMoney(pd.discountedPrice - cost),
        formattedProfit: formatMoney(roundMoney(pd.discountedPrice - cost), currency),
        profitMargin: pd.discountedPrice > 0 ? roundMoney((pd.discountedPrice - cost) / pd.discountedPrice) : 0,
      },
      costRange: { minValue: cost, maxValue: cost },
    } : {}),
    additionalInfoSections: input.additionalInfoSections ?? [],
    ribbons: input.ribbon ? [{ text: input.ribbon }] : [],
    media: input.media ?? { items: [] },
    customTextFields: [],
    manageVariants: options.length > 0,
    productOptions: options,
    productPageUrl: { base: '/', path: `/product-page/${input.slug ?? slugify(input.name)}` },
    numericId: newNumericId(now),
    inventoryItemId: randomUUID(),
    discount,
    collectionIds: input.collectionIds ?? [],
    variants,
    lastUpdated: now.toISOString(),
    createdDate: now.toISOString(),
    ...(input.ribbon ? { ribbon: input.ribbon } : {}),
    ...(input.brand ? { brand: input.brand } : {}),
  };
  return product;
}
