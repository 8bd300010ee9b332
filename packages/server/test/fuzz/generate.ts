import type { z } from 'zod';
import type { RouteDef } from '../../src/http/route.js';

/**
 * Malformed requests generated from the route table: each route's zod request schema says which
 * fields exist and of what kind, and every case breaks that shape one way (wrong types, missing and
 * extra fields, huge and deep values, bad JSON, bad encodings, wrong content types, odd path params,
 * bad `.r` payloads and query fields). Everything random comes from one seeded generator, so a seed
 * reproduces a run exactly.
 */

/** Small, fast, seedable PRNG (mulberry32); quality is ample for picking cases. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface FuzzRequest {
  /** What the case breaks, for the failure report. */
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** Nesting depth of the deep-value cases: far beyond any schema, to find recursive walkers. */
export const DEEP_NESTING = 5_000;
/** Length of the huge string cases: under the body limit, over every field bound. */
export const HUGE_STRING = 200_000;
/** Size of the over-the-limit body (the default body limit is 1 MiB). */
export const OVERSIZED_BODY = 1_100_000;

type Rand = () => number;
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** Path parameter values no route should choke on. */
const HOSTILE_PARAMS = [
  '', ' ', 'x'.repeat(5_000), '%00', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', "'%20OR%201%3D1--", '%E0%A4%A', '%ff%fe',
  '%F0%9F%92%A9', '00000000-0000-0000-0000-000000000000', '-1', '1e999', 'null', '%7B%7D', '%5B%5D', '%0d%0aSet-Cookie:%20a=b',
];

/** Values of every JSON kind, for "wrong type" cases. */
const ANY_VALUES: unknown[] = [null, true, -1, 0, 1.5, 1e308, -(2 ** 53) - 2, '', 'x', '\u0000', '\ud800', [], [1, 'a', null], {}, { $gt: '' }, { __proto__: { polluted: true } }];

/** The object shape of a request schema, looking through optional, default, pipe and lazy wrappers. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; left?: z.ZodType; right?: z.ZodType; shape?: Record<string, z.ZodType>; getter?: () => z.ZodType } }).def;
  switch (def.type) {
    case 'object': return def.shape ?? {};
    case 'optional': case 'nullable': case 'default': case 'readonly': case 'catch': case 'nonoptional': case 'prefault':
      return def.innerType ? shapeOf(def.innerType) : {};
    case 'pipe': return def.in ? shapeOf(def.in) : {};
    case 'intersection': return { ...(def.left ? shapeOf(def.left) : {}), ...(def.right ? shapeOf(def.right) : {}) };
    case 'lazy': return def.getter ? shapeOf(def.getter()) : {};
    default: return {};
  }
}

/** The zod kind of a field, unwrapped, so a wrong value can be picked for it. */
function kindOf(schema: z.ZodType): string {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
  if (def.innerType) return kindOf(def.innerType);
  if (def.type === 'pipe' && def.in) return kindOf(def.in);
  return def.type;
}

/** A value of another JSON kind than the field's. */
function wrongValue(rand: Rand, schema: z.ZodType): unknown {
  switch (kindOf(schema)) {
    case 'string': case 'enum': case 'literal': return pick(rand, [12, true, [], {}, null, 'NOT_A_VALID_VALUE_\u202e', 'x'.repeat(10_000)]);
    case 'number': case 'int': case 'bigint': return pick(rand, ['12', 'NaN', -1e308, 1e308, 2 ** 63, -0.0000001, [], true]);
    case 'boolean': return pick(rand, ['true', 1, null, {}]);
    case 'array': return pick(rand, [{}, 'a,b', 1, Array.from({ length: 10_000 }, (_, i) => i), [[[[]]]]]);
    case 'object': case 'record': return pick(rand, ['{}', [], 1, { [`extra_${Math.floor(rand() * 1e6)}`]: { nested: [1, 2, 3] } }]);
    default: return pick(rand, ANY_VALUES);
  }
}

function deep(depth: number, leaf: unknown = 1): string {
  return `${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`;
}

/** A body of the route's fields, each filled by `fill`. */
function bodyOf(shape: Record<string, z.ZodType>, fill: (key: string, schema: z.ZodType) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) out[key] = fill(key, schema);
  return out;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const hasBody = (method: string) => method === 'POST' || method === 'PATCH' || method === 'PUT';

/** The route's path with each `:param` filled by `value`. */
function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => value(name));
}

