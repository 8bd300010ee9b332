import { z } from 'zod';
import { checkIdentifier } from '../../http/wire-schemas.js';
import { PAGE_MAX } from './common.js';

/**
 * Request schemas of the data calls. They are deliberately loose: the data services check their own
 * inputs so that the public client's WDE codes (WDE0001 collection id not a string, WDE0005 bad bulk
 * items, ...) come back instead of generic field violations.
 */
export const dataRequest = z.looseObject({
  dataCollectionId: z.unknown().optional().superRefine(checkIdentifier),
  dataItemId: z.unknown().optional().superRefine(checkIdentifier),
  suppressHooks: z.unknown().optional(),
  publishPluginOptions: z.looseObject({ includeDraftItems: z.unknown().optional() }).optional(),
  fields: z.unknown().optional(),
});

export const offsetPaging = z.object({
  limit: z.number().int().min(1).max(PAGE_MAX).optional(),
  offset: z.number().int().min(0).max(1_000_000).optional(),
}).optional();

export const listRequest = z.looseObject({ dataCollectionId: z.unknown().optional().superRefine(checkIdentifier), paging: offsetPaging });

const dataItem = z.looseObject({ id: z.string().optional(), dataCollectionId: z.string().optional(), data: z.record(z.string(), z.unknown()) });
const pagingMetadata = z.looseObject({ count: z.number(), offset: z.number().optional(), total: z.number().optional(), tooManyToCount: z.boolean().optional(), cursors: z.looseObject({ next: z.string().optional(), prev: z.string().optional() }).optional(), hasNext: z.boolean().optional() });

export const itemResponse = z.object({ dataItem });
export const itemsResponse = z.object({ dataItems: z.array(dataItem), pagingMetadata });
export const bulkResponse = z.object({
  results: z.array(z.looseObject({ action: z.string(), itemMetadata: z.looseObject({ id: z.string().optional(), originalIndex: z.number(), success: z.boolean() }), dataItem: dataItem.optional() })),
  bulkActionMetadata: z.object({ totalSuccesses: z.number(), totalFailures: z.number() }),
});
