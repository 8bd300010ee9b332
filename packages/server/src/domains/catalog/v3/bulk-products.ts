import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, badRequest, ValidationError } from '../../../http/errors.js';
import { bulkResults } from '../bulk-results.js';
import { parseFilter } from '../../../storage/filter.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import { roundMoney } from '../model.js';
import { CATALOG_JOB_ITEMS_MAX, registerCatalogJobKind, startCatalogJob } from '../jobs.js';
import { decimal } from './model.js';
import type { ProductV3Input, ProductV3Patch } from './schema.js';
import { V3_LIMITS } from './schema.js';
import { changeProductV3, deleteProductV3, normalizeFilter, overlayPatch, searchPart } from './service.js';
import { presentWritten } from './present.js';
import { countProductsV3, findEntity, productIdsV3, type QueryV3 } from './store.js';

/**
 * V3 product bulk changes: pure changes of a product's input (info sections, categories, tags,
 * variants, adjustments), the per-id bulk calls built on them, and the by-filter job kinds that run
 * the same changes through the catalog job module (../jobs.ts), one product per transaction.
 */

export const PRODUCT_JOB = {
  addInfoSections: 'PRODUCTS_ADD_INFO_SECTIONS',
  removeInfoSections: 'PRODUCTS_REMOVE_INFO_SECTIONS',
  addToCategories: 'PRODUCTS_ADD_TO_CATEGORIES',
  removeFromCategories: 'PRODUCTS_REMOVE_FROM_CATEGORIES',
  updateTags: 'PRODUCTS_UPDATE_TAGS',
  updateVariants: 'PRODUCTS_UPDATE_VARIANTS',
  adjustVariants: 'PRODUCTS_ADJUST_VARIANTS',
  update: 'PRODUCTS_UPDATE',
  delete: 'PRODUCTS_DELETE',
} as const;

/** Largest amount a variant price or cost may reach (the V3 money format: 9 integer digits). */
export const MONEY_MAX = 999_999_999.99;

export type Tags = NonNullable<ProductV3Input['tags']>;
export interface Adjust { amount?: string | undefined; percentage?: number | undefined }
export interface AdjustParams {
  actualPrice?: Adjust | undefined; compareAtPrice?: Adjust | undefined; cost?: Adjust | undefined; compareAtPriceDiscount?: Adjust | undefined;
  rounding: 'NO_ROUNDING' | 'CURRENCY_PRECISION' | 'NEAREST_WHOLE_NUMBER';
}
type VariantIn = ProductV3Input['variantsInfo']['variants'][number];
export interface VariantPatch {
  visible?: boolean | undefined; barcode?: string | null | undefined;
  price?: { actualPrice?: { amount: string } | undefined; compareAtPrice?: { amount: string } | null | undefined } | undefined;
  revenueDetails?: { cost?: { amount: string } | null | undefined } | undefined;
  physicalProperties?: { weight?: number | null | undefined } | undefined;
}
export type ProductsPatch = Omit<ProductV3Patch, 'revision' | 'id' | 'slug' | 'variantsInfo' | 'options' | 'modifiers'>;

const tooMany = (field: string, max: number) => new ValidationError([{ field, description: `would hold more than ${max} entries`, violatedRule: 'MAX_SIZE', data: { max } }]);

// ---------------------------------------------------------------------------------------------
// Changes of one product (input in, input out; no I/O)

export function addInfoSections(input: ProductV3Input, ids: readonly string[]): ProductV3Input {
  const have = (input.infoSections ?? []).map((s) => s.id).filter((id): id is string => !!id);
  const next = [...have, ...ids.filter((id) => !have.includes(id))];
  if (next.length > V3_LIMITS.infoSections) throw tooMany('product.infoSections', V3_LIMITS.infoSections);
  return { ...input, infoSections: next.map((id) => ({ id })) };
}

export function removeInfoSections(input: ProductV3Input, ids: readonly string[]): ProductV3Input {
  return { ...input, infoSections: (input.infoSections ?? []).filter((s) => !s.id || !ids.includes(s.id)) };
}

export function addToCategories(input: ProductV3Input, ids: readonly string[]): ProductV3Input {
  const have = (input.directCategoriesInfo?.categories ?? []).map((c) => c.id);
  const next = [...have, ...ids.filter((id) => !have.includes(id))];
  if (next.length > V3_LIMITS.categories) throw tooMany('product.directCategoriesInfo.categories', V3_LIMITS.categories);
  return { ...input, directCategoriesInfo: { categories: next.map((id) => ({ id })) } };
}

export function removeFromCategories(input: ProductV3Input, ids: readonly string[]): ProductV3Input {
  return { ...input, directCategoriesInfo: { categories: (input.directCategoriesInfo?.categories ?? []).filter((c) => !ids.includes(c.id)) } };
}

