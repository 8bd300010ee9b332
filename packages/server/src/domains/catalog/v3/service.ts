import { randomUUID } from 'node:crypto';
import { isElevated, type PeekContext, type RequestContext } from '../../../http/context.js';
import { conflict, notFound, ValidationError, type FieldViolation } from '../../../http/errors.js';
import { parseFilter, parseSort } from '../../../storage/filter.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { slugify } from '../build.js';
import { openCursor, signCursor } from '../cursor.js';
import { resolveSource } from '../media.js';
import { resolveDigitalFile } from '../media-files.js';
import { roundMoney, stableJson } from '../model.js';
import { PAGE_DEFAULT } from '../schema.js';
import { defaultItemsOf, deleteProductItems, skuUsedElsewhere, syncVariantItems, type InventoryRow } from '../../inventory/index.js';
import { deleteSearchDoc, searchTerms, writeSearchDoc } from '../store-search.js';
import { encodeProductV3Read, presentRead, presentV3 } from './present.js';
import { keptProductAnswer, peekProductAnswer } from '../product-answers.js';
import { listingAnswer } from '../listing-answers.js';
import { stringifyForWire, type EncodedJson } from '../../../http/wire.js';
import { getOrCreateEntity, setEntityChangeHook } from './entities.js';
import { givenIds, storedMatch } from './stored-match.js';
import {
  ALL_PRODUCTS_CATEGORY_ID, inventorySummary, money, moneyRange, richText, subscriptionPrice,
  type ModifierV3, type OptionV3, type ProductMediaV3, type ProductV3, type SubscriptionV3, type VariantV3,
} from './model.js';
import type { ProductV3Input, ProductV3Patch } from './schema.js';
import {
  aggregateV3, countProductsV3, deleteProductV3Row, findEntity, findProductV3, findStoredProductV3, productIdsWithEntity, productIdsWithInfoSection,
  queryProductsV3, saveProductV3, slugOwnerV3, sortColumnV3, type AggregationSpec, type EntityKind, type EntityRow, type QueryV3, type StoredProductV3,
} from './store.js';

export const PRODUCT_V3_FQDN = 'wix.stores.catalog.v3.product';

type StockInput = { trackQuantity?: boolean | undefined; quantity?: number | undefined; inStock?: boolean | undefined; preorderInfo?: { enabled?: boolean | undefined; message?: string | null | undefined; limit?: number | null | undefined } | undefined };
interface StockSpec { variantId: string; trackQuantity: boolean; quantity: number | null; inStock: boolean; preorderEnabled: boolean; preorderLimit: number | null }

const fail = (field: string, description: string, rule: FieldViolation['violatedRule'] = 'FORMAT', data: Record<string, unknown> = {}) =>
  new ValidationError([{ field, description, violatedRule: rule, data }]);

// ---------------------------------------------------------------------------------------------
// Assembling a product from input (create) or from the stored product plus a patch (update)

/** The stored product in input form, so an update is "old input overlaid with the patch". */
function toInput(p: ProductV3): ProductV3Input {
  return {
    name: p.name, slug: p.slug, description: p.description as Record<string, unknown> | undefined, plainDescription: p.plainDescription, visible: p.visible,
    visibleInPos: p.visibleInPos, productType: p.productType,
    media: { itemsInfo: { items: p.media.itemsInfo.items.map((m) => ({ id: m.id, ...(m.url ? { url: m.url } : {}), altText: m.altText ?? null, displayName: m.displayName ?? null })) } },
    options: p.options.map((o) => ({ id: o.id, name: o.name, optionRenderType: o.optionRenderType, choicesSettings: { choices: o.choicesSettings.choices.map((c) => ({ choiceId: c.choiceId, name: c.name, choiceType: c.choiceType, ...(c.colorCode ? { colorCode: c.colorCode } : {}), ...(c.multipleColors ? { multipleColors: c.multipleColors } : {}), ...(c.image ? { image: c.image } : {}), visible: c.visible })) } })),
    modifiers: p.modifiers.map((m) => ({ id: m.id, name: m.name, modifierRenderType: m.modifierRenderType, mandatory: m.mandatory, ...(m.freeTextSettings ? { freeTextSettings: m.freeTextSettings } : {}), ...(m.choicesSettings ? { choicesSettings: { choices: m.choicesSettings.choices.map((c) => ({ ...c })) } } : {}) })),
    brand: p.brand ?? null, ribbon: p.ribbon ?? null,
    infoSections: p.infoSections.map((s) => ({ id: s.id })),
    directCategoriesInfo: { categories: p.directCategoriesInfo.categories.map((c) => ({ id: c.id })) },
    variantsInfo: { variants: p.variantsInfo.variants.map((v) => ({
      id: v.id, visible: v.visible, sku: v.sku ?? null, barcode: v.barcode ?? null, choices: v.choices.map((c) => ({ optionChoiceIds: c.optionChoiceIds })),
      price: { actualPrice: { amount: v.price.actualPrice.amount }, compareAtPrice: v.price.compareAtPrice ? { amount: v.price.compareAtPrice.amount } : null },
      revenueDetails: v.revenueDetails ? { cost: { amount: v.revenueDetails.cost.amount } } : null,
      physicalProperties: v.physicalProperties ?? null,
    })) },
    subscriptionDetails: p.subscriptionDetails ?? null,
    ...(p.tags ? { tags: p.tags } : {}),
    seoData: p.seoData ?? null,
  };
}

