import type { RawBuilder } from 'kysely';
import type { RequestContext } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import { escapeLike } from '../../storage/dialect.js';
import { authorize, checkPath, compiling, draftsVisible, parseDataFilter, scopeFor, itemOf } from './common.js';
import { fieldNameNotString } from './errors.js';
import { compareValues, matches, sortItems } from './evaluate.js';
import { openCollection, readFields, type ItemOptions } from './item-access.js';
import { groupKey, numberValue, readTypedValue, sortTerms } from '../../storage/json-filter.js';
import { pagingMetadata, readPaging } from './paging.js';
import { readIncludes, resolveReferences } from './references.js';
import { countItemRows, distinctValues, groupRows, queryItemRows, type GroupSpec } from './store.js';
import { isPlainObject, project } from './values.js';

/** Reads: query, count, distinct values, aggregate, search. */

export const SORT_MAX = 10;
/** Most groups an aggregate may produce (they are filtered, sorted and paged in memory). */
export const GROUPS_MAX = 10_000;
export const DISTINCT_MAX = 10_000;
export const SEARCH_WORDS_MAX = 10;

interface SortSpec { fieldName: string; order: 'ASC' | 'DESC' }

export function readSort(raw: unknown, argument: string): SortSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw violation(argument, 'must be an array', 'FORMAT');
  if (raw.length > SORT_MAX) throw violation(argument, `must have at most ${SORT_MAX} fields`, 'MAX_SIZE');
  return raw.map((s: unknown, i) => {
    const item = isPlainObject(s) ? s : {};
    const order = item.order ?? 'ASC';
    if (typeof item.fieldName !== 'string') throw violation(`${argument}[${i}].fieldName`, 'must be a field name', 'FORMAT');
    if (order !== 'ASC' && order !== 'DESC') throw violation(`${argument}[${i}].order`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
    checkPath(item.fieldName, `${argument}[${i}].fieldName`);
    return { fieldName: item.fieldName, order };
  });
}

interface QueryState { filter: unknown; sort: SortSpec[]; fields: string[] | undefined; includes: unknown; total: boolean; drafts: boolean; search?: { words: string[]; mode: 'AND' | 'OR' } | undefined }

export interface QueryInput extends ItemOptions {
  query?: unknown;
  includeReferences?: unknown;
  returnTotalCount?: unknown;
}

async function runQuery(ctx: RequestContext, input: ItemOptions, call: string, request: Record<string, unknown>, fresh: QueryState, includesRaw: unknown) {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const paging = await readPaging(ctx, `${call}:${loaded.collectionId}`, request, fresh, call === 'search' ? 'search.' : 'query.');
  const state = paging.state;
  const filter = parseDataFilter(state.filter, 'query.filter');
  const scope = scopeFor(ctx, loaded.collectionId, ownerOnly, state.drafts && draftsVisible(ctx, { publishPluginOptions: { includeDraftItems: true } }), filter, 'query.filter');
  if (state.search) {
    scope.searchPatterns = state.search.words.map((w) => `%${escapeLike(w)}%`);
    scope.searchAny = state.search.mode === 'OR';
  }
  const order: RawBuilder<unknown>[] = compiling('query.sort', () => state.sort.flatMap((s, i) => sortTerms(ctx.dialect, s.fieldName, s.order, `query.sort[${i}].fieldName`)));
  const rows = await queryItemRows(ctx.db, ctx.dialect, scope, order, paging.limit + 1, paging.offset);
  const hasNext = rows.length > paging.limit;
  let items = rows.slice(0, paging.limit).map((r) => itemOf(loaded.collectionId, r));
  items = await resolveReferences(ctx, loaded.collection, items, readIncludes(includesRaw ?? state.includes));
  const projected = items.map((i) => ({ ...i, data: project(i.data, state.fields) }));
  const total = state.total ? await countItemRows(ctx.db, ctx.dialect, scope) : undefined;
  return { items: projected, pagingMetadata: await pagingMetadata(ctx, paging, projected.length, hasNext, total) };
}

