import { z } from 'zod';
import { ValidationError } from '../../../http/errors.js';
import { route, type RouteDef } from '../../../http/route.js';
import { searchDetails } from '../schema.js';
import {
  addInfoSections, bulkChangeProducts, PRODUCT_JOB, removeInfoSections, requireInfoSections, requireTagChange, startProductsJob, updateTags,
  type AdjustParams, type ProductsPatch, type VariantPatch,
} from './bulk-products.js';
import { presentEntity, updateEntityById, type EntityInput } from './entities.js';
import { inventoryResultsOf } from './inventory.js';
import { bulkResults } from '../bulk-results.js';
import { amount, productV3Input, productV3Patch, tagsInput, V3_LIMITS } from './schema.js';
import { createProductV3, updateProductV3 } from './service.js';
import { presentWritten } from './present.js';
import type { EntityKind } from './store.js';
import type { ProductV3 } from './model.js';

/**
 * V3 bulk calls beyond create / update / delete: info sections, tags, products with inventory, and the
 * by-filter jobs (answer `{jobId}`; progress at GET /stores/v3/bulk/jobs/:jobId), plus bulk updates of
 * ribbons, brands and info sections. See docs/catalog-bulk.md.
 */

/** Bounds of the bulk requests (as the platform documents them). */
export const BULK_LIMITS = {
  /** Info sections added per per-id call. */
  addInfoSections: 10,
  /** Info sections added per by-filter job. */
  addInfoSectionsByFilter: 20,
  /** Info sections removed per call or job. */
  removeInfoSections: 100,
  /** Categories per add / remove job. */
  categories: 5,
} as const;

const P = '/stores/v3/bulk';
const id = z.string().min(1).max(100);
const revision = z.string().regex(/^\d{1,18}$/, 'must be the revision of the entity');
const fields = z.array(z.string().max(50)).max(20).optional();
const returnEntity = z.boolean().optional();
/** `filter!` of the contract: required, `{}` (or null) selects every product. */
const filterRequired = z.record(z.string(), z.unknown()).nullable();
const filterOptional = z.record(z.string(), z.unknown()).nullish();
const search = searchDetails.optional();
const products = z.array(z.object({ productId: id, revision })).min(1).max(V3_LIMITS.bulk);
const oneOf = { message: 'give exactly one of amount and percentage', params: { rule: 'ONE_OF_ALIGNMENT' } };
const signedAmount = z.string().regex(/^-?\d{1,9}(\.\d{1,2})?$/, 'must be a decimal with at most 2 decimals');
const adjustValue = z.object({ amount: signedAmount.optional(), percentage: z.number().min(-100).max(1000).optional() })
  .refine((a) => (a.amount === undefined) !== (a.percentage === undefined), oneOf);
const discountValue = z.object({ amount: amount.optional(), percentage: z.number().min(0).max(100).optional() })
  .refine((a) => (a.amount === undefined) !== (a.percentage === undefined), oneOf);
const money = z.object({ amount });
const variantPatch = z.object({
  visible: z.boolean().optional(),
  barcode: z.string().max(40).nullish(),
  // One SKU on every variant would collide: refused.
  sku: z.never({ message: 'cannot be set on every variant at once' }).optional(),
  price: z.object({ actualPrice: money.optional(), compareAtPrice: money.nullish() }).optional(),
  revenueDetails: z.object({ cost: money.nullish() }).optional(),
  physicalProperties: z.object({ weight: z.number().min(0).max(999_999).nullish() }).optional(),
});
const notOnEveryProduct = z.never({ message: 'cannot be set on every product at once' }).optional();
const productsPatch = productV3Patch.omit({ revision: true, id: true }).extend({
  slug: notOnEveryProduct, variantsInfo: notOnEveryProduct, options: notOnEveryProduct, modifiers: notOnEveryProduct,
});

