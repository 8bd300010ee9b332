import type { z } from 'zod';
import { LruMap } from '../lru-map.js';
import { violation } from './errors.js';

/**
 * The wire codec of docs/api.md: GET payloads as query fields or one base64url `.r` parameter,
 * JSON bodies without prototype keys, and responses with ISO dates and non-finite numbers as strings.
 */

const dropProtoKey = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/**
 * How deep objects and arrays may nest in any JSON a request carries (body, `.r`, JSON in a string).
 * The code that walks a value (validation, encoding, storage) recurses, so a value a few thousand
 * levels deep would overflow its stack; no contract shape comes near this.
 */
export const JSON_DEPTH_MAX = 64;

/** Thrown by `parseJsonSafely` for JSON nested deeper than JSON_DEPTH_MAX; callers answer it as a violation of their field. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`must not nest objects and arrays more than ${JSON_DEPTH_MAX} levels deep`);
  }
}

function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) return value.some((v) => nestsDeeper(v, levels - 1));
  for (const key in value) if (nestsDeeper((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

/**
 * JSON.parse that drops `__proto__` keys, so no parsed body can reach an object's prototype, and
 * refuses JSON nested deeper than JSON_DEPTH_MAX (JsonTooDeepError). A reviver makes the parse call
 * back into JS for every value (6 us instead of 1.7 us for a query's `.r`), so it runs only when the
 * text could hold such a key: spelled out, or written with `\u` escapes.
 */
export function parseJsonSafely(text: string): unknown {
  let value: unknown;
  try {
    value = text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, dropProtoKey) : JSON.parse(text);
  } catch (error) {
    // The reviver recurses: a value deep enough overflows it before the walk below could refuse it.
    if (error instanceof RangeError) throw new JsonTooDeepError();
    throw error;
  }
  // Each level takes two characters at least, so a short text needs no walk (most requests).
  if (text.length > 2 * JSON_DEPTH_MAX && nestsDeeper(value, JSON_DEPTH_MAX)) throw new JsonTooDeepError();
  return value;
}

const nonFiniteAsText = (_key: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);

