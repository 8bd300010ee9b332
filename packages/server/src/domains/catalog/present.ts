import type { OffsetPagingMetadata } from '@vitrine/types';
import type { ProductV1 as WireProductV1, Variant } from '@vitrine/types/stores';
import { isElevated, type RequestContext } from '../../http/context.js';
import { EncodedJson, stringifyForWire } from '../../http/wire.js';
import type { ProductV1, PublicProductRow } from './model.js';

/**
 * The V1 product's one way to the wire: services return domain products (model.ts, with internal
 * inputs) or stored visitor documents; routes encode them with the functions here.
 */

/** Media URLs are stored as paths; callers get absolute URLs on this server's origin. */
export function absoluteUrl(url: string, origin: string): string {
  return url.startsWith('/') ? origin + url : url;
}

/**
 * Every `url` field holding a path, at any depth, made absolute on `origin`: the one rule for URLs in
 * catalog documents (media items, choice media, collection media, owner-given SEO props), applied to
 * objects here and to stored text by `absoluteUrlsInJson`.
 */
export function absoluteUrls<T>(value: T, origin: string): T {
  if (Array.isArray(value)) return value.map((v) => absoluteUrls(v, origin)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = key === 'url' && typeof v === 'string' ? absoluteUrl(v, origin) : absoluteUrls(v, origin);
  return out as T;
}

/**
 * The product as every caller without merchant rights sees it, media still as stored paths: internal
 * inputs never, cost and profit never. Stored beside the document (`products.public_doc`) so visitor
 * reads send it without parsing and re-encoding it.
 */
export function visitorProduct(product: ProductV1): ProductV1 {
  const { _src, costAndProfitData: _cp, costRange: _cr, ...rest } = product;
  return {
    ...rest,
    variants: product.variants.map((v) => {
      const { costAndProfitData: _c, ...variant } = v.variant;
      return { ...v, variant };
    }),
  };
}

/**
 * What a caller may see of a product: internal inputs never; cost and profit only for elevated
 * callers who ask for them (includeMerchantSpecificData).
 */
export function presentProduct(ctx: RequestContext, product: ProductV1, includeMerchantData: boolean): WireProductV1 {
  const merchant = includeMerchantData && isElevated(ctx.caller);
  const { _src, ...internalFree } = product;
  return absoluteUrls(merchant ? internalFree : visitorProduct(product), ctx.origin);
}

/** `{ product }` of an owner's write: the whole product with merchant data. */
export function productAnswer(ctx: RequestContext, product: ProductV1): { product: WireProductV1 } {
  return { product: presentProduct(ctx, product, true) };
}

/** `{ variants }` of updateProductVariants. */
export function variantsAnswer(ctx: RequestContext, product: ProductV1): { variants: Variant[] } {
  return { variants: presentProduct(ctx, product, true).variants };
}

/** What `getProduct` found: the domain product (merchant data asked for and allowed) or the stored visitor document. */
export type ProductRead = { product: ProductV1; merchant: true } | { stored: PublicProductRow };

/** `{ product }` of getProduct, from either source. */
export function encodeProductRead(ctx: RequestContext, read: ProductRead): EncodedJson {
  if ('stored' in read) return new EncodedJson(`{"product":${encodePublicProduct(read.stored, ctx.origin)}}`);
  return new EncodedJson(stringifyForWire({ product: presentProduct(ctx, read.product, read.merchant) }));
}

/** A page of a V1 product query: stored visitor documents and the paging metadata. */
export interface ProductsPage { rows: PublicProductRow[]; metadata: OffsetPagingMetadata }

/** `{ products, metadata }` of queryProducts, assembled from the stored documents without re-encoding them. */
export function encodeProductsPage(ctx: RequestContext, page: ProductsPage): EncodedJson {
  const products = page.rows.map((r) => encodePublicProduct(r, ctx.origin)).join(',');
  return new EncodedJson(`{"products":[${products}],"metadata":${stringifyForWire(page.metadata)}}`);
}

/**
 * `absoluteUrls` applied to an encoded document: every `"url":"/...` value gets the origin. An
 * unescaped `"url":"` in JSON text is always a key named `url` opening a string value (a quote inside
 * a string is escaped), so this is the same rule without decoding.
 */
export function absoluteUrlsInJson(json: string, origin: string): string {
  return json.replaceAll('"url":"/', `"url":${JSON.stringify(origin).slice(0, -1)}/`);
}

/** A visitor's product as wire JSON from its stored row, fields in the order `toProduct` gives them. */
export function encodePublicProduct(row: PublicProductRow, origin: string): string {
  const inner = absoluteUrlsInJson(row.publicDoc, origin).slice(1, -1);
  return `{"id":${JSON.stringify(row.id)},${inner ? `${inner},` : ''}"collectionIds":${JSON.stringify(row.collectionIds)},"createdDate":${JSON.stringify(row.createdDate)},"lastUpdated":${JSON.stringify(row.lastUpdated)}}`;
}