/** Tags as stored: ids deduplicated, empty lists dropped; undefined when none. */
function tagsOf(input: ProductV3Input['tags']): ProductV3['tags'] {
  const out: NonNullable<ProductV3['tags']> = {};
  for (const k of ['publicTags', 'privateTags'] as const) {
    const ids = [...new Set(input?.[k]?.tagIds ?? [])];
    if (ids.length) out[k] = { tagIds: ids };
  }
  return out.publicTags || out.privateTags ? out : undefined;
}

function checkUnique(names: string[], field: (i: number) => string, what: string): FieldViolation[] {
  const seen = new Set<string>();
  const out: FieldViolation[] = [];
  names.forEach((n, i) => {
    const k = n.toLowerCase();
    if (seen.has(k)) out.push({ field: field(i), description: `${what} "${n}" appears twice`, violatedRule: 'FORMAT', data: {} });
    seen.add(k);
  });
  return out;
}

type ChoiceIn = NonNullable<ProductV3Input['options']>[number]['choicesSettings']['choices'][number];
function choiceShape(c: ChoiceIn, swatch: boolean, field: string) {
  const choiceType = c.choiceType ?? (swatch ? 'ONE_COLOR' : 'CHOICE_TEXT');
  if (choiceType === 'ONE_COLOR' && !c.colorCode) throw fail(`${field}.colorCode`, 'is required for a ONE_COLOR choice', 'REQUIRED_FIELD');
  if (choiceType === 'MULTIPLE_COLORS' && !c.multipleColors) throw fail(`${field}.multipleColors`, 'is required for a MULTIPLE_COLORS choice', 'REQUIRED_FIELD');
  if (choiceType === 'IMAGE' && !c.image) throw fail(`${field}.image`, 'is required for an IMAGE choice', 'REQUIRED_FIELD');
  return {
    choiceType, ...(choiceType === 'ONE_COLOR' ? { colorCode: c.colorCode! } : {}), ...(choiceType === 'MULTIPLE_COLORS' ? { multipleColors: c.multipleColors! } : {}),
    ...(choiceType === 'IMAGE' ? { image: { id: c.image!.id ?? '', url: c.image!.url ?? '', ...(c.image!.width ? { width: c.image!.width } : {}), ...(c.image!.height ? { height: c.image!.height } : {}) } } : {}),
  };
}

async function resolveMedia(ctx: RequestContext, items: { id?: string | undefined; url?: string | undefined; altText?: string | null | undefined; displayName?: string | null | undefined }[], prev: ProductMediaV3[]): Promise<ProductMediaV3[]> {
  const out: ProductMediaV3[] = [];
  for (const [i, m] of items.entries()) {
    const known = m.id ? prev.find((p) => p.id === m.id) : undefined;
    if (known) { out.push({ ...known, altText: m.altText ?? known.altText ?? null, displayName: m.displayName ?? known.displayName ?? null }); continue; }
    const item = await resolveSource(ctx, m.id ? { mediaId: m.id } : { url: m.url }, `product.media.itemsInfo.items[${i}]`);
    const pic = item.image ?? item.video?.files[0];
    out.push({
      id: item.id, mediaType: item.mediaType === 'video' ? 'VIDEO' : 'IMAGE', altText: m.altText ?? null, displayName: m.displayName ?? item.title,
      ...(pic ? { url: pic.url, image: { id: item.id, url: pic.url, width: pic.width, height: pic.height, filename: item.title } } : item.url ? { url: item.url } : {}),
    });
  }
  return out;
}

