import { z } from 'zod';
import type { InventoryDecrementV1, InventoryIncrementV1, InventoryItemV1Update, ProductSearchDetails, ProductV1Input, ProductV1Patch } from '@vitrine/types/stores';
import { conforms } from '../../http/conforms.js';
import { checkDecodedText, identifier } from '../../http/wire-schemas.js';
import { JsonTooDeepError, parseJsonSafely } from '../../http/wire.js';
import { MEASUREMENT_UNITS } from './model.js';

/** Largest page of a V1 product query (the platform's own bound). */
export const PRODUCT_PAGE_MAX = 100;
export const PAGE_DEFAULT = 50;

/**
 * JSON carried in a string. Its escapes decode only here, after the wire layer checked the request's
 * text, so the decoded value gets the text rule now; a filter sent as an object was already checked.
 */
const jsonText = (what: string) => z.string().max(20_000).transform((text, ctx) => {
  let value: unknown;
  try {
    value = parseJsonSafely(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) ctx.addIssue({ code: 'custom', message: error.message, params: { rule: 'MAX' } });
    else ctx.addIssue({ code: 'custom', message: `must be a JSON ${what}`, params: { rule: 'FORMAT' } });
    return z.NEVER;
  }
  checkDecodedText(value, ctx);
  return value;
});

export const sortItem = z.object({
  fieldName: z.string().min(1).max(512),
  order: z.enum(['ASC', 'DESC']).optional(),
});

export const offsetPaging = (max: number) => z.object({
  limit: z.number().int().min(1).max(max).optional(),
  offset: z.number().int().min(0).max(1_000_000).optional(),
});

export const cursorPaging = (max: number) => z.object({
  limit: z.number().int().min(1).max(max).optional(),
  cursor: z.string().max(16_000).nullish(),
});

/** Full-text search extension of the V1 query (the V3 search call takes the same shape). */
export const searchDetails = conforms<ProductSearchDetails>()(z.object({
  expression: z.string().max(200).nullish(),
  mode: z.enum(['OR', 'AND']).optional(),
  fields: z.array(identifier(100)).max(10).optional(),
  fuzzy: z.boolean().optional(),
}));

/** V1 `query`: filter and sort may also arrive as JSON text (older callers of the V1 API do that). */
export const productQuery = z.object({
  filter: z.union([z.record(z.string(), z.unknown()), jsonText('object')]).nullish(),
  sort: z.union([z.array(sortItem).max(5), jsonText('array')]).nullish(),
  paging: offsetPaging(PRODUCT_PAGE_MAX).optional(),
  cursorPaging: cursorPaging(PRODUCT_PAGE_MAX).optional(),
  search: searchDetails.optional(),
});

export const queryProductsRequest = z.object({ query: productQuery.optional() });

export const getProductRequest = z.object({
  id: identifier(100, 1),
  includeMerchantSpecificData: z.boolean().optional(),
});

export const pagingMetadata = z.object({ count: z.number(), offset: z.number().optional(), total: z.number().optional(), tooManyToCount: z.boolean().optional(), cursors: z.object({ next: z.string().nullish(), prev: z.string().nullish() }).optional() });
export const productResponse = z.object({ product: z.record(z.string(), z.unknown()) });
export const queryProductsResponse = z.object({ products: z.array(z.record(z.string(), z.unknown())), metadata: pagingMetadata });

/** Bounds of the V1 catalog (named so tests and docs can cite them). */
export const CATALOG_LIMITS = {
  optionsPerProduct: 6,
  choicesPerOption: 100,
  /** Most variants a product's options may generate. */
  variantsPerProduct: 1000,
  mediaPerProduct: 100,
  customTextFields: 2,
  infoSections: 50,
  collectionsPerProduct: 100,
  /** Most ids in one bulk call or one add-to-collection call. */
  bulkIds: 1000,
  /** Largest media file accepted as a data: URL, in bytes. */
  mediaBytes: 5 * 1024 * 1024,
  price: 999_999_999,
} as const;

const money = z.number().min(0).max(CATALOG_LIMITS.price);

const choiceInput = z.object({
  value: z.string().min(1).max(100),
  description: z.string().min(1).max(100),
  inStock: z.boolean().optional(),
  visible: z.boolean().optional(),
});

export const productOptionInput = z.object({
  optionType: z.enum(['drop_down', 'color']).optional(),
  name: z.string().min(1).max(50),
  choices: z.array(choiceInput).min(1).max(100),
});

/** V1 create: the fields an owner sets; prices, variants and ranges are derived. */
/** Search-engine tags of a product (V1 and V3 alike). */
export const SEO_TAGS_MAX = 50;
export const seoDataInput = z.object({
  tags: z.array(z.object({
    type: z.string().max(50), children: z.string().max(2000).optional(), props: z.record(z.string(), z.unknown()).optional(),
    meta: z.record(z.string(), z.unknown()).optional(), disabled: z.boolean().optional(),
  })).max(SEO_TAGS_MAX),
});

