import { randomUUID } from 'node:crypto';
import {
  choiceCombinations, choicesKey, costAndProfit, DEFAULT_VARIANT_ID, inventoryStatus, priceData, range, roundMoney,
  type Discount, type PricePerUnitData, type ProductMedia, type ProductOption, type ProductType, type ProductV1, type StockRow,
  type Variant, type VariantOverride,
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
  customTextFields?: { title: string; maxLength: number; mandatory: boolean }[];
  pricePerUnitData?: PricePerUnitData;
  manageVariants?: boolean;
  seoData?: ProductV1['seoData'];
}

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'product';
}

/** Numeric ids are int64 on the wire (as strings); ours stay below 2^53 so they survive JSON. */
export function newNumericId(now = new Date()): string {
  return String(now.getTime() * 1000 + Math.floor(Math.random() * 1000));
}

function sameChoices(a: Record<string, string>, b: Record<string, string>): boolean {
  return choicesKey(a) === choicesKey(b);
}

/**
 * Recomputes every derived field of a V1 product from its owner inputs (price, discount, cost, options,
 * per-variant overrides) and the stock rows of its variants. Variant ids survive as long as their
 * choices do. Pure: same inputs, same product (apart from new variant ids).
 */
export function deriveProductV1(p: ProductV1, currency: string, stock: StockRow[]): ProductV1 {
  const src = p._src ?? { overrides: {} };
  const discount = p.discount;
  const basePrice = p.priceData.price;
  const ppu = p.pricePerUnitData;
  const idByChoices = new Map(p.variants.map((v) => [choicesKey(v.choices), v.id]));
  const stockById = new Map(stock.map((s) => [s.variantId, s]));
  const overrides: Record<string, VariantOverride> = {};
  const variants: Variant[] = choiceCombinations(p.productOptions).map((choices) => {
    const id = Object.keys(choices).length === 0 ? DEFAULT_VARIANT_ID : (idByChoices.get(choicesKey(choices)) ?? randomUUID());
    const o = src.overrides[id] ?? {};
    if (Object.keys(o).length > 0) overrides[id] = o;
    const pd = priceData(o.price ?? basePrice, discount, currency, ppu);
    const cost = o.cost ?? src.cost;
    const weight = o.weight ?? p.weight;
    const sku = o.sku ?? p.sku;
    const s = stockById.get(id);
    return {
      id,
      choices,
      variant: {
        priceData: pd, convertedPriceData: pd,
        ...(cost !== undefined ? { costAndProfitData: costAndProfit(cost, pd.discountedPrice, currency) } : {}),
        ...(weight !== undefined ? { weight } : {}),
        ...(sku !== undefined ? { sku } : {}),
        visible: o.visible ?? true,
      },
      stock: s
        ? { trackQuantity: s.trackQuantity, ...(s.trackQuantity ? { quantity: s.quantity ?? 0 } : {}), inStock: s.trackQuantity ? (s.quantity ?? 0) > 0 || s.preorderEnabled : s.inStock }
        : { trackQuantity: false, inStock: true },
    };
  });
  const tracked = variants.length > 0 && variants.every((v) => v.stock.trackQuantity);
  const productInStock = variants.some((v) => v.stock.inStock);
  const pd = priceData(basePrice, discount, currency, ppu);
  const costs = variants.map((v) => v.variant.costAndProfitData?.itemCost).filter((c): c is number => c !== undefined);
  const weights = variants.map((v) => v.variant.weight).filter((w): w is number => w !== undefined);
  // Choices are in stock when some variant with that choice is.
  const productOptions = p.productOptions.map((option) => ({
    ...option,
    choices: option.choices.map((choice) => ({
      ...choice,
      inStock: variants.some((v) => v.choices[option.name] === choice.value && v.stock.inStock),
    })),
  }));
  const out: ProductV1 = {
    ...p,
    productOptions,
    stock: {
      trackInventory: tracked,
      ...(tracked ? { quantity: variants.reduce((sum, v) => sum + (v.stock.quantity ?? 0), 0) } : {}),
      inStock: productInStock,
      inventoryStatus: inventoryStatus(variants, productInStock),
    },
    price: pd,
    priceData: pd,
    convertedPriceData: pd,
    priceRange: range(variants.map((v) => v.variant.priceData.price)),
    variants,
    manageVariants: p.manageVariants && p.productOptions.length > 0,
    productPageUrl: { base: '/', path: `/product-page/${p.slug}` },
    ribbons: p.ribbon ? [{ text: p.ribbon }] : [],
    _src: { ...(src.cost !== undefined ? { cost: src.cost } : {}), overrides },
  };
  delete out.costAndProfitData;
  delete out.costRange;
  delete out.weightRange;
  if (src.cost !== undefined) {
    out.costAndProfitData = costAndProfit(src.cost, pd.discountedPrice, currency);
    out.costRange = range(costs);
  }
  if (weights.length > 0) out.weightRange = range(weights);
  return out;
}

