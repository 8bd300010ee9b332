/**
 * Resolves stored lines against the catalog (both versions) and inventory, at calculation time. Every
 * catalog price a cart or checkout shows comes from here; nothing a buyer sends is ever a price.
 */
import { deepFreeze } from '../../deep-freeze.js';
import { LruMap } from '../../lru-map.js';
import { isElevated, type RequestContext } from '../../http/context.js';
import { findProductV3ForCatalogReference, getProductsForLines, readListingVersion, type LineProductV1, type ProductV3 } from '../catalog/index.js';
import type { SubscriptionV3 } from '@vitrine/types/stores';
import { variantAvailabilityIfTracked, type Availability } from '../inventory/index.js';
import { applyRate, currencyOf, formatMoney, parseMoney, parsePercentage, type Currency } from './pricing/index.js';
import { KeptLines } from './kept-lines.js';
import { STORES_APP_ID, type ResolvedLine, type StoredLine } from './model.js';
import type { CatalogReference, DescriptionLine, ItemAvailabilityStatus, SubscriptionOptionInfo } from '@vitrine/types/ecom-cart';

const DEFAULT_VARIANT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * A catalog weight to the gram (3 decimals). Catalog weights are JS numbers, and one computed upstream
 * can carry binary noise (0.30000000000000004), which the engine, reading the decimal spelling, refuses.
 */
export function catalogWeight(weight: number | null | undefined): number | null {
  return weight === null || weight === undefined ? null : Math.round(weight * 1000) / 1000;
}

/** Amounts already converted, by currency and catalog value: a 20-line cart converts 40 prices per read, most of them the same few. */
/** Conversions kept per process (least recently used dropped first). */
export const CATALOG_AMOUNTS_MAX = 10_000;
const catalogAmounts = new LruMap<string, string>(CATALOG_AMOUNTS_MAX);

/** A catalog amount (a V1 number or V3 decimal text) as decimal text with the currency's decimals. */
export function catalogAmount(value: number | string, currency: Currency): string {
  const key = `${currency.code}\u0000${typeof value}\u0000${value}`;
  const known = catalogAmounts.get(key);
  if (known !== undefined) return known;
  const amount = convertCatalogAmount(value, currency);
  catalogAmounts.set(key, amount);
  return amount;
}

function convertCatalogAmount(value: number | string, currency: Currency): string {
  // V1 prices are numbers already rounded to cents by the catalog; toFixed gives their exact spelling.
  const text = typeof value === 'number' ? value.toFixed(currency.exponent) : value;
  const [whole, frac = ''] = text.split('.');
  // Trailing zeros past the currency's decimals ("1250.00" in JPY) are not precision; anything else the engine refuses.
  const trimmed = frac.length > currency.exponent && /^0*$/.test(frac.slice(currency.exponent)) ? frac.slice(0, currency.exponent) : frac;
  return formatMoney(parseMoney(trimmed ? `${whole}.${trimmed}` : whole!, currency, 'price'), currency);
}

interface Found {
  resolved: Omit<ResolvedLine, 'availability'>; stock?: { productId: string; variantId: string }; hidden: boolean;
  /**
   * Available without reading inventory: an untracked variant its product document shows in stock
   * (reservations and preorders count only for tracked or out-of-stock items, and the document's
   * stock is rewritten with the item in the same transaction; docs/cart.md "Performance").
   */
  availableUntracked?: boolean;
  /** Whether this is a kept resolution, and its final line for the availability last seen (frozen). */
  kept?: { line: ResolvedLine } | null;
}

interface LineOptions { variantId?: string; options?: Record<string, string>; customTextFields?: Record<string, string>; subscriptionOptionId?: string }

function optionsOf(line: StoredLine): LineOptions {
  const o = line.catalogReference?.options ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const map = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === 'string')) as Record<string, string> : undefined);
  const out: LineOptions = {};
  const variantId = str(o.variantId); if (variantId) out.variantId = variantId;
  const options = map(o.options); if (options) out.options = options;
  const custom = map(o.customTextFields); if (custom) out.customTextFields = custom;
  const subscriptionOptionId = str(o.subscriptionOptionId); if (subscriptionOptionId) out.subscriptionOptionId = subscriptionOptionId;
  return out;
}

const text = (name: string, value: string): DescriptionLine => ({ name: { original: name }, plainText: { original: value }, lineType: 'PLAIN_TEXT' });

/** A V1 choice as a buyer reads it: its description (a colour's value is its code, "#000000"), else its value. */
function choiceText(p: LineProductV1, option: string, value: string): string {
  return p.productOptions.find((o) => o.name === option)?.choices.find((c) => c.value === value)?.description || value;
}

