import { DEFAULT_PAGE_LIMIT, filterMethods, type Filter, type FilterMethods, type SortItem } from './filter.js';

/** The `query` of an offset-paged call (catalog V1, members, orders search). */
export interface OffsetQuery {
  filter: Filter;
  sort?: SortItem[];
  paging: { limit: number; offset: number };
}

/** One page as the module's fetcher reports it (from the response's `metadata`). */
export interface OffsetPage<Item> {
  items: Item[];
  total?: number;
  tooManyToCount?: boolean;
}

export interface OffsetQueryResult<Item, F extends string = string> {
  items: Item[];
  /** Undefined when the server could not count (`tooManyToCount`). */
  totalCount: number | undefined;
  pageSize: number;
  /** 0-based. */
  currentPage: number | undefined;
  totalPages: number | undefined;
  length: number;
  query: OffsetQueryBuilder<Item, F>;
  hasNext(): boolean;
  hasPrev(): boolean;
  /** Rejects with `No next page to fetch` on the last page. */
  next(): Promise<OffsetQueryResult<Item, F>>;
  /** Rejects with `No previous page to fetch` on the first page. */
  prev(): Promise<OffsetQueryResult<Item, F>>;
}

export interface OffsetQueryBuilder<Item, F extends string = string> extends FilterMethods<OffsetQueryBuilder<Item, F>, F> {
  readonly query: OffsetQuery;
  limit(limit: number): OffsetQueryBuilder<Item, F>;
  skip(offset: number): OffsetQueryBuilder<Item, F>;
  find(): Promise<OffsetQueryResult<Item, F>>;
}

export const NO_NEXT_PAGE = 'No next page to fetch';
export const NO_PREV_PAGE = 'No previous page to fetch';

/**
 * An offset-paged query builder. The module gives the fetcher of one page; everything else (filters,
 * sort, paging, next/prev) is here, the same for every offset-paged module.
 */
export function offsetQuery<Item, F extends string = string>(fetchPage: (query: OffsetQuery) => Promise<OffsetPage<Item>>): OffsetQueryBuilder<Item, F> {
  const build = (query: OffsetQuery): OffsetQueryBuilder<Item, F> => {
    const builder: OffsetQueryBuilder<Item, F> = {
      ...filterMethods<OffsetQuery, OffsetQueryBuilder<Item, F>, F>(query, build),
      query,
      limit: (limit) => build({ ...query, paging: { ...query.paging, limit } }),
      skip: (offset) => build({ ...query, paging: { ...query.paging, offset } }),
      async find() {
        const page = await fetchPage(query);
        return offsetResult(page, query, builder, build);
      },
    };
    return builder;
  };
  return build({ filter: {}, paging: { limit: DEFAULT_PAGE_LIMIT, offset: 0 } });
}

function offsetResult<Item, F extends string>(
  page: OffsetPage<Item>,
  query: OffsetQuery,
  builder: OffsetQueryBuilder<Item, F>,
  build: (query: OffsetQuery) => OffsetQueryBuilder<Item, F>,
): OffsetQueryResult<Item, F> {
  const { limit, offset } = query.paging;
  const totalCount = page.tooManyToCount ? undefined : page.total;
  const currentPage = limit === 0 ? undefined : Math.floor(offset / limit);
  const totalPages = limit === 0 || totalCount === undefined ? undefined : Math.ceil(totalCount / limit);
  const hasNext = () => currentPage !== undefined && totalPages !== undefined && currentPage < totalPages - 1;
  const hasPrev = () => currentPage !== undefined && currentPage > 0;
  const at = (nextOffset: number) => build({ ...query, paging: { limit, offset: nextOffset } }).find();
  return {
    items: page.items,
    totalCount,
    pageSize: limit,
    currentPage,
    totalPages,
    length: page.items.length,
    query: builder,
    hasNext,
    hasPrev,
    next: async () => {
      if (!hasNext()) throw new Error(NO_NEXT_PAGE);
      return at(offset + limit);
    },
    prev: async () => {
      if (!hasPrev()) throw new Error(NO_PREV_PAGE);
      return at(Math.max(offset - limit, 0));
    },
  };
}
