import { isElevated, type RequestContext } from '../../../http/context.js';
import { ValidationError, type FieldViolation } from '../../../http/errors.js';
import { parseFilter, parseSort } from '../../../storage/filter.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import { openCursor, signCursor } from '../cursor.js';
import {
  countInventorySearch, inventoryIdsMatching, inventoryScalar, inventorySortColumn, inventoryValueBuckets, isInventoryScalarField, isInventoryValueField,
  searchInventoryRows, type InventorySearch,
} from '../store-inventory.js';
import { presentItem } from './inventory-present.js';
import { INVENTORY_V3_LIMITS, type InventoryAggregation, type InventorySearchInput, type SearchDetails } from './inventory-schema.js';

/**
 * V3 inventory search (docs/catalog-inventory.md): filter, sort, `search.expression` (case-insensitive
 * substrings of the product name / variant SKU, no full-text engine), cursor paging, VALUE / SCALAR
 * aggregations. V3 items only; visitors see items of visible products only.
 */

const KINDS = { search: 'inventory.v3.search', query: 'inventory.v3.query' } as const;

/** Terms of `search.expression` (whitespace-separated, lower case); more than the bound is a 400. */
function termsOf(search: SearchDetails | undefined, field: string): Pick<InventorySearch, 'terms' | 'termMode' | 'termFields'> {
  const terms = (search?.expression ?? '').toLowerCase().split(/\s+/u).filter(Boolean);
  if (terms.length > INVENTORY_V3_LIMITS.searchTerms) {
    throw new ValidationError([{ field: `${field}.expression`, description: `takes at most ${INVENTORY_V3_LIMITS.searchTerms} terms`, violatedRule: 'MAX_SIZE', data: { max: INVENTORY_V3_LIMITS.searchTerms } }]);
  }
  const fields = search?.fields?.length ? search.fields : ['product.name', 'product.variantSku'];
  return { terms, termMode: search?.mode ?? 'AND', termFields: [...new Set(fields.map((f) => (f === 'product.name' ? 'name' as const : 'sku' as const)))] };
}

/** The parsed selection of a filter + search (400 on a bad filter, under `argument`). */
export async function inventorySelection(ctx: RequestContext, filter: unknown, search: SearchDetails | undefined, argument: string, searchField: string): Promise<InventorySearch> {
  const parsed = await withFilterErrors(argument, async () => parseFilter(filter));
  return { siteId: ctx.site.id, dialect: ctx.dialect, filter: parsed, ...termsOf(search, searchField), onlyVisible: !isElevated(ctx.caller), v3Only: false };
}

/**
 * Ids of the items a by-filter job covers, in id order: at most `limit` (the caller passes one more
 * than the job bound, so startCatalogJob refuses an over-wide filter with TOO_MANY_ITEMS).
 */
export async function selectItemIds(ctx: RequestContext, filter: unknown, search: SearchDetails | undefined, limit: number, location?: string): Promise<string[]> {
  const q = await inventorySelection(ctx, filter, search, 'filter', 'search');
  return withFilterErrors('filter', () => inventoryIdsMatching(ctx.db, { ...q, v3Only: true, ...(location !== undefined ? { location } : {}) }, limit));
}

function checkAggregations(aggs: InventoryAggregation[], argument: string): void {
  const v: FieldViolation[] = [];
  aggs.forEach((a, i) => {
    const type = a.type ?? (a.scalar ? 'SCALAR' : 'VALUE');
    const field = `${argument}.aggregations[${i}]`;
    if (type === 'VALUE' && !isInventoryValueField(a.fieldPath)) v.push({ field: `${field}.fieldPath`, description: `"${a.fieldPath}" cannot be aggregated by value`, violatedRule: 'FIELD_NOT_ALLOWED', data: {} });
    if (type === 'SCALAR' && !a.scalar) v.push({ field: `${field}.scalar`, description: 'a SCALAR aggregation needs scalar.type', violatedRule: 'REQUIRED_FIELD', data: {} });
    if (type === 'SCALAR' && !isInventoryScalarField(a.fieldPath)) v.push({ field: `${field}.fieldPath`, description: `"${a.fieldPath}" cannot be aggregated as a number`, violatedRule: 'FIELD_NOT_ALLOWED', data: {} });
  });
  if (v.length) throw new ValidationError(v);
}