function fromV1(ctx: RequestContext, line: StoredLine, p: LineProductV1, currency: Currency): Found | undefined {
  const opts = optionsOf(line);
  const variant = opts.variantId
    ? p.variants.find((v) => v.id === opts.variantId)
    : opts.options
      ? p.variants.find((v) => Object.keys(v.choices).length === Object.keys(opts.options!).length && Object.entries(opts.options!).every(([k, val]) => v.choices[k] === val))
      : p.variants.find((v) => v.id === DEFAULT_VARIANT_ID) ?? (p.variants.length === 1 ? p.variants[0] : undefined);
  if (!variant) return undefined;
  const main = p.media?.mainMedia;
  const image = main?.image ? { id: main.id, url: main.image.url, width: main.image.width, height: main.image.height } : undefined;
  const physical = p.productType === 'physical';
  const weight = variant.variant.weight ?? p.weight;
  return {
    hidden: !variant.variant.visible,
    stock: { productId: p.id, variantId: variant.id },
    availableUntracked: variant.stock?.trackQuantity === false && variant.stock.inStock === true,
    resolved: {
      id: line.id, quantity: line.quantity, catalogReference: line.catalogReference!, productName: p.name,
      url: { relativePath: `/product-page/${p.slug}`, url: `${ctx.origin}/product-page/${p.slug}` },
      price: catalogAmount(variant.variant.priceData.discountedPrice, currency),
      fullPrice: catalogAmount(variant.variant.priceData.price, currency),
      descriptionLines: [
        ...Object.entries(variant.choices).map(([k, v]) => text(k, choiceText(p, k, v))),
        ...Object.entries(opts.customTextFields ?? {}).map(([k, v]) => text(k, v)),
      ],
      ...(image ? { image } : {}),
      physicalProperties: { weight: catalogWeight(weight), sku: variant.variant.sku ?? p.sku ?? null, shippable: physical },
      itemType: physical ? 'PHYSICAL' : 'DIGITAL',
      paymentOption: 'FULL_PAYMENT_ONLINE',
      rootCatalogItemId: p.id,
      customLineItem: false,
      sku: variant.variant.sku ?? p.sku ?? null,
    },
  };
}

/** V1 resolutions kept per cart line while their product object and inputs are the same (kept-lines.ts). */
const keptV1 = new KeptLines<Found | undefined>();

/**
 * A stored catalog reference as JSON text, once per reference object: a kept cart's lines keep their
 * reference objects from call to call (kept-carts.ts), and encoding 20 of them was a visible share of
 * an add-to-cart.
 */
const referenceTexts = new WeakMap<CatalogReference, string>();

function referenceText(reference: CatalogReference): string {
  let text = referenceTexts.get(reference);
  if (text === undefined) referenceTexts.set(reference, (text = JSON.stringify(reference)));
  return text;
}

function keptFromV1(ctx: RequestContext, line: StoredLine, p: LineProductV1, currency: Currency): Found | undefined {
  const source = { product: p, quantity: line.quantity, reference: referenceText(line.catalogReference!), currency: currency.code, origin: ctx.origin };
  return keptV1.get(line.id, source, (sameButQuantity) => {
    // A quantity change (an item added again, a quantity set) keeps everything else of the line: its
    // prices, texts and nested objects are shared with the resolution before, so a write keeps little
    // that is new.
    if (sameButQuantity) return { ...sameButQuantity, resolved: { ...sameButQuantity.resolved, quantity: line.quantity }, kept: null };
    const found = fromV1(ctx, line, p, currency);
    // Its own copy of the reference: the kept line is frozen, the caller's stored line is not.
    return found && { ...found, resolved: { ...found.resolved, catalogReference: JSON.parse(source.reference) as CatalogReference }, kept: null };
  });
}

/** The resolved line with its availability: for a kept resolution, the same frozen object while the availability is the same. */
function withAvailability(f: Found, availability: ResolvedLine['availability']): ResolvedLine {
  if (f.kept === undefined) return { ...f.resolved, availability, stock: f.stock! };
  const seen = f.kept?.line;
  if (seen && seen.availability.status === availability.status && seen.availability.quantityAvailable === availability.quantityAvailable) return seen;
  const line = deepFreeze({ ...f.resolved, availability, stock: f.stock! });
  f.kept = { line };
  return line;
}