async function assemble(ctx: RequestContext, input: ProductV3Input, prev: ProductV3 | undefined, prevStock: InventoryRow[], stockIn: Map<number, StockInput>): Promise<{ product: ProductV3; stock: StockSpec[] }> {
  const currency = ctx.site.currency;
  const violations: FieldViolation[] = [];
  const optionsIn = input.options ?? [];
  violations.push(...checkUnique(optionsIn.map((o) => o.name), (i) => `product.options[${i}].name`, 'option'));
  optionsIn.forEach((o, i) => violations.push(...checkUnique(o.choicesSettings.choices.map((c) => c.name), (j) => `product.options[${i}].choicesSettings.choices[${j}].name`, 'choice')));
  violations.push(...checkUnique((input.modifiers ?? []).map((m) => m.name), (i) => `product.modifiers[${i}].name`, 'modifier'));
  if (violations.length) throw new ValidationError(violations);

  const optionIds = givenIds(optionsIn.map((o) => o.id), (i) => `product.options[${i}].id`);
  const options: OptionV3[] = optionsIn.map((o, i) => {
    const old = storedMatch(prev?.options, (x) => x.id, optionIds, o.id, (x) => x.name === o.name);
    const render = o.optionRenderType ?? 'TEXT_CHOICES';
    const choiceIds = givenIds(o.choicesSettings.choices.map((c) => c.choiceId), (j) => `product.options[${i}].choicesSettings.choices[${j}].choiceId`);
    return {
      id: o.id ?? old?.id ?? randomUUID(), name: o.name, key: slugify(o.name), optionRenderType: render,
      choicesSettings: { choices: o.choicesSettings.choices.map((c, j) => ({
        choiceId: c.choiceId ?? storedMatch(old?.choicesSettings.choices, (x) => x.choiceId, choiceIds, undefined, (x) => x.name === c.name)?.choiceId ?? randomUUID(),
        name: c.name, key: slugify(c.name), ...choiceShape(c, render === 'SWATCH_CHOICES', `product.options[${i}].choicesSettings.choices[${j}]`),
        inStock: true, visible: c.visible ?? true,
      })) },
    };
  });

  const modifierIds = givenIds((input.modifiers ?? []).map((m) => m.id), (i) => `product.modifiers[${i}].id`);
  const modifiers: ModifierV3[] = (input.modifiers ?? []).map((m, i) => {
    const old = storedMatch(prev?.modifiers, (x) => x.id, modifierIds, m.id, (x) => x.name === m.name);
    const field = `product.modifiers[${i}]`;
    if (m.modifierRenderType === 'FREE_TEXT' && !m.freeTextSettings) throw fail(`${field}.freeTextSettings`, 'is required for a FREE_TEXT modifier', 'REQUIRED_FIELD');
    if (m.modifierRenderType !== 'FREE_TEXT' && !m.choicesSettings) throw fail(`${field}.choicesSettings`, 'is required for a modifier with choices', 'REQUIRED_FIELD');
    const fts = m.freeTextSettings;
    const choiceIds = givenIds((m.choicesSettings?.choices ?? []).map((c) => c.choiceId), (j) => `${field}.choicesSettings.choices[${j}].choiceId`);
    if (fts && (fts.minCharCount ?? 0) > (fts.maxCharCount ?? 500)) throw fail(`${field}.freeTextSettings.minCharCount`, 'must be at most maxCharCount', 'MAX');
    return {
      id: m.id ?? old?.id ?? randomUUID(), name: m.name, key: slugify(m.name), modifierRenderType: m.modifierRenderType, mandatory: m.mandatory ?? false,
      ...(fts ? { freeTextSettings: { minCharCount: fts.minCharCount ?? 0, maxCharCount: fts.maxCharCount ?? 500, defaultAddedPrice: fts.defaultAddedPrice ?? null, title: fts.title, key: slugify(fts.title) } } : {}),
      ...(m.choicesSettings ? { choicesSettings: { choices: m.choicesSettings.choices.map((c, j) => ({
        choiceId: c.choiceId ?? storedMatch(old?.choicesSettings?.choices, (x) => x.choiceId, choiceIds, undefined, (x) => x.name === c.name)?.choiceId ?? randomUUID(), name: c.name, key: slugify(c.name),
        ...choiceShape(c, m.modifierRenderType === 'SWATCH_CHOICES', `${field}.choicesSettings.choices[${j}]`), addedPrice: c.addedPrice ?? null,
      })) } } : {}),
    };
  });

  const subscriptions: SubscriptionV3[] = (input.subscriptionDetails?.subscriptions ?? []).map((s, i) => {
    if (s.discount?.type === 'AMOUNT' && s.discount.amountOff === undefined) throw fail(`product.subscriptionDetails.subscriptions[${i}].discount.amountOff`, 'is required for an AMOUNT discount', 'REQUIRED_FIELD');
    if (s.discount?.type === 'PERCENT' && s.discount.percentOff === undefined) throw fail(`product.subscriptionDetails.subscriptions[${i}].discount.percentOff`, 'is required for a PERCENT discount', 'REQUIRED_FIELD');
    return {
      id: s.id ?? prev?.subscriptionDetails?.subscriptions.find((x) => x.title === s.title)?.id ?? randomUUID(), title: s.title, description: s.description ?? null,
      visible: s.visible ?? true, frequency: s.frequency, interval: s.interval ?? 1, autoRenewal: s.autoRenewal ?? (s.billingCycles === undefined),
      ...(s.billingCycles !== undefined ? { billingCycles: s.billingCycles } : {}), ...(s.discount ? { discount: s.discount } : {}),
    };
  });

  // Variants: one choice per option, combinations unique; no options means exactly one variant.
  const variantsIn = input.variantsInfo.variants;
  if (options.length === 0 && variantsIn.length !== 1) throw fail('product.variantsInfo.variants', 'a product without options has exactly one variant', 'EXACT_SIZE', { size: 1 });
  const seen = new Set<string>();
  const stock: StockSpec[] = [];
  // Digital files: secure uploads of this site (media-files.ts), resolved before the synchronous map below.
  const digitalFiles = await Promise.all(variantsIn.map((v, i) => (v.digitalProperties?.digitalFile
    ? resolveDigitalFile(ctx, { id: v.digitalProperties.digitalFile.id }, `product.variantsInfo.variants[${i}].digitalProperties.digitalFile.id`)
    : undefined)));
  const variantIds = givenIds(variantsIn.map((v) => v.id), (i) => `product.variantsInfo.variants[${i}].id`);
  const variants: VariantV3[] = variantsIn.map((v, i) => {
    const field = `product.variantsInfo.variants[${i}]`;
    const choices = (v.choices ?? []).map((c, j) => {
      const option = options.find((o) => (c.optionChoiceIds ? o.id === c.optionChoiceIds.optionId : o.name === c.optionChoiceNames?.optionName));
      const choice = option?.choicesSettings.choices.find((x) => (c.optionChoiceIds ? x.choiceId === c.optionChoiceIds.choiceId : x.name === c.optionChoiceNames?.choiceName));
      if (!option || !choice) throw fail(`${field}.choices[${j}]`, 'names no option choice of this product');
      return { optionChoiceIds: { optionId: option.id, choiceId: choice.choiceId }, optionChoiceNames: { optionName: option.name, choiceName: choice.name, renderType: option.optionRenderType } };
    });
    const optionIds = new Set(choices.map((c) => c.optionChoiceIds.optionId));
    if (optionIds.size !== choices.length || optionIds.size !== options.length) throw fail(`${field}.choices`, `must pick exactly one choice of each of the ${options.length} options`);
    const key = choices.map((c) => c.optionChoiceIds.choiceId).sort().join('|');
    if (seen.has(key)) throw fail(`${field}.choices`, 'another variant has the same choices');
    seen.add(key);
    const prevVariant = storedMatch(prev?.variantsInfo.variants, (x) => x.id, variantIds, v.id, (x) => x.choices.map((c) => c.optionChoiceIds.choiceId).sort().join('|') === key);
    const id = v.id ?? prevVariant?.id ?? randomUUID();
    const price = Number(v.price.actualPrice.amount);
    const compare = v.price.compareAtPrice ? Number(v.price.compareAtPrice.amount) : undefined;
    const cost = v.revenueDetails?.cost ? Number(v.revenueDetails.cost.amount) : undefined;
    const s = stockIn.get(i);
    const old = prevStock.find((r) => r.variantId === id);
    const track = s?.trackQuantity ?? (s?.quantity !== undefined ? true : old?.trackQuantity ?? false);
    const quantity = track ? (s?.quantity ?? old?.quantity ?? 0) : null;
    const preorderEnabled = s?.preorderInfo?.enabled ?? old?.preorderEnabled ?? false;
    const spec: StockSpec = { variantId: id, trackQuantity: track, quantity, inStock: track ? (quantity ?? 0) > 0 : (s?.inStock ?? old?.inStock ?? true), preorderEnabled, preorderLimit: s?.preorderInfo?.limit ?? old?.preorderLimit ?? null };
    stock.push(spec);
    return {
      id, visible: v.visible ?? true, sku: v.sku || null, barcode: v.barcode ?? null, choices,
      price: { actualPrice: money(price, currency), ...(compare !== undefined ? { compareAtPrice: money(compare, currency) } : {}) },
      ...(cost !== undefined ? { revenueDetails: { cost: money(cost, currency), profit: money(roundMoney(price - cost), currency), profitMargin: price > 0 ? roundMoney((price - cost) / price) : 0 } } : {}),
      ...(v.physicalProperties?.weight != null ? { physicalProperties: { weight: v.physicalProperties.weight } } : {}),
      // Given: the resolved file; null: cleared; absent on an update: the variant keeps its file.
      ...(digitalFiles[i] ? { digitalProperties: { digitalFile: digitalFiles[i] } } : v.digitalProperties === undefined && prevVariant?.digitalProperties ? { digitalProperties: prevVariant.digitalProperties } : {}),
      inventoryStatus: { inStock: spec.inStock || (spec.preorderEnabled && track), preorderEnabled: spec.preorderEnabled },
      ...(subscriptions.length ? { subscriptionPricesInfo: { subscriptionPrices: subscriptions.map((sub) => ({ subscriptionId: sub.id, price: money(subscriptionPrice(price, sub), currency) })) } } : {}),
    };
  });
  for (const o of options) for (const c of o.choicesSettings.choices) c.inStock = variants.some((v) => v.inventoryStatus.inStock && v.choices.some((x) => x.optionChoiceIds.choiceId === c.choiceId));

  const brand = input.brand ? await resolveRef(ctx, 'brand', input.brand, 'product.brand') : undefined;
  const ribbon = input.ribbon ? await resolveRef(ctx, 'ribbon', input.ribbon, 'product.ribbon') : undefined;
  const infoSections = [];
  for (const [i, s] of (input.infoSections ?? []).entries()) {
    const e = s.id ? await findEntity(ctx.db, ctx.site.id, 'infoSection', { id: s.id }) : await getOrCreateEntity(ctx, 'infoSection', { uniqueName: s.uniqueName, title: s.title }, `product.infoSections[${i}]`);
    if (!e) throw fail(`product.infoSections[${i}].id`, `unknown info section ${s.id}`);
    infoSections.push({ id: e.id, uniqueName: e.name, title: String(e.doc.title ?? e.name), ...(e.doc.description ? { description: e.doc.description } : {}), plainDescription: richText(e.doc.description) });
  }
  const direct = [...new Set((input.directCategoriesInfo?.categories ?? []).map((c) => c.id))].map((id, index) => ({ id, index }));
  const all = [...direct, ...(direct.some((c) => c.id === ALL_PRODUCTS_CATEGORY_ID) ? [] : [{ id: ALL_PRODUCTS_CATEGORY_ID, index: direct.length }])];
  const items = await resolveMedia(ctx, input.media?.itemsInfo?.items ?? [], prev?.media.itemsInfo.items ?? []);
  const slug = input.slug ?? prev?.slug ?? slugify(input.name);
  const prices = variants.map((v) => Number(v.price.actualPrice.amount));
  const compares = variants.map((v) => Number(v.price.compareAtPrice?.amount ?? v.price.actualPrice.amount));
  const costs = variants.flatMap((v) => (v.revenueDetails ? [Number(v.revenueDetails.cost.amount)] : []));
  const weights = variants.flatMap((v) => (v.physicalProperties?.weight != null ? [v.physicalProperties.weight] : []));
  const now = new Date().toISOString();
  const tags = tagsOf(input.tags);
  const product: ProductV3 = {
    id: prev?.id ?? randomUUID(),
    revision: String((prev ? Number(prev.revision) : 0) + 1),
    createdDate: prev?.createdDate ?? now,
    updatedDate: now,
    name: input.name,
    slug,
    url: { relativePath: `/product-page/${slug}`, url: `/product-page/${slug}` },
    ...(input.description ? { description: input.description } : {}),
    plainDescription: input.description ? richText(input.description) : input.plainDescription ?? '',
    visible: input.visible ?? true,
    visibleInPos: input.visibleInPos ?? true,
    media: { ...(items[0] ? { main: items[0] } : {}), itemsInfo: { items } },
    options,
    modifiers,
    ...(brand ? { brand } : {}),
    ...(ribbon ? { ribbon } : {}),
    infoSections,
    directCategoriesInfo: { categories: direct },
    allCategoriesInfo: { categories: all },
    mainCategoryId: direct[0]?.id ?? ALL_PRODUCTS_CATEGORY_ID,
    ...(costs.length ? { costRange: moneyRange(costs, currency) } : {}),
    inventory: inventorySummary(variants.map((v) => v.inventoryStatus)),
    productType: input.productType,
    ...(input.productType === 'PHYSICAL' ? { physicalProperties: weights.length ? { shippingWeightRange: { minValue: Math.min(...weights), maxValue: Math.max(...weights) } } : {} } : {}),
    currency,
    actualPriceRange: moneyRange(prices, currency),
    compareAtPriceRange: moneyRange(compares, currency),
    variantsInfo: { variants },
    ...(input.subscriptionDetails ? { subscriptionDetails: { subscriptions, allowOneTimePurchases: input.subscriptionDetails.allowOneTimePurchases ?? true } } : {}),
    variantSummary: { variantCount: variants.length },
    ...(tags ? { tags } : {}),
    ...(input.seoData?.tags.length ? { seoData: { tags: input.seoData.tags } } : {}),
  };
  return { product, stock };
}

