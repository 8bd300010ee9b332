import type { ProductMediaV3, ProductV3 } from '@vitrine/types/stores';
import { isElevated, type RequestContext } from '../../../http/context.js';
import { EncodedJson, stringifyForWire } from '../../../http/wire.js';
import { absoluteUrl } from '../present.js';
import type { StoredProductV3 } from './store.js';

/**
 * The V3 product's one way to the wire: services return stored products; routes (and event payloads)
 * present them here for the caller and the `fields` asked for.
 */

export interface Fields { merchant: boolean }
export function fieldsOf(ctx: RequestContext, fields: string[] | undefined): Fields {
  return { merchant: isElevated(ctx.caller) && (fields ?? []).includes('MERCHANT_DATA') };
}

export function presentV3(ctx: RequestContext, p: ProductV3, f: Fields): ProductV3 {
  const abs = (m: ProductMediaV3): ProductMediaV3 => ({ ...m, ...(m.url ? { url: absoluteUrl(m.url, ctx.origin) } : {}), ...(m.image ? { image: { ...m.image, url: absoluteUrl(m.image.url, ctx.origin) } } : {}) });
  const out: ProductV3 = {
    ...p,
    url: { relativePath: p.url.relativePath, url: ctx.origin + p.url.relativePath },
    media: { ...(p.media.main ? { main: abs(p.media.main) } : {}), itemsInfo: { items: p.media.itemsInfo.items.map(abs) } },
    variantsInfo: { variants: f.merchant ? p.variantsInfo.variants : p.variantsInfo.variants.map(({ revenueDetails: _r, ...v }) => v) },
  };
  if (!f.merchant) delete out.costRange;
  // A variant's digital file is what a buyer pays for: elevated callers and merchant views only.
  if (!f.merchant && !isElevated(ctx.caller)) out.variantsInfo = { variants: out.variantsInfo.variants.map(({ digitalProperties: _d, ...v }) => v) };
  // Private tags: elevated callers and merchant views (events) only.
  if (out.tags?.privateTags && !f.merchant && !isElevated(ctx.caller)) {
    const { privateTags: _p, ...visible } = out.tags;
    if (visible.publicTags) out.tags = visible;
    else delete out.tags;
  }
  return out;
}

/** A product answered by a write (create, update, bulk items): merchant data unless `fields` says otherwise. */
export function presentWritten(ctx: RequestContext, p: ProductV3, fields: string[] | undefined): ProductV3 {
  return presentV3(ctx, p, fieldsOf(ctx, fields ?? ['MERCHANT_DATA']));
}

/** A product answered by a read: merchant data only when `fields` asks for it (and the caller may). */
export function presentRead(ctx: RequestContext, p: ProductV3, fields: string[] | undefined): ProductV3 {
  return presentV3(ctx, p, fieldsOf(ctx, fields));
}

/** `{ product }` of a get (a visitor's is kept while the catalog is unchanged: product-answers.ts). */
export function encodeProductV3Read(ctx: RequestContext, stored: StoredProductV3, fields: string[] | undefined): EncodedJson {
  return new EncodedJson(stringifyForWire({ product: presentRead(ctx, stored.product(), fields) }));
}
