/**
 * Caller shapes derived from the wire shapes of `@vitrine/types` (types only; nothing here exists at
 * run time). The SDK's codec (http/codec.ts) renames `id` -> `_id`, `createdDate` -> `_createdDate`,
 * `updatedDate` -> `_updatedDate` at every depth and turns ISO text at the date paths a call declares
 * into Date objects; `FromWire` says the same in the type system, so a module declares its public
 * types as `FromWire<WireShape>` instead of writing a second copy by hand.
 */

/** The caller's name of a REST field (the codec's FROM_REST table). */
export type CallerKey<K> = K extends 'id' ? '_id' : K extends 'createdDate' ? '_createdDate' : K extends 'updatedDate' ? '_updatedDate' : K;

/** Field names whose ISO text the SDK decodes into a Date, unless a module passes its own list. */
export type DateKeys = 'createdDate' | 'updatedDate' | 'lastUpdated';

/** A date field's caller type: the text becomes a Date; absence (`undefined`, `null`) stays as it is. */
type DateOf<V> = V extends string ? Date : V;

/**
 * A wire shape in the caller's names and types: keys renamed at every depth, fields named in `D` as
 * Date. Optional and readonly modifiers are kept; `unknown` subtrees (rich content) stay `unknown`.
 * Fields named in `Keep` keep their wire shape untouched below them (the codec's `preserve` paths:
 * rich-content documents whose node `id`s are content, not entity ids; server-keyed maps).
 */
export type FromWire<T, D extends PropertyKey = DateKeys, Keep extends PropertyKey = never> =
  T extends readonly (infer U)[] ? FromWire<U, D, Keep>[]
    : T extends Date ? T
      : T extends object ? { [K in keyof T as CallerKey<K>]: K extends Keep ? T[K] : K extends D ? DateOf<T[K]> : FromWire<T[K], D, Keep> }
        : T;
