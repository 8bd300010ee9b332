import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { isElevated, type PeekContext, type RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound, ValidationError, type FieldViolation } from '../../http/errors.js';
import { parseFilter, parseSort } from '../../storage/filter.js';
import { withFilterErrors } from '../../http/filter-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/index.js';
import { buildProductWithStock, deriveProductV1, slugify } from './build.js';
import { openCursor, signCursor } from './cursor.js';
import { ALL_PRODUCTS_COLLECTION_ID, choicesKey, roundMoney, stableJson, type ProductMedia, type ProductV1, type StockRow, type VariantOverride } from './model.js';
import { encodeProductRead, encodeProductsPage, presentProduct, type ProductRead, type ProductsPage } from './present.js';
import type { EncodedJson } from '../../http/wire.js';
import { listingAnswer } from './listing-answers.js';
import { keptProductAnswer, peekProductAnswer } from './product-answers.js';
import { insertMediaFile } from './store-media.js';
import { bulkResults } from './bulk-results.js';
import type { OffsetPagingMetadata } from '@vitrine/types';
import type { ProductOptionsAvailability, QueryProductVariantsResponse } from '@vitrine/types/stores';
import type { productInput, productPatch, productQuery } from './schema.js';
import { CATALOG_LIMITS, PAGE_DEFAULT } from './schema.js';
import {
  addProductToCollection, countProducts, deleteProductRow, existingCollectionIds, findProduct, findProductForUpdate, findProductIdBySlug,
  insertCollection, insertProduct, insertProductsBulk, productSortColumn, queryPublicProductRows, findPublicProduct, setProductCollections, updateProductRow,
  type CollectionV1,
} from './store.js';
import { defaultItemsOf, deleteProductItems, skuUsedElsewhere, syncVariantItems } from '../inventory/index.js';
import { deleteSearchDoc, searchTerms, writeSearchDoc } from './store-search.js';

export const PRODUCT_FQDN = 'wix.stores.catalog.v1.product';
export const COLLECTION_FQDN = 'wix.stores.catalog.v1.collection';
export { ALL_PRODUCTS_COLLECTION_ID };

const UNIT_DIMENSION: Record<string, string> = {
  MG: 'weight', G: 'weight', KG: 'weight', OZ: 'weight', LB: 'weight',
  ML: 'volume', CL: 'volume', L: 'volume', CBM: 'volume', FLOZ: 'volume', PT: 'volume', QT: 'volume', GAL: 'volume',
  MM: 'length', CM: 'length', M: 'length', IN: 'length', FT: 'length', YD: 'length',
  SQM: 'area', SQFT: 'area',
};

// ---------------------------------------------------------------------------------------------
// Reads

export type ProductQueryInput = z.infer<typeof productQuery>;

/**
 * V1 query, encoded: offset paging (metadata with total) or cursor paging (signed cursor carrying
 * filter, sort and search; metadata with cursors). Visitors see visible products only. Queries never
 * carry merchant data, so the page is the stored visitor documents (`encodeProductsPage` sends them
 * as they are). An offset page is kept while the listing version holds (listing-answers.ts).
 */
export async function queryProducts(ctx: RequestContext, query: ProductQueryInput): Promise<EncodedJson> {
  if (query.cursorPaging !== undefined) return encodeProductsPage(ctx, await queryProductsByCursor(ctx, query));
  return listingAnswer(ctx, ['products.v1.query', query.filter, query.sort, query.search, query.paging],
    async (version) => encodeProductsPage(ctx, await queryProductsPage(ctx, query, version)).json);
}

const QUERY_KIND = 'products.v1.query';

/** The search terms of a query's `search.expression`, or undefined when it has none. */
function queryTerms(search: unknown): string[] | undefined {
  const expression = (search as { expression?: string | null } | undefined)?.expression ?? '';
  return expression.trim() ? searchTerms(expression) : undefined;
}

async function queryProductsPage(ctx: RequestContext, query: ProductQueryInput, listingVersion: number | undefined): Promise<ProductsPage> {
  const offset = query.paging?.offset ?? 0;
  const { rows, total } = await withFilterErrors('query', async () => queryPublicProductRows(ctx.db, {
    siteId: ctx.site.id,
    filter: parseFilter(query.filter),
    sort: parseSort(query.sort, productSortColumn),
    onlyVisible: !isElevated(ctx.caller),
    limit: query.paging?.limit ?? PAGE_DEFAULT,
    offset,
    dialect: ctx.dialect,
    searchTerms: queryTerms(query.search),
    listingVersion,
  }));
  return { rows, metadata: { count: rows.length, offset, total, tooManyToCount: false } };
}