export const productInput = conforms<ProductV1Input>()(z.object({
  name: z.string().trim().min(1).max(80),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens').max(100).optional(),
  description: z.string().max(16_000).optional(),
  productType: z.enum(['physical', 'digital']).optional(),
  sku: z.string().max(40).optional(),
  weight: z.number().min(0).max(999_999).optional(),
  visible: z.boolean().optional(),
  brand: z.string().max(50).optional(),
  ribbon: z.string().max(30).optional(),
  priceData: z.object({ price: z.number().min(0).max(999_999_999) }),
  costAndProfitData: z.object({ itemCost: z.number().min(0).max(999_999_999) }).optional(),
  discount: z.object({ type: z.enum(['NONE', 'AMOUNT', 'PERCENT']), value: z.number().min(0) }).optional()
    .refine((d) => !d || d.type !== 'PERCENT' || d.value <= 100, { message: 'a percent discount is at most 100', params: { rule: 'MAX' } }),
  productOptions: z.array(productOptionInput).max(CATALOG_LIMITS.optionsPerProduct).optional(),
  manageVariants: z.boolean().optional(),
  stock: z.object({ trackInventory: z.boolean().optional(), quantity: z.number().int().min(0).max(99_999_999).optional(), inStock: z.boolean().optional() }).optional(),
  collectionIds: z.array(identifier(100)).max(CATALOG_LIMITS.collectionsPerProduct).optional(),
  pricePerUnitData: z.object({
    totalQuantity: z.number().gt(0).max(1_000_000_000),
    totalMeasurementUnit: z.enum(MEASUREMENT_UNITS),
    baseQuantity: z.number().gt(0).max(1_000_000_000),
    baseMeasurementUnit: z.enum(MEASUREMENT_UNITS),
  }).optional(),
  customTextFields: z.array(z.object({ title: z.string().min(1).max(100), maxLength: z.number().int().min(1).max(500), mandatory: z.boolean().optional() })).max(CATALOG_LIMITS.customTextFields).optional(),
  additionalInfoSections: z.array(z.object({ title: z.string().min(1).max(50), description: z.string().max(16_000) })).max(CATALOG_LIMITS.infoSections).optional(),
  seoData: seoDataInput.optional(),
}));

export const createProductRequest = z.object({ product: productInput });

/** V1 update: any subset of the create fields (prices and options re-derive variants). */
export const productPatch = conforms<ProductV1Patch>()(productInput.partial().extend({
  id: identifier(100).optional(),
  priceData: z.object({ price: money }).optional(),
  brand: z.string().max(50).nullish(),
  ribbon: z.string().max(30).nullish(),
}));
export const updateProductRequest = z.object({ productId: identifier(100, 1), product: productPatch });

export const idRequest = z.object({ id: identifier(100, 1) });

export const updateVariantsRequest = z.object({
  id: identifier(100, 1),
  variants: z.array(z.object({
    choices: z.record(z.string().max(50), z.string().max(100)).optional(),
    variantIds: z.array(identifier(100)).max(CATALOG_LIMITS.variantsPerProduct).optional(),
    price: money.nullish(),
    cost: money.nullish(),
    weight: z.number().min(0).max(999_999).nullish(),
    sku: z.string().max(40).nullish(),
    visible: z.boolean().nullish(),
  })).max(CATALOG_LIMITS.variantsPerProduct),
});

export const addMediaRequest = z.object({
  id: identifier(100, 1),
  media: z.array(z.object({
    mediaId: identifier(100).optional(),
    url: z.string().max(8_000_000).optional(),
    choice: z.object({ option: z.string().max(50), choice: z.string().max(100) }).optional(),
  })).max(CATALOG_LIMITS.mediaPerProduct),
});
export const removeMediaRequest = z.object({ id: identifier(100, 1), mediaIds: z.array(identifier(100)).max(CATALOG_LIMITS.mediaPerProduct).optional() });
export const choicesMediaRequest = z.object({
  id: identifier(100, 1),
  media: z.array(z.object({ option: z.string().max(50), choice: z.string().max(100), mediaIds: z.array(identifier(100)).max(CATALOG_LIMITS.mediaPerProduct).optional() })).max(CATALOG_LIMITS.choicesPerOption),
});

