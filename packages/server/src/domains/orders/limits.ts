/** Every bound of the orders calls (docs/orders.md "Bounds"). Over a bound is a 400 that changes nothing. */

/** Orders per search page (default ORDERS_PAGE_DEFAULT). */
export const ORDERS_PAGE_MAX = 100;
export const ORDERS_PAGE_DEFAULT = 50;
/** Sort fields of one search. */
export const SORT_FIELDS_MAX = 5;
/** Orders of one bulk update / tag update / import delete / fulfillment list. */
export const ORDERS_BULK_MAX = 100;
/** Tag ids assigned or unassigned by one call, and held by one order per kind. */
export const TAGS_MAX = 100;
/** Activities added by one call, and kept by one order. */
export const ACTIVITIES_PER_CALL_MAX = 100;
export const ACTIVITIES_PER_ORDER_MAX = 1_000;
/** Fulfillments of one order, and of one bulk create. */
export const FULFILLMENTS_PER_ORDER_MAX = 100;
/** Groups one aggregate answers. */
export const AGGREGATE_GROUPS_MAX = 1_000;
/** Ids (order, line item, tag, activity, draft) characters. */
export const ID_MAX = 100;
/** Short texts (names, tracking numbers, carriers, e-mails). */
export const SHORT_TEXT_MAX = 500;
/** Long texts (comments, notes, cancel messages). */
export const LONG_TEXT_MAX = 5_000;
/** Line items of one order and line deltas of one edit. */
export const LINE_ITEMS_MAX = 300;
/** Keys of an open JSON object field, entries of a JSON list field. */
export const JSON_LIST_MAX = 100;
/** Highest order number a counter may be set to. */
export const ORDER_NUMBER_MAX = 2_000_000_000;
/** How long the download link of a paid order's digital line works (the paid e-mail carries it). */
export const DIGITAL_LINK_TTL_MS = 30 * 24 * 3600 * 1000;
