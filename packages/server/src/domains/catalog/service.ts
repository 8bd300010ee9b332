import { randomUUID } from 'node:crypto';
import { isElevated, type RequestContext } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { parseFilter, parseSort } from '../../storage/filter.js';
import { withFilterErrors } from '../../storage/filter-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/service.js';
import type { ProductMedia, ProductV1 } from './model.js';
import { buildProductV1 } from './build.js';
import type { z } from 'zod';
import type { productInput } from './schema.js';
import { PAGE_DEFAULT } from './schema.js';
import {
  addProductToCollection, findMedia, findProductIdBySlug, findProduct, insertCollection, insertMedia, insertProduct, productSortColumn,
  queryProductRows, type CollectionV1,
} from './store.js';

export const PRODUCT_FQDN = 'wix.stores.catalog.v1.product';
export const COLLECTION_FQDN = 'wix.stores.catalog.v1.collection';

/** Media URLs are stored as paths; callers get absolute URLs on this server's origin. */
function absoluteMedia(media: ProductMedia, origin: string): ProductMedia {
  const abs = <T extends { url: string } | undefined>(img: T): T => (img && img.url.startsWith('/') ? { ...img, url: origin + img.url } : img);
  const item = (m: ProductMedia['items'][number]) => ({ ...m, image: abs(m.image), thumbnail: abs(m.thumbnail) });
  return { mainMedia: media.mainMedia && item(media.mainMedia), items: media.items.map(item) };
}

/** What a caller may see of a product: cost and profit only for elevated callers who ask for them. */
function present(ctx: RequestContext, product: ProductV1, includeMerchantData: boolean): ProductV1 {
  const out: ProductV1 = { ...product, media: absoluteMedia(product.media, ctx.origin) };
  if (!(includeMerchantData && isElevated(ctx.caller))) {
    delete out.costAndProfitData;
    delete out.costRange;
  }
  return out;
}

export interface QueryProductsInput {
  filter?: unknown;
  sort?: unknown;
  paging?: { limit?: number | undefined; offset?: number | undefined } | undefined;
}

export async function queryProducts(ctx: RequestContext, query: QueryProductsInput) {
  const limit = query.paging?.limit ?? PAGE_DEFAULT;
  const offset = query.paging?.offset ?? 0;
  const { products, total } = await withFilterErrors('query', async () => queryProductRows(ctx.db, {
    siteId: ctx.site.id,
    filter: parseFilter(query.filter),
    sort: parseSort(query.sort, productSortColumn),
    onlyVisible: !isElevated(ctx.caller),
    limit,
    offset,
    dialect: ctx.dialect,
  }));
  return {
    products: products.map((p) => present(ctx, p, false)),
    metadata: { count: products.length, offset, total, tooManyToCount: false },
  };
}

export async function getProduct(ctx: RequestContext, id: string, includeMerchantSpecificData = false): Promise<{ product: ProductV1 }> {
  const product = await findProduct(ctx.db, ctx.site.id, id);
  if (!product || (!product.visible && !isElevated(ctx.caller))) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
  return { product: present(ctx, product, includeMerchantSpecificData) };
}

export async function getMediaFile(ctx: { db: RequestContext['db'] }, id: string) {
  return findMedia(ctx.db, id);
}

// ---------------------------------------------------------------------------------------------
// Writes used by seeding (the owner write API builds on these)

export async function saveMediaFile(ctx: RequestContext, input: { fileName: string; contentType: string; width: number; height: number; bytes: Buffer }): Promise<{ id: string; path: string }> {
  const id = randomUUID().replace(/-/g, '');
  await insertMedia(ctx.db, { id, site_id: ctx.site.id, file_name: input.fileName, content_type: input.contentType, width: input.width, height: input.height, bytes: input.bytes }, new Date().toISOString());
  return { id, path: `/media/${id}/${encodeURIComponent(input.fileName)}` };
}

export async function createCollectionRecord(ctx: RequestContext, collection: CollectionV1): Promise<CollectionV1> {
  await inTransaction(ctx.db, async (trx) => {
    await insertCollection(trx, ctx.site.id, collection, new Date().toISOString());
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: COLLECTION_FQDN, slug: 'created', entityId: collection.id, entity: collection });
  });
  return collection;
}

export async function createProductRecord(ctx: RequestContext, product: ProductV1): Promise<ProductV1> {
  await inTransaction(ctx.db, async (trx) => {
    await insertProduct(trx, ctx.site.id, product);
    for (const [position, collectionId] of product.collectionIds.entries()) {
      await addProductToCollection(trx, ctx.site.id, collectionId, product.id, position);
    }
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: PRODUCT_FQDN, slug: 'created', entityId: product.id, entity: product });
  });
  return product;
}

/** Owner create (V1): derives prices, variants and stock from the input; slug unique per site. */
export async function createProduct(ctx: RequestContext, input: z.infer<typeof productInput>): Promise<{ product: ProductV1 }> {
  const product = buildProductV1({
    name: input.name,
    slug: input.slug,
    description: input.description,
    productType: input.productType,
    sku: input.sku,
    weight: input.weight,
    visible: input.visible,
    brand: input.brand,
    ribbon: input.ribbon,
    price: input.priceData.price,
    cost: input.costAndProfitData?.itemCost,
    discount: input.discount,
    productOptions: input.productOptions?.map((o) => ({
      optionType: o.optionType ?? 'drop_down',
      name: o.name,
      choices: o.choices.map((c) => ({ value: c.value, description: c.description, inStock: c.inStock ?? true, visible: c.visible ?? true })),
    })),
    trackInventory: input.stock?.trackInventory,
    quantity: input.stock?.quantity,
    inStock: input.stock?.inStock,
    collectionIds: input.collectionIds,
  }, ctx.site.currency);
  if (await slugTaken(ctx, product.slug)) throw conflict('SLUG_ALREADY_EXISTS', `A product with slug "${product.slug}" already exists`, { slug: product.slug });
  await createProductRecord(ctx, product);
  return { product: present(ctx, product, true) };
}

async function slugTaken(ctx: RequestContext, slug: string): Promise<boolean> {
  return (await findProductIdBySlug(ctx.db, ctx.site.id, slug)) !== undefined;
}