async function resolveRef(ctx: RequestContext, kind: 'brand' | 'ribbon', ref: { id?: string | null | undefined; name?: string | null | undefined }, field: string): Promise<{ id: string; name: string }> {
  if (ref.id) {
    const e = await findEntity(ctx.db, ctx.site.id, kind, { id: ref.id });
    if (!e) throw fail(`${field}.id`, `unknown ${kind} ${ref.id}`);
    return { id: e.id, name: e.name };
  }
  if (!ref.name) throw fail(field, 'give id or name', 'REQUIRED_ONE_OF_FIELD');
  const e = await getOrCreateEntity(ctx, kind, { name: ref.name }, field);
  return { id: e.id, name: e.name };
}

function stockInputs(input: ProductV3Input): Map<number, StockInput> {
  return new Map(input.variantsInfo.variants.flatMap((v, i) => (v.inventoryItem ? [[i, v.inventoryItem] as const] : [])));
}

async function store(ctx: RequestContext, product: ProductV3, stock: StockSpec[], mode: 'insert' | 'update'): Promise<void> {
  const skus = [...new Set(product.variantsInfo.variants.map((v) => v.sku).filter((s): s is string => !!s))];
  const dup = await skuUsedElsewhere(ctx, skus, product.id);
  if (dup) throw fail('product.variantsInfo.variants.sku', `SKU "${dup}" is already used by another product`, 'FORMAT', { sku: dup });
  const owner = await slugOwnerV3(ctx.db, ctx.site.id, product.slug);
  if (owner && owner !== product.id) throw conflict('SLUG_ALREADY_EXISTS', `A product with slug "${product.slug}" already exists`, { slug: product.slug });
  await saveProductV3(ctx.db, ctx.site.id, product, mode);
  const skuById = new Map(product.variantsInfo.variants.map((v) => [v.id, v.sku ?? null]));
  await syncVariantItems(ctx, 'v3', product.id, stock.map((s) => ({ ...s, sku: skuById.get(s.variantId) ?? null })), product.updatedDate);
  await writeSearchDoc(ctx.db, ctx.site.id, { id: product.id, catalog: 'v3', name: product.name, sku: skus.join(' '), brand: product.brand?.name ?? '', description: product.plainDescription });
}

