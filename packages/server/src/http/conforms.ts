import type { z } from 'zod';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AllTrue<R> = false extends R[keyof R] ? false : true;

/**
 * Same field names at every depth (optional ones included, which plain assignability does not see:
 * `{}` and `{ sku?: string }` are assignable both ways).
 */
type SameKeys<A, B> = SameKeysOf<NonNullable<A>, NonNullable<B>>;
type SameKeysOf<A, B> =
  [A] extends [readonly (infer X)[]] ? ([B] extends [readonly (infer Y)[]] ? SameKeys<X, Y> : false)
    : [A] extends [object] ? ([B] extends [object] ? (Same<keyof A, keyof B> extends true ? AllTrue<{ [K in keyof A]-?: SameKeys<A[K], B[K & keyof B]> }> : false) : false)
      : true;

/** The schema when its parsed output and the wire type agree (both ways assignable, same fields). */
type Conforming<S extends z.ZodType, T> =
  Same<z.output<S>, T> extends true ? (SameKeys<z.output<S>, T> extends true ? S : { wireTypeDrift: { wire: T; schema: z.output<S> } })
    : { wireTypeDrift: { wire: T; schema: z.output<S> } };

/**
 * Compile-time tie between a request schema and its wire type in `@vitrine/types`:
 * `export const productInput = conforms<ProductV1Input>()(z.object({...}))`. When a field is added
 * to, dropped from or typed differently in only one of the two, the build fails here with
 * "Property 'wireTypeDrift' is missing" and both shapes in the message. No run-time effect.
 */
export function conforms<T>() {
  return <S extends z.ZodType>(schema: S & Conforming<S, T>): S => schema;
}