/** Unassigns first, then assigns (a tag in both lists ends up assigned, as the platform documents). */
export function updateTags(input: ProductV3Input, assign: Tags | undefined, unassign: Tags | undefined): ProductV3Input {
  const tags: Tags = {};
  for (const k of ['publicTags', 'privateTags'] as const) {
    const drop = unassign?.[k]?.tagIds ?? [];
    const ids = [...(input.tags?.[k]?.tagIds ?? []).filter((id) => !drop.includes(id))];
    for (const id of assign?.[k]?.tagIds ?? []) if (!ids.includes(id)) ids.push(id);
    if (ids.length > V3_LIMITS.tags) throw tooMany(`product.tags.${k}.tagIds`, V3_LIMITS.tags);
    if (ids.length) tags[k] = { tagIds: ids };
  }
  const { tags: _old, ...rest } = input;
  return tags.publicTags || tags.privateTags ? { ...rest, tags } : rest;
}

/** The given fields on every variant (`null` compare-at price / cost clears it). */
export function updateVariants(input: ProductV3Input, v: VariantPatch): ProductV3Input {
  const variants = input.variantsInfo.variants.map((old): VariantIn => {
    const next: VariantIn = { ...old };
    if (v.visible !== undefined) next.visible = v.visible;
    if (v.barcode !== undefined) next.barcode = v.barcode;
    if (v.price) {
      next.price = {
        actualPrice: v.price.actualPrice ?? old.price.actualPrice,
        compareAtPrice: v.price.compareAtPrice !== undefined ? v.price.compareAtPrice : old.price.compareAtPrice ?? null,
      };
    }
    if (v.revenueDetails && v.revenueDetails.cost !== undefined) next.revenueDetails = v.revenueDetails.cost === null ? null : { cost: v.revenueDetails.cost };
    if (v.physicalProperties && v.physicalProperties.weight !== undefined) next.physicalProperties = v.physicalProperties.weight === null ? null : { weight: v.physicalProperties.weight };
    return next;
  });
  return { ...input, variantsInfo: { variants } };
}

function adjusted(value: number, a: Adjust): number {
  return a.amount !== undefined ? value + Number(a.amount) : value * (1 + (a.percentage ?? 0) / 100);
}

/**
 * Price / cost adjustments of every variant. Compare-at price and cost are adjusted where the variant
 * has one. `compareAtPriceDiscount` sets the actual price to the compare-at price (the actual price
 * when there is none, which then becomes the compare-at price) minus the discount. A result below
 * zero or above MONEY_MAX refuses the product (400 INVALID_VALUE).
 */
export function adjustVariants(input: ProductV3Input, p: AdjustParams): ProductV3Input {
  const round = (n: number) => (p.rounding === 'NEAREST_WHOLE_NUMBER' ? Math.round(n) : roundMoney(n));
  const money = (n: number, variantId: string | null | undefined, field: string) => {
    const r = round(n);
    if (!Number.isFinite(r) || r < 0 || r > MONEY_MAX) {
      throw new ApplicationError(400, 'INVALID_VALUE', `The adjustment would make ${field} of variant ${variantId ?? ''} ${r < 0 ? 'negative' : 'too large'} (${decimal(r)})`, { variantId, field, value: decimal(r) });
    }
    return { amount: decimal(r) };
  };
  const variants = input.variantsInfo.variants.map((old): VariantIn => {
    const actual = Number(old.price.actualPrice.amount);
    const compareIn = old.price.compareAtPrice ? Number(old.price.compareAtPrice.amount) : undefined;
    let compare = compareIn !== undefined && p.compareAtPrice ? Number(money(adjusted(compareIn, p.compareAtPrice), old.id, 'compareAtPrice').amount) : compareIn;
    let next = p.actualPrice ? Number(money(adjusted(actual, p.actualPrice), old.id, 'actualPrice').amount) : actual;
    if (p.compareAtPriceDiscount) {
      const base = compare ?? actual;
      const d = p.compareAtPriceDiscount;
      next = Number(money(d.amount !== undefined ? base - Number(d.amount) : base * (1 - (d.percentage ?? 0) / 100), old.id, 'actualPrice').amount);
      compare = base;
    }
    const cost = old.revenueDetails?.cost ? Number(old.revenueDetails.cost.amount) : undefined;
    return {
      ...old,
      price: { actualPrice: { amount: decimal(next) }, compareAtPrice: compare !== undefined ? { amount: decimal(compare) } : null },
      ...(cost !== undefined && p.cost ? { revenueDetails: { cost: money(adjusted(cost, p.cost), old.id, 'cost') } } : {}),
    };
  });
  return { ...input, variantsInfo: { variants } };
}

// ---------------------------------------------------------------------------------------------
// Checks shared by per-id calls and jobs (400, nothing started)

