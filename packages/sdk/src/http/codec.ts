/**
 * The wire codec of docs/api.md, client side: caller field names (`_id`, `_createdDate`,
 * `_updatedDate`) <-> REST names, GET payloads as query fields or one `.r` parameter, ISO dates and
 * non-finite numbers as text.
 */

// Maps, not object literals: a key such as `constructor` must not find Object.prototype's.
const FROM_REST: ReadonlyMap<string, string> = new Map(['id', 'createdDate', 'updatedDate'].map((name) => [name, `_${name}`]));
const TO_REST: ReadonlyMap<string, string> = new Map([...FROM_REST].map(([rest, caller]) => [caller, rest]));

/** Above this many characters of query string a GET with a POST twin is sent as POST (wire contract). */
export const GET_QUERY_MAX_CHARS = 4000;

/** A JSON-like tree: what callers pass in and what the server answers. */
export type Json = unknown;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `a._id.b` -> `a.id.b`: filter keys and sort field names are dotted paths. */
export function renamePathToRest(path: string): string {
  return path.split('.').map((segment) => TO_REST.get(segment) ?? segment).join('.');
}

/**
 * Caller payload -> wire payload: renames keys (segment-wise, so filter keys like `collections._id`
 * work), renames `sort[].fieldName` values, turns non-finite numbers into their wire strings.
 * Dates are left as Date objects: JSON.stringify and `toQueryParams` write them as ISO text.
 * Subtrees at `preserve` paths (wire paths, e.g. `dataItem.data`) are copied unchanged.
 */
export function encodeRequest(value: Json, preserve: readonly string[] = [], path = ''): Json {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map((item) => encodeRequest(item, preserve, path));
  if (!isPlainObject(value)) return value;
  if (preserve.includes(path)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const restKey = renamePathToRest(key);
    const childPath = path ? `${path}.${restKey}` : restKey;
    if (key === 'sort' && Array.isArray(child)) {
      out[restKey] = child.map((item: unknown) =>
        isPlainObject(item) && typeof item.fieldName === 'string'
          ? { ...(encodeRequest(item, preserve, childPath) as Record<string, unknown>), fieldName: renamePathToRest(item.fieldName) }
          : encodeRequest(item, preserve, childPath));
    } else {
      out[restKey] = encodeRequest(child, preserve, childPath);
    }
  }
  return out;
}

export interface DecodeOptions {
  /** Wire paths (dotted; arrays are walked through) of date fields: ISO text becomes a Date. */
  dates?: readonly string[];
  /** Wire paths of float fields: "NaN", "Infinity", "-Infinity" become numbers. */
  floats?: readonly string[];
  /** Wire paths whose subtrees keep their keys (data items keep `_id` inside `data`). */
  preserve?: readonly string[];
}

const NON_FINITE: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

function toDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date;
}

function toFloat(value: unknown): unknown {
  return typeof value === 'string' && value in NON_FINITE ? NON_FINITE[value] : value;
}

/** Applies `fn` at `segments` inside `node`, walking through arrays at any level. Mutates `node`. */
function applyAt(node: unknown, segments: readonly string[], fn: (value: unknown) => unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) applyAt(item, segments, fn);
    return;
  }
  if (!isPlainObject(node) || segments.length === 0) return;
  const [head, ...rest] = segments as [string, ...string[]];
  if (!(head in node)) return;
  if (rest.length === 0) {
    const current = node[head];
    node[head] = Array.isArray(current) ? current.map(fn) : fn(current);
  } else {
    applyAt(node[head], rest, fn);
  }
}

/** `id` -> `_id` etc. at every depth. Changes `value` in place: it is the caller's own fresh parse. */
function renameFromRest(value: unknown, preserve: readonly string[], path: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameFromRest(item, preserve, path));
  if (!isPlainObject(value) || preserve.includes(path)) return value;
  const keys = Object.keys(value);
  // Most objects have no key to rename: they keep their identity and only their children change.
  const out: Record<string, unknown> = keys.some(FROM_REST.has, FROM_REST) ? {} : value;
  for (const key of keys) out[FROM_REST.get(key) ?? key] = renameFromRest(value[key], preserve, path ? `${path}.${key}` : key);
  return out;
}

/** Wire response -> caller shape: typed dates and floats at the declared paths, then `id` -> `_id` etc. */
export function decodeResponse<T>(body: Json, options: DecodeOptions = {}): T {
  for (const path of options.dates ?? []) applyAt(body, path.split('.'), toDate);
  for (const path of options.floats ?? []) applyAt(body, path.split('.'), toFloat);
  return renameFromRest(body, options.preserve ?? [], '') as T;
}

/** True when a GET payload cannot travel as flat query fields (nested objects, arrays of objects). */
function isNested(payload: Record<string, unknown>): boolean {
  return Object.values(payload).some((v) =>
    isPlainObject(v) || (Array.isArray(v) && v.some((item) => item !== null && typeof item === 'object' && !(item instanceof Date))));
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function scalarText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * An encoded GET payload as query parameters: flat scalars (arrays as repeated keys) as they are,
 * anything nested as one `.r` = base64url(JSON) parameter.
 */
export function toQueryParams(payload: Record<string, unknown>): URLSearchParams {
  if (isNested(payload)) return new URLSearchParams({ '.r': base64url(JSON.stringify(payload)) });
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, scalarText(item));
    }
  }
  return params;
}