// ---------------------------------------------------------------------------------------------
// Writes

/** Create; returns the stored product (routes present it, merchant view by default: present.ts). */
export async function createProductV3(ctx: RequestContext, input: ProductV3Input): Promise<ProductV3> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { product, stock } = await assemble(tctx, input, undefined, [], stockInputs(input));
    await store(tctx, product, stock, 'insert');
    await recordEvent(tctx, { entityFqdn: PRODUCT_V3_FQDN, slug: 'created', entityId: product.id, entity: presentV3(tctx, product, { merchant: true }) });
    return product;
  });
}

/** The stored product in input form overlaid with a partial patch (`null` brand / ribbon removes it). */
export function overlayPatch(input: ProductV3Input, patch: Omit<ProductV3Patch, 'revision'>): ProductV3Input {
  const { id: _i, ...given } = patch as ProductV3Patch;
  delete (given as Partial<ProductV3Patch>).revision;
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const out = { ...input, ...defined } as ProductV3Input;
  if (patch.brand === null) delete out.brand;
  if (patch.ribbon === null) delete out.ribbon;
  return out;
}

/**
 * The one write path of an existing product: `change` maps the stored product (in input form) to the
 * new input; the product is re-assembled, stored and announced in one transaction (the caller's when
 * ctx.db is one). With `revision`, the stored revision must match (409 REVISION_MISMATCH). A change
 * that leaves the input as it was writes nothing (same revision, no event): `changed` is false.
 */