async function queryProductsByCursor(ctx: RequestContext, query: ProductQueryInput): Promise<ProductsPage> {
  let filter: unknown = query.filter;
  let sort: unknown = query.sort;
  let search: unknown = query.search;
  let offset = query.paging?.offset ?? 0;
  let limit = query.cursorPaging?.limit ?? PAGE_DEFAULT;
  if (query.cursorPaging?.cursor) {
    const state = await openCursor(ctx.db, ctx.site.id, QUERY_KIND, query.cursorPaging.cursor, 'query.cursorPaging.cursor');
    ({ filter, sort, search, offset } = state);
    limit = query.cursorPaging.limit ?? state.limit;
  }
  const { rows } = await withFilterErrors('query', async () => queryPublicProductRows(ctx.db, {
    siteId: ctx.site.id,
    filter: parseFilter(filter),
    sort: parseSort(sort, productSortColumn),
    onlyVisible: !isElevated(ctx.caller),
    limit: limit + 1,
    offset,
    dialect: ctx.dialect,
    searchTerms: queryTerms(search),
    skipTotal: true,
  }));
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const state = { kind: QUERY_KIND, filter, sort, search, limit };
  const metadata: OffsetPagingMetadata = {
    count: page.length,
    offset,
    cursors: {
      next: hasNext ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: offset + limit }) : null,
      prev: offset > 0 ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: Math.max(0, offset - limit) }) : null,
    },
  };
  return { rows: page, metadata };
}

async function loadVisible(ctx: RequestContext, id: string): Promise<ProductV1> {
  const product = await findProduct(ctx.db, ctx.site.id, id);
  if (!product || (!product.visible && !isElevated(ctx.caller))) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
  return product;
}

/**
 * A product: the domain product for an elevated caller asking for merchant data, else its stored
 * visitor document (the fast path: sent without parsing). `encodeProductRead` encodes either.
 */
async function getProduct(ctx: RequestContext, id: string, includeMerchantSpecificData = false): Promise<ProductRead> {
  if (includeMerchantSpecificData && isElevated(ctx.caller)) return { product: await loadVisible(ctx, id), merchant: true };
  const row = await findPublicProduct(ctx.db, ctx.site.id, id);
  if (!row || (!row.visible && !isElevated(ctx.caller))) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
  return { stored: row };
}

/** getProduct's answer; a visitor's is kept while the catalog is unchanged (product-answers.ts). */
/** A visitor's V1 product answer is kept under this key (merchant data is never in it). */
const productAnswerKey = (id: string) => `v1\u0000${id}`;

export async function getProductAnswer(ctx: RequestContext, id: string, includeMerchantSpecificData = false): Promise<EncodedJson> {
  return keptProductAnswer(ctx, productAnswerKey(id), async () => encodeProductRead(ctx, await getProduct(ctx, id, includeMerchantSpecificData)));
}

/** The V1 product answer kept for `id` that still holds for this caller, if any (route.ts `keptAnswer`). */
export function peekProductAnswerV1(peek: PeekContext, id: string): Promise<EncodedJson | undefined> {
  return peekProductAnswer(peek, productAnswerKey(id));
}

// ---------------------------------------------------------------------------------------------
// Writes: every product write goes through `saveProduct`, which derives, validates and stores the
// product, its stock rows and its search document, and records the event, in one transaction.

function stockFromProduct(product: ProductV1): StockRow[] {
  return product.variants.map((v) => ({
    variantId: v.id, trackQuantity: v.stock.trackQuantity, quantity: v.stock.trackQuantity ? (v.stock.quantity ?? 0) : null,
    inStock: v.stock.inStock, preorderEnabled: false, preorderLimit: null,
  }));
}

function skusOf(product: ProductV1): string[] {
  return [...new Set(product.variants.map((v) => v.variant.sku).filter((s): s is string => !!s))];
}

