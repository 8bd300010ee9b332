import { sql, type RawBuilder } from 'kysely';
import type { RequestContext } from '../../../http/context.js';
import { violation } from '../../../http/errors.js';
import { openCursor, signCursor } from '../../../http/cursor.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import type { Executor } from '../../../storage/database.js';
import { compileFilter, parseFilter, parseSort, type FilterField } from '../../../storage/filter.js';
import { PAGE_DEFAULT, SORT_FIELDS_MAX } from './limits.js';
import type { QueryInput } from './schema.js';
import { findSecret, type PageQuery } from './store.js';

/**
 * Query paging shared by the rules' listings: a filter compiled by the storage filter compiler over the
 * listing's own fields, sort (id last, so pages are stable), and cursor or offset paging. A cursor
 * carries the filter, sort and position (signed, bound to the site and the listing); a request with a
 * cursor needs nothing else.
 */

export interface Listing<T> {
  /** Cursor kind: a cursor of one listing is refused by another. */
  kind: string;
  /** Filterable fields by wire path. */
  fields: Readonly<Record<string, FilterField>>;
  /** Sortable fields by wire path. */
  sortable: Readonly<Record<string, RawBuilder<unknown>>>;
  idColumn: RawBuilder<unknown>;
  defaultSort: { fieldName: string; order: 'ASC' | 'DESC' }[];
  list(db: Executor, siteId: string, q: PageQuery): Promise<T[]>;
}

interface State { filter: unknown; sort: unknown; offset: number; limit: number }

const keys = new WeakMap<object, Buffer>();
async function cursorKey(db: Executor): Promise<Buffer> {
  const cached = keys.get(db);
  if (cached) return cached;
  const key = Buffer.from(await findSecret(db, 'cursor'), 'base64url');
  keys.set(db, key);
  return key;
}

export interface Page<T> { items: T[]; pagingMetadata: { count: number; offset: number; cursors: { next: string | null; prev: string | null }; hasNext: boolean } }

export async function queryPage<T>(ctx: RequestContext, listing: Listing<T>, query: QueryInput | undefined): Promise<Page<T>> {
  let state: State = {
    filter: query?.filter ?? null,
    sort: query?.sort ?? null,
    offset: query?.paging?.offset ?? 0,
    limit: query?.cursorPaging?.limit ?? query?.paging?.limit ?? PAGE_DEFAULT,
  };
  const cursor = query?.cursorPaging?.cursor;
  const key = await cursorKey(ctx.deps.storage.db);
  if (cursor) {
    const opened = openCursor<State>(key, ctx.site.id, listing.kind, cursor);
    if (!opened) throw violation('query.cursorPaging.cursor', 'is not a valid cursor', 'FORMAT');
    state = { ...opened, limit: query?.cursorPaging?.limit ?? opened.limit };
  }
  const s = state;
  const rows = await withFilterErrors('query', async () => {
    const node = parseFilter(s.filter ?? undefined);
    const where = node ? compileFilter(node, { field: (path) => listing.fields[path] }, ctx.dialect) : undefined;
    const sort = s.sort ?? listing.defaultSort;
    const order = parseSort(sort, (f) => listing.sortable[f], SORT_FIELDS_MAX);
    return listing.list(ctx.db, ctx.site.id, { where, order: [...order, { expr: listing.idColumn, order: 'ASC' }], limit: s.limit + 1, offset: s.offset });
  });
  const hasNext = rows.length > s.limit;
  const items = rows.slice(0, s.limit);
  const sign = (offset: number) => signCursor(key, ctx.site.id, listing.kind, { ...s, offset } satisfies State);
  return {
    items,
    pagingMetadata: {
      count: items.length,
      offset: s.offset,
      cursors: { next: hasNext ? sign(s.offset + s.limit) : null, prev: s.offset > 0 ? sign(Math.max(0, s.offset - s.limit)) : null },
      hasNext,
    },
  };
}

/** Column helpers for listing field maps. */
export const col = (name: string): RawBuilder<unknown> => sql.ref(name);
