/**
 * The scenarios of the suite: each turns the discovered fixture (tokens, ids) into the requests the
 * load generator rotates through. Requests are all prepared before the clock starts.
 */
import { BENCH_COLLECTION, BRANDS, ITEM_KEYS, type LoadJob, type PlannedRequest } from './common.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** Items per bulk insert call. */
export const BULK_ITEMS = 1000;
/** Products each add-to-cart buyer adds in turn (quantities grow; a cart stays far below its line limit). */
const CART_PRODUCTS = 20;

export interface World {
  clientId: string;
  apiKey: string;
  /** Visitor tokens; each of the first ones holds a cart once carts are prepared. */
  visitorTokens: string[];
  productIds: string[];
  /** Slugs of the same products, for their storefront pages. */
  productSlugs: string[];
  /** Visible V1 products without options (a cart line needs no choice). */
  cartProductIds: string[];
  productV3Ids: string[];
  collectionIds: string[];
}

export interface Scenario {
  name: string;
  title: string;
  /** What one counted unit is, when not one HTTP request. */
  unit?: string;
  /** Connections of this scenario when not the suite's (long write calls queue behind each other). */
  connections?: number;
  /** Work run once before the scenario (carts for estimate-totals). */
  prepare?: (world: World, origin: string) => Promise<void>;
  job: (world: World) => Pick<LoadJob, 'mode' | 'requests' | 'clientId' | 'productIds'>;
}

const json = { 'content-type': 'application/json' };
const visitor = (world: World, i: number) => ({ authorization: world.visitorTokens[i % world.visitorTokens.length]! });
const owner = (world: World) => ({ authorization: world.apiKey, ...json });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * An estimate as a shopper's checkout asks for it: with the shipping address, so the demo store's US
 * tax and its shipping options are priced beside the discounts (without one, tax and shipping are skipped).
 */
const ESTIMATE_BODY = JSON.stringify({ shippingAddress: { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001' } });

const addLine = (productId: string) => JSON.stringify({ lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productId, appId: STORES_APP_ID } }] });