function fromV3(ctx: RequestContext, line: StoredLine, p: ProductV3, currency: Currency): Found | undefined {
  const opts = optionsOf(line);
  const variants = p.variantsInfo.variants;
  const variant = opts.variantId
    ? variants.find((v) => v.id === opts.variantId)
    : opts.options
      ? variants.find((v) => v.choices.length === Object.keys(opts.options!).length && v.choices.every((c) => opts.options![c.optionChoiceNames.optionName] === c.optionChoiceNames.choiceName))
      : variants.length === 1 ? variants[0] : undefined;
  if (!variant) return undefined;
  // A subscription the product does not offer (or no longer shows) is not something to sell: not found.
  const sub = opts.subscriptionOptionId ? p.subscriptionDetails?.subscriptions.find((s) => s.id === opts.subscriptionOptionId && s.visible) : undefined;
  if (opts.subscriptionOptionId && !sub) return undefined;
  const actual = catalogAmount(variant.price.actualPrice.amount, currency);
  const main = p.media.main?.image;
  const physical = p.productType === 'PHYSICAL';
  return {
    hidden: !variant.visible,
    stock: { productId: p.id, variantId: variant.id },
    resolved: {
      id: line.id, quantity: line.quantity, catalogReference: line.catalogReference!, productName: p.name,
      url: { relativePath: p.url.relativePath, url: p.url.url || `${ctx.origin}${p.url.relativePath}` },
      price: sub ? subscriptionAmount(actual, sub, currency) : actual,
      fullPrice: catalogAmount(variant.price.compareAtPrice?.amount ?? variant.price.actualPrice.amount, currency),
      descriptionLines: [
        ...variant.choices.map((c) => text(c.optionChoiceNames.optionName, c.optionChoiceNames.choiceName)),
        ...Object.entries(opts.customTextFields ?? {}).map(([k, v]) => text(k, v)),
      ],
      ...(main ? { image: { id: main.id, url: main.url, ...(main.width ? { width: main.width } : {}), ...(main.height ? { height: main.height } : {}) } } : {}),
      physicalProperties: { weight: catalogWeight(variant.physicalProperties?.weight), sku: variant.sku ?? null, shippable: physical },
      itemType: physical ? 'PHYSICAL' : 'DIGITAL',
      paymentOption: 'FULL_PAYMENT_ONLINE',
      rootCatalogItemId: p.id,
      customLineItem: false,
      sku: variant.sku ?? null,
      ...(sub ? { subscriptionOptionInfo: subscriptionInfo(sub) } : {}),
    },
  };
}

/** The price of one subscription cycle: the variant's price less the subscription's discount, never below zero. */
function subscriptionAmount(price: string, s: SubscriptionV3, currency: Currency): string {
  const base = parseMoney(price, currency, 'price');
  const d = s.discount;
  if (!d) return price;
  const off = d.type === 'PERCENT'
    ? applyRate(base, parsePercentage(d.percentOff ?? 0, 'subscription.discount.percentOff'), 'HALF_UP')
    : parseMoney(catalogAmount(d.amountOff ?? '0', currency), currency, 'subscription.discount.amountOff');
  return formatMoney(base > off ? base - off : 0n, currency);
}

function subscriptionInfo(s: SubscriptionV3): SubscriptionOptionInfo {
  const text = (t: string) => ({ original: t, translated: t });
  return {
    subscriptionOptionId: s.id,
    subscriptionSettings: { frequency: s.frequency, interval: s.interval, autoRenewal: s.autoRenewal, billingCycles: s.billingCycles ?? null },
    title: text(s.title), description: text(s.description ?? ''),
  };
}

function notFoundLine(line: StoredLine): ResolvedLine {
  return {
    id: line.id, quantity: line.quantity, catalogReference: line.catalogReference!, productName: '', price: '0', fullPrice: '0',
    descriptionLines: [], availability: { status: 'NOT_FOUND' }, itemType: 'PHYSICAL', paymentOption: 'FULL_PAYMENT_ONLINE', customLineItem: false,
  };
}

