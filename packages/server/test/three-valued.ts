/**
 * SQL's three-valued logic for the in-memory filter evaluations of the property tests: a condition
 * on a missing (NULL) value is unknown, and unknown combines as SQL combines it.
 */
export type V = boolean | null;
export const and = (a: V, b: V): V => (a === false || b === false ? false : a === null || b === null ? null : true);
export const or = (a: V, b: V): V => (a === true || b === true ? true : a === null || b === null ? null : false);
export const not = (a: V): V => (a === null ? null : !a);