export async function queryItems(ctx: RequestContext, input: QueryInput) {
  const query = isPlainObject(input.query) ? input.query : {};
  const fresh: QueryState = {
    filter: query.filter,
    sort: readSort(query.sort, 'query.sort'),
    fields: readFields(query.fields, 'query.fields'),
    includes: input.includeReferences,
    total: input.returnTotalCount === true,
    drafts: input.publishPluginOptions?.includeDraftItems === true,
  };
  parseDataFilter(query.filter, 'query.filter');
  return runQuery(ctx, input, 'query', query, fresh, input.includeReferences);
}

export interface SearchInput extends ItemOptions { search?: unknown; includeReferences?: unknown }

/** Text search: every word (mode AND) or any word (OR) occurs, case-insensitively, in the item's JSON text. */
export async function searchItems(ctx: RequestContext, input: SearchInput) {
  const search = isPlainObject(input.search) ? input.search : {};
  const details = isPlainObject(search.search) ? search.search : {};
  const expression = details.expression ?? '';
  if (typeof expression !== 'string' || expression.length > 500) throw violation('search.search.expression', 'must be text of at most 500 characters', 'MAX_LENGTH');
  const words = expression.split(/\s+/).filter(Boolean);
  if (words.length > SEARCH_WORDS_MAX) throw violation('search.search.expression', `must have at most ${SEARCH_WORDS_MAX} words`, 'MAX_SIZE');
  const fresh: QueryState = {
    filter: search.filter,
    sort: readSort(search.sort, 'search.sort'),
    fields: readFields(search.fields, 'search.fields'),
    includes: input.includeReferences,
    total: false,
    drafts: input.publishPluginOptions?.includeDraftItems === true,
    search: { words, mode: details.mode === 'OR' ? 'OR' : 'AND' },
  };
  parseDataFilter(search.filter, 'search.filter');
  return runQuery(ctx, input, 'search', search, fresh, input.includeReferences);
}

export async function countItems(ctx: RequestContext, input: ItemOptions & { filter?: unknown }): Promise<number> {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const filter = parseDataFilter(input.filter, 'filter');
  const scope = scopeFor(ctx, loaded.collectionId, ownerOnly, draftsVisible(ctx, input), filter);
  return countItemRows(ctx.db, ctx.dialect, scope);
}

function typedKey(ctx: RequestContext, field: string, argument: string): { type: RawBuilder<unknown>; value: RawBuilder<unknown> } {
  return compiling(argument, () => groupKey(ctx.dialect, field, argument));
}

export async function distinct(ctx: RequestContext, input: ItemOptions & { fieldName?: unknown; filter?: unknown; order?: unknown; paging?: unknown; cursorPaging?: unknown; returnTotalCount?: unknown }) {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const paging = await readPaging(ctx, `distinct:${loaded.collectionId}`, input, { fieldName: input.fieldName, filter: input.filter, order: input.order, total: input.returnTotalCount === true });
  const st = paging.state;
  if (typeof st.fieldName !== 'string') throw fieldNameNotString();
  const filter = parseDataFilter(st.filter, 'filter');
  const scope = scopeFor(ctx, loaded.collectionId, ownerOnly, draftsVisible(ctx, input), filter);
  const key = typedKey(ctx, st.fieldName, 'fieldName');
  const values = await distinctValues(ctx.db, ctx.dialect, scope, key.value, key.type, DISTINCT_MAX);
  const sorted = values.sort(compareValues);
  if (st.order === 'DESC') sorted.reverse();
  const page = sorted.slice(paging.offset, paging.offset + paging.limit);
  return { values: page, pagingMetadata: await pagingMetadata(ctx, paging, page.length, sorted.length > paging.offset + paging.limit, st.total ? sorted.length : undefined) };
}

interface Operation { resultFieldName: string; fn: 'SUM' | 'AVG' | 'MIN' | 'MAX' | 'COUNT'; field?: string }

function readOperations(raw: unknown): Operation[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 50) throw violation('aggregation.operations', 'must be an array of at most 50 operations', 'MAX_SIZE');
  return raw.map((o: unknown, i) => {
    const op = isPlainObject(o) ? o : {};
    const at = `aggregation.operations[${i}]`;
    if (typeof op.resultFieldName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(op.resultFieldName)) throw violation(`${at}.resultFieldName`, 'must be a field name', 'FORMAT');
    const kinds = (['sum', 'average', 'min', 'max', 'itemCount'] as const).filter((k) => op[k] !== undefined && op[k] !== null);
    if (kinds.length !== 1) throw violation(at, 'must have exactly one of sum, average, min, max, itemCount', 'REQUIRED_ONE_OF_FIELD');
    const kind = kinds[0]!;
    if (kind === 'itemCount') return { resultFieldName: op.resultFieldName, fn: 'COUNT' };
    const field = (op[kind] as { itemFieldName?: unknown }).itemFieldName;
    if (typeof field !== 'string') throw violation(`${at}.${kind}.itemFieldName`, 'must be a field name', 'FORMAT');
    return { resultFieldName: op.resultFieldName, fn: ({ sum: 'SUM', average: 'AVG', min: 'MIN', max: 'MAX' } as const)[kind], field };
  });
}

