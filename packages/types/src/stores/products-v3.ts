/**
 * Catalog V3 (stores V3 API) products as they travel on the wire: money is decimal text (`"10.50"`),
 * ids are UUIDs, `revision` is an int64 as text for optimistic concurrency, dates are ISO text.
 */
import type { BulkActionMetadata, BulkItemMetadata, CursorPagingMetadata, IsoDate } from '../common.js';
import type { SeoTag } from './products-v1.js';

export interface Money { amount: string; formattedAmount: string }
export interface MoneyRange { minValue: Money; maxValue: Money }
export type ChoiceType = 'CHOICE_TEXT' | 'ONE_COLOR' | 'MULTIPLE_COLORS' | 'IMAGE';
export type AvailabilityStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';
export type PreorderStatus = 'ENABLED' | 'DISABLED' | 'PARTIALLY_ENABLED';
export type OptionRenderType = 'TEXT_CHOICES' | 'SWATCH_CHOICES';

export interface ImageRef { id: string; url: string; width?: number; height?: number; altText?: string | null; filename?: string | null }
export interface ProductMediaV3 { id: string; url?: string; image?: ImageRef; mediaType: 'IMAGE' | 'VIDEO'; altText?: string | null; displayName?: string | null }

export interface OptionChoiceV3 {
  choiceId: string; name: string; choiceType: ChoiceType; key: string;
  colorCode?: string; multipleColors?: { colorCodes: string[] }; image?: ImageRef;
  inStock: boolean; visible: boolean; linkedMedia?: ProductMediaV3[];
}
export interface OptionV3 { id: string; name: string; key: string; optionRenderType: OptionRenderType; choicesSettings: { choices: OptionChoiceV3[] } }

export interface ModifierChoiceV3 { choiceId: string; name: string; key: string; choiceType: ChoiceType; colorCode?: string; multipleColors?: { colorCodes: string[] }; addedPrice?: string | null }
export interface ModifierV3 {
  id: string; name: string; key: string; modifierRenderType: 'FREE_TEXT' | OptionRenderType; mandatory: boolean;
  freeTextSettings?: { minCharCount: number; maxCharCount: number; defaultAddedPrice?: string | null; title: string; key: string };
  choicesSettings?: { choices: ModifierChoiceV3[] };
}

export interface VariantChoiceV3 {
  optionChoiceIds: { optionId: string; choiceId: string };
  optionChoiceNames: { optionName: string; choiceName: string; renderType: OptionRenderType };
}

export interface SubscriptionV3 {
  id: string; title: string; description?: string | null; visible: boolean; frequency: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; interval: number;
  autoRenewal: boolean; billingCycles?: number; discount?: { type: 'AMOUNT' | 'PERCENT'; amountOff?: string; percentOff?: number };
}

export type SecureFileType = 'SECURE_PICTURE' | 'SECURE_VIDEO' | 'SECURE_DOCUMENT' | 'SECURE_MUSIC' | 'SECURE_ARCHIVE';
/** A digital product's file (uploaded through the media upload call); `fileSize` is int64 text. */
export interface DigitalFile { id: string; fileName: string; fileSize: string; fileType: SecureFileType }

export interface VariantV3 {
  id: string; visible: boolean; sku?: string | null; barcode?: string | null;
  choices: VariantChoiceV3[];
  price: { actualPrice: Money; compareAtPrice?: Money };
  /** Elevated callers asking for MERCHANT_DATA only. */
  revenueDetails?: { cost: Money; profit: Money; profitMargin: number };
  physicalProperties?: { weight?: number | null };
  digitalProperties?: { digitalFile: DigitalFile };
  inventoryStatus: { inStock: boolean; preorderEnabled: boolean };
  subscriptionPricesInfo?: { subscriptionPrices: { subscriptionId: string; price: Money }[] };
}

/** Tag ids of a product: public ones anyone may see, private ones only elevated callers. */
export interface TagsV3 { privateTags?: { tagIds: string[] }; publicTags?: { tagIds: string[] } }

export interface CategoryRef { id: string; index: number }

export interface ProductV3 {
  id: string;
  revision: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  name: string;
  slug: string;
  url: { relativePath: string; url: string };
  /** Rich-content document. */
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
  directCategoriesInfo: { categories: CategoryRef[] };
  allCategoriesInfo: { categories: CategoryRef[] };
  mainCategoryId: string;
  /** Elevated callers asking for MERCHANT_DATA only. */
  costRange?: MoneyRange;
  inventory: { availabilityStatus: AvailabilityStatus; preorderStatus: PreorderStatus; preorderAvailability: 'ALL_VARIANTS' | 'NO_VARIANTS' | 'SOME_VARIANTS' };
  productType: 'PHYSICAL' | 'DIGITAL';
  physicalProperties?: { shippingWeightRange?: { minValue: number; maxValue: number } };
  currency: string;
  actualPriceRange: MoneyRange;
  compareAtPriceRange: MoneyRange;
  variantsInfo: { variants: VariantV3[] };
  subscriptionDetails?: { subscriptions: SubscriptionV3[]; allowOneTimePurchases: boolean };
  variantSummary: { variantCount: number };
  tags?: TagsV3;
  /** Search-engine tags (title, meta description, ...), as V1 products have them. */
  seoData?: { tags: SeoTag[] };
}

