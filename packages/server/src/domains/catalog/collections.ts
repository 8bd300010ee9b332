import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { isElevated, type RequestContext } from '../../http/context.js';
import { conflict, notFound, ValidationError } from '../../http/errors.js';
import { parseFilter, parseSort } from '../../storage/filter.js';
import { withFilterErrors } from '../../http/filter-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/index.js';
import { slugify } from './build.js';
import { absoluteUrls } from './present.js';
import type { ProductMedia } from './model.js';
import type { createCollectionRequest, productQuery, updateCollectionRequest } from './schema.js';
import { PAGE_DEFAULT } from './schema.js';
import { ALL_PRODUCTS_COLLECTION_ID, COLLECTION_FQDN, createCollectionRecord } from './service.js';
import { cachedListingCount } from './store-listing.js';
import {
  addProductsToCollectionRows, collectionSlugOwner, collectionSortColumn, countCollectionProducts, countProducts, deleteCollectionRow,
  existingProductIds, findCollection, queryCollectionRows, removeProductsFromCollectionRows, updateCollectionRow, type CollectionV1,
} from './store.js';

export const ALL_PRODUCTS_SLUG = 'all-products';

function present(ctx: RequestContext, c: CollectionV1, count: number): CollectionV1 {
  const media = c.media as ProductMedia | undefined;
  return { ...c, ...(media ? { media: absoluteUrls({ ...media, items: media.items ?? [] }, ctx.origin) } : {}), numberOfProducts: count };
}

/** The built-in collection of every product: not stored, answered from the product count. */
async function allProducts(ctx: RequestContext): Promise<CollectionV1> {
  const onlyVisible = !isElevated(ctx.caller);
  const numberOfProducts = await cachedListingCount(ctx.db, ctx.site.id, `all products\u0000${onlyVisible}`, () => countProducts(ctx.db, ctx.site.id, onlyVisible));
  return { id: ALL_PRODUCTS_COLLECTION_ID, name: 'All Products', slug: ALL_PRODUCTS_SLUG, visible: true, description: '', media: { items: [] }, numberOfProducts };
}

async function load(ctx: RequestContext, by: { id: string } | { slug: string }): Promise<CollectionV1> {
  if (('id' in by && by.id === ALL_PRODUCTS_COLLECTION_ID) || ('slug' in by && by.slug === ALL_PRODUCTS_SLUG)) return allProducts(ctx);
  const c = await findCollection(ctx.db, ctx.site.id, by);
  if (!c || (!c.visible && !isElevated(ctx.caller))) throw notFound('COLLECTION_NOT_FOUND', `Collection ${'id' in by ? by.id : by.slug} not found`);
  // The count walks the collection's products: kept while the listing version holds (store-listing.ts).
  const onlyVisible = !isElevated(ctx.caller);
  const count = await cachedListingCount(ctx.db, ctx.site.id, `collection\u0000${c.id}\u0000${onlyVisible}`,
    async () => (await countCollectionProducts(ctx.db, ctx.site.id, [c.id], onlyVisible)).get(c.id) ?? 0);
  return present(ctx, c, count);
}

export async function getCollection(ctx: RequestContext, id: string) {
  return { collection: await load(ctx, { id }) };
}

export async function getCollectionBySlug(ctx: RequestContext, slug: string) {
  return { collection: await load(ctx, { slug }) };
}

/** Query (offset paging); the all-products collection comes first when no filter is given. */
export async function queryCollections(ctx: RequestContext, query: z.infer<typeof productQuery>) {
  const limit = query.paging?.limit ?? PAGE_DEFAULT;
  const offset = query.paging?.offset ?? 0;
  const withAll = query.filter === undefined || query.filter === null || (typeof query.filter === 'object' && Object.keys(query.filter).length === 0);
  const shift = withAll ? 1 : 0;
  const { collections, total } = await withFilterErrors('query', async () => queryCollectionRows(ctx.db, {
    siteId: ctx.site.id,
    filter: parseFilter(query.filter),
    sort: parseSort(query.sort, collectionSortColumn),
    onlyVisible: !isElevated(ctx.caller),
    limit: offset === 0 && withAll ? Math.max(0, limit - 1) : limit,
    offset: Math.max(0, offset - shift),
    dialect: ctx.dialect,
  }));
  const counts = await countCollectionProducts(ctx.db, ctx.site.id, collections.map((c) => c.id), !isElevated(ctx.caller));
  const page = collections.map((c) => present(ctx, c, counts.get(c.id) ?? 0));
  if (withAll && offset === 0) page.unshift(await allProducts(ctx));
  return { collections: page, metadata: { count: page.length, offset, total: total + shift, tooManyToCount: false } };
}

