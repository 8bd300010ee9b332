/**
 * Query, aggregate and patch builders of the data `items` module. Filters are the wire tree in the
 * item's own field names (`_id` stays `_id`); the shared filter methods build it.
 */
import { filterMethods, type Filter, type FilterMethods, type HasFilter, type SortItem } from '../../query/filter.js';
import { checkFilter, checkLimit, checkSkip, noNextPage, noPrevPage, wde } from './validate.js';

export const DATA_PAGE_DEFAULT = 50;

export interface WixDataItem {
  _id: string;
  _owner?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  [key: string]: unknown;
}

export interface PagingMetadata {
  count?: number;
  offset?: number;
  total?: number;
  tooManyToCount?: boolean;
  cursors?: { next?: string; prev?: string };
  hasNext?: boolean;
}

/** A page of results with offset paging (`skip`), as the public WixDataResult. */
export interface WixDataResult<T> {
  items: T[];
  length: number;
  pageSize: number;
  /** Only when asked for with `returnTotalCount`. */
  totalCount: number | undefined;
  currentPage: number;
  totalPages: number | undefined;
  cursors: { next: string | undefined; prev: string | undefined };
  hasNext(): boolean;
  hasPrev(): boolean;
  /** Rejects with WDE0165 `No next page to fetch` on the last page. */
  next(): Promise<WixDataResult<T>>;
  /** Rejects with WDE0159 `No previous page to fetch` on the first page. */
  prev(): Promise<WixDataResult<T>>;
}

/** Builds a result whose next/prev refetch with another skip. */
export function pagedResult<T>(items: T[], meta: PagingMetadata | undefined, limit: number, skip: number, refetch: (skip: number) => Promise<WixDataResult<T>>): WixDataResult<T> {
  const total = meta?.total;
  const hasNext = () => meta?.hasNext ?? (total !== undefined && skip + items.length < total);
  const hasPrev = () => skip > 0;
  return {
    items,
    length: items.length,
    pageSize: limit,
    totalCount: total,
    currentPage: Math.floor(skip / limit),
    totalPages: total === undefined ? undefined : Math.ceil(total / limit),
    cursors: { next: meta?.cursors?.next, prev: meta?.cursors?.prev },
    hasNext,
    hasPrev,
    next: async () => { if (!hasNext()) throw noNextPage(); return refetch(skip + limit); },
    prev: async () => { if (!hasPrev()) throw noPrevPage(); return refetch(Math.max(0, skip - limit)); },
  };
}

// ---------------------------------------------------------------------------------------------
// Filter builder (`items.filter()`): for aggregate filter/having and query and/or/not.

export interface WixDataFilter extends FilterMethods<WixDataFilter, string>, HasFilter {}

export function filterBuilder(filter: Filter = {}): WixDataFilter {
  const build = (state: { filter: Filter; sort?: SortItem[] }): WixDataFilter => ({ ...filterMethods<{ filter: Filter; sort?: SortItem[] }, WixDataFilter, string>(state, build), query: { filter: state.filter } });
  return build({ filter });
}

// ---------------------------------------------------------------------------------------------
// Query builder

export interface QueryState {
  filter: Filter;
  sort?: SortItem[];
  limit: number;
  skip: number;
  fields?: string[];
  include: { field: string; limit?: number }[];
}

export interface FindOptions { returnTotalCount?: boolean; consistentRead?: boolean; suppressHooks?: boolean; showDrafts?: boolean }

export interface WixDataQuery<T = WixDataItem> extends FilterMethods<WixDataQuery<T>, string> {
  readonly query: QueryState;
  limit(limit: number): WixDataQuery<T>;
  skip(skip: number): WixDataQuery<T>;
  /** Projection: only these fields (and `_id`). */
  fields(...fields: string[]): WixDataQuery<T>;
  /** Include referenced items of these REFERENCE / MULTI_REFERENCE fields; a last number is the limit. */
  include(...args: (string | number)[]): WixDataQuery<T>;
  find(options?: FindOptions): Promise<WixDataResult<T>>;
  count(options?: FindOptions): Promise<number>;
  distinct(field: string, options?: FindOptions): Promise<WixDataResult<unknown>>;
}

export interface QueryRunners<T> {
  find(state: QueryState, options: FindOptions): Promise<WixDataResult<T>>;
  count(state: QueryState, options: FindOptions): Promise<number>;
  distinct(state: QueryState, field: string, options: FindOptions): Promise<WixDataResult<unknown>>;
}

export function queryBuilder<T>(runners: QueryRunners<T>): WixDataQuery<T> {
  const build = (state: QueryState): WixDataQuery<T> => ({
    ...filterMethods<QueryState, WixDataQuery<T>, string>(state, build),
    query: state,
    limit: (limit) => { checkLimit(limit); return build({ ...state, limit }); },
    skip: (skip) => { checkSkip(skip); return build({ ...state, skip }); },
    fields: (...fields) => build({ ...state, fields: [...(state.fields ?? []), ...fields] }),
    include: (...args) => {
      const last = args[args.length - 1];
      const limit = typeof last === 'number' ? last : undefined;
      const names = args.filter((a): a is string => typeof a === 'string');
      if (names.length === 0) throw wde('WDE0094', 'Invalid .include parameter. .include parameter must be non-empty string.');
      return build({ ...state, include: [...state.include, ...names.map((field) => (limit === undefined ? { field } : { field, limit }))] });
    },
    find: (options = {}) => { checkFilter(state.filter); return runners.find(state, options); },
    count: (options = {}) => { checkFilter(state.filter); return runners.count(state, options); },
    distinct: (field, options = {}) => {
      if (typeof field !== 'string') throw wde('WDE0003', 'FieldName must be a string.');
      checkFilter(state.filter);
      return runners.distinct(state, field, options);
    },
  });
  return build({ filter: {}, limit: DATA_PAGE_DEFAULT, skip: 0, include: [] });
}

