import fc from 'fast-check';

/**
 * Shared parts of the filter property tests: SQL's three-valued logic for the in-memory evaluation (a
 * condition on a missing value is unknown, and unknown combines as SQL combines it) and the nesting of
 * generated conditions under $and / $or / $not.
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