async function saveProduct(ctx: RequestContext, product: ProductV1, stock: StockRow[], mode: 'create' | 'update', field = 'product'): Promise<void> {
  const sku = await skuUsedElsewhere(ctx, skusOf(product), product.id);
  if (sku !== undefined) throw new ValidationError([{ field: `${field}.sku`, description: `SKU "${sku}" is already used by another product`, violatedRule: 'FORMAT', data: { sku } }]);
  const now = new Date().toISOString();
  if (mode === 'create') await insertProduct(ctx.db, ctx.site.id, product);
  else await updateProductRow(ctx.db, ctx.site.id, product);
  const skuById = new Map(product.variants.map((v) => [v.id, v.variant.sku ?? null]));
  await syncVariantItems(ctx, 'v1', product.id, stock.map((s) => ({ ...s, sku: skuById.get(s.variantId) ?? null })), now);
  await writeSearchDoc(ctx.db, ctx.site.id, { id: product.id, catalog: 'v1', name: product.name, sku: skusOf(product).join(' '), brand: product.brand ?? '', description: stripHtml(product.description) });
}

function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ');
}

export async function createCollectionRecord(ctx: RequestContext, collection: CollectionV1): Promise<CollectionV1> {
  await inTransaction(ctx.db, async (trx) => {
    await insertCollection(trx, ctx.site.id, collection, new Date().toISOString());
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: COLLECTION_FQDN, slug: 'created', entityId: collection.id, entity: collection });
  });
  return collection;
}

/** Stores a built product (seed and create): row, collections, stock, search, event. */
export async function createProductRecord(ctx: RequestContext, product: ProductV1, stock = stockFromProduct(product)): Promise<ProductV1> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await saveProduct(tctx, product, stock, 'create');
    for (const [position, collectionId] of product.collectionIds.entries()) {
      await addProductToCollection(trx, ctx.site.id, collectionId, product.id, position);
    }
    await recordEvent(tctx, { entityFqdn: PRODUCT_FQDN, slug: 'created', entityId: product.id, entity: presentProduct(tctx, product, true) });
  });
  return product;
}

type ProductInput = z.infer<typeof productInput>;
type ProductPatch = z.infer<typeof productPatch>;

/** Business checks zod cannot express: option names and choices unique, variant count, units, discount. */
function validateProductFields(p: ProductPatch, field: string, price: number | undefined): void {
  const v: FieldViolation[] = [];
  const opts = p.productOptions ?? [];
  const names = new Set<string>();
  for (const [i, o] of opts.entries()) {
    if (names.has(o.name.toLowerCase())) v.push({ field: `${field}.productOptions[${i}].name`, description: `option "${o.name}" appears twice`, violatedRule: 'FORMAT', data: {} });
    names.add(o.name.toLowerCase());
    const values = new Set<string>();
    for (const [j, c] of o.choices.entries()) {
      const key = (o.optionType === 'color' ? c.description : c.value).toLowerCase();
      if (values.has(key)) v.push({ field: `${field}.productOptions[${i}].choices[${j}]`, description: `choice "${c.description}" appears twice`, violatedRule: 'FORMAT', data: {} });
      values.add(key);
    }
  }
  const combos = opts.reduce((n, o) => n * o.choices.length, 1);
  if (combos > CATALOG_LIMITS.variantsPerProduct) {
    v.push({ field: `${field}.productOptions`, description: `options make ${combos} variants; at most ${CATALOG_LIMITS.variantsPerProduct}`, violatedRule: 'MAX_SIZE', data: { max: CATALOG_LIMITS.variantsPerProduct } });
  }
  const ppu = p.pricePerUnitData;
  if (ppu && UNIT_DIMENSION[ppu.totalMeasurementUnit] !== UNIT_DIMENSION[ppu.baseMeasurementUnit]) {
    v.push({ field: `${field}.pricePerUnitData.baseMeasurementUnit`, description: `must measure the same thing as ${ppu.totalMeasurementUnit}`, violatedRule: 'FORMAT', data: {} });
  }
  if (p.discount?.type === 'AMOUNT' && price !== undefined && p.discount.value > price) {
    v.push({ field: `${field}.discount.value`, description: 'an amount discount is at most the price', violatedRule: 'MAX', data: { max: price } });
  }
  if (v.length > 0) throw new ValidationError(v);
}

