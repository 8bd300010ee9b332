import { DEFAULT_PAGE_LIMIT, filterMethods, type Filter, type FilterMethods, type SortItem } from './filter.js';
import { NO_NEXT_PAGE, NO_PREV_PAGE } from './offset.js';

/**
 * The `query` of a cursor-paged call (catalog V3 and most newer calls). With a cursor the request
 * carries only `cursorPaging`: filter and sort are bound into the cursor (wire contract).
 */
export interface CursorQuery {
  filter: Filter;
  sort?: SortItem[];
  cursorPaging: { limit: number; cursor?: string };
}

/** What a module's fetcher sends: the full query, or only the paging once a cursor is known. */
export type CursorRequest = CursorQuery | { cursorPaging: { limit: number; cursor: string } };

/** One page as the module's fetcher reports it (from the response's `pagingMetadata`). */
export interface CursorPage<Item> {
  items: Item[];
  cursors?: { next?: string | null; prev?: string | null };
  /** `pagingMetadata.hasNext`; when absent, a next cursor means there is a next page. */
  hasNext?: boolean;
}

export interface CursorQueryResult<Item, F extends string = string> {
  items: Item[];
  length: number;
  pageSize: number;
  cursors: { next: string | undefined; prev: string | undefined };
  query: CursorQueryBuilder<Item, F>;
  hasNext(): boolean;
  hasPrev(): boolean;
  next(): Promise<CursorQueryResult<Item, F>>;
  prev(): Promise<CursorQueryResult<Item, F>>;
}

export interface CursorQueryBuilder<Item, F extends string = string> extends FilterMethods<CursorQueryBuilder<Item, F>, F> {
  readonly query: CursorQuery;
  limit(limit: number): CursorQueryBuilder<Item, F>;
  /** Continues from a cursor of an earlier result. */
  skipTo(cursor: string): CursorQueryBuilder<Item, F>;
  find(): Promise<CursorQueryResult<Item, F>>;
}

export function cursorQuery<Item, F extends string = string>(fetchPage: (request: CursorRequest) => Promise<CursorPage<Item>>): CursorQueryBuilder<Item, F> {
  const build = (query: CursorQuery): CursorQueryBuilder<Item, F> => {
    const builder: CursorQueryBuilder<Item, F> = {
      ...filterMethods<CursorQuery, CursorQueryBuilder<Item, F>, F>(query, build),
      query,
      limit: (limit) => build({ ...query, cursorPaging: { ...query.cursorPaging, limit } }),
      skipTo: (cursor) => build({ ...query, cursorPaging: { ...query.cursorPaging, cursor } }),
      async find() {
        const { cursor, limit } = query.cursorPaging;
        const page = await fetchPage(cursor ? { cursorPaging: { limit, cursor } } : query);
        const next = page.cursors?.next ?? undefined;
        const prev = page.cursors?.prev ?? undefined;
        const hasNext = () => page.hasNext ?? Boolean(next);
        const hasPrev = () => Boolean(prev);
        return {
          items: page.items,
          length: page.items.length,
          pageSize: limit,
          cursors: { next, prev },
          query: builder,
          hasNext,
          hasPrev,
          next: async () => {
            if (!hasNext() || !next) throw new Error(NO_NEXT_PAGE);
            return builder.skipTo(next).find();
          },
          prev: async () => {
            if (!prev) throw new Error(NO_PREV_PAGE);
            return builder.skipTo(prev).find();
          },
        };
      },
    };
    return builder;
  };
  return build({ filter: {}, cursorPaging: { limit: DEFAULT_PAGE_LIMIT } });
}