// ---------------------------------------------------------------------------------------------
// Aggregate builder

export interface AggregateState {
  filter?: Filter;
  having?: Filter;
  groupBy: string[];
  operations: { resultFieldName: string; op: 'sum' | 'average' | 'min' | 'max' | 'itemCount'; field?: string }[];
  sort: SortItem[];
  limit: number;
  skip: number;
}

export interface WixDataAggregate {
  readonly state: AggregateState;
  filter(filter: HasFilter): WixDataAggregate;
  having(filter: HasFilter): WixDataAggregate;
  group(...fields: string[]): WixDataAggregate;
  sum(field: string, as?: string): WixDataAggregate;
  avg(field: string, as?: string): WixDataAggregate;
  min(field: string, as?: string): WixDataAggregate;
  max(field: string, as?: string): WixDataAggregate;
  count(as?: string): WixDataAggregate;
  ascending(...fields: string[]): WixDataAggregate;
  descending(...fields: string[]): WixDataAggregate;
  limit(limit: number): WixDataAggregate;
  skip(skip: number): WixDataAggregate;
  run(options?: FindOptions): Promise<WixDataResult<Record<string, unknown>>>;
}

export function aggregateBuilder(run: (state: AggregateState, options: FindOptions) => Promise<WixDataResult<Record<string, unknown>>>): WixDataAggregate {
  const build = (state: AggregateState): WixDataAggregate => {
    const op = (kind: 'sum' | 'average' | 'min' | 'max', suffix: string) => (field: string, as?: string) =>
      build({ ...state, operations: [...state.operations, { resultFieldName: as ?? `${field}${suffix}`, op: kind, field }] });
    return {
      state,
      filter: (f) => {
        if (state.filter) throw wde('WDE0012', 'Invalid .filter usage. Filter is already set.');
        return build({ ...state, filter: f.query.filter });
      },
      having: (f) => build({ ...state, having: f.query.filter }),
      group: (...fields) => {
        if (state.groupBy.length) throw wde('WDE0013', 'Invalid .group usage. Group is already set.');
        return build({ ...state, groupBy: fields });
      },
      sum: op('sum', 'Sum'),
      avg: op('average', 'Avg'),
      min: op('min', 'Min'),
      max: op('max', 'Max'),
      count: (as = 'count') => build({ ...state, operations: [...state.operations, { resultFieldName: as, op: 'itemCount' }] }),
      ascending: (...fields) => build({ ...state, sort: [...state.sort, ...fields.map((fieldName) => ({ fieldName, order: 'ASC' as const }))] }),
      descending: (...fields) => build({ ...state, sort: [...state.sort, ...fields.map((fieldName) => ({ fieldName, order: 'DESC' as const }))] }),
      limit: (limit) => { checkLimit(limit); return build({ ...state, limit }); },
      skip: (skip) => { checkSkip(skip); return build({ ...state, skip }); },
      run: (options = {}) => { checkFilter(state.filter); checkFilter(state.having); return run(state, options); },
    };
  };
  return build({ groupBy: [], operations: [], sort: [], limit: DATA_PAGE_DEFAULT, skip: 0 });
}

// ---------------------------------------------------------------------------------------------
// Patch builder (field modifications)

export interface FieldModification {
  action: 'SET_FIELD' | 'REMOVE_FIELD' | 'INCREMENT_FIELD' | 'APPEND_TO_ARRAY' | 'REMOVE_FROM_ARRAY';
  fieldPath: string;
  setFieldOptions?: { value: unknown };
  incrementFieldOptions?: { value: number };
  appendToArrayOptions?: { value: unknown };
  removeFromArrayOptions?: { value: unknown };
}

export interface PatchBuilder<R> {
  readonly modifications: FieldModification[];
  setField(field: string, value: unknown): PatchBuilder<R>;
  removeField(field: string): PatchBuilder<R>;
  incrementField(field: string, by: number): PatchBuilder<R>;
  appendToArray(field: string, value: unknown): PatchBuilder<R>;
  removeFromArray(field: string, value: unknown): PatchBuilder<R>;
  run(options?: { suppressHooks?: boolean }): Promise<R>;
}

export function patchBuilder<R>(run: (mods: FieldModification[], options: { suppressHooks?: boolean }) => Promise<R>, mods: FieldModification[] = []): PatchBuilder<R> {
  const add = (m: FieldModification) => patchBuilder(run, [...mods, m]);
  return {
    modifications: mods,
    setField: (fieldPath, value) => add({ action: 'SET_FIELD', fieldPath, setFieldOptions: { value } }),
    removeField: (fieldPath) => add({ action: 'REMOVE_FIELD', fieldPath }),
    incrementField: (fieldPath, by) => {
      if (typeof by !== 'number') throw wde('WDE0032', `Invalid .incrementField parameter [${String(by)}]. .incrementField parameter must be a number.`);
      return add({ action: 'INCREMENT_FIELD', fieldPath, incrementFieldOptions: { value: by } });
    },
    appendToArray: (fieldPath, value) => add({ action: 'APPEND_TO_ARRAY', fieldPath, appendToArrayOptions: { value } }),
    removeFromArray: (fieldPath, value) => add({ action: 'REMOVE_FROM_ARRAY', fieldPath, removeFromArrayOptions: { value } }),
    run: (options = {}) => run(mods, options),
  };
}