async function aggregate(ctx: RequestContext, q: InventorySearch, aggs: InventoryAggregation[]) {
  const results = [];
  for (const a of aggs) {
    const type = a.type ?? (a.scalar ? 'SCALAR' : 'VALUE');
    const name = a.name ?? a.fieldPath;
    if (type === 'VALUE') {
      const buckets = await inventoryValueBuckets(ctx.db, q, a.fieldPath, a.value?.limit ?? INVENTORY_V3_LIMITS.aggregationValuesDefault, a.value?.sortType ?? 'COUNT', a.value?.sortDirection ?? (a.value?.sortType === 'VALUE' ? 'ASC' : 'DESC'));
      results.push({ name, type, fieldPath: a.fieldPath, values: { results: buckets } });
    } else {
      results.push({ name, type, fieldPath: a.fieldPath, scalar: { type: a.scalar!.type, value: await inventoryScalar(ctx.db, q, a.fieldPath, a.scalar!.type) } });
    }
  }
  return { results };
}

/** `search` (all of it) and `query` (filter, sort, cursor paging): one engine, cursors of their own kind. */
async function run(ctx: RequestContext, input: InventorySearchInput, argument: 'search' | 'query') {
  const KIND = KINDS[argument];
  let state = { filter: input.filter as unknown, sort: input.sort as unknown, search: input.search as SearchDetails | undefined, aggregations: input.aggregations as unknown };
  let offset = 0;
  let limit = input.cursorPaging?.limit ?? INVENTORY_V3_LIMITS.pageDefault;
  if (input.cursorPaging?.cursor) {
    // Filter, sort, search and aggregations travel in the signed cursor (the caller sends only cursorPaging).
    const s = await openCursor(ctx.db, ctx.site.id, KIND, input.cursorPaging.cursor, `${argument}.cursorPaging.cursor`);
    state = { filter: s.filter, sort: s.sort, search: s.search as SearchDetails | undefined, aggregations: s.aggregations };
    offset = s.offset;
    limit = input.cursorPaging.limit ?? s.limit;
  }
  const aggs = (state.aggregations ?? []) as InventoryAggregation[];
  checkAggregations(aggs, argument);
  const q = await inventorySelection(ctx, state.filter, state.search, argument, `${argument}.search`);
  const { rows, aggregationData } = await withFilterErrors(argument, async () => {
    const sort = parseSort(state.sort, inventorySortColumn, INVENTORY_V3_LIMITS.sortFields);
    return {
      rows: await searchInventoryRows(ctx.db, { ...q, sort, limit: limit + 1, offset }),
      aggregationData: await aggregate(ctx, q, aggs),
    };
  });
  const hasNext = rows.length > limit;
  const items = rows.slice(0, limit).map(presentItem);
  const next = { kind: KIND, filter: state.filter, sort: state.sort, search: state.search, aggregations: state.aggregations, limit };
  return {
    inventoryItems: items,
    pagingMetadata: {
      count: items.length, hasNext,
      cursors: {
        next: hasNext ? await signCursor(ctx.db, ctx.site.id, { ...next, offset: offset + limit }) : null,
        prev: offset > 0 ? await signCursor(ctx.db, ctx.site.id, { ...next, offset: Math.max(0, offset - limit) }) : null,
      },
    },
    aggregationData,
  };
}


export async function searchInventoryItems(ctx: RequestContext, input: InventorySearchInput) {
  return run(ctx, input, 'search');
}

/** Query: the search fields as filter and sort, no text or aggregations. */
export async function queryInventoryItems(ctx: RequestContext, query: Pick<InventorySearchInput, 'filter' | 'sort' | 'cursorPaging'>) {
  const { inventoryItems, pagingMetadata } = await run(ctx, { filter: query.filter, sort: query.sort, cursorPaging: query.cursorPaging }, 'query');
  return { inventoryItems, pagingMetadata };
}

/** Count by the search fields and text; visitors count items of visible products. */
export async function countInventoryItems(ctx: RequestContext, filter: unknown, search?: SearchDetails) {
  const q = await inventorySelection(ctx, filter, search, 'filter', 'search');
  return { count: await withFilterErrors('filter', () => countInventorySearch(ctx.db, q)) };
}