/** Every malformed case for one route (`idOf` gives a plausible value for a path parameter). */
export function casesFor(route: RouteDef, rand: Rand, idOf: (name: string) => string): FuzzRequest[] {
  const shape = shapeOf(route.request);
  const keys = Object.keys(shape);
  const path = fillPath(route.path, idOf);
  const method = route.method;
  const out: FuzzRequest[] = [];
  const json = (kind: string, body: unknown, extra: Partial<FuzzRequest> = {}) => {
    if (hasBody(method)) out.push({ kind, method, path, headers: { ...JSON_TYPE }, body: JSON.stringify(body), ...extra });
    else out.push({ kind: `${kind} (.r)`, method, path: `${extra.path ?? path}${path.includes('?') ? '&' : '?'}.r=${Buffer.from(JSON.stringify(body)).toString('base64url')}`, headers: {} });
  };
  const raw = (kind: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = JSON_TYPE) => {
    if (hasBody(method)) out.push({ kind, method, path, headers: { ...headers }, body });
  };

  // Path parameters: each hostile value in place of every parameter.
  if (route.path.includes(':')) {
    for (let i = 0; i < 3; i++) {
      const value = pick(rand, HOSTILE_PARAMS);
      out.push({ kind: `path param ${JSON.stringify(value)}`, method, path: fillPath(route.path, () => value), headers: hasBody(method) ? { ...JSON_TYPE } : {}, ...(hasBody(method) ? { body: '{}' } : {}) });
    }
  }
  // Whole-body breakage.
  raw('bad JSON', pick(rand, ['{"a":', '{a:1}', "{'a':1}", '{"a":1}}', '\u0000', 'nul', '{"a":1,}', '[']));
  raw('JSON array body', '[1,2,3]');
  raw('JSON scalar body', pick(rand, ['"text"', '42', 'null', 'true']));
  raw('deep nesting', deep(DEEP_NESTING));
  raw('invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]));
  raw('lone surrogate escape', `{"${keys[0] ?? 'a'}":"\\ud800\\udc00\\udfff\\u0000"}`);
  raw('text/plain JSON', '{}', { 'content-type': 'text/plain' });
  raw('form body', 'a=1&b=%ff', { 'content-type': 'application/x-www-form-urlencoded' });
  raw('multipart body', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', { 'content-type': 'multipart/form-data; boundary=x' });
  raw('oversized body', `{"a":"${'x'.repeat(OVERSIZED_BODY)}"}`);
  // Field-level breakage from the schema.
  if (keys.length > 0) {
    json('every field of a wrong type', bodyOf(shape, (_, s) => wrongValue(rand, s)));
    for (let i = 0; i < Math.min(3, keys.length); i++) {
      const key = pick(rand, keys);
      json(`wrong type for ${key}`, { [key]: wrongValue(rand, shape[key]!) });
      json(`huge value for ${key}`, { [key]: pick(rand, ['x'.repeat(HUGE_STRING), Array.from({ length: 20_000 }, () => 'x'), Object.fromEntries(Array.from({ length: 5_000 }, (_, j) => [`k${j}`, j]))]) });
      json(`deep value for ${key}`, { [key]: JSON.parse(deep(200)) as unknown });
    }
  }
  json('missing fields', {});
  json('extra fields', { ...bodyOf(shape, () => pick(rand, ANY_VALUES)), [`unknown_${Math.floor(rand() * 1e6)}`]: { $where: 'sleep(1000)' }, constructor: { prototype: { polluted: true } } });
  json('null fields', bodyOf(shape, () => null));
  // Query string breakage (GET routes read their input there; others must ignore or refuse it).
  out.push({ kind: 'bad .r base64', method, path: `${path}?.r=%%%not-base64`, headers: {} });
  out.push({ kind: 'bad .r JSON', method, path: `${path}?.r=${Buffer.from('{"a":').toString('base64url')}`, headers: {} });
  out.push({ kind: 'deep .r', method, path: `${path}?.r=${Buffer.from(deep(DEEP_NESTING)).toString('base64url')}`, headers: {} });
  if (keys.length > 0) {
    const key = pick(rand, keys);
    out.push({ kind: `query ${key} repeated and odd`, method, path: `${path}?${key}=1&${key}=%ff&${key}[]=x&${key}.a.b=%00`, headers: {} });
  }
  for (const r of out) if (!hasBody(r.method)) delete r.body;
  return out;
}
