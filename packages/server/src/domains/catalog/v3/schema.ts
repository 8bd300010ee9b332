import { z } from 'zod';
import type { InventoryItemV3Patch, ProductV3Input as WireProductV3Input, ProductV3Patch as WireProductV3Patch } from '@vitrine/types/stores';
import { seoDataInput } from '../schema.js';
import { conforms } from '../../../http/conforms.js';
import { identifier } from '../../../http/wire-schemas.js';
import { cursorPaging, searchDetails, sortItem } from '../schema.js';

/** Bounds of the V3 catalog. */
export const V3_LIMITS = {
  pageMax: 100,
  options: 6,
  choices: 100,
  modifiers: 10,
  variants: 1000,
  media: 100,
  infoSections: 10,
  categories: 50,
  subscriptions: 6,
  aggregations: 10,
  /** Most buckets of a value aggregation. */
  aggregationValues: 100,
  bulk: 100,
  /** Tag ids per list (public, private) of a product or a tags change. */
  tags: 100,
  /** Largest rich-content document, as JSON text. */
  richContentChars: 200_000,
} as const;

/** Decimal text as the V3 API carries money: non-negative, at most 2 decimals. */
export const amount = z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a non-negative decimal with at most 2 decimals');

const richContent = z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= V3_LIMITS.richContentChars, { message: `must be at most ${V3_LIMITS.richContentChars} characters as JSON`, params: { rule: 'MAX_LENGTH' } });
const imageRef = z.object({ id: identifier(200).optional(), url: z.string().max(2000).optional(), width: z.number().int().min(0).optional(), height: z.number().int().min(0).optional(), altText: z.string().max(1000).nullish(), filename: z.string().max(300).nullish() });
const choiceType = z.enum(['CHOICE_TEXT', 'ONE_COLOR', 'MULTIPLE_COLORS', 'IMAGE']);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour');

const optionChoice = z.object({
  choiceId: identifier(100).nullish(),
  name: z.string().trim().min(1).max(50),
  choiceType: choiceType.optional(),
  colorCode: color.optional(),
  multipleColors: z.object({ colorCodes: z.array(color).min(2).max(2) }).optional(),
  image: imageRef.optional(),
  visible: z.boolean().optional(),
});

export const optionInput = z.object({
  id: identifier(100).nullish(),
  name: z.string().trim().min(1).max(50),
  optionRenderType: z.enum(['TEXT_CHOICES', 'SWATCH_CHOICES']).optional(),
  choicesSettings: z.object({ choices: z.array(optionChoice).min(1).max(V3_LIMITS.choices) }),
});

const modifierInput = z.object({
  id: identifier(100).nullish(),
  name: z.string().trim().min(1).max(50),
  modifierRenderType: z.enum(['FREE_TEXT', 'TEXT_CHOICES', 'SWATCH_CHOICES']),
  mandatory: z.boolean().nullish(),
  freeTextSettings: z.object({ minCharCount: z.number().int().min(0).max(500).optional(), maxCharCount: z.number().int().min(1).max(500).optional(), defaultAddedPrice: amount.nullish(), title: z.string().min(1).max(100) }).optional(),
  choicesSettings: z.object({ choices: z.array(optionChoice.extend({ addedPrice: amount.nullish() })).min(1).max(V3_LIMITS.choices) }).optional(),
});

const variantInput = z.object({
  id: identifier(100).nullish(),
  visible: z.boolean().nullish(),
  sku: z.string().max(40).nullish(),
  barcode: z.string().max(40).nullish(),
  choices: z.array(z.object({
    optionChoiceNames: z.object({ optionName: z.string().max(50), choiceName: z.string().max(50), renderType: z.string().max(20).optional() }).optional(),
    optionChoiceIds: z.object({ optionId: identifier(100), choiceId: identifier(100) }).optional(),
  })).max(V3_LIMITS.options).optional(),
  price: z.object({ actualPrice: z.object({ amount }), compareAtPrice: z.object({ amount }).nullish() }),
  revenueDetails: z.object({ cost: z.object({ amount }).nullish() }).nullish(),
  physicalProperties: z.object({ weight: z.number().min(0).max(999_999).nullish() }).nullish(),
  digitalProperties: z.object({ digitalFile: z.object({ id: identifier(100) }).nullish() }).nullish(),
  inventoryItem: z.object({
    trackQuantity: z.boolean().optional(), quantity: z.number().int().min(0).max(99_999_999).optional(), inStock: z.boolean().optional(),
    preorderInfo: z.object({ enabled: z.boolean().optional(), message: z.string().max(250).nullish(), limit: z.number().int().min(0).max(99_999_999).nullish() }).optional(),
  }).optional(),
});

const subscriptionInput = z.object({
  id: identifier(100).nullish(),
  title: z.string().trim().min(1).max(20),
  description: z.string().max(60).nullish(),
  visible: z.boolean().nullish(),
  frequency: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']),
  interval: z.number().int().min(1).max(50).nullish(),
  autoRenewal: z.boolean().optional(),
  billingCycles: z.number().int().min(2).max(999).optional(),
  discount: z.object({ type: z.enum(['AMOUNT', 'PERCENT']), amountOff: amount.optional(), percentOff: z.number().min(1).max(99).optional() }).optional(),
});

const tagList = z.object({ tagIds: z.array(identifier(100, 1)).max(V3_LIMITS.tags).optional() });
export const tagsInput = z.object({ privateTags: tagList.nullish(), publicTags: tagList.nullish() });