export interface ProductV3Response { product: ProductV3 }
export interface QueryProductsV3Response { products: ProductV3[]; pagingMetadata: CursorPagingMetadata }
export interface BulkProductsV3Response { results: { itemMetadata: BulkItemMetadata; item?: ProductV3 }[]; bulkActionMetadata: BulkActionMetadata }

// Requests. `null` on an optional field means "not set" (the platform's clients send it).

/** Money in a request: decimal text, at most 2 decimals. */
export interface AmountInput { amount: string }
export interface ImageRefInput { id?: string; url?: string; width?: number; height?: number; altText?: string | null; filename?: string | null }
export interface OptionChoiceV3Input {
  choiceId?: string | null; name: string; choiceType?: ChoiceType; colorCode?: string; multipleColors?: { colorCodes: string[] };
  image?: ImageRefInput; visible?: boolean;
}
export interface OptionV3Input { id?: string | null; name: string; optionRenderType?: OptionRenderType; choicesSettings: { choices: OptionChoiceV3Input[] } }
export interface ModifierV3Input {
  id?: string | null; name: string; modifierRenderType: 'FREE_TEXT' | OptionRenderType; mandatory?: boolean | null;
  freeTextSettings?: { minCharCount?: number; maxCharCount?: number; defaultAddedPrice?: string | null; title: string };
  choicesSettings?: { choices: (OptionChoiceV3Input & { addedPrice?: string | null })[] };
}
/** Stock of a variant given with the product (the `*WithInventory` calls and create). */
export interface VariantInventoryInput {
  trackQuantity?: boolean; quantity?: number; inStock?: boolean;
  preorderInfo?: { enabled?: boolean; message?: string | null; limit?: number | null };
}
export interface VariantV3Input {
  id?: string | null; visible?: boolean | null; sku?: string | null; barcode?: string | null;
  choices?: { optionChoiceNames?: { optionName: string; choiceName: string; renderType?: string }; optionChoiceIds?: { optionId: string; choiceId: string } }[];
  price: { actualPrice: AmountInput; compareAtPrice?: AmountInput | null };
  revenueDetails?: { cost?: AmountInput | null } | null;
  physicalProperties?: { weight?: number | null } | null;
  digitalProperties?: { digitalFile?: { id: string } | null } | null;
  inventoryItem?: VariantInventoryInput;
}
export interface SubscriptionV3Input {
  id?: string | null; title: string; description?: string | null; visible?: boolean | null; frequency: SubscriptionV3['frequency'];
  interval?: number | null; autoRenewal?: boolean; billingCycles?: number; discount?: { type: 'AMOUNT' | 'PERCENT'; amountOff?: string; percentOff?: number };
}
export interface TagsV3Input { privateTags?: { tagIds?: string[] } | null; publicTags?: { tagIds?: string[] } | null }
/** A brand or ribbon by id or by name (a new name creates it). */
export interface EntityRefInput { id?: string | null; name?: string | null }

/** `createProduct` body `product`. */
export interface ProductV3Input {
  name: string;
  slug?: string;
  description?: Record<string, unknown> | null;
  plainDescription?: string | null;
  visible?: boolean | null;
  visibleInPos?: boolean | null;
  productType: 'PHYSICAL' | 'DIGITAL';
  media?: { itemsInfo?: { items: { id?: string; url?: string; altText?: string | null; displayName?: string | null }[] } };
  options?: OptionV3Input[];
  modifiers?: ModifierV3Input[];
  brand?: EntityRefInput | null;
  ribbon?: EntityRefInput | null;
  infoSections?: { id?: string | null; uniqueName?: string | null; title?: string | null }[];
  directCategoriesInfo?: { categories: { id: string }[] };
  physicalProperties?: Record<string, unknown>;
  variantsInfo: { variants: VariantV3Input[] };
  subscriptionDetails?: { subscriptions: SubscriptionV3Input[]; allowOneTimePurchases?: boolean | null } | null;
  tags?: TagsV3Input | null;
  /** Replaces the product's search-engine tags; null clears them. */
  seoData?: { tags: SeoTag[] } | null;
}

/** `updateProduct` body `product`: any subset of the create fields, with the revision last read. */
export interface ProductV3Patch extends Partial<ProductV3Input> { id?: string | null; revision: string }

/** Free text of searchProducts and the by-filter calls. */
export interface ProductSearchDetails { expression?: string | null; mode?: 'OR' | 'AND'; fields?: string[]; fuzzy?: boolean }

// ---- Catalog bulk jobs (Vitrine extension: `GET /stores/v3/bulk/jobs/:jobId`; the platform answers
// these through its separate Async Jobs API). Products and inventory by-filter calls both start one.

export type CatalogBulkJobStatus = 'INITIALIZED' | 'PROCESSING' | 'FINISHED';
export interface CatalogBulkJobError { itemId: string; code: string; description: string }
export interface CatalogBulkJob {
  id: string;
  /** The by-filter call that started it (e.g. `products.update-tags`). */
  type: string;
  status: CatalogBulkJobStatus;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  errors: CatalogBulkJobError[];
  createdDate: IsoDate;
  updatedDate: IsoDate;
  finishedDate?: IsoDate;
}
export interface CatalogBulkJobResponse { job: CatalogBulkJob }
