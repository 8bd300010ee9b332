import { z } from 'zod';
import { checkIdentifier, checkKeys } from '../../http/wire-schemas.js';
import { PAGE_MAX } from './common.js';

/**
 * Request schemas of the data calls. They are deliberately loose: the data services check their own
 * inputs so that the public client's WDE codes (WDE0001 collection id not a string, WDE0005 bad bulk
 * items, ...) come back instead of generic field violations.
 */
const asRecord = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

/**
 * Identifier rule (wire-schemas.ts) on what the data calls name: collection ids, item ids, schema field
 * keys and item field keys. Only strings and objects are looked at; other shapes stay for the services.
 */
const itemKeys = (value: unknown, ctx: z.RefinementCtx, path: (string | number)[]) => {
  const item = asRecord(value);
  if (!item) return;
  checkIdentifier(item.id, ctx, [...path, 'id']);
  checkKeys(item.data, ctx, [...path, 'data']);
};
const checkItem = (value: unknown, ctx: z.RefinementCtx) => itemKeys(value, ctx, []);
const checkItems = (value: unknown, ctx: z.RefinementCtx) => {
  if (Array.isArray(value)) value.forEach((item, i) => itemKeys(item, ctx, [i]));
};
const checkIds = (value: unknown, ctx: z.RefinementCtx) => {
  if (Array.isArray(value)) value.forEach((id, i) => checkIdentifier(id, ctx, [i]));
};
const checkCollection = (value: unknown, ctx: z.RefinementCtx) => {
  const collection = asRecord(value);
  if (!collection) return;
  checkIdentifier(collection.id, ctx, ['id']);
  if (Array.isArray(collection.fields)) collection.fields.forEach((field, i) => checkIdentifier(asRecord(field)?.key, ctx, ['fields', i, 'key']));
};

export const dataRequest = z.looseObject({
  dataItem: z.unknown().optional().superRefine(checkItem),
  dataItems: z.unknown().optional().superRefine(checkItems),
  dataItemIds: z.unknown().optional().superRefine(checkIds),
  collection: z.unknown().optional().superRefine(checkCollection),
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