const bulkIds = z.array(identifier(100, 1)).min(1).max(CATALOG_LIMITS.bulkIds);
const oneOf = <T extends Record<string, unknown>>(value: T) => Object.values(value).filter((v) => v !== undefined).length === 1;
export const bulkUpdateRequest = z.object({
  ids: bulkIds,
  set: z.object({ price: money.optional(), cost: money.optional(), weight: z.number().min(0).max(999_999).optional(), ribbon: z.string().max(30).optional(), brand: z.string().max(50).optional() })
    .refine(oneOf, { message: 'must set exactly one of price, cost, weight, ribbon, brand', params: { rule: 'REQUIRED_ONE_OF_FIELD' } }),
});
const adjustment = z.object({
  amount: z.number().min(-CATALOG_LIMITS.price).max(CATALOG_LIMITS.price).optional(),
  percentage: z.object({ rate: z.number().min(-100).max(1000), roundToInt: z.boolean().optional() }).optional(),
}).refine(oneOf, { message: 'must give exactly one of amount, percentage', params: { rule: 'REQUIRED_ONE_OF_FIELD' } });
export const bulkAdjustRequest = z.object({
  ids: bulkIds,
  adjust: z.object({ price: adjustment.optional(), cost: adjustment.optional(), weight: adjustment.optional() })
    .refine(oneOf, { message: 'must adjust exactly one of price, cost, weight', params: { rule: 'REQUIRED_ONE_OF_FIELD' } }),
});

export const optionsAvailabilityRequest = z.object({ id: identifier(100, 1), options: z.record(identifier(50), z.string().max(100)).optional() });
export const productVariantsQueryRequest = z.object({
  id: identifier(100, 1),
  choices: z.record(z.string().max(50), z.string().max(100)).optional(),
  variantIds: z.array(identifier(100)).max(CATALOG_LIMITS.variantsPerProduct).optional(),
  paging: offsetPaging(PRODUCT_PAGE_MAX).optional(),
  includeMerchantSpecificData: z.boolean().optional(),
});
export const storeVariantsQueryRequest = z.object({ query: productQuery.optional() });

// Collections
const collectionFields = {
  name: z.string().trim().min(1).max(50),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens').max(100).optional(),
  description: z.string().max(600).nullish(),
  visible: z.boolean().optional(),
  media: z.object({ mainMedia: z.record(z.string(), z.unknown()).optional(), items: z.array(z.record(z.string(), z.unknown())).max(20).optional() }).optional(),
};
export const createCollectionRequest = z.object({ collection: z.object({ ...collectionFields, id: identifier(100).nullish() }) });
export const updateCollectionRequest = z.object({
  collectionId: identifier(100, 1),
  collection: z.object({ ...collectionFields, name: collectionFields.name.optional(), id: identifier(100).nullish() }),
});
export const collectionProductsRequest = z.object({ id: identifier(100, 1), productIds: z.array(identifier(100, 1)).max(CATALOG_LIMITS.bulkIds).optional() });
export const slugRequest = z.object({ slug: identifier(100, 1) });
export const queryCollectionsRequest = z.object({ query: productQuery.optional() });

// Inventory (V1)
export const queryInventoryRequest = z.object({ query: productQuery.optional() });
export const inventoryVariantsRequest = z.object({
  inventoryId: identifier(100, 1),
  externalId: identifier(100).optional(),
  productId: identifier(100).optional(),
  variantIds: z.array(identifier(100)).max(CATALOG_LIMITS.variantsPerProduct).optional(),
});
export const updateInventoryRequest = z.object({
  inventoryItemProductId: identifier(100, 1),
  inventoryItem: conforms<InventoryItemV1Update>()(z.object({
    trackQuantity: z.boolean().nullish(),
    variants: z.array(z.object({ variantId: identifier(100), inStock: z.boolean().nullish(), quantity: z.number().int().min(0).max(99_999_999).nullish() })).max(CATALOG_LIMITS.variantsPerProduct).optional(),
    preorderInfo: z.object({ enabled: z.boolean().optional(), message: z.string().max(250).nullish(), limit: z.number().int().min(0).max(99_999_999).nullish() }).optional(),
  })).passthrough(),
});
const stockChange = z.object({
  inventoryId: identifier(100).optional(),
  externalId: identifier(100).optional(),
  productId: identifier(100).optional(),
  variantId: identifier(100).optional(),
  preorderRequest: z.boolean().optional(),
});
export const decrementInventoryRequest = z.object({ decrementData: z.array(conforms<InventoryDecrementV1>()(stockChange.extend({ decrementBy: z.number().int().min(1).max(99_999_999) }))).min(1).max(CATALOG_LIMITS.bulkIds) });
export const incrementInventoryRequest = z.object({ incrementData: z.array(conforms<InventoryIncrementV1>()(stockChange.extend({ incrementBy: z.number().int().min(1).max(99_999_999) }))).min(1).max(CATALOG_LIMITS.bulkIds) });