export const SCENARIOS: Scenario[] = [
  {
    // First, so that every API scenario after it runs on a server that has rendered pages, as a
    // shop's server has (a renderer once left a hook on every later promise: docs/performance-log.md).
    name: 'storefront-page', title: 'storefront product page (server-rendered, brotli)', unit: 'pages', connections: 10,
    job: (w) => ({
      mode: 'requests',
      requests: w.productSlugs.map((slug): PlannedRequest => ({ method: 'GET', path: `/product-page/${encodeURIComponent(slug)}`, headers: { accept: 'text/html', 'accept-encoding': 'br' } })),
    }),
  },
  {
    name: 'token', title: 'visitor token issue',
    job: (w) => ({ mode: 'requests', requests: [{ method: 'POST', path: '/oauth2/token', headers: json, body: JSON.stringify({ clientId: w.clientId, grantType: 'anonymous' }) }] }),
  },
  {
    name: 'product-get-v1', title: 'product get (V1)',
    job: (w) => ({ mode: 'requests', requests: w.productIds.map((id, i): PlannedRequest => ({ method: 'GET', path: `/stores-reader/v1/products/${id}`, headers: visitor(w, i) })) }),
  },
  {
    name: 'product-get-v3', title: 'product get (V3)',
    job: (w) => ({ mode: 'requests', requests: w.productV3Ids.map((id, i): PlannedRequest => ({ method: 'GET', path: `/stores/v3/products/${id}`, headers: visitor(w, i) })) }),
  },
  {
    name: 'query-page', title: 'product query page of 20 (filter + sort)',
    job: (w) => ({
      mode: 'requests',
      requests: [5, 50, 120, 250, 400].map((min, i): PlannedRequest => ({
        method: 'GET',
        path: `/stores-reader/v1/products/query-platformized?.r=${b64({ query: { filter: { 'priceData.price': { $gt: min }, brand: BRANDS[i % BRANDS.length] }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 20 } } })}`,
        headers: visitor(w, i),
      })),
    }),
  },
  {
    name: 'search-facets', title: 'search with facets (V3, text + 2 aggregations)',
    job: (w) => ({
      mode: 'requests',
      requests: ['kettle', 'kenya', 'matcha', 'mug'].map((expression, i): PlannedRequest => ({
        method: 'POST', path: '/stores/v3/products/search', headers: { ...visitor(w, i), ...json },
        body: JSON.stringify({
          search: {
            search: { expression }, cursorPaging: { limit: 20 },
            aggregations: [{ name: 'brands', type: 'VALUE', fieldPath: 'brand.name', value: { limit: 10 } }, { name: 'max', type: 'SCALAR', fieldPath: 'actualPriceRange.maxValue.amount', scalar: { type: 'MAX' } }],
          },
        }),
      })),
    }),
  },
  {
    name: 'collection-get', title: 'collection get',
    job: (w) => ({ mode: 'requests', requests: w.collectionIds.map((id, i): PlannedRequest => ({ method: 'GET', path: `/stores-reader/v1/collections/${id}`, headers: visitor(w, i) })) }),
  },
  {
    name: 'add-to-cart', title: 'add-to-cart',
    job: (w) => ({
      mode: 'requests',
      requests: range(w.visitorTokens.length * CART_PRODUCTS).map((i): PlannedRequest => ({
        method: 'POST', path: '/ecom/v1/carts/current/add-to-cart', headers: { ...visitor(w, i), ...json },
        body: addLine(w.cartProductIds[Math.floor(i / w.visitorTokens.length) % w.cartProductIds.length]!),
      })),
    }),
  },
  {
    name: 'estimate-totals', title: 'estimate totals (the add-to-cart carts, 3-20 lines, US address)',
    prepare: async (w, origin) => {
      // Every buyer's cart holds at least three lines (add-to-cart may already have filled it).
      for (const [i] of w.visitorTokens.entries()) {
        for (let k = 0; k < 3; k++) {
          const res = await fetch(`${origin}/ecom/v1/carts/current/add-to-cart`, { method: 'POST', headers: { ...visitor(w, i), ...json }, body: addLine(w.cartProductIds[k]!) });
          if (res.status !== 200) throw new Error(`estimate-totals setup: add-to-cart answered ${res.status} ${await res.text()}`);
        }
      }
    },
    job: (w) => ({
      mode: 'requests',
      requests: w.visitorTokens.map((_, i): PlannedRequest => ({ method: 'POST', path: '/ecom/v1/carts/current/estimate-totals', headers: { ...visitor(w, i), ...json }, body: ESTIMATE_BODY })),
    }),
  },
  {
    name: 'checkout', title: 'checkout to paid order (add, checkout, order + charge)', unit: 'paid orders', connections: 16,
    job: (w) => ({ mode: 'checkout', clientId: w.clientId, productIds: w.cartProductIds }),
  },
  {
    name: 'order-search', title: 'order search (owner, page of 20)',
    job: (w) => ({
      mode: 'requests',
      requests: [{ method: 'POST', path: '/ecom/v1/orders/search', headers: owner(w), body: JSON.stringify({ search: { sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: 20 } } }) }],
    }),
  },
  {
    name: 'member-query', title: 'member query (owner, page of 20)',
    job: (w) => ({
      mode: 'requests',
      requests: [{ method: 'POST', path: '/members/v1/members/query', headers: owner(w), body: JSON.stringify({ query: { paging: { limit: 20 }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] } }) }],
    }),
  },
  {
    name: 'data-query', title: 'data item query (indexed equality, page of 50)',
    job: (w) => ({
      mode: 'requests',
      requests: range(100).map((k): PlannedRequest => ({
        method: 'POST', path: '/wix-data/v2/items/query', headers: owner(w),
        body: JSON.stringify({ dataCollectionId: BENCH_COLLECTION, query: { filter: { k: (k * 37) % ITEM_KEYS }, paging: { limit: 50 } } }),
      })),
    }),
  },
  {
    name: 'data-bulk-insert', title: `data bulk insert of ${BULK_ITEMS.toLocaleString('en-US')} items`, unit: 'calls', connections: 4,
    job: (w) => ({
      mode: 'requests',
      requests: range(4).map((r): PlannedRequest => ({
        method: 'POST', path: '/wix-data/v2/bulk/items/insert', headers: owner(w),
        body: JSON.stringify({ dataCollectionId: BENCH_COLLECTION, dataItems: range(BULK_ITEMS).map((i) => ({ data: { k: (r * BULK_ITEMS + i) % ITEM_KEYS, title: `Bulk ${r}-${i}` } })) }),
      })),
    }),
  },
];
