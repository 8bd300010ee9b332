import type { RequestContext } from '../../http/context.js';
import { isElevated } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import type { FilterNode } from '../../storage/filter.js';
import { inTransaction } from '../../storage/transaction.js';
import {
  authorize, draftsVisible, newItemId, parseDataFilter, requireItemId, itemOf, withSystemFields,
  type Item,
} from './common.js';
import { itemAlreadyDraft, itemExists, itemNotDraft, itemNotFound, itemNotObject, permissionDenied, uniqueViolation } from './errors.js';
import { matches } from './evaluate.js';
import { ownerIdOf } from './model.js';
import { applyModifications, readModifications } from './patch.js';
import { hooksSuppressed, isUniqueViolation, itemEvent, prepareData, type PreparedData } from './prepare.js';
import { openCollection, readFields, visibleItem, type ItemOptions, type Loaded } from './item-access.js';
import { resolveReferences, saveMultiRefs, readIncludes } from './references.js';
import { deleteItemRows, findItem, insertItems, setItemDraft, truncateItems, updateItemRow, type ItemRow } from './store.js';
import { isPlainObject, project, type ItemData } from './values.js';

/** Single-item calls: get, insert, update, save, patch, remove, truncate, drafts. */

function checkCondition(condition: unknown, row: ItemRow, loaded: Loaded): void {
  if (!isPlainObject(condition) || condition.filter === undefined) return;
  const filter: FilterNode | undefined = parseDataFilter(condition.filter, 'condition.filter');
  if (!matches(filter, row.data)) throw itemNotFound(row.id, loaded.collectionId);
}

export interface GetInput extends ItemOptions { dataItemId?: unknown; fields?: unknown; includeReferences?: unknown }

export async function getItem(ctx: RequestContext, input: GetInput): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  const id = requireItemId(input.dataItemId);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const row = await visibleItem(ctx, loaded, id, ownerOnly, draftsVisible(ctx, input));
  const fields = readFields(input.fields, 'fields');
  const [item] = await resolveReferences(ctx, loaded.collection, [itemOf(loaded.collectionId, row)], readIncludes(input.includeReferences));
  return { ...item!, data: project(item!.data, fields) };
}

function itemIdOf(dataItem: Record<string, unknown>): unknown {
  const data = dataItem.data as Record<string, unknown> | undefined;
  return (isPlainObject(data) ? data._id : undefined) ?? dataItem.id;
}

export interface WriteInput extends ItemOptions { dataItem?: unknown; condition?: unknown; includeReferencedItems?: unknown }

/** Writes a new row with its references and event; throws WDE0074 or a unique violation on conflict. */
export async function insertPrepared(ctx: RequestContext, loaded: Loaded, id: string, prepared: PreparedData, suppressed: boolean): Promise<Item> {
  const now = new Date().toISOString();
  const owner = ownerIdOf(ctx.caller) ?? null;
  const data = withSystemFields(prepared.data, id, owner, now, now);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const inserted = await insertItems(trx, ctx.site.id, loaded.collectionId, [{ id, ownerId: owner, draft: false, data, createdDate: now, updatedDate: now }]);
    if (!inserted.has(id)) {
      throw (await findItem(trx, ctx.site.id, loaded.collectionId, id)) ? itemExists(id, loaded.collectionId) : uniqueViolation(loaded.collectionId);
    }
    await saveMultiRefs(tctx, loaded.collectionId, id, prepared.multiRefs, false);
    const item = itemOf(loaded.collectionId, { id, ownerId: owner, draft: false, data, createdDate: now, updatedDate: now });
    await itemEvent(tctx, suppressed, 'created', item);
    return item;
  });
}

/** Replaces the caller fields of an existing row (system fields kept), with references and event. */
export async function updatePrepared(ctx: RequestContext, loaded: Loaded, existing: ItemRow, prepared: PreparedData, suppressed: boolean): Promise<Item> {
  const now = new Date().toISOString();
  const data = withSystemFields(prepared.data, existing.id, existing.ownerId, existing.createdDate, now);
  try {
    return await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      await updateItemRow(trx, ctx.site.id, loaded.collectionId, existing.id, data, now);
      await saveMultiRefs(tctx, loaded.collectionId, existing.id, prepared.multiRefs, true);
      const item = itemOf(loaded.collectionId, { ...existing, data, updatedDate: now });
      await itemEvent(tctx, suppressed, 'updated', item);
      return item;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueViolation(loaded.collectionId);
    throw error;
  }
}

export async function insertItem(ctx: RequestContext, input: WriteInput): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  authorize(ctx, loaded.collection, 'insert');
  if (!isPlainObject(input.dataItem)) throw itemNotObject(loaded.collectionId);
  const rawId = itemIdOf(input.dataItem);
  const id = rawId === undefined || rawId === null ? newItemId() : requireItemId(rawId);
  const prepared = prepareData(loaded.collection, input.dataItem.data ?? {}, 'dataItem.data');
  return insertPrepared(ctx, loaded, id, prepared, hooksSuppressed(ctx, input.suppressHooks));
}

export async function updateItem(ctx: RequestContext, input: WriteInput): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
  if (!isPlainObject(input.dataItem)) throw itemNotObject(loaded.collectionId);
  const id = requireItemId(itemIdOf(input.dataItem));
  const prepared = prepareData(loaded.collection, input.dataItem.data ?? {}, 'dataItem.data');
  const existing = await visibleItem(ctx, loaded, id, ownerOnly, isElevated(ctx.caller));
  checkCondition(input.condition, existing, loaded);
  return updatePrepared(ctx, loaded, existing, prepared, hooksSuppressed(ctx, input.suppressHooks));
}

