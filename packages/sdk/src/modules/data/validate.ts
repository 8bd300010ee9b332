import { VitrineError } from '../../errors.js';

/** Client-side checks of the public data client, with its WDE codes (spec section 5 and 8). */

export const BULK_MAX = 1000;

export function wde(code: string, message: string): VitrineError {
  return new VitrineError(message, 'validation', code, undefined, undefined);
}

export function checkCollection(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw wde('WDE0001', 'Collection name must be a string.');
}

export function checkItemId(id: unknown): asserts id is string {
  if (typeof id !== 'string') throw wde('WDE0002', 'ItemId must be a string.');
}

export function checkItem(item: unknown, collection: string): asserts item is Record<string, unknown> {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw wde('WDE0004', `Failed to save [${String(item)}] into [${collection}]. Items must be JavaScript objects.`);
  const id = (item as { _id?: unknown })._id;
  if (id !== undefined && id !== null && typeof id !== 'string') throw wde('WDE0002', 'ItemId must be a string.');
}

export function checkItems(items: unknown, collection: string): asserts items is Record<string, unknown>[] {
  const valid = Array.isArray(items) && items.every((i) => i !== null && typeof i === 'object' && !Array.isArray(i)
    && ((i as { _id?: unknown })._id === undefined || typeof (i as { _id?: unknown })._id === 'string'));
  if (!valid) throw wde('WDE0005', `Failed to bulk save items into [${collection}]. Items must be an array of JavaScript objects and itemIds must be strings if present.`);
  if (items.length > BULK_MAX) throw wde('WDE0006', `Failed to bulk save items into [${collection}]. Cannot insert more than ${BULK_MAX} items in one request`);
}

export function checkIds(ids: unknown, collection: string): asserts ids is string[] {
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string')) throw wde('WDE0068', 'Item ids must be an array of strings');
  if (ids.length > BULK_MAX) throw wde('WDE0069', `Failed to remove items from [${collection}]. Cannot remove more than ${BULK_MAX} items in one request`);
}

/** `$regex` anywhere in a filter tree; `$matches` must ignore case. */
export function checkFilter(filter: unknown): void {
  if (Array.isArray(filter)) { filter.forEach(checkFilter); return; }
  if (filter === null || typeof filter !== 'object' || filter instanceof Date) return;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$regex') throw wde('WDE0070', '$regex keyword is not allowed.');
    if (key === '$matches' && (value as { ignoreCase?: unknown } | null)?.ignoreCase !== true) {
      throw wde('WDE0063', `$matches.ignoreCase should equal true. Got ${JSON.stringify(value)} instead`);
    }
    checkFilter(value);
  }
}

export function checkLimit(limit: unknown, name = '.limit'): void {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0) throw wde('WDE0033', `Invalid ${name} parameter [${String(limit)}]. ${name} parameter must be a positive number.`);
  if (limit > 1000) throw wde('WDE0036', `Invalid ${name} parameter [${limit}]. ${name} parameter cannot exceed 1000.`);
}

export function checkSkip(skip: unknown): void {
  if (typeof skip !== 'number' || !Number.isInteger(skip) || skip < 0) throw wde('WDE0034', `Invalid .skip parameter [${String(skip)}]. .skip parameter must be a non-negative number.`);
}

export const NO_NEXT_PAGE_CODE = 'WDE0165';
export const NO_PREV_PAGE_CODE = 'WDE0159';
export const noNextPage = () => wde(NO_NEXT_PAGE_CODE, 'No next page to fetch');
export const noPrevPage = () => wde(NO_PREV_PAGE_CODE, 'No previous page to fetch');