function customLine(line: StoredLine): ResolvedLine {
  const c = line.custom!;
  const preset = c.itemType?.preset ?? 'PHYSICAL';
  const qa = c.quantityAvailable;
  const status: ItemAvailabilityStatus = qa === null || qa === undefined || qa >= line.quantity ? 'AVAILABLE' : qa <= 0 ? 'NOT_AVAILABLE' : 'PARTIALLY_AVAILABLE';
  return {
    id: line.id, quantity: line.quantity, ...(c.catalogReference ? { catalogReference: c.catalogReference } : {}),
    productName: c.productName.original,
    ...(c.url?.relativePath ? { url: { relativePath: c.url.relativePath, url: c.url.url ?? `${c.url.relativePath}` } } : {}),
    price: c.price, fullPrice: c.fullPrice ?? c.price,
    descriptionLines: (c.descriptionLines ?? []).map((d) => text(d.name?.original ?? '', d.plainText?.original ?? '')),
    ...(c.media?.url ? { image: { id: c.media.id ?? '', url: c.media.url, ...(c.media.width ? { width: c.media.width } : {}), ...(c.media.height ? { height: c.media.height } : {}) } } : {}),
    availability: { status, ...(qa !== null && qa !== undefined ? { quantityAvailable: qa } : {}) },
    physicalProperties: { weight: c.physicalProperties?.weight ?? null, sku: c.physicalProperties?.sku ?? null, shippable: c.physicalProperties?.shippable ?? preset === 'PHYSICAL' },
    itemType: preset === 'GIFT_CARD' || preset === 'SERVICE' || preset === 'DIGITAL' ? preset : 'PHYSICAL',
    paymentOption: c.paymentOption ?? 'FULL_PAYMENT_ONLINE',
    rootCatalogItemId: c.rootCatalogItemId ?? null,
    ...(c.priceDescription ? { priceDescription: c.priceDescription.original } : {}),
    taxGroupId: c.taxGroupId ?? null,
    customLineItem: true,
    sku: c.physicalProperties?.sku ?? null,
  };
}

function availabilityOf(quantity: number, a: Availability | undefined): ResolvedLine['availability'] {
  if (!a) return { status: 'AVAILABLE' };
  if (a.available === null) return a.inStock || a.preorder.available ? { status: 'AVAILABLE' } : { status: 'NOT_AVAILABLE', quantityAvailable: 0 };
  const sellable = a.available + (a.preorder.enabled ? (a.preorder.remaining ?? Number.MAX_SAFE_INTEGER) : 0);
  if (sellable >= quantity) return { status: 'AVAILABLE', quantityAvailable: Math.max(0, sellable) };
  if (sellable <= 0) return { status: 'NOT_AVAILABLE', quantityAvailable: 0 };
  return { status: 'PARTIALLY_AVAILABLE', quantityAvailable: sellable };
}

/** Stock of each variant, one batched read; a variant without an inventory item counts as untracked. */
async function stockOf(ctx: RequestContext, refs: { productId: string; variantId: string }[]): Promise<Map<string, Availability>> {
  const out = new Map<string, Availability>();
  if (refs.length === 0) return out;
  const found = await variantAvailabilityIfTracked(ctx, refs);
  refs.forEach((r, i) => {
    const a = found[i];
    if (a) out.set(`${r.productId}/${r.variantId}`, a);
  });
  return out;
}

/**
 * Which catalog a product id was last found in: a hint that lets a cart of V3 products skip the V1
 * lookup. Only an order of lookups, never an answer: an id its hinted catalog misses is looked up in
 * the other one as before. Keyed by the id alone (a product id is its table's primary key, unique
 * across sites), not by a joined site and id string, which is new and hashed whole on every lookup.
 * Bounded (least recently used dropped first).
 */
export const CATALOG_HINTS_MAX = 10_000;
const catalogHints = new LruMap<string, 'v1' | 'v3'>(CATALOG_HINTS_MAX);
function noteCatalog(id: string, catalog: 'v1' | 'v3'): void {
  if (catalogHints.get(id) !== catalog) catalogHints.set(id, catalog);
}

async function v3Products(ctx: RequestContext, ids: string[]): Promise<Map<string, ProductV3>> {
  const out = new Map<string, ProductV3>();
  for (const id of ids) {
    const p = await findProductV3ForCatalogReference(ctx, id);
    if (p) out.set(id, p);
  }
  return out;
}

/** The products of `ids`, one batch per catalog: V1 first, then V3 for what V1 does not have (V3 first for ids last found there). */
async function catalogProducts(ctx: RequestContext, ids: string[], version: number | undefined): Promise<{ v1: Map<string, LineProductV1>; v3: Map<string, ProductV3> }> {
  const hints = new Map(ids.map((id) => [id, catalogHints.get(id)]));
  const hintedV3 = ids.filter((id) => hints.get(id) === 'v3');
  const v3 = await v3Products(ctx, hintedV3);
  const rest = ids.filter((id) => !v3.has(id));
  const v1 = new Map<string, LineProductV1>();
  if (rest.length) for (const p of await getProductsForLines(ctx, rest, version)) v1.set(p.id, p);
  const retry = rest.filter((id) => !v1.has(id) && hints.get(id) !== 'v3');
  for (const [id, p] of await v3Products(ctx, retry)) v3.set(id, p);
  for (const id of v1.keys()) if (hints.get(id) !== 'v1') noteCatalog(id, 'v1');
  for (const id of v3.keys()) if (hints.get(id) !== 'v3') noteCatalog(id, 'v3');
  return { v1, v3 };
}

