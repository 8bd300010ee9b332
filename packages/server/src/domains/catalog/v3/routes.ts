import { z } from 'zod';
import { route, type RouteDef } from '../../../http/route.js';
import type { RequestContext } from '../../../http/context.js';
import { cursorPaging, sortItem } from '../schema.js';
import {
  countEntities, createEntity, deleteEntityById, getEntity, getOrCreateEntity, presentEntity, queryEntityPage, updateEntityById, type EntityInput,
} from './entities.js';
import { ALL_PRODUCTS_CATEGORY_ID } from './model.js';
import {
  bulkCreateV3Request, bulkDeleteV3Request, countV3Request, createV3Request, deleteV3Request, entityName, getV3BySlugRequest, getV3Request,
  productV3Patch, queryV3Request, searchV3Request, updateV3Request, V3_LIMITS,
} from './schema.js';
import {
  countProductsV3Total, createProductV3, deleteProductV3, getProductV3Answer, peekProductV3Answer, queryProductsV3Page, searchProductsV3Answer, updateProductV3,
} from './service.js';
import { presentRead, presentV3, presentWritten } from './present.js';
import { inventoryResultsOf } from './inventory.js';
import { bulkResults } from '../bulk-results.js';
import { getCatalogJob } from '../jobs.js';
import { v3BulkRoutes } from './bulk-routes.js';
import type { EntityKind } from './store.js';

const P = '/stores/v3';
const fields = z.array(z.string().max(50)).max(20).optional();

const productRoutes: RouteDef[] = [
  route({ method: 'POST', path: `${P}/products`, access: 'elevated', summary: 'Create a product (V3)', request: createV3Request,
    handler: async (ctx, i) => ({ product: presentWritten(ctx, await createProductV3(ctx, i.product), i.fields) }) }),
  route({ method: 'POST', path: `${P}/products-with-inventory`, access: 'elevated', summary: 'Create a product (V3) with stock per variant', request: createV3Request,
    handler: async (ctx, i) => { const p = await createProductV3(ctx, i.product); return { product: presentWritten(ctx, p, i.fields), inventoryResults: await inventoryResultsOf(ctx, [p], true) }; } }),
  route({ method: 'PATCH', path: `${P}/products/:productId`, access: 'elevated', summary: 'Update a product (V3, partial, needs revision)', request: updateV3Request,
    handler: async (ctx, i) => ({ product: presentWritten(ctx, await updateProductV3(ctx, i.productId, i.product), i.fields) }) }),
  route({ method: 'PATCH', path: `${P}/products-with-inventory/:productId`, access: 'elevated', summary: 'Update a product (V3) and its stock', request: updateV3Request,
    handler: async (ctx, i) => { const p = await updateProductV3(ctx, i.productId, i.product); return { product: presentWritten(ctx, p, i.fields), inventoryResults: await inventoryResultsOf(ctx, [p], true) }; } }),
  route({ method: 'DELETE', path: `${P}/products/:productId`, access: 'elevated', summary: 'Delete a product (V3)', request: deleteV3Request,
    handler: (ctx, i) => deleteProductV3(ctx, i.productId) }),
  route({ method: 'GET', path: `${P}/products/query`, postTwin: true, access: 'visitor', summary: 'Query products (V3, cursor paging)', request: queryV3Request,
    handler: async (ctx, i) => { const r = await queryProductsV3Page(ctx, i.query ?? {}); return { ...r, products: r.products.map((p) => presentRead(ctx, p, i.fields)) }; } }),
  route({ method: 'GET', path: `${P}/products/search`, postTwin: true, access: 'visitor', summary: 'Search products (V3): full text, filter, sort, aggregations', request: searchV3Request,
    handler: (ctx, i) => searchProductsV3Answer(ctx, i.search ?? {}, i.fields) }),
  route({ method: 'GET', path: `${P}/products/count`, postTwin: true, access: 'visitor', summary: 'Count products (V3)', request: countV3Request,
    handler: (ctx, i) => countProductsV3Total(ctx, i) }),
  route({ method: 'GET', path: `${P}/products/slug/:slug`, access: 'visitor', summary: 'Get a product by slug (V3)', request: getV3BySlugRequest,
    handler: (ctx, i) => getProductV3Answer(ctx, { slug: i.slug }, i.fields), keptAnswer: (peek, p) => peekProductV3Answer(peek, { slug: p.slug! }) }),
  route({ method: 'GET', path: `${P}/products/:productId`, access: 'visitor', summary: 'Get a product (V3)', request: getV3Request,
    handler: (ctx, i) => getProductV3Answer(ctx, { id: i.productId }, i.fields), keptAnswer: (peek, p) => peekProductV3Answer(peek, { id: p.productId! }) }),
  route({ method: 'POST', path: `${P}/bulk/products/create`, access: 'elevated', summary: 'Create products (V3), per-item results', request: bulkCreateV3Request,
    handler: (ctx, i) => bulkResults(i.products, async (p) => { const r = await createProductV3(ctx, p); return { id: r.id, ...(i.returnEntity ? { item: presentWritten(ctx, r, i.fields) } : {}) }; })
      .then(({ results, bulkActionMetadata }) => ({ results: results.map(({ item, ...r }) => ({ ...r, ...(item ? { item } : {}) })), bulkActionMetadata })) }),
  route({ method: 'POST', path: `${P}/bulk/products/update`, access: 'elevated', summary: 'Update products (V3, each with its revision), per-item results',
    request: z.object({ products: z.array(z.object({ product: productV3Patch.extend({ id: z.string().min(1).max(100) }), fieldMask: z.unknown().optional() })).min(1).max(V3_LIMITS.bulk), returnEntity: z.boolean().optional(), fields }),
    handler: (ctx, i) => bulkResults(i.products, async ({ product }) => { const r = await updateProductV3(ctx, product.id, product); return { id: r.id, ...(i.returnEntity ? { item: presentWritten(ctx, r, i.fields) } : {}) }; }) }),
  route({ method: 'POST', path: `${P}/bulk/products/delete`, access: 'elevated', summary: 'Delete products (V3), per-item results', request: bulkDeleteV3Request,
    handler: (ctx, i) => bulkResults(i.productIds, async (id) => { await deleteProductV3(ctx, id); return { id }; }) }),
  route({ method: 'GET', path: `${P}/all-products-category`, access: 'visitor', summary: 'The category every product is in', request: z.object({}),
    handler: async () => ({ categoryId: ALL_PRODUCTS_CATEGORY_ID, treeReference: { appNamespace: '@wix/stores', treeKey: null } }) }),
];

