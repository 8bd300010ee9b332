import { isElevated, type RequestContext } from '../../http/context.js';
import type { ProductMedia, ProductV1 } from './model.js';
import type { PublicProductRow } from './store.js';

/** Media URLs are stored as paths; callers get absolute URLs on this server's origin. */
export function absoluteUrl(url: string, origin: string): string {
  return url.startsWith('/') ? origin + url : url;
}

export function absoluteMedia(media: ProductMedia, origin: string): ProductMedia {
  const abs = <T extends { url: string } | undefined>(img: T): T => (img ? { ...img, url: absoluteUrl(img.url, origin) } : img);
  const item = (m: ProductMedia['items'][number]) => ({
    ...m,
    ...(m.url !== undefined ? { url: absoluteUrl(m.url, origin) } : {}),
    ...(m.image ? { image: abs(m.image) } : {}),
    ...(m.thumbnail ? { thumbnail: abs(m.thumbnail) } : {}),
    ...(m.video ? { video: { ...m.video, files: m.video.files.map((f) => abs(f)) } } : {}),
  });
  return { ...(media.mainMedia ? { mainMedia: item(media.mainMedia) } : {}), items: media.items.map(item) };
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
export function presentProduct(ctx: RequestContext, product: ProductV1, includeMerchantData: boolean): ProductV1 {
  const merchant = includeMerchantData && isElevated(ctx.caller);
  const { _src, ...internalFree } = product;
  const shown = merchant ? internalFree : visitorProduct(product);
  return {
    ...shown,
    media: absoluteMedia(product.media, ctx.origin),
    productOptions: product.productOptions.map((o) => ({
      ...o,
      choices: o.choices.map((c) => (c.media ? { ...c, media: absoluteMedia(c.media, ctx.origin) } : c)),
    })),
  };
}

/**
 * `absoluteUrl` applied to an encoded product document: every `"url":"/...` value gets the origin.
 * An unescaped `"url":"` in JSON text is always a key named `url` opening a string value, and only
 * media objects have that key, so this is the same rule as `absoluteMedia` without decoding.
 */
export function absoluteMediaInJson(json: string, origin: string): string {
  return json.replaceAll('"url":"/', `"url":${JSON.stringify(origin).slice(0, -1)}/`);
}

/** A visitor's product as wire JSON from its stored row, fields in the order `toProduct` gives them. */
export function encodePublicProduct(row: PublicProductRow, origin: string): string {
  const inner = absoluteMediaInJson(row.publicDoc, origin).slice(1, -1);
  return `{"id":${JSON.stringify(row.id)},${inner ? `${inner},` : ''}"collectionIds":${JSON.stringify(row.collectionIds)},"createdDate":${JSON.stringify(row.createdDate)},"lastUpdated":${JSON.stringify(row.lastUpdated)}}`;
}
