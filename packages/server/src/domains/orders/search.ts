import { sql, type RawBuilder } from 'kysely';
import type { RequestContext } from '../../http/context.js';
import { openCursor, signCursor } from '../../http/cursor.js';
import { violation } from '../../http/errors.js';
import { withFilterErrors } from '../../http/filter-errors.js';
import { allowlist, compileFilter, parseFilter, parseSort, type FilterField, type FilterNode } from '../../storage/filter.js';
import { currencyOf, price } from './amounts.js';
import { AGGREGATE_GROUPS_MAX, ORDERS_PAGE_DEFAULT, SORT_FIELDS_MAX } from './limits.js';
import type { OrderAggregateGroup, OrderAggregation } from './model.js';
import { aggregateOrderRows, findSiteRow, hasAnyTag, hasTag, searchOrderRows, type OrderPageRow } from './store.js';

/**
 * Order search (filter, sort, cursor paging) and aggregates, over the order columns through the
 * storage filter compiler. Members see only their own orders: their member id is ANDed into every
 * filter; visitors see none.
 */

const col = (name: string, type: 'string' | 'number' | 'date' | 'boolean', storedAs01 = false): FilterField => ({ expr: sql.ref(`o.${name}`), type, ...(storedAs01 ? { storedAs01 } : {}) });

function fields(siteId: string): Readonly<Record<string, FilterField>> {
  const tagSet = (kind: string): FilterField => ({ type: 'set', hasSome: (values) => hasTag(siteId, kind, values), notEmpty: () => hasAnyTag(siteId, kind) });
  return allowlist({
    id: col('id', 'string'),
    number: col('number', 'number'),
    createdDate: col('created_date', 'date'),
    updatedDate: col('updated_date', 'date'),
    purchasedDate: col('purchased_date', 'date'),
    status: col('status', 'string'),
    paymentStatus: col('payment_status', 'string'),
    fulfillmentStatus: col('fulfillment_status', 'string'),
    archived: col('archived', 'boolean', true),
    imported: col('imported', 'boolean', true),
    seenByAHuman: col('seen', 'boolean', true),
    'buyerInfo.memberId': col('buyer_member_id', 'string'),
    'buyerInfo.visitorId': col('buyer_visitor_id', 'string'),
    'buyerInfo.contactId': col('buyer_contact_id', 'string'),
    'buyerInfo.email': col('buyer_email', 'string'),
    'channelInfo.type': col('channel_type', 'string'),
    currency: col('currency', 'string'),
    checkoutId: col('checkout_id', 'string'),
    'tags.privateTags.tagIds': tagSet('privateTags'),
    'tags.tags.tagIds': tagSet('tags'),
  });
}

const SORTABLE: Readonly<Record<string, string>> = allowlist({
  createdDate: 'o.created_date', updatedDate: 'o.updated_date', purchasedDate: 'o.purchased_date', number: 'o.number',
  'priceSummary.total.amount': 'o.total_minor', paymentStatus: 'o.payment_status', fulfillmentStatus: 'o.fulfillment_status', status: 'o.status',
});

/** Order numbers travel as text ("10001"); the column is a number, so digit strings are compared as numbers. */
function numbersAsNumbers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(numbersAsNumbers);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'number' ? digits(v) : numbersAsNumbers(v)]));
}
function digits(v: unknown): unknown {
  if (typeof v === 'string' && /^\d{1,10}$/.test(v)) return Number(v);
  if (Array.isArray(v)) return v.map(digits);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, digits(x)]));
  return v;
}

/** The caller's condition ANDed with its filter: members their own orders, visitors none. */
function whereFor(ctx: RequestContext, node: FilterNode | undefined): RawBuilder<boolean> {
  const target = fields(ctx.site.id);
  const given = node ? compileFilter(node, { field: (p) => target[p] }, ctx.dialect) : sql<boolean>`1=1`;
  const c = ctx.caller;
  if (c.kind === 'member') return sql<boolean>`(o.buyer_member_id = ${c.memberId} AND ${given})`;
  if (c.kind === 'owner' || c.kind === 'app') return given;
  return sql<boolean>`1=0`;
}

interface CursorState { filter: unknown; sort: unknown; offset: number; limit: number }
const CURSOR_KIND = 'ecom.orders.search';

