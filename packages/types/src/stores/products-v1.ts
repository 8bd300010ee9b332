/**
 * Catalog V1 (stores V1 API): products, collections, variants, as they travel on the wire. Field
 * names are the REST names of the contract; dates are ISO text.
 */
import type { IsoDate, OffsetPagingMetadata } from '../common.js';

export type ProductType = 'physical' | 'digital';
export type DiscountType = 'NONE' | 'AMOUNT' | 'PERCENT';
export type OptionType = 'drop_down' | 'color';
export type InventoryStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';
export type MeasurementUnit = 'ML' | 'CL' | 'L' | 'CBM' | 'MG' | 'G' | 'KG' | 'MM' | 'CM' | 'M' | 'SQM' | 'OZ' | 'LB' | 'FLOZ' | 'PT' | 'QT' | 'GAL' | 'IN' | 'FT' | 'YD' | 'SQFT';
export type MediaType = 'image' | 'video' | 'audio' | 'document' | 'zip';

export interface PricePerUnitData { totalQuantity: number; totalMeasurementUnit: MeasurementUnit; baseQuantity: number; baseMeasurementUnit: MeasurementUnit }
export interface FormattedPrice { price: string; discountedPrice: string; pricePerUnit?: string }
export interface PriceData { currency: string; price: number; discountedPrice: number; formatted: FormattedPrice; pricePerUnit?: number }
export interface NumericRange { minValue: number; maxValue: number }
export interface Discount { type: DiscountType; value: number }
export interface Stock { trackInventory: boolean; quantity?: number; inStock: boolean; inventoryStatus: InventoryStatus }

export interface MediaImage { url: string; width: number; height: number }
export interface MediaVideo { files: MediaImage[]; stillFrameMediaId?: string }
export interface MediaItem { id: string; title: string; mediaType: MediaType; image?: MediaImage; video?: MediaVideo; thumbnail?: MediaImage; url?: string }
export interface ProductMedia { mainMedia?: MediaItem; items: MediaItem[] }

export interface Choice { value: string; description: string; inStock: boolean; visible: boolean; media?: ProductMedia }
export interface ProductOption { optionType: OptionType; name: string; choices: Choice[] }

export interface CostAndProfit { itemCost: number; formattedItemCost: string; profit: number; formattedProfit: string; profitMargin: number }
export interface VariantData { priceData: PriceData; convertedPriceData: PriceData; costAndProfitData?: CostAndProfit; weight?: number; sku?: string; visible: boolean }
export interface VariantStock { trackQuantity: boolean; quantity?: number; inStock: boolean }
export interface Variant { id: string; choices: Record<string, string>; variant: VariantData; stock: VariantStock }

export interface SeoTag { type: string; children?: string; props?: Record<string, unknown>; meta?: Record<string, unknown>; disabled?: boolean }
export interface CustomTextField { title: string; maxLength: number; mandatory: boolean }
export interface InfoSection { title: string; description: string }

/** A V1 product. Cost and profit fields are present only for elevated callers asking for merchant data. */
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
  costAndProfitData?: CostAndProfit;
  pricePerUnitData?: PricePerUnitData;
  seoData?: { tags: SeoTag[] };
  costRange?: NumericRange;
  weightRange?: NumericRange;
  additionalInfoSections: InfoSection[];
  ribbons: { text: string }[];
  media: ProductMedia;
  customTextFields: CustomTextField[];
  manageVariants: boolean;
  productOptions: ProductOption[];
  productPageUrl: { base: string; path: string };
  numericId: string;
  inventoryItemId: string;
  discount: Discount;
  collectionIds: string[];
  variants: Variant[];
  lastUpdated: IsoDate;
  createdDate: IsoDate;
  ribbon?: string;
  brand?: string;
}

/** `createProduct` body `product`: what an owner sets; prices, variants and ranges are derived. */
export interface ProductV1Input {
  name: string;
  slug?: string;
  description?: string;
  productType?: ProductType;
  sku?: string;
  weight?: number;
  visible?: boolean;
  brand?: string;
  ribbon?: string;
  priceData: { price: number };
  costAndProfitData?: { itemCost: number };
  discount?: Discount;
  productOptions?: { optionType?: OptionType; name: string; choices: { value: string; description: string; inStock?: boolean; visible?: boolean }[] }[];
  manageVariants?: boolean;
  stock?: { trackInventory?: boolean; quantity?: number; inStock?: boolean };
  collectionIds?: string[];
  pricePerUnitData?: PricePerUnitData;
  customTextFields?: { title: string; maxLength: number; mandatory?: boolean }[];
  additionalInfoSections?: InfoSection[];
  seoData?: { tags: SeoTag[] };
}

/** `updateProduct` body `product`: any subset of the create fields; `null` brand or ribbon removes it. */
export interface ProductV1Patch extends Partial<Omit<ProductV1Input, 'brand' | 'ribbon'>> {
  id?: string;
  brand?: string | null;
  ribbon?: string | null;
}

export interface ProductResponse { product: ProductV1 }
export interface QueryProductsResponse { products: ProductV1[]; metadata: OffsetPagingMetadata }

/** A V1 collection (`numberOfProducts` on reads). */
export interface CollectionV1 { id: string; name: string; slug: string; visible: boolean; description?: string; media?: unknown; numberOfProducts?: number }
export interface CollectionResponse { collection: CollectionV1 }
export interface QueryCollectionsResponse { collections: CollectionV1[]; metadata: OffsetPagingMetadata }

// ---- Variant reads of the V1 reader (`/stores-reader/v1/...`)

/** A variant across products (`/variants/query`, `/variants/:id`); `id` is `<productId>-<variantId>`. */
export interface StoreVariant {
  id: string;
  variantId: string;
  productId: string;
  variantName: string;
  productName: string;
  managedVariant: boolean;
  sku?: string;
  stock: VariantStock;
  choices: Record<string, string>;
  collectionIds: string[];
  media?: { image: { id: string; url: string; width: number; height: number } };
  preorderInfo: { enabled: boolean };
}
export interface StoreVariantResponse { variant: StoreVariant }
export interface QueryStoreVariantsResponse { variants: StoreVariant[]; metadata: { count: number; offset: number; total: number } }

/** `products/:id/variants/query`: variants of one product by choices or ids. */
export interface QueryProductVariantsResponse { variants: Variant[]; metadata: { items: number; offset: number }; totalResults: number }

/** `products/:id/productOptionsAvailability`: in-stock choices for a (partial) selection. */
export interface ProductOptionsAvailability {
  selectedVariant?: { price: PriceData; convertedPriceData: PriceData; weight?: number; sku?: string; quantity?: number; inStock: boolean; visible: boolean };
  media: ProductMedia;
  productOptions: ProductOption[];
  availableForPurchase: boolean;
}