export async function changeProductV3(
  ctx: RequestContext, id: string, change: (input: ProductV3Input, prev: ProductV3) => ProductV3Input, opts: { revision?: string } = {},
): Promise<{ product: ProductV3; changed: boolean }> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const prev = await findProductV3(trx, ctx.site.id, { id }, ctx.dialect);
    if (!prev) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
    if (opts.revision !== undefined && opts.revision !== prev.revision) throw conflict('REVISION_MISMATCH', `Product ${id} is at revision ${prev.revision}`, { currentRevision: prev.revision });
    const before = toInput(prev);
    const input = change(structuredClone(before), prev);
    if (opts.revision === undefined && stableJson(input) === stableJson(before)) return { product: prev, changed: false };
    const prevStock = await defaultItemsOf(tctx, id);
    const { product, stock } = await assemble(tctx, input, prev, prevStock, stockInputs(input));
    await store(tctx, product, stock, 'update');
    await recordEvent(tctx, { entityFqdn: PRODUCT_V3_FQDN, slug: 'updated', entityId: id, entity: presentV3(tctx, product, { merchant: true }) });
    return { product, changed: true };
  });
}

/** Partial update with optimistic concurrency: the caller's `revision` must be the stored one. */
export async function updateProductV3(ctx: RequestContext, id: string, patch: ProductV3Patch): Promise<ProductV3> {
  return (await changeProductV3(ctx, id, (input) => overlayPatch(input, patch), { revision: patch.revision })).product;
}

export async function deleteProductV3(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const prev = await findProductV3(trx, ctx.site.id, { id }, ctx.dialect);
    if (!prev) throw notFound('PRODUCT_NOT_FOUND', `Product ${id} not found`);
    await deleteProductV3Row(trx, ctx.site.id, id);
    await deleteProductItems(tctx, id);
    await deleteSearchDoc(trx, id);
    await recordEvent(tctx, { entityFqdn: PRODUCT_V3_FQDN, slug: 'deleted', entityId: id, entity: presentV3(tctx, prev, { merchant: true }) });
  });
  return {};
}

/** Recomputes stock-derived fields after inventory writes (same transaction as the caller). */
export async function refreshProductV3Stock(ctx: RequestContext, productId: string): Promise<void> {
  const p = await findProductV3(ctx.db, ctx.site.id, { id: productId });
  if (!p) return;
  const rows = await defaultItemsOf(ctx, productId);
  const byId = new Map(rows.map((r) => [r.variantId, r]));
  const variants = p.variantsInfo.variants.map((v) => {
    const r = byId.get(v.id);
    if (!r) return v;
    const inStock = r.trackQuantity ? (r.quantity ?? 0) > 0 || r.preorderEnabled : r.inStock;
    return { ...v, inventoryStatus: { inStock, preorderEnabled: r.preorderEnabled } };
  });
  const options = p.options.map((o) => ({ ...o, choicesSettings: { choices: o.choicesSettings.choices.map((c) => ({ ...c, inStock: variants.some((v) => v.inventoryStatus.inStock && v.choices.some((x) => x.optionChoiceIds.choiceId === c.choiceId)) })) } }));
  const next: ProductV3 = { ...p, options, variantsInfo: { variants }, inventory: inventorySummary(variants.map((v) => v.inventoryStatus)) };
  if (stableJson(next) === stableJson(p)) return;
  await saveProductV3(ctx.db, ctx.site.id, { ...next, updatedDate: new Date().toISOString() }, 'update');
  await recordEvent(ctx, { entityFqdn: PRODUCT_V3_FQDN, slug: 'updated', entityId: productId, entity: presentV3(ctx, next, { merchant: true }), data: { reason: 'inventory' } });
}

/** Renames and deletes of brands, ribbons and info sections reach the products using them. */
setEntityChangeHook(async (ctx: RequestContext, kind: EntityKind, e: EntityRow, deleted: boolean) => {
  const ids = kind === 'infoSection' ? await productIdsWithInfoSection(ctx.db, ctx.site.id, e.id, ctx.dialect) : await productIdsWithEntity(ctx.db, ctx.site.id, kind, e.id);
  for (const id of ids) {
    const p = await findProductV3(ctx.db, ctx.site.id, { id });
    if (!p) continue;
    const next: ProductV3 = { ...p, updatedDate: new Date().toISOString() };
    if (kind === 'brand') { if (deleted) delete next.brand; else next.brand = { id: e.id, name: e.name }; }
    if (kind === 'ribbon') { if (deleted) delete next.ribbon; else next.ribbon = { id: e.id, name: e.name }; }
    if (kind === 'infoSection') {
      next.infoSections = deleted ? p.infoSections.filter((s) => s.id !== e.id)
        : p.infoSections.map((s) => (s.id === e.id ? { id: e.id, uniqueName: e.name, title: String(e.doc.title ?? e.name), ...(e.doc.description ? { description: e.doc.description } : {}), plainDescription: richText(e.doc.description) } : s));
    }
    await saveProductV3(ctx.db, ctx.site.id, next, 'update');
    if (kind === 'brand') await writeSearchDoc(ctx.db, ctx.site.id, { id, catalog: 'v3', name: next.name, sku: next.variantsInfo.variants.map((v) => v.sku ?? '').join(' ').trim(), brand: next.brand?.name ?? '', description: next.plainDescription });
    await recordEvent(ctx, { entityFqdn: PRODUCT_V3_FQDN, slug: 'updated', entityId: id, entity: presentV3(ctx, next, { merchant: true }) });
  }
});

