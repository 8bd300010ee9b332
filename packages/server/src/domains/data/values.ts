import { isDateValue, type DateValue } from '../../storage/json-filter.js';
import { violation } from '../../http/errors.js';

/**
 * Item values as they travel and are stored: JSON with dates as `{"$date": "<ISO>"}` (normalized to
 * `toISOString()` so text order is time order), numbers finite and within +/-(2^53-1).
 */

export { isDateValue, type DateValue } from '../../storage/json-filter.js';
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type ItemData = Record<string, Json>;

export const INTEGER_BOUND = Number.MAX_SAFE_INTEGER;
/** Deepest nesting accepted inside an item. */
export const MAX_ITEM_DEPTH = 32;
/** Largest stored item, as JSON text (bigger items get WDE0109 / 413). */
export const MAX_ITEM_BYTES = 512 * 1024;
export const SYSTEM_FIELDS = ['_id', '_owner', '_createdDate', '_updatedDate'] as const;


export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks and normalizes a value from a caller; `field` names it in the violation. */
export function cleanValue(value: unknown, field: string, depth = 0): Json {
  if (depth > MAX_ITEM_DEPTH) throw violation(field, `is nested deeper than ${MAX_ITEM_DEPTH} levels`, 'MAX');
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw violation(field, 'must be a finite number', 'FORMAT');
    if (Math.abs(value) > INTEGER_BOUND) throw violation(field, `must be between -${INTEGER_BOUND} and ${INTEGER_BOUND}`, value > 0 ? 'MAX' : 'MIN', { bound: INTEGER_BOUND });
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => cleanValue(v, `${field}[${i}]`, depth + 1));
  if (isPlainObject(value)) {
    if ('$date' in value) {
      if (!isDateValue(value) || Number.isNaN(Date.parse(value.$date))) throw violation(field, 'must be {"$date": "<ISO date>"}', 'FORMAT');
      return { $date: new Date(value.$date).toISOString() };
    }
    const out: Record<string, Json> = {};
    for (const [key, v] of Object.entries(value)) {
      if (key.startsWith('$') || key === '') throw violation(`${field}.${key}`, 'field names may not be empty or start with "$"', 'FIELD_NOT_ALLOWED');
      if (v === undefined) continue;
      out[key] = cleanValue(v, `${field}.${key}`, depth + 1);
    }
    return out;
  }
  throw violation(field, 'is not a JSON value', 'FORMAT');
}

export const dateValue = (iso: string): DateValue => ({ $date: iso });

/** Reads a dotted path inside an item; undefined when absent. */
export function getPath(data: unknown, segments: string[]): unknown {
  let node: unknown = data;
  for (const s of segments) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, s)) return undefined;
    node = node[s];
  }
  return node;
}

/** Keeps only the named top-level (or dotted) fields plus `_id`. */
export function project(data: ItemData, fields: string[] | undefined): ItemData {
  if (!fields || fields.length === 0) return data;
  const out: ItemData = { _id: data._id ?? null };
  for (const f of fields) {
    const segs = f.split('.');
    const v = getPath(data, segs);
    if (v === undefined) continue;
    let node = out as Record<string, Json>;
    for (const s of segs.slice(0, -1)) {
      if (!isPlainObject(node[s])) node[s] = {};
      node = node[s] as Record<string, Json>;
    }
    node[segs[segs.length - 1]!] = v as Json;
  }
  return out;
}