export interface AggregateInput extends ItemOptions {
  initialFilter?: unknown; aggregation?: unknown; finalFilter?: unknown; sort?: unknown; paging?: unknown; cursorPaging?: unknown; returnTotalCount?: unknown;
}

/** GROUP BY in SQL (typed keys, numeric aggregates over numbers only), then finalFilter, sort and paging on the groups. */
export async function aggregate(ctx: RequestContext, input: AggregateInput) {
  const loaded = await openCollection(ctx, input);
  const { ownerOnly } = authorize(ctx, loaded.collection, 'read');
  const paging = await readPaging(ctx, `aggregate:${loaded.collectionId}`, input, {
    initialFilter: input.initialFilter, aggregation: input.aggregation, finalFilter: input.finalFilter, sort: input.sort, total: input.returnTotalCount === true,
  });
  const st = paging.state;
  const aggregation = isPlainObject(st.aggregation) ? st.aggregation : {};
  const grouping = aggregation.groupingFields ?? [];
  if (!Array.isArray(grouping) || grouping.length > 10 || !grouping.every((g) => typeof g === 'string')) throw violation('aggregation.groupingFields', 'must be at most 10 field names', 'MAX_SIZE');
  const operations = readOperations(aggregation.operations);
  const initial = parseDataFilter(st.initialFilter, 'initialFilter');
  const final = parseDataFilter(st.finalFilter, 'finalFilter');
  const sort = readSort(st.sort, 'sort');
  const scope = scopeFor(ctx, loaded.collectionId, ownerOnly, draftsVisible(ctx, input), initial, 'initialFilter');
  const keys = (grouping as string[]).map((g, i) => typedKey(ctx, g, `aggregation.groupingFields[${i}]`));
  const spec: GroupSpec = {
    keys: keys.map((k) => ({ type: k.type, value: k.value })),
    ops: operations.map((op, i) => {
      if (op.fn === 'COUNT') return { alias: `a${i}`, fn: op.fn };
      const number = compiling(`aggregation.operations[${i}]`, () => numberValue(ctx.dialect, op.field!, `aggregation.operations[${i}]`));
      return { alias: `a${i}`, fn: op.fn, number };
    }),
  };
  const rows = await groupRows(ctx.db, ctx.dialect, scope, spec, GROUPS_MAX + 1);
  if (rows.length > GROUPS_MAX) throw violation('aggregation.groupingFields', `produces more than ${GROUPS_MAX} groups`, 'MAX_SIZE');
  let results: Record<string, unknown>[] = rows.map((r) => {
    const out: Record<string, unknown> = {};
    const id: Record<string, unknown> = {};
    (grouping as string[]).forEach((g, i) => {
      const v = readTypedValue(ctx.dialect, r[`k${i}t`], r[`k${i}v`]);
      id[g] = v;
      out[g] = v;
    });
    out._id = grouping.length ? id : null;
    operations.forEach((op, i) => { const v = r[`a${i}`]; out[op.resultFieldName] = v === null || v === undefined ? null : Number(v); });
    return out;
  });
  if (operations.length === 0 && grouping.length === 0) results = [];
  results = results.filter((r) => compiling('finalFilter', () => matches(final, r)));
  results = sortItems(results.map((r) => ({ ...r, _id: r._id })), sort).map((r) => r);
  if (sort.length === 0) results = sortItems(results, (grouping as string[]).map((g) => ({ fieldName: g, order: 'ASC' as const })));
  const page = results.slice(paging.offset, paging.offset + paging.limit);
  return { groups: page, pagingMetadata: await pagingMetadata(ctx, paging, page.length, results.length > paging.offset + paging.limit, st.total ? results.length : undefined) };
}