// ---------------------------------------------------------------------------------------------
// Reads

/** A product the caller may see (visitors: visible ones only), as stored; the get routes present it. */
export async function getStoredProductV3(ctx: RequestContext, by: { id: string } | { slug: string }): Promise<StoredProductV3> {
  const p = await findStoredProductV3(ctx.db, ctx.site.id, by);
  if (!p || (!p.visible && !isElevated(ctx.caller))) throw notFound('PRODUCT_NOT_FOUND', `Product ${'id' in by ? by.id : by.slug} not found`);
  return p;
}

/**
 * `{ product }` of a get by id or slug; a visitor's answer is kept while the catalog is unchanged
 * (product-answers.ts), one per product, slug and requested `fields`.
 */
export function getProductV3Answer(ctx: RequestContext, by: { id: string } | { slug: string }, fields: string[] | undefined): Promise<EncodedJson> {
  return keptProductAnswer(ctx, productAnswerKey(by, fields), async () => encodeProductV3Read(ctx, await getStoredProductV3(ctx, by), fields));
}

/** The kept answer of a get by id or slug with no `fields`, if it still holds for this caller (route.ts `keptAnswer`). */
export function peekProductV3Answer(peek: PeekContext, by: { id: string } | { slug: string }): Promise<EncodedJson | undefined> {
  return peekProductAnswer(peek, productAnswerKey(by, undefined));
}

function productAnswerKey(by: { id: string } | { slug: string }, fields: string[] | undefined): string {
  // NUL cannot occur in an id or a slug (the app refuses it in any request text).
  return `${'id' in by ? `v3\u0000${by.id}` : `v3-slug\u0000${by.slug}`}${fields?.length ? `\u0000${JSON.stringify(fields)}` : ''}`;
}

/** A product the caller may see (visitors: visible ones only). */
export async function getProductV3(ctx: RequestContext, by: { id: string } | { slug: string }): Promise<ProductV3> {
  return (await getStoredProductV3(ctx, by)).product();
}

/**
 * The secure file a V3 variant delivers to its buyers (`digitalProperties.digitalFile`), for an order
 * being paid: hidden products count too (the purchase was made while the buyer could see it).
 */
export async function digitalFileOfVariant(ctx: RequestContext, productId: string, variantId: string | undefined): Promise<string | undefined> {
  const p = await findProductV3(ctx.db, ctx.site.id, { id: productId });
  const variants = p?.variantsInfo.variants ?? [];
  const variant = variantId ? variants.find((v) => v.id === variantId) : variants.length === 1 ? variants[0] : undefined;
  return variant?.digitalProperties?.digitalFile?.id;
}

/** A product for another domain's catalog reference (cart, checkout): undefined when missing or hidden from the caller. */
export async function findProductV3ForCatalogReference(ctx: RequestContext, id: string): Promise<ProductV3 | undefined> {
  const p = await findProductV3(ctx.db, ctx.site.id, { id });
  return p && (p.visible || isElevated(ctx.caller)) ? p : undefined;
}

const PRICE_PATHS = new Set(['actualPriceRange.minValue.amount', 'actualPriceRange.maxValue.amount']);
/** V3 money is decimal text; filters on prices may send "10.5" and are compared as numbers. */
export function normalizeFilter(node: unknown, depth = 0): unknown {
  if (depth > 20 || typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((n) => normalizeFilter(n, depth + 1));
  const num = (v: unknown): unknown => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Array.isArray(v) ? v.map(num) : v);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => {
    if (PRICE_PATHS.has(k)) return [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([op, x]) => [op, num(x)])) : num(v)];
    return [k, k.startsWith('$') ? normalizeFilter(v, depth + 1) : v];
  }));
}

interface PageInput { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | undefined; cursor?: string | null | undefined } | undefined; search?: { expression?: string | null | undefined } | undefined; aggregations?: unknown }

async function page(ctx: RequestContext, kind: string, arg: string, input: PageInput, onlyVisible: boolean) {
  let { filter, sort, search, aggregations } = input;
  let offset = 0;
  let limit = input.cursorPaging?.limit ?? PAGE_DEFAULT;
  if (input.cursorPaging?.cursor) {
    const s = await openCursor(ctx.db, ctx.site.id, kind, input.cursorPaging.cursor, `${arg}.cursorPaging.cursor`);
    ({ filter, sort, search, offset, aggregations } = s as typeof s & { search?: PageInput['search'] });
    limit = input.cursorPaging.limit ?? s.limit;
  }
  const q: QueryV3 = await withFilterErrors(arg, async () => ({
    siteId: ctx.site.id, dialect: ctx.dialect, filter: parseFilter(normalizeFilter(filter)), onlyVisible, privateTags: isElevated(ctx.caller),
    sort: parseSort(sort, sortColumnV3), limit: limit + 1, offset, ...searchPart(search),
  }));
  const rows = await withFilterErrors(arg, () => queryProductsV3(ctx.db, q));
  const hasNext = rows.length > limit;
  const state = { kind, filter, sort, search, aggregations, limit };
  return {
    q,
    products: rows.slice(0, limit),
    pagingMetadata: {
      count: Math.min(rows.length, limit), hasNext,
      cursors: {
        next: hasNext ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: offset + limit }) : null,
        prev: offset > 0 ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: Math.max(0, offset - limit) }) : null,
      },
    },
  };
}

