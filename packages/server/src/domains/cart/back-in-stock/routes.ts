import { route, type RouteDef } from '../../../http/route.js';
import {
  countByCatalogReferences, createBackInStockRequest, deleteBackInStockRequest, getBackInStockRequest, markAsNotificationSent,
  queryBackInStockRequests, reportItemsBackInStock,
} from './service.js';
import { countRequest, createRequest, queryRequest, reportRequest, requestIdRequest } from './schema.js';
import { requestAnswer, requestsAnswer } from './present.js';

const tag = 'Back-in-stock notifications';
const base = '/back-in-stock-service/v1/back-in-stock-notification-requests';

/**
 * ecom.backInStockNotifications (docs/cart-aftercare.md). Creating a request is open to any caller of
 * the site (shoppers ask on the product page); everything else shows or changes other people's
 * e-mail addresses and is owner-only.
 */
export const backInStockRoutes: RouteDef[] = [
  route({
    method: 'POST', path: base, access: 'visitor', tag, idempotent: true,
    summary: 'Ask to be e-mailed when an item is back in stock (one open request per e-mail and item; honours Idempotency-Key)',
    request: createRequest,
    handler: async (ctx, input) => requestAnswer(await createBackInStockRequest(ctx, input)),
  }),
  route({
    method: 'GET', path: base, access: 'elevated', tag,
    summary: 'Query notification requests (filter, sort, offset or cursor paging)',
    request: queryRequest,
    handler: async (ctx, input) => requestsAnswer(await queryBackInStockRequests(ctx, input.query)),
  }),
  route({
    method: 'GET', path: `${base}/count-by-catalog-reference`, access: 'elevated', tag,
    summary: 'Waiting requests per catalog reference',
    request: countRequest,
    handler: (ctx, input) => countByCatalogReferences(ctx, input.catalogReferences),
  }),
  route({
    method: 'POST', path: `${base}/report-items-back-in-stock`, access: 'elevated', tag, idempotent: true,
    summary: 'Mail the waiting requests of an item (or the listed requests) now (honours Idempotency-Key)',
    request: reportRequest,
    handler: async (ctx, input) => {
      await reportItemsBackInStock(ctx, input);
      return {};
    },
  }),
  route({
    method: 'GET', path: `${base}/:id`, access: 'elevated', tag,
    summary: 'Get a notification request',
    request: requestIdRequest,
    handler: async (ctx, input) => requestAnswer(await getBackInStockRequest(ctx, input.id)),
  }),
  route({
    method: 'DELETE', path: `${base}/:id`, access: 'elevated', tag,
    summary: 'Delete a notification request',
    request: requestIdRequest,
    handler: async (ctx, input) => {
      await deleteBackInStockRequest(ctx, input.id);
      return {};
    },
  }),
  route({
    method: 'PUT', path: `${base}/:id/mark-as-notification-sent`, access: 'elevated', tag,
    summary: 'Mark a request as notified (it will not be mailed)',
    request: requestIdRequest,
    handler: async (ctx, input) => requestAnswer(await markAsNotificationSent(ctx, input.id)),
  }),
];