const ref = z.object({ id: identifier(100).nullish(), name: z.string().trim().min(1).max(50).nullish() });

export const productV3Fields = {
  name: z.string().trim().min(1).max(80),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens').max(100).optional(),
  description: richContent.nullish(),
  plainDescription: z.string().max(16_000).nullish(),
  visible: z.boolean().nullish(),
  visibleInPos: z.boolean().nullish(),
  productType: z.enum(['PHYSICAL', 'DIGITAL']),
  media: z.object({ itemsInfo: z.object({ items: z.array(z.object({ id: identifier(200).optional(), url: z.string().max(8_000_000).optional(), altText: z.string().max(1000).nullish(), displayName: z.string().max(300).nullish() })).max(V3_LIMITS.media) }).optional() }).optional(),
  options: z.array(optionInput).max(V3_LIMITS.options).optional(),
  modifiers: z.array(modifierInput).max(V3_LIMITS.modifiers).optional(),
  brand: ref.nullish(),
  ribbon: ref.nullish(),
  infoSections: z.array(z.object({ id: identifier(100).nullish(), uniqueName: z.string().max(100).nullish(), title: z.string().max(100).nullish() })).max(V3_LIMITS.infoSections).optional(),
  directCategoriesInfo: z.object({ categories: z.array(z.object({ id: identifier(100, 1) })).max(V3_LIMITS.categories) }).optional(),
  physicalProperties: z.record(z.string(), z.unknown()).optional(),
  variantsInfo: z.object({ variants: z.array(variantInput).min(1).max(V3_LIMITS.variants) }),
  subscriptionDetails: z.object({ subscriptions: z.array(subscriptionInput).max(V3_LIMITS.subscriptions), allowOneTimePurchases: z.boolean().nullish() }).nullish(),
  tags: tagsInput.nullish(),
  seoData: seoDataInput.nullish(),
};

export const productV3Input = conforms<WireProductV3Input>()(z.object(productV3Fields));
export type ProductV3Input = z.infer<typeof productV3Input>;
export const productV3Patch = conforms<WireProductV3Patch>()(z.object({
  ...Object.fromEntries(Object.entries(productV3Fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof productV3Fields]: z.ZodOptional<(typeof productV3Fields)[K]> },
  id: identifier(100).nullish(),
  revision: z.string().regex(/^\d{1,18}$/, 'must be the revision of the product'),
}));
export type ProductV3Patch = z.infer<typeof productV3Patch>;

const fields = z.array(z.string().max(50)).max(20).optional();

export const createV3Request = z.object({ product: productV3Input, fields, returnEntity: z.boolean().optional() });
export const updateV3Request = z.object({ productId: identifier(100, 1), product: productV3Patch, fields, returnEntity: z.boolean().optional() });
export const getV3Request = z.object({ productId: identifier(100, 1), fields });
export const getV3BySlugRequest = z.object({ slug: identifier(100, 1), fields });

const filter = z.record(z.string(), z.unknown()).nullish();
const aggregation = z.object({
  name: z.string().max(100).nullish(),
  type: z.enum(['VALUE', 'RANGE', 'SCALAR']).optional(),
  fieldPath: z.string().max(200),
  value: z.object({ limit: z.number().int().min(1).max(V3_LIMITS.aggregationValues).nullish(), sortType: z.enum(['COUNT', 'VALUE']).optional(), sortDirection: z.enum(['ASC', 'DESC']).optional() }).optional(),
  range: z.object({ buckets: z.array(z.object({ from: z.number().nullish(), to: z.number().nullish() })).min(1).max(20) }).optional(),
  scalar: z.object({ type: z.enum(['COUNT_DISTINCT', 'MIN', 'MAX']) }).optional(),
});

export const queryV3Request = z.object({
  query: z.object({ filter, sort: z.array(sortItem).max(5).optional(), cursorPaging: cursorPaging(V3_LIMITS.pageMax).optional() }).optional(),
  fields,
});
export const searchV3Request = z.object({
  search: z.object({
    filter, sort: z.array(sortItem).max(5).optional(), cursorPaging: cursorPaging(V3_LIMITS.pageMax).optional(),
    aggregations: z.array(aggregation).max(V3_LIMITS.aggregations).optional(), search: searchDetails.optional(), timeZone: z.string().max(100).nullish(),
  }).optional(),
  fields,
});
export const countV3Request = z.object({ filter, search: searchDetails.optional(), returnNonVisibleProducts: z.boolean().optional() });
export const bulkCreateV3Request = z.object({ products: z.array(productV3Input).min(1).max(V3_LIMITS.bulk), returnEntity: z.boolean().optional(), fields });
export const bulkDeleteV3Request = z.object({ productIds: z.array(identifier(100, 1)).min(1).max(V3_LIMITS.bulk) });
export const deleteV3Request = z.object({ productId: identifier(100, 1) });

// Ribbons, brands, info sections
export const entityName = z.string().trim().min(1).max(50);

// Inventory items V3
export const inventoryItemPatch = conforms<InventoryItemV3Patch>()(z.object({
  revision: z.string().regex(/^\d{1,18}$/).optional(),
  trackQuantity: z.boolean().optional(),
  quantity: z.number().int().min(0).max(99_999_999).optional(),
  inStock: z.boolean().optional(),
  preorderInfo: z.object({ enabled: z.boolean().nullish(), message: z.string().max(250).nullish(), limit: z.number().int().min(0).max(99_999_999).nullish() }).optional(),
}));
