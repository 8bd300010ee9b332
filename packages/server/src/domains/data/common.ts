import { randomBytes } from 'node:crypto';
import { LruMap } from '../../lru-map.js';
import type { RequestContext } from '../../http/context.js';
import { isElevated } from '../../http/context.js';
import type { ValidationError } from '../../http/errors.js';
import { violation } from '../../http/errors.js';
import { FilterError, parseFilter, type FilterNode } from '../../storage/filter.js';
import { filterViolation } from '../../http/filter-errors.js';
import { collectionIdNotString, collectionNotFound, itemIdNotString, optionsInvalid, permissionDenied, regexNotAllowed } from './errors.js';
import { access, type Action, type CollectionDoc } from './model.js';
import { findCollection, type ItemRow, type ItemScope } from './store.js';
import { compileJsonFilter, pathSegments } from '../../storage/json-filter.js';
import { dateValue, type ItemData } from './values.js';

/** Shared pieces of the data services: input checks, collection lookup, permission scope, the item model. */

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 1000;
export const BULK_MAX = 1000;
export const ITEM_ID_MAX = 256;
/** Collection definitions are cached this long per process; a change made here clears the entry at once. */
export const COLLECTION_CACHE_MS = 2_000;
/** Collection definitions (or their absence: any id may be asked for) kept per process. */
export const COLLECTION_CACHE_MAX = 10_000;

export function requireCollectionId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw collectionIdNotString();
  return value;
}

export function requireItemId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw itemIdNotString();
  if (value.length > ITEM_ID_MAX) throw violation('dataItemId', `must be at most ${ITEM_ID_MAX} characters`, 'MAX_LENGTH');
  return value;
}

export function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw optionsInvalid(name);
  return value;
}

const cache = new LruMap<string, { at: number; doc: CollectionDoc | undefined }>(COLLECTION_CACHE_MAX);

export function forgetCollection(siteId: string, id: string): void {
  cache.delete(`${siteId}\n${id}`);
}

export async function findCollectionDoc(ctx: RequestContext, id: string): Promise<CollectionDoc | undefined> {
  const key = `${ctx.site.id}\n${id}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < COLLECTION_CACHE_MS && !ctx.db.isTransaction) return hit.doc;
  const row = await findCollection(ctx.db, ctx.site.id, id);
  const doc = row && !row.deleted ? (row.doc as CollectionDoc) : undefined;
  cache.set(key, { at: Date.now(), doc });
  return doc;
}

export async function loadCollection(ctx: RequestContext, id: string): Promise<CollectionDoc> {
  const doc = await findCollectionDoc(ctx, id);
  if (!doc) throw collectionNotFound(id);
  return doc;
}

const ACTION_WORDS: Record<Action, string> = { read: 'read', insert: 'insert', update: 'update', remove: 'remove' };

/** The caller's scope for an action: throws WDE0027 when not allowed; `ownerOnly` for SITE_MEMBER_AUTHOR. */
export function authorize(ctx: RequestContext, collection: CollectionDoc, action: Action): { ownerOnly: string | undefined } {
  const decision = access(ctx.caller, collection.permissions[action]);
  if (!decision.allowed) throw permissionDenied(ACTION_WORDS[action], collection.id);
  return { ownerOnly: decision.ownerOnly };
}

/** Drafts are visible only to elevated callers who ask for them. */
export function draftsVisible(ctx: RequestContext, options: { publishPluginOptions?: { includeDraftItems?: unknown } | undefined }): boolean {
  return isElevated(ctx.caller) && options.publishPluginOptions?.includeDraftItems === true;
}

/** Parses a wire filter: `$regex` is WDE0070, anything else refused is a field violation under `argument`. */
export function parseDataFilter(filter: unknown, argument: string): FilterNode | undefined {
  try {
    return parseFilter(filter);
  } catch (error) {
    throw toWireFilterError(error, argument);
  }
}

export function toWireFilterError(error: unknown, argument: string): unknown {
  if (error instanceof FilterError) return error.problem === 'REGEX' ? regexNotAllowed() : (filterViolation(error, argument) as ValidationError);
  return error;
}

/** Checks a dotted field path named by the caller at `wireField` (a violation there when it is not one). */
export function checkPath(field: string, wireField: string): void {
  try {
    pathSegments(field, wireField);
  } catch (error) {
    if (error instanceof FilterError) throw violation(wireField, error.message, 'FORMAT');
    throw error;
  }
}

/** Runs code that compiles filters or sorts, mapping FilterError to wire errors. */
export function compiling<T>(argument: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toWireFilterError(error, argument);
  }
}

export function scopeFor(ctx: RequestContext, collectionId: string, ownerOnly: string | undefined, includeDrafts: boolean, filter: FilterNode | undefined, argument = 'filter'): ItemScope {
  return {
    siteId: ctx.site.id,
    collectionId,
    ownerId: ownerOnly,
    includeDrafts,
    filter: filter ? compiling(argument, () => compileJsonFilter(filter, ctx.dialect)) : undefined,
  };
}

/** A data item as the services hand it over (present.ts encodes it); `data._id` is always the id. */
export interface Item { id: string; collectionId: string; data: ItemData }

export function itemOf(collectionId: string, row: ItemRow): Item {
  return { id: row.id, collectionId, data: { ...(row.data as ItemData), _id: row.id } };
}

/**
 * Ids the server generates are UUIDv7 (time-ordered): new rows land at the end of the primary-key
 * B-tree instead of at random pages, which keeps bulk inserts into large collections fast.
 */
export function newItemId(): string {
  const bytes = randomBytes(16);
  const ms = Date.now();
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The data kept for a row: caller fields plus the system fields the server owns. */
export function withSystemFields(data: ItemData, id: string, ownerId: string | null, createdDate: string, updatedDate: string): ItemData {
  const out: ItemData = { ...data, _id: id, _createdDate: dateValue(createdDate) as unknown as ItemData[string], _updatedDate: dateValue(updatedDate) as unknown as ItemData[string] };
  if (ownerId !== null) out._owner = ownerId;
  else delete out._owner;
  return out;
}