async function checkCollections(ctx: RequestContext, ids: string[] | undefined, field: string): Promise<string[] | undefined> {
  if (!ids) return undefined;
  const wanted = [...new Set(ids.filter((id) => id !== ALL_PRODUCTS_COLLECTION_ID))];
  const have = await existingCollectionIds(ctx.db, ctx.site.id, wanted);
  const missing = wanted.filter((id) => !have.has(id));
  if (missing.length > 0) throw new ValidationError([{ field, description: `unknown collection ids: ${missing.join(', ')}`, violatedRule: 'FORMAT', data: { unknownIds: missing } }]);
  return wanted;
}

function optionsFrom(input: ProductPatch['productOptions']): ProductV1['productOptions'] | undefined {
  return input?.map((o) => ({
    optionType: o.optionType ?? 'drop_down',
    name: o.name,
    choices: o.choices.map((c) => ({ value: c.value, description: c.description, inStock: c.inStock ?? true, visible: c.visible ?? true })),
  }));
}

/** Owner create (V1): derives prices, variants and stock from the input; slug and SKU unique per site. */
export async function createProduct(ctx: RequestContext, input: ProductInput): Promise<ProductV1> {
  validateProductFields(input, 'product', input.priceData.price);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const collectionIds = await checkCollections(tctx, input.collectionIds, 'product.collectionIds');
    const { product, stock } = buildProductWithStock({
      name: input.name,
      slug: input.slug,
      description: input.description,
      productType: input.productType,
      sku: input.sku || undefined,
      weight: input.weight,
      visible: input.visible,
      brand: input.brand || undefined,
      ribbon: input.ribbon || undefined,
      price: input.priceData.price,
      cost: input.costAndProfitData?.itemCost,
      discount: input.discount,
      productOptions: optionsFrom(input.productOptions),
      manageVariants: input.manageVariants,
      trackInventory: input.stock?.trackInventory,
      quantity: input.stock?.quantity,
      inStock: input.stock?.inStock,
      collectionIds,
      pricePerUnitData: input.pricePerUnitData,
      customTextFields: input.customTextFields?.map((f) => ({ title: f.title, maxLength: f.maxLength, mandatory: f.mandatory ?? false })),
      additionalInfoSections: input.additionalInfoSections,
      seoData: input.seoData,
    }, ctx.site.currency);
    if (await slugTaken(tctx, product.slug)) throw conflict('SLUG_ALREADY_EXISTS', `A product with slug "${product.slug}" already exists`, { slug: product.slug });
    await createProductRecord(tctx, product, stock);
    return product;
  });
}

async function slugTaken(ctx: RequestContext, slug: string, exceptId?: string): Promise<boolean> {
  const owner = await findProductIdBySlug(ctx.db, ctx.site.id, slug);
  return owner !== undefined && owner !== exceptId;
}

/**
 * Loads a product for change, applies `change` (which returns the new product and optionally new
 * stock rows), re-derives, stores and records `changed` (plus `variants_changed` when variant data
 * moved), all in one transaction. Returns the stored product.
 */
async function changeProduct(
  ctx: RequestContext,
  id: string,
  change: (p: ProductV1, stock: StockRow[], tctx: RequestContext) => Promise<{ product: ProductV1; stock?: StockRow[] }> | { product: ProductV1; stock?: StockRow[] },
): Promise<ProductV1> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const before = await findProductForUpdate(trx, ctx.site.id, id, ctx.dialect);
    if (!before) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
    const rows = await defaultItemsOf(tctx, id);
    const changed = await change(before, rows, tctx);
    let stock = changed.stock ?? rows;
    let product = deriveProductV1({ ...changed.product, lastUpdated: new Date().toISOString() }, ctx.site.currency, stock);
    // New variants (options changed) get stock like the product's other variants.
    const known = new Set(stock.map((s) => s.variantId));
    const template = stock[0];
    const added = product.variants.filter((v) => !known.has(v.id)).map((v): StockRow => ({
      variantId: v.id, trackQuantity: template?.trackQuantity ?? false, quantity: template?.trackQuantity ? 0 : null,
      inStock: template?.trackQuantity ? false : true, preorderEnabled: template?.preorderEnabled ?? false, preorderLimit: template?.preorderLimit ?? null,
    }));
    const live = new Set(product.variants.map((v) => v.id));
    stock = [...stock.filter((s) => live.has(s.variantId)), ...added];
    if (added.length > 0) product = deriveProductV1(product, ctx.site.currency, stock);
    await saveProduct(tctx, product, stock, 'update');
    const presented = presentProduct(tctx, product, true);
    await recordEvent(tctx, { entityFqdn: PRODUCT_FQDN, slug: 'changed', entityId: id, entity: presented });
    if (stableJson(before.variants) !== stableJson(product.variants)) {
      await recordEvent(tctx, { entityFqdn: PRODUCT_FQDN, slug: 'variants_changed', entityId: id, entity: presented, data: { variantIds: product.variants.map((v) => v.id) } });
    }
    return product;
  });
}

