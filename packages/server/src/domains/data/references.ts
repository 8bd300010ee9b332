import type { DataItemReference } from '@vitrine/types/data';
import type { RequestContext } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import {
  authorize, BULK_MAX, findCollectionDoc, PAGE_MAX, requireItemId, itemOf, type Item,
} from './common.js';
import { fieldNameNotString, notMultiReference, tooManyItems } from './errors.js';
import { access, referencedCollectionOf, type CollectionDoc, type CollectionField } from './model.js';
import {
  addReferences, findItems, isReferenced as isReferencedRow, referencedIds, removeReferences, type ItemRow,
} from './store.js';
import { isPlainObject, project, type ItemData } from './values.js';
import { openCollection, readFields, visibleItem, type Loaded } from './item-access.js';
import { isElevated } from '../../http/context.js';
import { readPaging, pagingMetadata } from './paging.js';

/** REFERENCE fields keep the referenced id in the item; MULTI_REFERENCE links live in data_references. */

export interface IncludeSpec { field: string; limit: number }
export const INCLUDE_LIMIT_DEFAULT = 50;
export const INCLUDE_MAX = 20;

export function readIncludes(raw: unknown): IncludeSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > INCLUDE_MAX) throw violation('includeReferences', `must be an array of at most ${INCLUDE_MAX} fields`, 'MAX_SIZE');
  return raw.map((r: unknown, i) => {
    const field = typeof r === 'string' ? r : isPlainObject(r) ? r.field : undefined;
    const limit = isPlainObject(r) && typeof r.limit === 'number' ? r.limit : INCLUDE_LIMIT_DEFAULT;
    if (typeof field !== 'string') throw violation(`includeReferences[${i}].field`, 'must be a field name', 'FORMAT');
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX) throw violation(`includeReferences[${i}].limit`, `must be 1 to ${PAGE_MAX}`, 'MAX');
    return { field, limit };
  });
}

/** The referenced items the caller may read (permissions and SITE_MEMBER_AUTHOR ownership of the other collection). */
async function readableItems(ctx: RequestContext, collectionId: string, ids: string[]): Promise<Map<string, ItemRow>> {
  const collection = await findCollectionDoc(ctx, collectionId);
  if (!collection || ids.length === 0) return new Map();
  const decision = access(ctx.caller, collection.permissions.read);
  if (!decision.allowed) return new Map();
  const rows = await findItems(ctx.db, ctx.site.id, collectionId, [...new Set(ids)]);
  for (const [id, row] of rows) {
    if ((decision.ownerOnly !== undefined && row.ownerId !== decision.ownerOnly) || row.draft) rows.delete(id);
  }
  return rows;
}

/** Replaces reference ids by the referenced items (for `includeReferences`), where the caller may read them. */
export async function resolveReferences(ctx: RequestContext, collection: CollectionDoc, items: Item[], includes: IncludeSpec[]): Promise<Item[]> {
  if (includes.length === 0 || items.length === 0) return items;
  const out = items.map((i) => ({ ...i, data: { ...i.data } }));
  for (const inc of includes) {
    const field = collection.fields.find((f) => f.key === inc.field);
    const target = field && referencedCollectionOf(field);
    if (!field || !target) continue;
    if (field.type === 'REFERENCE') {
      const ids = out.map((i) => i.data[inc.field]).filter((v): v is string => typeof v === 'string');
      const rows = await readableItems(ctx, target, ids);
      for (const i of out) {
        const ref = i.data[inc.field];
        const row = typeof ref === 'string' ? rows.get(ref) : undefined;
        if (row) i.data[inc.field] = itemOf(target, row).data as unknown as ItemData[string];
      }
    } else {
      const links = await referencedIds(ctx.db, ctx.site.id, collection.id, inc.field, out.map((i) => i.id));
      const rows = await readableItems(ctx, target, links.map((l) => l.referencedId));
      for (const i of out) {
        const mine = links.filter((l) => l.referringId === i.id).map((l) => rows.get(l.referencedId)).filter((r): r is ItemRow => r !== undefined);
        i.data[inc.field] = mine.slice(0, inc.limit).map((r) => itemOf(target, r).data) as unknown as ItemData[string];
      }
    }
  }
  return out;
}

/** Writes the MULTI_REFERENCE fields given in an item (replacing the listed fields' links when `replace`). */
export async function saveMultiRefs(ctx: RequestContext, collectionId: string, itemId: string, refs: Map<string, string[]>, replace: boolean): Promise<void> {
  for (const [field, ids] of refs) {
    if (replace) await removeReferences(ctx.db, ctx.site.id, collectionId, field, itemId);
    await addReferences(ctx.db, ctx.site.id, collectionId, field, itemId, ids);
  }
}

function multiRefField(collection: CollectionDoc, name: unknown): CollectionField {
  if (typeof name !== 'string') throw fieldNameNotString();
  const field = collection.fields.find((f) => f.key === name);
  if (!field || field.type !== 'MULTI_REFERENCE') throw notMultiReference(name);
  return field;
}

interface RefInput { referringItemFieldName?: unknown; referringItemId?: unknown; referencedItemId?: unknown }

/** The referring item must be one the caller may update (SITE_MEMBER_AUTHOR: their own). */
async function writableReferrer(ctx: RequestContext, loaded: Loaded, id: string): Promise<ItemRow> {
  const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
  return visibleItem(ctx, loaded, id, ownerOnly, isElevated(ctx.caller));
}