type CreateInput = z.infer<typeof createCollectionRequest>['collection'];
type UpdateInput = z.infer<typeof updateCollectionRequest>['collection'];

async function checkSlug(ctx: RequestContext, slug: string, exceptId?: string): Promise<void> {
  if (slug === ALL_PRODUCTS_SLUG) throw conflict('SLUG_ALREADY_EXISTS', `A collection with slug "${slug}" already exists`, { slug });
  const owner = await collectionSlugOwner(ctx.db, ctx.site.id, slug);
  if (owner !== undefined && owner !== exceptId) throw conflict('SLUG_ALREADY_EXISTS', `A collection with slug "${slug}" already exists`, { slug });
}

export async function createCollection(ctx: RequestContext, input: CreateInput) {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const slug = input.slug ?? slugify(input.name);
    await checkSlug(tctx, slug);
    const collection: CollectionV1 = {
      id: randomUUID(), name: input.name, slug, visible: input.visible ?? true, description: input.description ?? '',
      media: input.media ?? { items: [] },
    };
    await createCollectionRecord(tctx, collection);
    return { collection: present(tctx, collection, 0) };
  });
}

export async function updateCollection(ctx: RequestContext, id: string, patch: UpdateInput) {
  if (id === ALL_PRODUCTS_COLLECTION_ID) throw new ValidationError([{ field: 'collection.id', description: 'the all-products collection cannot be changed', violatedRule: 'FIELD_NOT_ALLOWED', data: {} }]);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const cur = await findCollection(trx, ctx.site.id, { id });
    if (!cur) throw notFound('COLLECTION_NOT_FOUND', `Collection ${id} not found`);
    const next: CollectionV1 = {
      ...cur,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
      ...(patch.description !== undefined ? { description: patch.description ?? '' } : {}),
      ...(patch.visible !== undefined ? { visible: patch.visible } : {}),
      ...(patch.media !== undefined ? { media: patch.media } : {}),
    };
    if (next.slug !== cur.slug) await checkSlug(tctx, next.slug, id);
    await updateCollectionRow(trx, ctx.site.id, next, new Date().toISOString());
    await recordEvent(tctx, { entityFqdn: COLLECTION_FQDN, slug: 'changed', entityId: id, entity: next });
    const counts = await countCollectionProducts(trx, ctx.site.id, [id], false);
    return { collection: present(tctx, next, counts.get(id) ?? 0) };
  });
}

export async function deleteCollection(ctx: RequestContext, id: string) {
  await inTransaction(ctx.db, async (trx) => {
    const cur = await findCollection(trx, ctx.site.id, { id });
    if (!cur) throw notFound('COLLECTION_NOT_FOUND', `Collection ${id} not found`);
    await deleteCollectionRow(trx, ctx.site.id, id);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: COLLECTION_FQDN, slug: 'deleted', entityId: id, entity: cur });
  });
  return {};
}

/** Adds products (unknown product ids are a 400 naming them; products already in it are left as they are). */
export async function addProductsToCollection(ctx: RequestContext, id: string, productIds: string[]) {
  if (id === ALL_PRODUCTS_COLLECTION_ID) return {};
  await inTransaction(ctx.db, async (trx) => {
    const cur = await findCollection(trx, ctx.site.id, { id });
    if (!cur) throw notFound('COLLECTION_NOT_FOUND', `Collection ${id} not found`);
    const have = await existingProductIds(trx, ctx.site.id, productIds);
    const missing = productIds.filter((p) => !have.has(p));
    if (missing.length) throw new ValidationError([{ field: 'productIds', description: `unknown product ids: ${missing.join(', ')}`, violatedRule: 'FORMAT', data: { unknownIds: missing } }]);
    const added = await addProductsToCollectionRows(trx, ctx.site.id, id, productIds);
    if (added.length) await recordEvent({ ...ctx, db: trx }, { entityFqdn: COLLECTION_FQDN, slug: 'changed', entityId: id, entity: cur, data: { addedProductIds: added } });
  });
  return {};
}

export async function removeProductsFromCollection(ctx: RequestContext, id: string, productIds: string[]) {
  if (id === ALL_PRODUCTS_COLLECTION_ID) throw new ValidationError([{ field: 'id', description: 'products cannot leave the all-products collection', violatedRule: 'FIELD_NOT_ALLOWED', data: {} }]);
  await inTransaction(ctx.db, async (trx) => {
    const cur = await findCollection(trx, ctx.site.id, { id });
    if (!cur) throw notFound('COLLECTION_NOT_FOUND', `Collection ${id} not found`);
    await removeProductsFromCollectionRows(trx, ctx.site.id, id, productIds);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: COLLECTION_FQDN, slug: 'changed', entityId: id, entity: cur, data: { removedProductIds: productIds } });
  });
  return {};
}