/** Recomputes a product after its stock rows changed (inventory writes); same transaction as the caller. */
export async function refreshProductStock(ctx: RequestContext, productId: string): Promise<void> {
  const product = await findProduct(ctx.db, ctx.site.id, productId);
  if (!product) return;
  const rows = await defaultItemsOf(ctx, productId);
  const next = deriveProductV1(product, ctx.site.currency, rows);
  if (stableJson(next.variants) === stableJson(product.variants) && stableJson(next.stock) === stableJson(product.stock)) return;
  await updateProductRow(ctx.db, ctx.site.id, { ...next, lastUpdated: new Date().toISOString() });
  await recordEvent(ctx, { entityFqdn: PRODUCT_FQDN, slug: 'variants_changed', entityId: productId, entity: presentProduct(ctx, next, true), data: { reason: 'inventory' } });
}

/** Partial update (V1 PATCH): only the fields given change; derived fields follow. */
export async function updateProduct(ctx: RequestContext, id: string, patch: ProductPatch): Promise<ProductV1> {
  return changeProduct(ctx, id, async (p, stock, tctx) => {
    const price = patch.priceData?.price ?? p.priceData.price;
    validateProductFields({ ...patch, discount: patch.discount ?? p.discount }, 'product', price);
    const collectionIds = await checkCollections(tctx, patch.collectionIds, 'product.collectionIds');
    const next: ProductV1 = { ...p };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.slug !== undefined) next.slug = patch.slug;
    if (next.slug !== p.slug && await slugTaken(tctx, next.slug, p.id)) throw conflict('SLUG_ALREADY_EXISTS', `A product with slug "${next.slug}" already exists`, { slug: next.slug });
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.productType !== undefined) next.productType = patch.productType;
    if (patch.sku !== undefined) { if (patch.sku) next.sku = patch.sku; else delete next.sku; }
    if (patch.weight !== undefined) next.weight = patch.weight;
    if (patch.visible !== undefined) next.visible = patch.visible;
    if (patch.brand !== undefined) { if (patch.brand) next.brand = patch.brand; else delete next.brand; }
    if (patch.ribbon !== undefined) { if (patch.ribbon) next.ribbon = patch.ribbon; else delete next.ribbon; }
    if (patch.priceData) next.priceData = { ...p.priceData, price: patch.priceData.price };
    if (patch.costAndProfitData) next._src = { ...(p._src ?? { overrides: {} }), cost: patch.costAndProfitData.itemCost };
    if (patch.discount) next.discount = patch.discount;
    if (patch.pricePerUnitData) next.pricePerUnitData = patch.pricePerUnitData;
    if (patch.customTextFields) next.customTextFields = patch.customTextFields.map((f) => ({ title: f.title, maxLength: f.maxLength, mandatory: f.mandatory ?? false }));
    if (patch.additionalInfoSections) next.additionalInfoSections = patch.additionalInfoSections;
    if (patch.seoData) next.seoData = patch.seoData;
    if (patch.manageVariants !== undefined) next.manageVariants = patch.manageVariants;
    if (patch.productOptions) {
      // Choice media survive when the choice does.
      next.productOptions = optionsFrom(patch.productOptions)!.map((o) => {
        const old = p.productOptions.find((x) => x.name === o.name);
        return { ...o, choices: o.choices.map((c) => ({ ...c, ...(old?.choices.find((x) => x.value === c.value)?.media ? { media: old.choices.find((x) => x.value === c.value)!.media } : {}) })) };
      });
      if (patch.manageVariants === undefined) next.manageVariants = next.productOptions.length > 0;
    }
    if (collectionIds) {
      next.collectionIds = collectionIds;
      await setProductCollections(tctx.db, tctx.site.id, p.id, collectionIds);
    }
    let nextStock = stock;
    if (patch.stock) {
      const track = patch.stock.trackInventory ?? stock[0]?.trackQuantity ?? false;
      nextStock = stock.map((s) => ({
        ...s, trackQuantity: track,
        quantity: track ? (patch.stock!.quantity ?? s.quantity ?? 0) : null,
        inStock: track ? (patch.stock!.quantity ?? s.quantity ?? 0) > 0 : (patch.stock!.inStock ?? s.inStock),
      }));
    }
    return { product: next, stock: nextStock };
  });
}