/** Whether a value holds NaN or +/-Infinity anywhere (Dates and other leaves hold none). */
function hasNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasNonFinite);
  for (const key in value) if (hasNonFinite((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * A response body already encoded in the wire format (hot read paths assemble stored JSON text
 * instead of parsing and re-encoding it); `stringifyForWire` sends it unchanged.
 */
export class EncodedJson {
  #json: string | undefined;
  #bytes: Buffer<ArrayBuffer> | undefined;
  /** The answer's text, or its UTF-8 bytes when it was assembled as bytes (cart answers from kept line bytes). */
  constructor(content: string | Buffer<ArrayBuffer>) {
    if (typeof content === 'string') this.#json = content;
    else this.#bytes = content;
  }

  /** The text; decoded from the bytes only when something asks (an idempotency record, a test). */
  get json(): string {
    return (this.#json ??= this.#bytes!.toString('utf8'));
  }

  /** The text as UTF-8, encoded on first use only: a kept answer (catalog/product-answers.ts) is sent again as it is. */
  bytes(): Buffer<ArrayBuffer> {
    return (this.#bytes ??= Buffer.from(this.#json!));
  }

  /** The answer as a cache keeps it: its bytes alone (nothing reads a kept answer as text), in memory of their own (`ownedBytes`). */
  toKeep(): EncodedJson {
    return new EncodedJson(this.#bytes === undefined ? ownedUtf8(this.#json!) : ownedBytes(this.#bytes));
  }
}

/**
 * `bytes` in memory of their own. Buffer.from and Buffer.concat put anything under 4 KiB in a slice
 * of Node's shared 8 KiB pool, and a kept slice keeps the whole slab alive: a cache bounded by the
 * bytes of what it keeps (a product answer is about 2 KB) would hold more than its bound.
 */
export function ownedBytes(bytes: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/** The UTF-8 of `text` in memory of its own (see ownedBytes). */
export function ownedUtf8(text: string): Buffer<ArrayBuffer> {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  own.write(text);
  return own;
}

/**
 * Serializes a response: Date -> ISO text (Date#toJSON), NaN/Infinity -> "NaN"/"Infinity"/"-Infinity".
 * A replacer makes JSON.stringify call back into JS for every key (about twice the cost on a page of
 * products), so it is used only when a walk finds a non-finite number; almost no response has one.
 */
export function stringifyForWire(value: unknown): string {
  if (value instanceof EncodedJson) return value.json;
  const body = value ?? {};
  return hasNonFinite(body) ? JSON.stringify(body, nonFiniteAsText) : JSON.stringify(body);
}

/** The input a `.r` query parameter carries: base64url of a JSON object (the public client's encoding of a GET's input). */
export function decodeDotR(encoded: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseJsonSafely(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw violation('.r', error.message, 'MAX');
    throw violation('.r', 'must be base64url-encoded JSON', 'FORMAT');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw violation('.r', 'must encode a JSON object', 'FORMAT');
  }
  return parsed as Record<string, unknown>;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Sets `a.b.c` inside `target`; repeated keys become arrays. */
function setPath(target: Record<string, unknown>, dotted: string, value: string): void {
  const parts = dotted.split('.');
  if (parts.some((p) => p === '' || FORBIDDEN_KEYS.has(p))) throw violation(dotted, 'is not a valid field name', 'FORMAT');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined) node = node[part] = {};
    else if (typeof next === 'object' && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>;
    else throw violation(dotted, 'conflicts with another query field', 'FORMAT');
  }
  const leaf = parts[parts.length - 1]!;
  const existing = node[leaf];
  if (existing === undefined) node[leaf] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else node[leaf] = [existing, value];
}

export interface DecodedQuery {
  /** Fields from `.r` (typed JSON). */
  payload: Record<string, unknown>;
  /** Plain query fields (strings, arrays of strings, nested by dots); coerced later by the route's schema. */
  fields: Record<string, unknown>;
}

/** Distinct origins remembered by `requestUrlParts` (the Host header is the client's: bounded). */
export const ORIGIN_CACHE_MAX = 32;
const origins = new LruMap<string, string>(ORIGIN_CACHE_MAX);

/**
 * The origin and query of a request's absolute URL, without parsing the whole URL per request (a
 * measurable share of a cheap read). The origin of each distinct `scheme://host` prefix is
 * normalized once by the URL parser and remembered.
 */
export function requestUrlParts(url: string): { origin: string; query: URLSearchParams } {
  const afterScheme = url.indexOf('://') + 3;
  const pathStart = url.indexOf('/', afterScheme);
  const prefix = pathStart === -1 ? url : url.slice(0, pathStart);
  let origin = origins.get(prefix);
  if (origin === undefined) {
    origin = new URL(prefix).origin;
    origins.set(prefix, origin);
  }
  const q = pathStart === -1 ? -1 : url.indexOf('?', pathStart);
  if (q === -1) return { origin, query: new URLSearchParams() };
  const hash = url.indexOf('#', q);
  return { origin, query: new URLSearchParams(hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash)) };
}

export function decodeQuery(params: URLSearchParams): DecodedQuery {
  const fields: Record<string, unknown> = {};
  let payload: Record<string, unknown> = {};
  for (const [key, value] of params) {
    if (key === '.r') payload = decodeDotR(value);
    else setPath(fields, key, value);
  }
  return { payload, fields };
}

type AnySchema = z.ZodType;
interface Def { type: string; innerType?: AnySchema; shape?: Record<string, AnySchema>; element?: AnySchema; in?: AnySchema; options?: AnySchema[] }

function defOf(schema: AnySchema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'prefault') && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/**
 * Query-string values are text; this turns them into the numbers, booleans and arrays the route's
 * schema expects, so one schema validates both a GET and its POST twin. Values it cannot convert are
 * left as they are for the schema to reject.
 */
export function coerceQueryFields(value: unknown, schema: AnySchema): unknown {
  const target = unwrap(schema);
  const def = defOf(target);
  switch (def.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      const shape = def.shape ?? {};
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[key] = shape[key] ? coerceQueryFields(v, shape[key]) : v;
      return out;
    }
    case 'array': {
      const items = Array.isArray(value) ? value : [value];
      return def.element ? items.map((item) => coerceQueryFields(item, def.element!)) : items;
    }
    case 'number':
    case 'int': {
      if (typeof value !== 'string' || value.trim() === '') return value;
      const n = Number(value);
      return Number.isNaN(n) && value !== 'NaN' ? value : n;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
}