export function searchPart(search: unknown): { searchTerms?: string[] } {
  const expression = (search as { expression?: string | null } | undefined)?.expression ?? '';
  if (!expression.trim()) return {};
  const terms = searchTerms(expression);
  return { searchTerms: terms };
}

/** A page of stored products (routes present them with the caller's `fields`). */
export async function queryProductsV3Page(ctx: RequestContext, query: PageInput) {
  const { products, pagingMetadata } = await page(ctx, 'products.v3.query', 'query', query, !isElevated(ctx.caller));
  return { products, pagingMetadata };
}

type AggregationIn = { name?: string | null | undefined; type?: 'VALUE' | 'RANGE' | 'SCALAR' | undefined; fieldPath: string; value?: { limit?: number | null | undefined; sortType?: 'COUNT' | 'VALUE' | undefined; sortDirection?: 'ASC' | 'DESC' | undefined } | undefined; range?: { buckets: { from?: number | null | undefined; to?: number | null | undefined }[] } | undefined; scalar?: { type: 'COUNT_DISTINCT' | 'MIN' | 'MAX' } | undefined };

/** Search: full-text expression, filter, sort, cursor paging, and aggregations over all matches. */
export async function searchProductsV3(ctx: RequestContext, search: PageInput & { aggregations?: AggregationIn[] | undefined }) {
  const { q, products, pagingMetadata } = await page(ctx, 'products.v3.search', 'search', search, !isElevated(ctx.caller));
  const aggs = (search.cursorPaging?.cursor ? [] : search.aggregations ?? []) as AggregationIn[];
  const results = [];
  const all: QueryV3 = { ...q, limit: 0, offset: 0, sort: [] };
  for (const [i, a] of aggs.entries()) {
    const type = a.type ?? (a.range ? 'RANGE' : a.scalar ? 'SCALAR' : 'VALUE');
    const name = a.name ?? `${type.toLowerCase()}_${a.fieldPath}`;
    if (type === 'RANGE' && !a.range) throw fail(`search.aggregations[${i}].range`, 'is required for a RANGE aggregation', 'REQUIRED_FIELD');
    if (type === 'SCALAR' && !a.scalar) throw fail(`search.aggregations[${i}].scalar`, 'is required for a SCALAR aggregation', 'REQUIRED_FIELD');
    const spec: AggregationSpec = type === 'RANGE' ? { kind: 'range', fieldPath: a.fieldPath, buckets: a.range!.buckets }
      : type === 'SCALAR' ? { kind: 'scalar', fieldPath: a.fieldPath, type: a.scalar!.type }
        : { kind: 'value', fieldPath: a.fieldPath, limit: a.value?.limit ?? 10, sortType: a.value?.sortType ?? 'COUNT', sortDirection: a.value?.sortDirection ?? 'DESC' };
    const r = await withFilterErrors('search', () => aggregateV3(ctx.db, all, spec, i));
    results.push(type === 'VALUE' ? { name, type, fieldPath: a.fieldPath, values: { results: r } }
      : type === 'RANGE' ? { name, type, fieldPath: a.fieldPath, ranges: { results: r } }
        : { name, type, fieldPath: a.fieldPath, scalar: { type: a.scalar!.type, value: r } });
  }
  return { products, pagingMetadata, aggregationData: { results } };
}

/**
 * Search, encoded as the route answers it (products presented with the caller's `fields`), kept
 * while the catalog's listing version holds (listing-answers.ts): a search with aggregations reads
 * every match several times, and a storefront asks the same ones again and again.
 */
export async function searchProductsV3Answer(ctx: RequestContext, search: PageInput & { aggregations?: AggregationIn[] | undefined }, fields: string[] | undefined): Promise<EncodedJson> {
  return listingAnswer(ctx, ['products.v3.search', search, fields], async () => {
    const r = await searchProductsV3(ctx, search);
    return stringifyForWire({ ...r, products: r.products.map((p) => presentRead(ctx, p, fields)) });
  });
}

export async function countProductsV3Total(ctx: RequestContext, input: { filter?: unknown; search?: { expression?: string | null | undefined } | undefined; returnNonVisibleProducts?: boolean | undefined }) {
  const q: QueryV3 = await withFilterErrors('filter', async () => ({
    siteId: ctx.site.id, dialect: ctx.dialect, filter: parseFilter(normalizeFilter(input.filter)),
    onlyVisible: !(isElevated(ctx.caller) && input.returnNonVisibleProducts), privateTags: isElevated(ctx.caller), sort: [], limit: 0, offset: 0, ...searchPart(input.search),
  }));
  return { count: await withFilterErrors('filter', () => countProductsV3(ctx.db, q)) };
}
