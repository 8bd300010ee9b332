import fc from 'fast-check';

/**
 * Shared parts of the filter property tests: the in-memory evaluation of a wire filter (operators and
 * SQL's three-valued logic: a condition on a missing value is unknown, and unknown combines as SQL
 * combines it) and the nesting of generated conditions under $and / $or / $not. Each test supplies its
 * rows, fields and arbitraries.
 */
export type V = boolean | null;
export const and = (a: V, b: V): V => (a === false || b === false ? false : a === null || b === null ? null : true);
export const or = (a: V, b: V): V => (a === true || b === true ? true : a === null || b === null ? null : false);
export const not = (a: V): V => (a === null ? null : !a);

export type Filter = Record<string, unknown>;

/** Filters built from `leaf` conditions, nested under $and / $or (0-3 children) and $not. */
export function nestedFilterArb(leaf: fc.Arbitrary<Filter>, maxDepth?: number): fc.Arbitrary<Filter> {
  return fc.letrec<{ node: Filter }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true, ...(maxDepth !== undefined ? { maxDepth } : {}) },
      { weight: 4, arbitrary: leaf },
      fc.array(tie('node'), { minLength: 0, maxLength: 3 }).map((a) => ({ $and: a })),
      fc.array(tie('node'), { minLength: 0, maxLength: 3 }).map((a) => ({ $or: a })),
      tie('node').map((n) => ({ $not: n })),
    ),
  })).node;
}

export type Kind = 'string' | 'number' | 'boolean' | 'date' | 'set';

/**
 * One operator on one stored value `v`, three-valued, as the server's filter compiler defines it.
 * `norm` brings the operand to the stored form (e.g. decimal text to a number); strings compare
 * case-insensitively in the text operators, set fields match on any member.
 */
export function evalOperator(kind: Kind, v: unknown, op: string, value: unknown, norm: (x: unknown) => unknown = (x) => x): V {
  if (kind === 'set') {
    const set = v as string[];
    const list = Array.isArray(value) ? value : [value];
    switch (op) {
      case '$eq': case '$in': case '$hasSome': return list.some((x) => set.includes(x as string));
      case '$hasAll': return list.every((x) => set.includes(x as string));
      case '$ne': return !list.some((x) => set.includes(x as string));
      case '$exists': case '$isNotEmpty': return value === false ? set.length === 0 : set.length > 0;
      case '$isEmpty': return value === false ? set.length > 0 : set.length === 0;
    }
    throw new Error(`unhandled ${op} on a set`);
  }
  const cmp = (x: unknown, y: unknown) => ((x as number | string) < (y as number | string) ? -1 : (x as number | string) > (y as number | string) ? 1 : 0);
  const nul = v === null || v === undefined;
  const low = (x: unknown) => String(x).toLowerCase();
  const empty = kind === 'string' ? nul || v === '' : nul;
  switch (op) {
    case '$eq': return value === null ? nul : nul ? null : v === norm(value);
    case '$ne': return value === null ? !nul : nul ? true : v !== norm(value);
    case '$gt': return nul ? null : cmp(v, norm(value)) > 0;
    case '$gte': return nul ? null : cmp(v, norm(value)) >= 0;
    case '$lt': return nul ? null : cmp(v, norm(value)) < 0;
    case '$lte': return nul ? null : cmp(v, norm(value)) <= 0;
    case '$in': case '$hasSome': { const l = (value as unknown[]).map(norm); return l.length === 0 ? false : nul ? null : l.includes(v); }
    case '$hasAll': { const l = [...new Set((value as unknown[]).map(norm))]; return l.length > 1 ? false : l.length === 0 ? true : nul ? null : v === l[0]; }
    case '$startsWith': return nul ? null : low(v).startsWith(low(value));
    case '$endsWith': return nul ? null : low(v).endsWith(low(value));
    case '$contains': return nul ? null : low(v).includes(low(value));
    case '$exists': return value ? !nul : nul;
    case '$isEmpty': return value === false ? !empty : empty;
    case '$isNotEmpty': return value === false ? empty : !empty;
  }
  throw new Error(`unhandled ${op}`);
}

/** An object of operators (`{$gt: 1, $lt: 5}`), not an operand (`{$date: ...}` is a value). */
const isOperators = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !('$date' in value) && Object.keys(value).every((k) => k.startsWith('$'));

/** A whole filter, three-valued: `cond(path, op, operand)` evaluates one condition on the row at hand. */
export function evalFilter(filter: Filter, cond: (path: string, op: string, operand: unknown) => V): V {
  let acc: V = true;
  for (const [key, value] of Object.entries(filter)) {
    let v: V;
    if (key === '$and') v = (value as Filter[]).reduce<V>((a, f) => and(a, evalFilter(f, cond)), true);
    else if (key === '$or') v = (value as Filter[]).reduce<V>((a, f) => or(a, evalFilter(f, cond)), false);
    else if (key === '$not') v = not(evalFilter(value as Filter, cond));
    else if (isOperators(value)) v = Object.entries(value).reduce<V>((a, [op, x]) => and(a, cond(key, op, x)), true);
    else v = cond(key, '$eq', value);
    acc = and(acc, v);
  }
  return acc;
}