export interface SearchInput { filter?: Record<string, unknown> | null | undefined; sort?: { fieldName: string; order?: 'ASC' | 'DESC' | undefined }[] | undefined; cursorPaging?: { limit?: number | null | undefined; cursor?: string | null | undefined } | undefined }

/** A page of a search: the orders as stored (store.ts `OrderPageRow`) and the paging metadata. */
export interface OrderSearchPage { rows: OrderPageRow[]; count: number; next: string | null; prev: string | null; hasNext: boolean }

export async function searchOrders(ctx: RequestContext, search: SearchInput): Promise<OrderSearchPage> {
  const key = Buffer.from((await findSiteRow(ctx.db, ctx.site.id)).cursorKey, 'base64url');
  let state: CursorState;
  const cursor = search.cursorPaging?.cursor;
  if (cursor) {
    const opened = openCursor<CursorState>(key, ctx.site.id, CURSOR_KIND, cursor);
    if (!opened) throw violation('search.cursorPaging.cursor', 'is not a valid cursor', 'FORMAT');
    state = { ...opened, limit: search.cursorPaging?.limit ?? opened.limit };
  } else {
    state = { filter: search.filter ?? null, sort: search.sort ?? [], offset: 0, limit: search.cursorPaging?.limit ?? ORDERS_PAGE_DEFAULT };
  }
  const rows = await withFilterErrors('search', async () => {
    const node = parseFilter(numbersAsNumbers(state.filter));
    const sort = parseSort(state.sort, (f) => (SORTABLE[f] ? sql.ref(SORTABLE[f]) : undefined), SORT_FIELDS_MAX);
    const orderBy = sort.length ? sort.map((s) => ({ expr: s.expr, order: s.order })) : [{ expr: sql.ref('o.created_date'), order: 'DESC' as const }];
    return searchOrderRows(ctx.db, ctx.site.id, { where: whereFor(ctx, node), orderBy, limit: state.limit, offset: state.offset });
  });
  const hasNext = rows.length > state.limit;
  const page = rows.slice(0, state.limit);
  const next = hasNext ? signCursor(key, ctx.site.id, CURSOR_KIND, { ...state, offset: state.offset + state.limit }) : null;
  const prev = state.offset > 0 ? signCursor(key, ctx.site.id, CURSOR_KIND, { ...state, offset: Math.max(0, state.offset - state.limit) }) : null;
  return { rows: page, count: page.length, next, prev, hasNext };
}

const GROUP_EXPR: Record<string, string> = {
  status: 'o.status', paymentStatus: 'o.payment_status', fulfillmentStatus: 'o.fulfillment_status', currency: 'o.currency', channelType: 'o.channel_type',
};

/**
 * Counts of the matching orders per group (status, payment / fulfillment status, currency, channel,
 * day of creation), with totals added up exactly in minor units (summing adds the currency to the
 * groups, so amounts of different currencies never mix).
 */
export async function aggregateOrders(ctx: RequestContext, filter: Record<string, unknown> | null | undefined, aggregation: OrderAggregation): Promise<{ groups: OrderAggregateGroup[] }> {
  const groupBy = [...new Set(aggregation.groupBy ?? [])];
  const sums = aggregation.sum ?? [];
  if (sums.length && !groupBy.includes('currency')) groupBy.push('currency');
  const groups = groupBy.map((g) => ({ name: g, expr: g === 'day' ? sql`substr(o.created_date, 1, 10)` : sql.ref(GROUP_EXPR[g]!) }));
  const rows = await withFilterErrors('filter', async () => {
    const node = parseFilter(numbersAsNumbers(filter ?? null));
    return aggregateOrderRows(ctx.db, ctx.site.id, whereFor(ctx, node), groups, sums.map((s) => ({ name: s, expr: sql.ref('o.total_minor') })), AGGREGATE_GROUPS_MAX);
  });
  if (rows.length > AGGREGATE_GROUPS_MAX) throw violation('aggregation.groupBy', `makes more than ${AGGREGATE_GROUPS_MAX} groups; narrow the filter`, 'MAX_SIZE', { max: AGGREGATE_GROUPS_MAX });
  return {
    groups: rows.map((r) => ({
      key: r.keys,
      count: r.count,
      sums: Object.fromEntries(Object.entries(r.sums).map(([name, minor]) => [name, r.keys.currency ? price(minor, currencyOf(r.keys.currency)).amount : minor.toString()])),
    })),
  };
}