/**
 * Resolutions of a kept cart's lines (kept-carts.ts: a stored line is a frozen object that stays the
 * same from call to call while the line is unchanged, and a write replaces only the line it changes),
 * for lines that read nothing but the catalog: V1 products whose stock is untracked or that are
 * hidden. One holds while the site's listing version is the one it was made at (every product write
 * moves it), for the same origin, currency and kind of caller. A 20-line cart's estimate spent about
 * a third of its time resolving lines one by one to the same kept objects, and an add-to-cart did it
 * for the 19 lines it did not change; with this it is one version read, one lookup per line and the
 * resolution of the changed line.
 */
interface Memo { siteId: string; version: number; origin: string; currency: string; elevated: boolean; line: ResolvedLine }
const memos = new WeakMap<StoredLine, Memo>();

const memoHolds = (m: Memo | undefined, ctx: RequestContext, version: number, currency: string, elevated: boolean): m is Memo =>
  m !== undefined && m.version === version && m.siteId === ctx.site.id && m.origin === ctx.origin && m.currency === currency && m.elevated === elevated;

/**
 * The lines as they are now, in their stored order. `listingVersion`: the site's listing version when
 * the caller read it already, outside a transaction (cart/estimate.ts reads it with other versions).
 */
export async function resolveLines(ctx: RequestContext, lines: StoredLine[], currencyCode: string, listingVersion?: number): Promise<ResolvedLine[]> {
  // No catalog line, no catalog read (a cart of custom lines).
  const version = !lines.some((l) => !l.custom) ? undefined
    : listingVersion !== undefined && !ctx.db.isTransaction ? listingVersion : await readListingVersion(ctx.db, ctx.site.id);
  if (version === undefined) return (await resolveEach(ctx, lines, currencyCode, version)).map((r) => r.line);
  const elevated = isElevated(ctx.caller);
  const out: (ResolvedLine | undefined)[] = lines.map((l) => {
    const memo = memos.get(l);
    return memoHolds(memo, ctx, version, currencyCode, elevated) ? memo.line : undefined;
  });
  const rest = lines.filter((_, i) => out[i] === undefined);
  if (rest.length === 0) return out as ResolvedLine[];
  const resolved = await resolveEach(ctx, rest, currencyCode, version);
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    if (out[i] !== undefined) continue;
    const r = resolved[next++]!;
    out[i] = r.line;
    if (r.memoizable && Object.isFrozen(lines[i])) memos.set(lines[i]!, { siteId: ctx.site.id, version, origin: ctx.origin, currency: currencyCode, elevated, line: r.line });
  }
  return out as ResolvedLine[];
}

/** Each line resolved, and whether the listing version alone settles it: a kept V1 resolution needing no inventory read. */
async function resolveEach(ctx: RequestContext, lines: StoredLine[], currencyCode: string, version: number | undefined): Promise<{ line: ResolvedLine; memoizable: boolean }[]> {
  const currency = currencyOf(currencyCode);
  const storeLines = lines.filter((l) => !l.custom && l.catalogReference?.appId === STORES_APP_ID);
  const ids = [...new Set(storeLines.map((l) => l.catalogReference!.catalogItemId))];
  const { v1, v3 } = await catalogProducts(ctx, ids, version);
  const found = new Map<string, Found>();
  for (const l of storeLines) {
    const id = l.catalogReference!.catalogItemId;
    const p1 = v1.get(id);
    const p3 = v3.get(id);
    const f = p1 ? keptFromV1(ctx, l, p1, currency) : p3 ? fromV3(ctx, l, p3, currency) : undefined;
    if (f) found.set(l.id, f);
  }
  const refs = [...found.values()].filter((f) => !f.hidden && !f.availableUntracked && f.stock).map((f) => f.stock!);
  const stock = await stockOf(ctx, refs);
  return lines.map((l) => {
    if (l.custom) return { line: customLine(l), memoizable: false };
    const f = found.get(l.id);
    if (!f) return { line: notFoundLine(l), memoizable: false };
    const catalogOnly = f.kept !== undefined;
    if (f.hidden) return { line: withAvailability(f, { status: 'NOT_AVAILABLE', quantityAvailable: 0 }), memoizable: catalogOnly };
    if (f.availableUntracked) return { line: withAvailability(f, { status: 'AVAILABLE' }), memoizable: catalogOnly };
    return { line: withAvailability(f, availabilityOf(l.quantity, stock.get(`${f.stock!.productId}/${f.stock!.variantId}`))), memoizable: false };
  });
}