/** The same calls for ribbons, brands and info sections. */
function entityRoutes(kind: EntityKind, plural: string, singular: string, nameKey: 'name' | 'uniqueName'): RouteDef[] {
  const base = `${P}/${plural}`;
  const idKey = `${singular}Id`;
  const body = z.object({ id: z.string().max(100).nullish(), revision: z.string().max(20).nullish(), [nameKey]: entityName.optional(), title: z.string().max(100).nullish(), description: z.record(z.string(), z.unknown()).nullish() }) as z.ZodType<EntityInput & { id?: string | null }>;
  const idReq = z.object({ [idKey]: z.string().min(1).max(100), fields }) as z.ZodType<Record<string, string>>;
  const show = (e: Parameters<typeof presentEntity>[1]) => ({ [singular]: presentEntity(kind, e) });
  const queryReq = z.object({ query: z.object({ filter: z.record(z.string(), z.unknown()).nullish(), sort: z.array(sortItem).max(5).optional(), cursorPaging: cursorPaging(V3_LIMITS.pageMax).optional() }).optional(), fields });
  const pluralKey = plural.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  const query = async (ctx: RequestContext, q: z.infer<typeof queryReq>) => { const r = await queryEntityPage(ctx, kind, q.query ?? {}); return { [pluralKey]: r.items, pagingMetadata: r.pagingMetadata }; };
  const many = `${plural.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}`;
  return [
    route({ method: 'POST', path: base, access: 'elevated', summary: `Create a ${singular}`, request: z.object({ [singular]: body }) as z.ZodType<Record<string, EntityInput>>,
      handler: async (ctx, i) => show(await createEntity(ctx, kind, i[singular]!, singular)) }),
    route({ method: 'GET', path: `${base}/:${idKey}`, access: 'visitor', summary: `Get a ${singular}`, request: idReq,
      handler: async (ctx, i) => show(await getEntity(ctx, kind, i[idKey]!)) }),
    route({ method: 'PATCH', path: `${base}/:${idKey}`, access: 'elevated', summary: `Update a ${singular}`, request: z.object({ [idKey]: z.string().min(1).max(100), [singular]: body, fields }) as z.ZodType<Record<string, unknown>>,
      handler: async (ctx, i) => show(await updateEntityById(ctx, kind, i[idKey] as string, i[singular] as EntityInput)) }),
    route({ method: 'DELETE', path: `${base}/:${idKey}`, access: 'elevated', summary: `Delete a ${singular}`, request: idReq,
      handler: async (ctx, i) => { await deleteEntityById(ctx, kind, i[idKey]!); return {}; } }),
    kind === 'ribbon'
      ? route({ method: 'POST', path: `${base}/query`, access: 'visitor', summary: `Query ${plural}`, request: queryReq, handler: query })
      : route({ method: 'GET', path: `${base}/query`, postTwin: true, access: 'visitor', summary: `Query ${plural}`, request: queryReq, handler: query }),
    route({ method: 'POST', path: `${base}/count`, access: 'visitor', summary: `Count ${plural}`, request: z.object({ filter: z.record(z.string(), z.unknown()).nullish() }),
      handler: (ctx, i) => countEntities(ctx, kind, i.filter) }),
    route({ method: 'POST', path: `${base}/get-or-create`, access: 'elevated', summary: `Get or create a ${singular} by name`,
      request: (kind === 'infoSection' ? z.object({ infoSection: body, fields }) : z.object({ [`${singular}Name`]: entityName, fields })) as z.ZodType<Record<string, unknown>>,
      handler: async (ctx, i) => show(await getOrCreateEntity(ctx, kind, kind === 'infoSection' ? i.infoSection as EntityInput : { name: i[`${singular}Name`] as string }, singular)) }),
    route({ method: 'POST', path: `${P}/bulk/${plural}/create`, access: 'elevated', summary: `Create ${plural}, per-item results`,
      request: z.object({ [many]: z.array(body).min(1).max(V3_LIMITS.bulk), returnEntity: z.boolean().optional() }) as z.ZodType<Record<string, unknown>>,
      handler: (ctx, i) => bulkResults(i[many] as EntityInput[], async (e) => { const r = await createEntity(ctx, kind, e, singular); return { id: r.id, ...(i.returnEntity ? { item: presentEntity(kind, r) } : {}) }; }) }),
    route({ method: 'POST', path: `${P}/bulk/${plural}/get-or-create`, access: 'elevated', summary: `Get or create ${plural} by name, per-item results`,
      request: (kind === 'infoSection' ? z.object({ infoSections: z.array(body).min(1).max(V3_LIMITS.bulk), fields }) : z.object({ [`${singular}Names`]: z.array(entityName).min(1).max(V3_LIMITS.bulk), fields })) as z.ZodType<Record<string, unknown>>,
      handler: (ctx, i) => bulkResults((kind === 'infoSection' ? i.infoSections : (i[`${singular}Names`] as string[]).map((name) => ({ name }))) as EntityInput[], async (e) => {
        const r = await getOrCreateEntity(ctx, kind, e, singular);
        return { id: r.id, item: presentEntity(kind, r) };
      }) }),
    route({ method: 'POST', path: `${P}/bulk/${plural}/delete`, access: 'elevated', summary: `Delete ${plural}, per-item results`,
      request: z.object({ [`${singular}Ids`]: z.array(z.string().min(1).max(100)).min(1).max(V3_LIMITS.bulk) }) as z.ZodType<Record<string, string[]>>,
      handler: (ctx, i) => bulkResults(i[`${singular}Ids`]!, async (id) => { await deleteEntityById(ctx, kind, id); return { id }; }) }),
  ];
}

const jobRoutes: RouteDef[] = [
  route({ method: 'GET', path: `${P}/bulk/jobs/:jobId`, access: 'elevated', summary: 'Status of a catalog bulk job (our extension)',
    request: z.object({ jobId: z.string().min(1).max(100) }), handler: (ctx, i) => getCatalogJob(ctx, i.jobId) }),
];

/** Catalog V3 routes (products, ribbons, brands, info sections, bulk jobs; inventory items: inventory-routes.ts). */
export const v3Routes: RouteDef[] = [
  ...productRoutes,
  ...jobRoutes,
  ...v3BulkRoutes,
  ...entityRoutes('ribbon', 'ribbons', 'ribbon', 'name'),
  ...entityRoutes('brand', 'brands', 'brand', 'name'),
  ...entityRoutes('infoSection', 'info-sections', 'infoSection', 'uniqueName'),
];

export { presentV3 };