export async function saveItem(ctx: RequestContext, input: WriteInput): Promise<{ action: 'INSERT' | 'UPDATE'; item: Item }> {
  const loaded = await openCollection(ctx, input);
  if (!isPlainObject(input.dataItem)) throw itemNotObject(loaded.collectionId);
  const rawId = itemIdOf(input.dataItem);
  const id = rawId === undefined || rawId === null ? newItemId() : requireItemId(rawId);
  const prepared = prepareData(loaded.collection, input.dataItem.data ?? {}, 'dataItem.data');
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  const existing = await findItem(ctx.db, ctx.site.id, loaded.collectionId, id);
  if (existing) {
    const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
    if (ownerOnly !== undefined && existing.ownerId !== ownerOnly) throw permissionDenied('update', loaded.collectionId);
    return { action: 'UPDATE', item: await updatePrepared(ctx, loaded, existing, prepared, suppressed) };
  }
  authorize(ctx, loaded.collection, 'insert');
  return { action: 'INSERT', item: await insertPrepared(ctx, loaded, id, prepared, suppressed) };
}

export interface PatchInput extends ItemOptions { patch?: unknown; condition?: unknown }

export async function patchItem(ctx: RequestContext, input: PatchInput): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
  if (!isPlainObject(input.patch)) throw violation('patch', 'is required', 'REQUIRED_FIELD');
  const id = requireItemId(input.patch.dataItemId);
  const mods = readModifications(input.patch.fieldModifications, 'patch.fieldModifications');
  const existing = await visibleItem(ctx, loaded, id, ownerOnly, isElevated(ctx.caller));
  checkCondition(input.condition, existing, loaded);
  const next = applyModifications(existing.data as ItemData, mods, 'patch.fieldModifications');
  const prepared = prepareData(loaded.collection, next, 'patch');
  return updatePrepared(ctx, loaded, existing, prepared, hooksSuppressed(ctx, input.suppressHooks));
}

export interface RemoveInput extends ItemOptions { dataItemId?: unknown; condition?: unknown }

export async function removeItem(ctx: RequestContext, input: RemoveInput): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  const id = requireItemId(input.dataItemId);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'remove');
  const existing = await visibleItem(ctx, loaded, id, ownerOnly, isElevated(ctx.caller));
  checkCondition(input.condition, existing, loaded);
  const item = itemOf(loaded.collectionId, existing);
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  await inTransaction(ctx.db, async (trx) => {
    await deleteItemRows(trx, ctx.site.id, loaded.collectionId, [id]);
    await itemEvent({ ...ctx, db: trx }, suppressed, 'deleted', item);
  });
  return item;
}

/** Removes every item of a collection: owner (elevated callers) only. */
export async function truncate(ctx: RequestContext, input: ItemOptions): Promise<Record<string, never>> {
  const loaded = await openCollection(ctx, input);
  if (!isElevated(ctx.caller)) throw permissionDenied('truncate', loaded.collectionId);
  await inTransaction(ctx.db, (trx) => truncateItems(trx, ctx.site.id, loaded.collectionId));
  return {};
}

/** Which draft state each draft call moves an item from and to; any other state is refused (409). */
export type DraftCall = 'create-draft' | 'publish-draft' | 'unpublish';
const DRAFT_MOVES: Record<DraftCall, { from: boolean }> = {
  'create-draft': { from: false },
  'publish-draft': { from: true },
  unpublish: { from: false },
};

/** A stamp strictly later than `previous`, so `_updatedDate` grows even within one millisecond. */
function laterThan(previous: string): string {
  const before = Date.parse(previous);
  const now = Date.now();
  return new Date(Number.isNaN(before) || now > before ? now : before + 1).toISOString();
}

/**
 * Drafts: an item marked draft is hidden unless an elevated caller asks for draft items. A move is an
 * update of the item: `_updatedDate` (data and column, one statement) and an `updated` item event, in one
 * transaction; a refused call (bad input, permission, absent item, wrong state) writes nothing.
 */
export async function setDraft(ctx: RequestContext, input: ItemOptions & { dataItemId?: unknown }, call: DraftCall): Promise<Item> {
  const loaded = await openCollection(ctx, input);
  const id = requireItemId(input.dataItemId);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'update');
  const suppressed = hooksSuppressed(ctx, input.suppressHooks);
  const { from } = DRAFT_MOVES[call];
  const wrongState = () => (from ? itemNotDraft(id, loaded.collectionId) : itemAlreadyDraft(id, loaded.collectionId));
  try {
    return await inTransaction(ctx.db, async (trx) => {
      const tctx = { ...ctx, db: trx };
      const existing = await visibleItem(tctx, loaded, id, ownerOnly, true);
      if (existing.draft !== from) throw wrongState();
      const row = await setItemDraft(trx, ctx.dialect, ctx.site.id, loaded.collectionId, id, from, laterThan(existing.updatedDate));
      if (!row) throw wrongState();
      const item = itemOf(loaded.collectionId, row);
      await itemEvent(tctx, suppressed, 'updated', item);
      return item;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueViolation(loaded.collectionId);
    throw error;
  }
}