/** insert-references / remove-references: all or nothing; returns the references done. */
export async function changeReferences(ctx: RequestContext, input: { dataCollectionId?: unknown; dataItemReferences?: unknown }, add: boolean): Promise<DataItemReference[]> {
  const loaded = await openCollection(ctx, input);
  const refs = input.dataItemReferences;
  if (!Array.isArray(refs)) throw violation('dataItemReferences', 'must be an array', 'FORMAT');
  if (refs.length > BULK_MAX) throw tooManyItems(loaded.collectionId, BULK_MAX);
  const checked = refs.map((r: unknown) => {
    const ref = (isPlainObject(r) ? r : {}) as RefInput;
    multiRefField(loaded.collection, ref.referringItemFieldName);
    return { referringItemFieldName: ref.referringItemFieldName as string, referringItemId: requireItemId(ref.referringItemId), referencedItemId: requireItemId(ref.referencedItemId) };
  });
  for (const id of new Set(checked.map((c) => c.referringItemId))) await writableReferrer(ctx, loaded, id);
  await inTransaction(ctx.db, async (trx) => {
    for (const c of checked) {
      if (add) await addReferences(trx, ctx.site.id, loaded.collectionId, c.referringItemFieldName, c.referringItemId, [c.referencedItemId]);
      else await removeReferences(trx, ctx.site.id, loaded.collectionId, c.referringItemFieldName, c.referringItemId, [c.referencedItemId]);
    }
  });
  return checked;
}

export async function replaceReferences(ctx: RequestContext, input: { dataCollectionId?: unknown; referringItemFieldName?: unknown; referringItemId?: unknown; newReferencedItemIds?: unknown }): Promise<void> {
  const loaded = await openCollection(ctx, input);
  const field = multiRefField(loaded.collection, input.referringItemFieldName);
  const referringId = requireItemId(input.referringItemId);
  const ids = input.newReferencedItemIds ?? [];
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === 'string')) throw violation('newReferencedItemIds', 'must be an array of item ids', 'FORMAT');
  if (ids.length > BULK_MAX) throw tooManyItems(loaded.collectionId, BULK_MAX);
  await writableReferrer(ctx, loaded, referringId);
  await inTransaction(ctx.db, async (trx) => {
    await removeReferences(trx, ctx.site.id, loaded.collectionId, field.key, referringId);
    await addReferences(trx, ctx.site.id, loaded.collectionId, field.key, referringId, [...new Set(ids as string[])]);
  });
}

export async function isReferenced(ctx: RequestContext, input: { dataCollectionId?: unknown } & RefInput): Promise<boolean> {
  const loaded = await openCollection(ctx, input);
  const field = multiRefField(loaded.collection, input.referringItemFieldName);
  const referringId = requireItemId(input.referringItemId);
  const referencedId = requireItemId(input.referencedItemId);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  await visibleItem(ctx, loaded, referringId, ownerOnly, isElevated(ctx.caller));
  return isReferencedRow(ctx.db, ctx.site.id, loaded.collectionId, field.key, referringId, referencedId);
}

export interface QueryReferencedInput {
  dataCollectionId?: unknown; referringItemId?: unknown; referringItemIds?: unknown; referringItemFieldName?: unknown;
  order?: unknown; paging?: unknown; cursorPaging?: unknown; fields?: unknown; returnTotalCount?: unknown;
}

/** Referenced items of one or more referring items; those the caller may not read come back unresolved. */
export async function queryReferenced(ctx: RequestContext, input: QueryReferencedInput) {
  const loaded = await openCollection(ctx, input);
  if (typeof input.referringItemFieldName !== 'string') throw fieldNameNotString();
  const field = loaded.collection.fields.find((f) => f.key === input.referringItemFieldName);
  const target = field && referencedCollectionOf(field);
  if (!field || !target) throw notMultiReference(input.referringItemFieldName);
  const ids = input.referringItemIds !== undefined ? input.referringItemIds : [input.referringItemId];
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > BULK_MAX) throw violation('referringItemIds', `must list 1 to ${BULK_MAX} item ids`, 'MAX_SIZE');
  const referringIds = ids.map((id) => requireItemId(id));
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const referrers = await findItems(ctx.db, ctx.site.id, loaded.collectionId, referringIds);
  const visible = referringIds.filter((id) => {
    const r = referrers.get(id);
    return r && (ownerOnly === undefined || r.ownerId === ownerOnly) && !r.draft;
  });
  let links: { referringId: string; referencedId: string }[];
  if (field.type === 'MULTI_REFERENCE') links = await referencedIds(ctx.db, ctx.site.id, loaded.collectionId, field.key, visible);
  else links = visible.flatMap((id) => { const v = referrers.get(id)!.data[field.key]; return typeof v === 'string' ? [{ referringId: id, referencedId: v }] : []; });
  if (input.order === 'DESC') links.reverse();
  const paging = await readPaging(ctx, 'query-referenced', input, { collectionId: loaded.collectionId, field: field.key, ids: referringIds });
  const rows = await readableItems(ctx, target, links.map((l) => l.referencedId));
  const fields = readFields(input.fields, 'fields');
  const page = links.slice(paging.offset, paging.offset + paging.limit);
  const results = page.map((l) => {
    const row = rows.get(l.referencedId);
    return row
      ? { referringItemId: l.referringId, item: { ...itemOf(target, row), data: project(itemOf(target, row).data, fields) } }
      : { referringItemId: l.referringId, unresolvedReference: { referringItemId: l.referringId, referringItemFieldName: field.key } };
  });
  return { results, pagingMetadata: await pagingMetadata(ctx, paging, results.length, links.length > paging.offset + paging.limit, input.returnTotalCount === true ? links.length : undefined) };
}

