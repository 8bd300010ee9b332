import { isElevated, type RequestContext } from '../../http/context.js';
import type { ProductMedia, ProductV1 } from './model.js';

/** Media URLs are stored as paths; callers get absolute URLs on this server's origin. */
export function absoluteUrl(url: string, origin: string): string {
  return url.startsWith('/') ? origin + url : url;
}

export function absoluteMedia(media: ProductMedia, origin: string): ProductMedia {
  const abs = <T extends { url: string } | undefined>(img: T): T => (img ? { ...img, url: absoluteUrl(img.url, origin) } : img);
  const item = (m: ProductMedia['items'][number]) => ({
    ...m,
    ...(m.image ? { image: abs(m.image) } : {}),
    ...(m.thumbnail ? { thumbnail: abs(m.thumbnail) } : {}),
    ...(m.video ? { video: { ...m.video, files: m.video.files.map((f) => abs(f)) } } : {}),
  });
  return { ...(media.mainMedia ? { mainMedia: item(media.mainMedia) } : {}), items: media.items.map(item) };
}

/**
 * What a caller may see of a product: internal inputs never; cost and profit only for elevated
 * callers who ask for them (includeMerchantSpecificData).
 */
export function presentProduct(ctx: RequestContext, product: ProductV1, includeMerchantData: boolean): ProductV1 {
  const { _src, ...rest } = product;
  const merchant = includeMerchantData && isElevated(ctx.caller);
  const out: ProductV1 = {
    ...rest,
    media: absoluteMedia(product.media, ctx.origin),
    productOptions: product.productOptions.map((o) => ({
      ...o,
      choices: o.choices.map((c) => (c.media ? { ...c, media: absoluteMedia(c.media, ctx.origin) } : c)),
    })),
    variants: merchant ? product.variants : product.variants.map((v) => {
      const { costAndProfitData: _c, ...variant } = v.variant;
      return { ...v, variant };
    }),
  };
  if (!merchant) {
    delete out.costAndProfitData;
    delete out.costRange;
  }
  return out;
}
