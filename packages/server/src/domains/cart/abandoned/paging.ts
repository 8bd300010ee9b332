import type { RawBuilder } from 'kysely';
import { z } from 'zod';
import type { OffsetPagingMetadata } from '@vitrine/types';
import type { AftercareQuery } from '@vitrine/types/ecom-aftercare';
import type { RequestContext } from '../../../http/context.js';
import { conforms } from '../../../http/conforms.js';
import { CURSOR_MAX_LENGTH, openCursor, signCursor } from '../../../http/cursor.js';
import { violation } from '../../../http/errors.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import { parseFilter, parseSort, type FilterNode } from '../../../storage/filter.js';
import { aftercareSecret } from './store.js';

/**
 * Paging of the after-checkout listings (abandoned checkouts, back-in-stock requests): offset paging
 * with a bounded total, or cursor paging whose signed cursor carries filter, sort and position, so a
 * cursor request carries only `cursorPaging` (what the public client's query builders send).
 */
export const AFTERCARE_PAGING = {
  pageDefault: 50,
  pageMax: 100,
  offsetMax: 100_000,
  sortFieldsMax: 5,
  /** Totals are counted up to this many rows (`tooManyToCount` beyond). */
  countCap: 10_000,
} as const;

const L = AFTERCARE_PAGING;
const limit = z.number().int().min(1).max(L.pageMax).nullish();
const sortItem = z.object({ fieldName: z.string().min(1).max(200), order: z.enum(['ASC', 'DESC']).optional() });

/** The query argument of both listings (unknown extra keys such as `fields` are ignored). */
export const aftercareQueryInput = conforms<AftercareQuery>()(z.object({
  filter: z.record(z.string(), z.unknown()).nullish(),
  sort: z.array(sortItem).max(L.sortFieldsMax).optional(),
  paging: z.object({ limit, offset: z.number().int().min(0).max(L.offsetMax).nullish() }).optional(),
  cursorPaging: z.object({ limit, cursor: z.string().max(CURSOR_MAX_LENGTH).nullish() }).optional(),
}));

export interface ParsedSort { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }

export interface PageRequest {
  filter: FilterNode | undefined;
  sort: ParsedSort[];
  /** Rows to fetch (one more than the page in cursor mode, to know whether another page follows). */
  limit: number;
  offset: number;
  /** Offset paging answers a total; cursor paging does not count. */
  withTotal: boolean;
}

interface CursorState { filter: unknown; sort: unknown; extra: unknown; offset: number; limit: number }

export interface PagedSpec {
  /** What the cursor continues, e.g. `abandoned-checkouts.query`. */
  kind: string;
  /** Where the query sits in the request, for error field names: `query` or `search`. */
  argument: string;
  sortable: (field: string) => RawBuilder<unknown> | undefined;
}

/**
 * Runs one page of a listing. `extra` is listing-specific state that must survive a cursor (the
 * search expression); `fetch` gets the parsed filter and sort, and the rows to read.
 */
export async function runPagedQuery<R, E = undefined>(
  ctx: RequestContext, spec: PagedSpec, query: AftercareQuery | undefined, extra: E,
  fetch: (page: PageRequest, extra: E) => Promise<{ rows: R[]; total: number }>,
): Promise<{ rows: R[]; metadata: OffsetPagingMetadata; extra: E }> {
  let filter: unknown = query?.filter ?? undefined;
  let sort: unknown = query?.sort;
  let offset = query?.paging?.offset ?? 0;
  let pageSize = query?.cursorPaging?.limit ?? query?.paging?.limit ?? L.pageDefault;
  const cursorMode = query?.cursorPaging !== undefined;
  const key = Buffer.from(await aftercareSecret(ctx.db, 'cursor'), 'base64url');
  const cursor = query?.cursorPaging?.cursor;
  if (cursor) {
    const state = openCursor<CursorState>(key, ctx.site.id, spec.kind, cursor);
    if (!state) throw violation(`${spec.argument}.cursorPaging.cursor`, 'is not a valid cursor', 'FORMAT');
    ({ filter, sort, offset } = state);
    extra = state.extra as E;
    pageSize = query?.cursorPaging?.limit ?? state.limit;
  }
  const { rows, total } = await withFilterErrors(spec.argument, async () => fetch({
    filter: parseFilter(filter),
    sort: parseSort(sort, spec.sortable, L.sortFieldsMax),
    limit: cursorMode ? pageSize + 1 : pageSize,
    offset,
    withTotal: !cursorMode,
  }, extra));
  if (!cursorMode) {
    return { rows, extra, metadata: { count: rows.length, offset, total: Math.min(total, L.countCap), tooManyToCount: total > L.countCap } };
  }
  const page = rows.slice(0, pageSize);
  const state = (at: number): CursorState => ({ filter, sort, extra, offset: at, limit: pageSize });
  return {
    rows: page,
    extra,
    metadata: {
      count: page.length,
      offset,
      cursors: {
        next: rows.length > pageSize ? signCursor(key, ctx.site.id, spec.kind, state(offset + pageSize)) : null,
        prev: offset > 0 ? signCursor(key, ctx.site.id, spec.kind, state(Math.max(0, offset - pageSize))) : null,
      },
    },
  };
}