/** Stock rows of a new product: tracked quantity or a plain in-stock flag, per variant. */
export function initialStock(product: ProductV1, input: Pick<NewProductInput, 'trackInventory' | 'quantity' | 'inStock' | 'variantOverrides'>): StockRow[] {
  const track = input.trackInventory ?? false;
  return product.variants.map((v) => {
    const override = input.variantOverrides?.find((o) => sameChoices(o.choices, v.choices));
    const quantity = track ? (override?.quantity ?? input.quantity ?? 0) : null;
    return {
      variantId: v.id, trackQuantity: track, quantity,
      inStock: track ? (quantity ?? 0) > 0 : (override?.inStock ?? input.inStock ?? true),
      preorderEnabled: false, preorderLimit: null,
    };
  });
}

/** Builds a new product and its stock rows from an owner's input. */
export function buildProductWithStock(input: NewProductInput, currency: string, now = new Date()): { product: ProductV1; stock: StockRow[] } {
  const options = input.productOptions ?? [];
  const slug = input.slug ?? slugify(input.name);
  const discount: Discount = input.discount ?? { type: 'NONE', value: 0 };
  const skeleton: ProductV1 = {
    id: input.id ?? randomUUID(),
    name: input.name,
    slug,
    visible: input.visible ?? true,
    productType: input.productType ?? 'physical',
    description: input.description ?? '',
    ...(input.sku ? { sku: input.sku } : {}),
    ...(input.weight !== undefined ? { weight: input.weight } : {}),
    stock: { trackInventory: false, inStock: true, inventoryStatus: 'IN_STOCK' },
    price: priceData(input.price, discount, currency),
    priceData: priceData(input.price, discount, currency),
    convertedPriceData: priceData(input.price, discount, currency),
    priceRange: { minValue: input.price, maxValue: input.price },
    ...(input.pricePerUnitData ? { pricePerUnitData: input.pricePerUnitData } : {}),
    additionalInfoSections: input.additionalInfoSections ?? [],
    ribbons: [],
    media: input.media ?? { items: [] },
    customTextFields: input.customTextFields ?? [],
    manageVariants: input.manageVariants ?? options.length > 0,
    productOptions: options,
    productPageUrl: { base: '/', path: `/product-page/${slug}` },
    numericId: newNumericId(now),
    inventoryItemId: randomUUID(),
    discount,
    collectionIds: input.collectionIds ?? [],
    variants: [],
    lastUpdated: now.toISOString(),
    createdDate: now.toISOString(),
    ...(input.seoData ? { seoData: input.seoData } : {}),
    ...(input.ribbon ? { ribbon: input.ribbon } : {}),
    ...(input.brand ? { brand: input.brand } : {}),
    _src: { ...(input.cost !== undefined ? { cost: input.cost } : {}), overrides: {} },
  };
  // First pass assigns variant ids; price surcharges become per-variant price overrides.
  const first = deriveProductV1(skeleton, currency, []);
  const overrides: Record<string, VariantOverride> = {};
  for (const v of first.variants) {
    const o = input.variantOverrides?.find((x) => sameChoices(x.choices, v.choices));
    if (o?.priceDelta) overrides[v.id] = { price: roundMoney(input.price + o.priceDelta) };
  }
  const withOverrides: ProductV1 = { ...first, _src: { ...first._src!, overrides } };
  const stock = initialStock(withOverrides, input);
  return { product: deriveProductV1(withOverrides, currency, stock), stock };
}

/** The seed's entry point (demo store): a product whose variant stock is carried in the document. */
export function buildProductV1(input: NewProductInput, currency: string, now = new Date()): ProductV1 {
  return buildProductWithStock(input, currency, now).product;
}
