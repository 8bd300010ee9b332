import type { RequestContext } from '../../http/context.js';
import { createDownloadUrl, digitalFileOfVariant } from '../catalog/index.js';
import { DIGITAL_LINK_TTL_MS } from './limits.js';
import { STORES_APP_ID, type OrderLineItem } from './model.js';

/**
 * The order's lines, each digital one of the store catalog with its file (`digitalFile`: id, a
 * download link valid DIGITAL_LINK_TTL_MS, its expiry), for an order that has just been paid: what the
 * buyer bought is theirs to download from then on (the paid e-mail and the order carry the link).
 * The file is the variant's as the order is paid; a line whose product or file is gone has none.
 */
export async function withDownloadLinks(ctx: RequestContext, lines: OrderLineItem[]): Promise<OrderLineItem[]> {
  const out: OrderLineItem[] = [];
  for (const line of lines) {
    const ref = line.catalogReference;
    if (line.itemType?.preset !== 'DIGITAL' || ref?.appId !== STORES_APP_ID) {
      out.push(line);
      continue;
    }
    const variantId = typeof ref.options?.variantId === 'string' ? ref.options.variantId : undefined;
    const fileId = await digitalFileOfVariant(ctx, ref.catalogItemId, variantId);
    if (fileId === undefined) {
      out.push(line);
      continue;
    }
    const { url, expiresAt } = await createDownloadUrl(ctx, fileId, DIGITAL_LINK_TTL_MS);
    out.push({ ...line, digitalFile: { fileId, link: url, expirationDate: expiresAt } });
  }
  return out;
}