export async function deleteProduct(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const product = await findProductForUpdate(trx, ctx.site.id, id, ctx.dialect);
    if (!product) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
    await deleteProductRow(trx, ctx.site.id, id);
    await deleteProductItems(tctx, id);
    await deleteSearchDoc(trx, id);
    await recordEvent(tctx, { entityFqdn: PRODUCT_FQDN, slug: 'deleted', entityId: id, entity: presentProduct(tctx, product, true) });
  });
  return {};
}

// ---------------------------------------------------------------------------------------------
// Variants

function matchesChoices(variant: Record<string, string>, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([k, v]) => variant[k] === v);
}

function checkChoices(p: ProductV1, choices: Record<string, string>, field: string): void {
  for (const [name, value] of Object.entries(choices)) {
    const option = p.productOptions.find((o) => o.name === name);
    if (!option) throw new ValidationError([{ field, description: `the product has no option "${name}"`, violatedRule: 'FORMAT', data: { option: name } }]);
    if (!option.choices.some((c) => c.value === value || c.description === value)) {
      throw new ValidationError([{ field, description: `option "${name}" has no choice "${value}"`, violatedRule: 'FORMAT', data: { option: name, choice: value } }]);
    }
  }
}

/** Color choices are addressed by their description (the value is the hex code). */
function normalizeChoices(p: ProductV1, choices: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(choices)) {
    const option = p.productOptions.find((o) => o.name === name);
    out[name] = option?.choices.find((c) => c.value === value)?.value ?? option?.choices.find((c) => c.description === value)?.value ?? value;
  }
  return out;
}

