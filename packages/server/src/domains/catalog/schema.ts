import { z } from 'zod';

/** Largest page of a V1 product query (the platform's own bound). */
export const PRODUCT_PAGE_MAX = 100;
export const PAGE_DEFAULT = 50;

const jsonText = (what: string) => z.string().max(20_000).transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: `must be a JSON ${what}`, params: { rule: 'FORMAT' } });
    return z.NEVER;
  }
});

export const sortItem = z.object({
  fieldName: z.string().min(1).max(512),
  order: z.enum(['ASC', 'DESC']).optional(),
});

export const offsetPaging = (max: number) => z.object({
  limit: z.number().int().min(1).max(max).optional(),
  offset: z.number().int().min(0).max(1_000_000).optional(),
});

/** V1 `query`: filter and sort may also arrive as JSON text (older callers of the V1 API do that). */
export const productQuery = z.object({
  filter: z.union([z.record(z.string(), z.unknown()), jsonText('object')]).nullish(),
  sort: z.union([z.array(sortItem).max(5), jsonText('array')]).nullish(),
  paging: offsetPaging(PRODUCT_PAGE_MAX).optional(),
});

export const queryProductsRequest = z.object({ query: productQuery.optional() });

export const getProductRequest = z.object({
  id: z.string().min(1).max(100),
  includeMerchantSpecificData: z.boolean().optional(),
});

export const pagingMetadata = z.object({ count: z.number(), offset: z.number(), total: z.number(), tooManyToCount: z.boolean() });
export const productResponse = z.object({ product: z.record(z.string(), z.unknown()) });
export const queryProductsResponse = z.object({ products: z.array(z.record(z.string(), z.unknown())), metadata: pagingMetadata });

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
export const productInput = z.object({
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
  productOptions: z.array(productOptionInput).max(6).optional(),
  stock: z.object({ trackInventory: z.boolean().optional(), quantity: z.number().int().min(0).max(99_999_999).optional(), inStock: z.boolean().optional() }).optional(),
  collectionIds: z.array(z.string()).max(100).optional(),
});

export const createProductRequest = z.object({ product: productInput });