/** Every id must name an info section of the site. */
export async function requireInfoSections(ctx: RequestContext, ids: readonly string[], field = 'infoSectionIds'): Promise<void> {
  const violations = [];
  for (const [i, id] of ids.entries()) {
    if (!(await findEntity(ctx.db, ctx.site.id, 'infoSection', { id }))) violations.push({ field: `${field}[${i}]`, description: `unknown info section ${id}`, violatedRule: 'FORMAT' as const, data: { id } });
  }
  if (violations.length) throw new ValidationError(violations);
}

export function requireTagChange(assign: Tags | null | undefined, unassign: Tags | null | undefined): void {
  const n = (t: Tags | null | undefined) => (t?.publicTags?.tagIds?.length ?? 0) + (t?.privateTags?.tagIds?.length ?? 0);
  if (n(assign) + n(unassign) === 0) throw new ValidationError([{ field: 'assignTags', description: 'give at least one tag id to assign or unassign', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
}

// ---------------------------------------------------------------------------------------------
// Per-id bulk calls

/** One change over products given by id (and revision, when given); per-item results. */
export function bulkChangeProducts(
  ctx: RequestContext, items: readonly { productId: string; revision?: string | undefined }[], change: (input: ProductV3Input) => ProductV3Input,
  opts: { returnEntity?: boolean | undefined; fields?: string[] | undefined } = {},
) {
  return bulkResults(items, async (i) => {
    const { product } = await changeProductV3(ctx, i.productId, change, i.revision !== undefined ? { revision: i.revision } : {});
    return { item: opts.returnEntity ? presentWritten(ctx, product, opts.fields) : undefined };
  }, (i) => i.productId);
}

// ---------------------------------------------------------------------------------------------
// By-filter jobs

/**
 * Freezes the ids of the products matching `filter` / `search` (every product of the site, visible or
 * not; same filter language and 400s as queryProducts) into a job of `kind`.
 */
export async function startProductsJob<P>(ctx: RequestContext, kind: string, input: { filter?: unknown; search?: { expression?: string | null | undefined } | undefined }, params: P) {
  const q: QueryV3 = await withFilterErrors('filter', async () => ({
    siteId: ctx.site.id, dialect: ctx.dialect, filter: parseFilter(normalizeFilter(input.filter ?? undefined)), onlyVisible: false, privateTags: true,
    sort: [], limit: 0, offset: 0, ...searchPart(input.search),
  }));
  const ids = await withFilterErrors('filter', () => productIdsV3(ctx.db, q, CATALOG_JOB_ITEMS_MAX + 1));
  if (ids.length > CATALOG_JOB_ITEMS_MAX) {
    const matched = await countProductsV3(ctx.db, q);
    throw badRequest('TOO_MANY_ITEMS', `A bulk job takes at most ${CATALOG_JOB_ITEMS_MAX} items; narrow the filter`, { max: CATALOG_JOB_ITEMS_MAX, matched });
  }
  return startCatalogJob(ctx, kind, ids, params);
}

const change = async (ctx: RequestContext, id: string, fn: (input: ProductV3Input) => ProductV3Input) => { await changeProductV3(ctx, id, fn); };

registerCatalogJobKind<{ infoSectionIds: string[] }>(PRODUCT_JOB.addInfoSections, { runItem: (ctx, id, p) => change(ctx, id, (i) => addInfoSections(i, p.infoSectionIds)) });
registerCatalogJobKind<{ infoSectionIds: string[] }>(PRODUCT_JOB.removeInfoSections, { runItem: (ctx, id, p) => change(ctx, id, (i) => removeInfoSections(i, p.infoSectionIds)) });
registerCatalogJobKind<{ categoryIds: string[] }>(PRODUCT_JOB.addToCategories, { runItem: (ctx, id, p) => change(ctx, id, (i) => addToCategories(i, p.categoryIds)) });
registerCatalogJobKind<{ categoryIds: string[] }>(PRODUCT_JOB.removeFromCategories, { runItem: (ctx, id, p) => change(ctx, id, (i) => removeFromCategories(i, p.categoryIds)) });
registerCatalogJobKind<{ assignTags?: Tags; unassignTags?: Tags }>(PRODUCT_JOB.updateTags, { runItem: (ctx, id, p) => change(ctx, id, (i) => updateTags(i, p.assignTags, p.unassignTags)) });
registerCatalogJobKind<{ variant: VariantPatch }>(PRODUCT_JOB.updateVariants, { runItem: (ctx, id, p) => change(ctx, id, (i) => updateVariants(i, p.variant)) });
registerCatalogJobKind<AdjustParams>(PRODUCT_JOB.adjustVariants, { runItem: (ctx, id, p) => change(ctx, id, (i) => adjustVariants(i, p)) });
registerCatalogJobKind<{ product: ProductsPatch }>(PRODUCT_JOB.update, { runItem: (ctx, id, p) => change(ctx, id, (i) => overlayPatch(i, p.product)) });
registerCatalogJobKind<Record<string, never>>(PRODUCT_JOB.delete, { runItem: async (ctx, id) => { await deleteProductV3(ctx, id); } });
