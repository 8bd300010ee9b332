import { publicRoute, route, type RouteDef } from '../../../http/route.js';
import {
  addAbandonedCheckoutActivity, abandonedCheckoutAnalytics, bulkDeleteAbandonedCheckouts, deleteAbandonedCheckout, getAbandonedCheckout,
  queryAbandonedCheckouts, recoveryUrl, searchAbandonedCheckouts,
} from './service.js';
import { abandonedCheckoutIdRequest, addActivityRequest, analyticsRequest, bulkDeleteRequest, queryRequest, redirectRequest, searchRequest } from './schema.js';
import { abandonedCheckoutAnswer, queryAnswer, redirectAnswer, searchAnswer } from './present.js';

const tag = 'Abandoned checkouts';

/**
 * ecom.abandonedCheckouts (docs/cart-aftercare.md). Owner-only: abandoned checkouts hold buyers'
 * e-mails and baskets. The one exception is the recovery link, opened from an e-mail without
 * credentials; it only redirects to the checkout's hosted page.
 */
export const abandonedCheckoutRoutes: RouteDef[] = [
  route({
    method: 'POST', path: '/ecom/v1/abandoned-checkouts/:abandonedCheckoutId/add-activity', access: 'elevated', tag, idempotent: true,
    summary: 'Add an activity (e.g. EMAIL_SENT) to an abandoned checkout (honours Idempotency-Key)',
    request: addActivityRequest,
    handler: async (ctx, input) => abandonedCheckoutAnswer(await addAbandonedCheckoutActivity(ctx, input.abandonedCheckoutId, input.activityType), ctx.origin),
  }),
  route({
    method: 'POST', path: '/ecom/v1/bulk/abandoned-checkout/delete', access: 'elevated', tag, idempotent: true,
    summary: 'Delete up to 100 abandoned checkouts; per-item results (honours Idempotency-Key)',
    request: bulkDeleteRequest,
    handler: (ctx, input) => bulkDeleteAbandonedCheckouts(ctx, input.abandonedCheckoutIds),
  }),
  route({
    method: 'DELETE', path: '/ecom/v1/abandoned-checkout/:abandonedCheckoutId', access: 'elevated', tag,
    summary: 'Delete an abandoned checkout',
    request: abandonedCheckoutIdRequest,
    handler: async (ctx, input) => {
      await deleteAbandonedCheckout(ctx, input.abandonedCheckoutId);
      return {};
    },
  }),
  route({
    method: 'GET', path: '/ecom/v1/abandoned-checkout/:abandonedCheckoutId', access: 'elevated', tag,
    summary: 'Get an abandoned checkout',
    request: abandonedCheckoutIdRequest,
    handler: async (ctx, input) => abandonedCheckoutAnswer(await getAbandonedCheckout(ctx, input.abandonedCheckoutId), ctx.origin),
  }),
  route({
    method: 'POST', path: '/ecom/v1/abandoned-checkout/get-analytics', access: 'elevated', tag,
    summary: 'Recoverable versus recovered checkouts and amounts abandoned within a date range',
    request: analyticsRequest,
    handler: (ctx, input) => abandonedCheckoutAnalytics(ctx, input),
  }),
  route({
    method: 'POST', path: '/ecom/v1/abandoned-checkout/query', access: 'elevated', tag,
    summary: 'Query abandoned checkouts (filter, sort, offset or cursor paging)',
    request: queryRequest,
    handler: async (ctx, input) => queryAnswer(await queryAbandonedCheckouts(ctx, input.query), ctx.origin),
  }),
  route({
    method: 'POST', path: '/ecom/v1/abandoned-checkout/search', access: 'elevated', tag,
    summary: 'Search abandoned checkouts by buyer e-mail and name, with filter, sort and paging',
    request: searchRequest,
    handler: async (ctx, input) => searchAnswer(await searchAbandonedCheckouts(ctx, input.search), ctx.origin),
  }),
  publicRoute({
    method: 'GET', path: '/ecom/v1/abandoned-checkout/:abandonedCheckoutId/redirect-to-checkout', raw: true, tag,
    summary: 'Recovery link: redirects a browser to the checkout\'s hosted page (API clients get the redirect as data)',
    request: redirectRequest,
    handler: async (ctx, input, request) => redirectAnswer(await recoveryUrl(ctx, input.abandonedCheckoutId, input.metasiteId), request),
  }),
];