export async function updateVariants(ctx: RequestContext, id: string, updates: { choices?: Record<string, string> | undefined; variantIds?: string[] | undefined; price?: number | null | undefined; cost?: number | null | undefined; weight?: number | null | undefined; sku?: string | null | undefined; visible?: boolean | null | undefined }[]): Promise<ProductV1> {
  return changeProduct(ctx, id, (p) => {
    const overrides: Record<string, VariantOverride> = { ...(p._src?.overrides ?? {}) };
    for (const [i, u] of updates.entries()) {
      const field = `variants[${i}]`;
      if (!u.choices && !u.variantIds) throw new ValidationError([{ field, description: 'give choices or variantIds', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
      if (u.choices) checkChoices(p, u.choices, `${field}.choices`);
      const ids = new Set(p.variants.map((v) => v.id));
      const unknown = (u.variantIds ?? []).filter((v) => !ids.has(v));
      if (unknown.length) throw new ValidationError([{ field: `${field}.variantIds`, description: `unknown variant ids: ${unknown.join(', ')}`, violatedRule: 'FORMAT', data: { unknownIds: unknown } }]);
      const wanted = u.choices ? normalizeChoices(p, u.choices) : undefined;
      const targets = p.variants.filter((v) => (u.variantIds ? u.variantIds.includes(v.id) : true) && (wanted ? matchesChoices(v.choices, wanted) : true));
      for (const v of targets) {
        const o = { ...(overrides[v.id] ?? {}) };
        if (u.price !== undefined) { if (u.price === null) delete o.price; else o.price = u.price; }
        if (u.cost !== undefined) { if (u.cost === null) delete o.cost; else o.cost = u.cost; }
        if (u.weight !== undefined) { if (u.weight === null) delete o.weight; else o.weight = u.weight; }
        if (u.sku !== undefined) { if (!u.sku) delete o.sku; else o.sku = u.sku; }
        if (u.visible !== undefined) { if (u.visible === null) delete o.visible; else o.visible = u.visible; }
        overrides[v.id] = o;
      }
    }
    return { product: { ...p, manageVariants: p.productOptions.length > 0, _src: { ...(p._src ?? { overrides: {} }), overrides } } };
  });
}

export async function resetVariants(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await changeProduct(ctx, id, (p) => ({ product: { ...p, manageVariants: false, _src: { ...(p._src ?? { overrides: {} }), overrides: {} } } }));
  return {};
}

export async function deleteOptions(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await changeProduct(ctx, id, (p, stock) => {
    // Without options the product has one variant; it keeps the stock of the first old variant.
    const first = stock[0];
    const next = { ...p, productOptions: [], manageVariants: false, variants: [], _src: { ...(p._src ?? { overrides: {} }), overrides: {} } };
    return { product: next, stock: first ? [{ ...first, variantId: '00000000-0000-0000-0000-000000000000' }] : [] };
  });
  return {};
}

export async function removeBrand(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await changeProduct(ctx, id, (p) => { const next = { ...p }; delete next.brand; return { product: next }; });
  return {};
}

export async function removeRibbon(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await changeProduct(ctx, id, (p) => { const next = { ...p }; delete next.ribbon; return { product: next }; });
  return {};
}

// ---------------------------------------------------------------------------------------------
// Bulk price / cost / weight

/** One change per product id, each in its own transaction; per-item results (INVALID_VALUE when `apply` refuses). */
function bulkChange(ctx: RequestContext, ids: string[], apply: (p: ProductV1) => ProductV1 | string) {
  return bulkResults(ids, async (id) => {
    await changeProduct(ctx, id, (p) => {
      const out = apply(p);
      if (typeof out === 'string') throw new ApplicationError(400, 'INVALID_VALUE', out);
      return { product: out };
    });
    return {};
  }, (id) => id);
}

export async function bulkUpdateProperty(ctx: RequestContext, ids: string[], set: { price?: number | undefined; cost?: number | undefined; weight?: number | undefined; ribbon?: string | undefined; brand?: string | undefined }) {
  return bulkChange(ctx, ids, (p) => {
    const next = { ...p };
    if (set.price !== undefined) {
      if (p.discount.type === 'AMOUNT' && p.discount.value > set.price) return 'the amount discount would exceed the price';
      next.priceData = { ...p.priceData, price: set.price };
    }
    if (set.cost !== undefined) next._src = { ...(p._src ?? { overrides: {} }), cost: set.cost };
    if (set.weight !== undefined) next.weight = set.weight;
    if (set.ribbon !== undefined) next.ribbon = set.ribbon;
    if (set.brand !== undefined) next.brand = set.brand;
    return next;
  });
}

type Adjustment = { amount?: number | undefined; percentage?: { rate: number; roundToInt?: boolean | undefined } | undefined };

export function adjustValue(value: number, adj: Adjustment): number {
  if (adj.amount !== undefined) return roundMoney(value + adj.amount);
  const raw = value * (1 + adj.percentage!.rate / 100);
  return adj.percentage!.roundToInt ? Math.round(raw) : roundMoney(raw);
}

export async function bulkAdjustProperty(ctx: RequestContext, ids: string[], adjust: { price?: Adjustment | undefined; cost?: Adjustment | undefined; weight?: Adjustment | undefined }) {
  return bulkChange(ctx, ids, (p) => {
    const next = { ...p };
    if (adjust.price) {
      const price = adjustValue(p.priceData.price, adjust.price);
      if (price < 0) return `the price would be negative (${price})`;
      if (p.discount.type === 'AMOUNT' && p.discount.value > price) return 'the amount discount would exceed the price';
      next.priceData = { ...p.priceData, price };
    }
    if (adjust.cost) {
      const cost = adjustValue(p._src?.cost ?? 0, adjust.cost);
      if (cost < 0) return `the cost would be negative (${cost})`;
      next._src = { ...(p._src ?? { overrides: {} }), cost };
    }
    if (adjust.weight) {
      const weight = adjustValue(p.weight ?? 0, adjust.weight);
      if (weight < 0) return `the weight would be negative (${weight})`;
      next.weight = weight;
    }
    return next;
  });
}

// ---------------------------------------------------------------------------------------------
// Availability and variants (reads)

export async function productOptionsAvailability(ctx: RequestContext, id: string, options: Record<string, string>): Promise<ProductOptionsAvailability> {
  const p = await loadVisible(ctx, id);
  const shown = presentProduct(ctx, p, false);
  const selected = normalizeChoices(p, options);
  const consistent = (v: ProductV1['variants'][number]) => matchesChoices(v.choices, selected);
  const productOptions = shown.productOptions.map((o) => ({
    ...o,
    choices: o.choices.map((c) => ({
      ...c,
      inStock: p.variants.some((v) => v.choices[o.name] === c.value && v.stock.inStock && matchesChoices(v.choices, Object.fromEntries(Object.entries(selected).filter(([k]) => k !== o.name)))),
    })),
  }));
  const complete = p.productOptions.every((o) => selected[o.name] !== undefined);
  const variant = complete ? shown.variants.find(consistent) : undefined;
  const chosenMedia = shown.productOptions.flatMap((o) => o.choices.filter((c) => selected[o.name] === c.value && c.media).map((c) => c.media!));
  const media: ProductMedia = chosenMedia[0] ?? shown.media;
  return {
    ...(variant ? {
      selectedVariant: {
        price: variant.variant.priceData, convertedPriceData: variant.variant.convertedPriceData,
        ...(variant.variant.weight !== undefined ? { weight: variant.variant.weight } : {}),
        ...(variant.variant.sku ? { sku: variant.variant.sku } : {}),
        ...(variant.stock.quantity !== undefined ? { quantity: variant.stock.quantity } : {}),
        inStock: variant.stock.inStock, visible: variant.variant.visible,
      },
    } : {}),
    media,
    productOptions,
    availableForPurchase: !!variant && variant.stock.inStock && variant.variant.visible && p.visible,
  };
}

export async function queryProductVariants(ctx: RequestContext, input: { id: string; choices?: Record<string, string> | undefined; variantIds?: string[] | undefined; paging?: { limit?: number | undefined; offset?: number | undefined } | undefined; includeMerchantSpecificData?: boolean | undefined }): Promise<QueryProductVariantsResponse> {
  const p = await loadVisible(ctx, input.id);
  const shown = presentProduct(ctx, p, input.includeMerchantSpecificData ?? false);
  const wanted = input.choices ? normalizeChoices(p, input.choices) : undefined;
  const all = shown.variants.filter((v) => (input.variantIds ? input.variantIds.includes(v.id) : true) && (wanted ? matchesChoices(v.choices, wanted) : true));
  const limit = input.paging?.limit ?? 100;
  const offset = input.paging?.offset ?? 0;
  const variants = all.slice(offset, offset + limit);
  return { variants, metadata: { items: variants.length, offset }, totalResults: all.length };
}

export { slugify, choicesKey, countProducts };

/** A media change of one product, stored like any other product change (media.ts builds on it). */
export async function changeProductMedia(ctx: RequestContext, id: string, change: (p: ProductV1, tctx: RequestContext) => ProductV1 | Promise<ProductV1>): Promise<void> {
  await changeProduct(ctx, id, async (p, _stock, tctx) => ({ product: await change(p, tctx) }));
}

/** Stores a file in media_files (seed and uploads); the path is served by GET /media/:id/:name. */
export async function saveMediaFile(ctx: RequestContext, input: { fileName: string; contentType: string; width: number; height: number; bytes: Buffer }): Promise<{ id: string; path: string }> {
  const id = randomUUID().replace(/-/g, '');
  await insertMediaFile(ctx.db, { id, site_id: ctx.site.id, file_name: input.fileName, content_type: input.contentType, width: input.width, height: input.height, bytes: input.bytes, secure: 0 }, [], new Date().toISOString());
  return { id, path: `/media/${id}/${encodeURIComponent(input.fileName)}` };
}

/** Seeding and benchmarks only: stores built products in one transaction, without events or uniqueness checks. */
export async function seedProducts(ctx: RequestContext, items: { product: ProductV1; stock: StockRow[] }[]): Promise<void> {
  await inTransaction(ctx.db, (trx) => insertProductsBulk(trx, ctx.site.id, items, new Date().toISOString(), randomUUID));
}
