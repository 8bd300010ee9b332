/**
 * Filter and sort building shared by every query builder (offset and cursor). Filters are the wire's
 * JSON tree (docs/api.md "Filters and sort") in the caller's field names; the request encoder
 * renames `_id` -> `id` etc. inside keys and `sort.fieldName`.
 */

export type Filter = Record<string, unknown>;
export type SortOrder = 'ASC' | 'DESC';
export interface SortItem {
  fieldName: string;
  order: SortOrder;
}

/** Default page size of every query (spec section 9). */
export const DEFAULT_PAGE_LIMIT = 50;

function isEmpty(filter: Filter | undefined): filter is undefined {
  return !filter || Object.keys(filter).length === 0;
}

function only(filter: Filter, op: '$and' | '$or'): unknown[] | undefined {
  const keys = Object.keys(filter);
  return keys.length === 1 && keys[0] === op && Array.isArray(filter[op]) ? (filter[op] as unknown[]) : undefined;
}

export function and(a: Filter | undefined, b: Filter | undefined): Filter {
  if (isEmpty(a)) return b ?? {};
  if (isEmpty(b)) return a;
  return { $and: [...(only(a, '$and') ?? [a]), ...(only(b, '$and') ?? [b])] };
}

export function or(a: Filter | undefined, b: Filter | undefined): Filter {
  if (isEmpty(a)) return b ?? {};
  if (isEmpty(b)) return a;
  return { $or: [...(only(a, '$or') ?? [a]), ...(only(b, '$or') ?? [b])] };
}

export function not(a: Filter | undefined): Filter {
  if (isEmpty(a)) return {};
  const keys = Object.keys(a);
  if (keys.length === 1 && keys[0] === '$not' && typeof a.$not === 'object' && a.$not !== null) return a.$not as Filter;
  return { $not: a };
}

/** Anything with a `query.filter`: another builder of the same module. */
export interface HasFilter {
  readonly query: { readonly filter: Filter };
}

/** The filter/sort methods every builder has; `Self` is the concrete builder, `F` its field names. */
export interface FilterMethods<Self, F extends string> {
  eq(field: F, value: unknown): Self;
  ne(field: F, value: unknown): Self;
  gt(field: F, value: unknown): Self;
  ge(field: F, value: unknown): Self;
  lt(field: F, value: unknown): Self;
  le(field: F, value: unknown): Self;
  /** `ge(field, from).lt(field, to)` */
  between(field: F, from: unknown, to: unknown): Self;
  startsWith(field: F, value: string): Self;
  endsWith(field: F, value: string): Self;
  contains(field: F, value: string): Self;
  hasSome(field: F, ...values: unknown[]): Self;
  hasAll(field: F, ...values: unknown[]): Self;
  in(field: F, values: unknown[]): Self;
  exists(field: F, value?: boolean): Self;
  /** Same wire form as the public client: `{field: null}`. */
  isEmpty(field: F): Self;
  /** Same wire form as the public client: `{field: {$ne: null}}`. */
  isNotEmpty(field: F): Self;
  and(other: HasFilter): Self;
  or(other: HasFilter): Self;
  /** ANDs the negation of `other`'s filter onto this one. */
  not(other: HasFilter): Self;
  ascending(...fields: F[]): Self;
  descending(...fields: F[]): Self;
}

export interface FilterState {
  filter: Filter;
  sort?: SortItem[];
}

/** `hasSome('tags', 'a', 'b')` and `hasSome('tags', ['a', 'b'])` mean the same. */
const listOf = (values: unknown[]): unknown[] => (values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values);

/** Builds the filter methods over an immutable state; `next` makes the builder of a changed state. */
export function filterMethods<S extends FilterState, Self, F extends string>(state: S, next: (state: S) => Self): FilterMethods<Self, F> {
  const where = (condition: Filter) => next({ ...state, filter: and(state.filter, condition) });
  const op = (operator: string) => (field: F, value: unknown) => where({ [field]: { [operator]: value } });
  const sortBy = (order: SortOrder) => (...fields: F[]) =>
    next({ ...state, sort: [...(state.sort ?? []), ...fields.map((fieldName) => ({ fieldName, order }))] });
  const methods: FilterMethods<Self, F> = {
    eq: (field, value) => where({ [field]: value === undefined ? null : value }),
    ne: (field, value) => where({ [field]: { $ne: value === undefined ? null : value } }),
    gt: op('$gt'),
    ge: op('$gte'),
    lt: op('$lt'),
    le: op('$lte'),
    between: (field, from, to) => next({ ...state, filter: and(state.filter, and({ [field]: { $gte: from } }, { [field]: { $lt: to } })) }),
    startsWith: op('$startsWith'),
    endsWith: op('$endsWith'),
    contains: op('$contains'),
    hasSome: (field, ...values) => where({ [field]: { $hasSome: listOf(values) } }),
    hasAll: (field, ...values) => where({ [field]: { $hasAll: listOf(values) } }),
    in: op('$in'),
    exists: (field, value = true) => where({ [field]: { $exists: value } }),
    isEmpty: (field) => where({ [field]: null }),
    isNotEmpty: (field) => where({ [field]: { $ne: null } }),
    and: (other) => where(other.query.filter),
    or: (other) => next({ ...state, filter: or(state.filter, other.query.filter) }),
    not: (other) => where(not(other.query.filter)),
    ascending: sortBy('ASC'),
    descending: sortBy('DESC'),
  };
  return methods;
}
