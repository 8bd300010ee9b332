import type { RequestContext } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import { loadCollection, optionalBoolean, requireCollectionId } from './common.js';
import { itemNotFound } from './errors.js';
import type { CollectionDoc } from './model.js';
import { findItem, type ItemRow } from './store.js';

// Opening a collection and an item for a call; shared by single-item, bulk, query and reference calls.

export interface ItemOptions {
  dataCollectionId?: unknown;
  suppressHooks?: unknown;
  publishPluginOptions?: { includeDraftItems?: unknown } | undefined;
}

export interface Loaded { collection: CollectionDoc; collectionId: string }

export async function openCollection(ctx: RequestContext, input: ItemOptions): Promise<Loaded> {
  const collectionId = requireCollectionId(input.dataCollectionId);
  optionalBoolean(input.suppressHooks, 'suppressHooks');
  return { collection: await loadCollection(ctx, collectionId), collectionId };
}

/** An existing item the caller may act on with `action`, or WDE0073 (others' items look absent). */
export async function visibleItem(ctx: RequestContext, loaded: Loaded, id: string, ownerOnly: string | undefined, includeDrafts: boolean): Promise<ItemRow> {
  const row = await findItem(ctx.db, ctx.site.id, loaded.collectionId, id);
  if (!row || (ownerOnly !== undefined && row.ownerId !== ownerOnly) || (row.draft && !includeDrafts)) throw itemNotFound(id, loaded.collectionId);
  return row;
}

export function readFields(raw: unknown, argument: string): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > 100 || !list.every((f) => typeof f === 'string' && f.length <= 500)) throw violation(argument, 'must be at most 100 field names', 'FORMAT');
  return list as string[];
}