const required = (field: string, description: string) => new ValidationError([{ field, description, violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
const defined = (o: Record<string, unknown>) => Object.values(o).some((v) => v !== undefined);

const productRoutes: RouteDef[] = [
  route({ method: 'POST', path: `${P}/products/add-info-sections`, access: 'elevated', summary: 'Add info sections to products (each with its revision), per-item results',
    request: z.object({ products, infoSectionIds: z.array(id).min(1).max(BULK_LIMITS.addInfoSections), returnEntity, fields }),
    handler: async (ctx, i) => {
      await requireInfoSections(ctx, i.infoSectionIds);
      return bulkChangeProducts(ctx, i.products, (p) => addInfoSections(p, i.infoSectionIds), i);
    } }),
  route({ method: 'POST', path: `${P}/products/remove-info-sections`, access: 'elevated', summary: 'Remove info sections from products (each with its revision), per-item results',
    request: z.object({ products, infoSectionIds: z.array(id).min(1).max(BULK_LIMITS.removeInfoSections), returnEntity, fields }),
    handler: (ctx, i) => bulkChangeProducts(ctx, i.products, (p) => removeInfoSections(p, i.infoSectionIds), i) }),
  route({ method: 'POST', path: `${P}/products/update-tags`, access: 'elevated', summary: 'Assign / unassign product tags, per-item results',
    request: z.object({ productIds: z.array(id).min(1).max(V3_LIMITS.bulk), assignTags: tagsInput.nullish(), unassignTags: tagsInput.nullish() }),
    handler: async (ctx, i) => {
      requireTagChange(i.assignTags, i.unassignTags);
      const r = await bulkChangeProducts(ctx, i.productIds.map((productId) => ({ productId })), (p) => updateTags(p, i.assignTags ?? undefined, i.unassignTags ?? undefined));
      return { results: r.results.map(({ itemMetadata }) => ({ itemMetadata })), bulkActionMetadata: r.bulkActionMetadata };
    } }),
  route({ method: 'POST', path: `${P}/products-with-inventory/create`, access: 'elevated', summary: 'Create products (V3) with stock per variant, per-item results',
    request: z.object({ products: z.array(productV3Input).min(1).max(V3_LIMITS.bulk), returnEntity, fields }),
    handler: async (ctx, i) => {
      const created: ProductV3[] = [];
      const productResults = await bulkResults(i.products, async (p) => {
        const r = await createProductV3(ctx, p);
        created.push(r);
        return { id: r.id, item: i.returnEntity ? presentWritten(ctx, r, i.fields) : undefined };
      });
      return { productResults, inventoryResults: await inventoryResultsOf(ctx, created, i.returnEntity ?? false) };
    } }),
  route({ method: 'POST', path: `${P}/products-with-inventory/update`, access: 'elevated', summary: 'Update products (V3, each with its revision) and their stock, per-item results',
    request: z.object({ products: z.array(z.object({ product: productV3Patch.extend({ id }), fieldMask: z.unknown().optional() })).min(1).max(V3_LIMITS.bulk), returnEntity, fields }),
    handler: async (ctx, i) => {
      const updated: ProductV3[] = [];
      const r = await bulkResults(i.products, async ({ product }) => {
        const done = await updateProductV3(ctx, product.id, product);
        updated.push(done);
        return { item: i.returnEntity ? presentWritten(ctx, done, i.fields) : undefined };
      }, ({ product }) => product.id);
      return { productResults: r, inventoryResults: await inventoryResultsOf(ctx, updated, i.returnEntity ?? false) };
    } }),

  // By-filter jobs: {jobId}; a bad filter is a 400 and starts nothing.
  route({ method: 'POST', path: `${P}/products/add-info-sections-by-filter`, access: 'elevated', summary: 'Add info sections to the products matching a filter (job)',
    request: z.object({ filter: filterRequired, infoSectionIds: z.array(id).min(1).max(BULK_LIMITS.addInfoSectionsByFilter), search }),
    handler: async (ctx, i) => {
      await requireInfoSections(ctx, i.infoSectionIds);
      return startProductsJob(ctx, PRODUCT_JOB.addInfoSections, i, { infoSectionIds: i.infoSectionIds });
    } }),
  route({ method: 'POST', path: `${P}/products/remove-info-sections-by-filter`, access: 'elevated', summary: 'Remove info sections from the products matching a filter (job)',
    request: z.object({ filter: filterRequired, infoSectionIds: z.array(id).min(1).max(BULK_LIMITS.removeInfoSections), search }),
    handler: (ctx, i) => startProductsJob(ctx, PRODUCT_JOB.removeInfoSections, i, { infoSectionIds: i.infoSectionIds }) }),
  route({ method: 'POST', path: `${P}/products/add-to-categories-by-filter`, access: 'elevated', summary: 'Add the products matching a filter to categories (job)',
    request: z.object({ filter: filterOptional, categoryIds: z.array(id).min(1).max(BULK_LIMITS.categories), search }),
    handler: (ctx, i) => startProductsJob(ctx, PRODUCT_JOB.addToCategories, i, { categoryIds: i.categoryIds }) }),
  route({ method: 'POST', path: `${P}/products/remove-from-categories-by-filter`, access: 'elevated', summary: 'Remove the products matching a filter from categories (job)',
    request: z.object({ filter: filterOptional, categoryIds: z.array(id).min(1).max(BULK_LIMITS.categories), search }),
    handler: (ctx, i) => startProductsJob(ctx, PRODUCT_JOB.removeFromCategories, i, { categoryIds: i.categoryIds }) }),
  route({ method: 'POST', path: `${P}/products/update-tags-by-filter`, access: 'elevated', summary: 'Assign / unassign tags of the products matching a filter (job)',
    request: z.object({ filter: filterRequired, assignTags: tagsInput.nullish(), unassignTags: tagsInput.nullish(), search }),
    handler: (ctx, i) => {
      requireTagChange(i.assignTags, i.unassignTags);
      return startProductsJob(ctx, PRODUCT_JOB.updateTags, i, { ...(i.assignTags ? { assignTags: i.assignTags } : {}), ...(i.unassignTags ? { unassignTags: i.unassignTags } : {}) });
    } }),
  route({ method: 'POST', path: `${P}/products/update-variants-by-filter`, access: 'elevated', summary: 'Set fields of every variant of the products matching a filter (job)',
    request: z.object({ filter: filterRequired, variant: variantPatch, search }),
    handler: (ctx, i) => {
      const { sku: _s, ...variant } = i.variant;
      if (!defined(variant)) throw required('variant', 'give at least one field to set');
      return startProductsJob(ctx, PRODUCT_JOB.updateVariants, i, { variant: variant as VariantPatch });
    } }),
  route({ method: 'POST', path: `${P}/products/adjust-variants-by-filter`, access: 'elevated', summary: 'Adjust prices / costs of every variant of the products matching a filter (job)',
    request: z.object({
      filter: filterRequired, search, actualPrice: adjustValue.optional(), compareAtPrice: adjustValue.optional(), cost: adjustValue.optional(),
      compareAtPriceDiscount: discountValue.optional(), rounding: z.enum(['NO_ROUNDING', 'CURRENCY_PRECISION', 'NEAREST_WHOLE_NUMBER']).optional(),
    }),
    handler: (ctx, i) => {
      const { actualPrice, compareAtPrice, cost, compareAtPriceDiscount } = i;
      if (!defined({ actualPrice, compareAtPrice, cost, compareAtPriceDiscount })) throw required('actualPrice', 'give at least one of actualPrice, compareAtPrice, cost, compareAtPriceDiscount');
      if (actualPrice && compareAtPriceDiscount) {
        throw new ValidationError([{ field: 'compareAtPriceDiscount', description: 'cannot be combined with actualPrice (both set the actual price)', violatedRule: 'ONE_OF_ALIGNMENT', data: {} }]);
      }
      const params: AdjustParams = { actualPrice, compareAtPrice, cost, compareAtPriceDiscount, rounding: i.rounding ?? 'CURRENCY_PRECISION' };
      return startProductsJob(ctx, PRODUCT_JOB.adjustVariants, i, JSON.parse(JSON.stringify(params)) as AdjustParams);
    } }),
  route({ method: 'POST', path: `${P}/products/update-by-filter`, access: 'elevated', summary: 'Apply a partial product to every product matching a filter (job)',
    request: z.object({ filter: filterOptional, product: productsPatch, search }),
    handler: (ctx, i) => {
      const { slug: _s, variantsInfo: _v, options: _o, modifiers: _m, ...product } = i.product;
      if (!defined(product)) throw required('product', 'give at least one field to set');
      return startProductsJob(ctx, PRODUCT_JOB.update, i, { product: JSON.parse(JSON.stringify(product)) as ProductsPatch });
    } }),
  route({ method: 'POST', path: `${P}/products/delete-by-filter`, access: 'elevated', summary: 'Delete the products matching a filter (job)',
    request: z.object({ filter: filterRequired, search }),
    handler: (ctx, i) => startProductsJob(ctx, PRODUCT_JOB.delete, i, {}) }),
];

/** bulkUpdateRibbons / Brands / InfoSections: each with its revision; renames reach the products. */
function entityUpdateRoute(kind: EntityKind, plural: string, singular: string, nameKey: 'name' | 'uniqueName'): RouteDef {
  const many = plural.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  const body = z.object({
    id, revision, [nameKey]: z.string().trim().min(1).max(50).optional(),
    ...(kind === 'infoSection' ? { title: z.string().max(100).nullish(), description: z.record(z.string(), z.unknown()).nullish() } : {}),
  });
  type Item = { [k: string]: z.infer<typeof body> };
  return route({ method: 'POST', path: `${P}/${plural}/update`, access: 'elevated', summary: `Update ${plural} (each with its revision), per-item results`,
    request: z.object({ [many]: z.array(z.object({ [singular]: body, fieldMask: z.unknown().optional() })).min(1).max(V3_LIMITS.bulk), returnEntity, fields }) as unknown as z.ZodType<Record<string, unknown>>,
    handler: (ctx, i) => bulkResults(i[many] as Item[], async (x) => {
      const e = await updateEntityById(ctx, kind, x[singular]!.id, x[singular] as EntityInput);
      return { item: i.returnEntity ? presentEntity(kind, e) : undefined };
    }, (x) => x[singular]!.id) });
}

export const v3BulkRoutes: RouteDef[] = [
  ...productRoutes,
  entityUpdateRoute('ribbon', 'ribbons', 'ribbon', 'name'),
  entityUpdateRoute('brand', 'brands', 'brand', 'name'),
  entityUpdateRoute('infoSection', 'info-sections', 'infoSection', 'uniqueName'),
];
