import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import { addActivities, bulkUpdateOrders, bulkUpdateOrderTags, deleteActivity, updateActivity, updateOrder, updateOrderLineItem } from './changes.js';
import { ORDER_DOWNLOADS_PATH, serveOrderDownload, withLiveDownloadLinks } from './digital.js';
import { commitDeltas, previewDeltas } from './edits.js';
import { bulkCreateFulfillments, createFulfillment, deleteFulfillment, listForOrder, listForOrders, updateFulfillment } from './fulfillments.js';
import { bulkDeleteImportedOrders } from './imports.js';
import { aggregateAnswer, bulkAnswer, orderAnswer, presentOrder, searchAnswer } from './present.js';
import {
  activityRequest, addActivitiesRequest, addActivityRequest, aggregateRequest, bulkCreateFulfillmentsRequest, bulkDeleteImportedRequest,
  bulkUpdateOrdersRequest, cancelRequest, commitDeltasRequest, previewDeltasRequest, counterRequest, createFulfillmentRequest, createOrderRequest, fulfillmentRequest,
  idRequest, importOrderRequest, listByIdsRequest, orderIdRequest, searchRequest, updateActivityRequest, updateFulfillmentRequest,
  updateLineItemRequest, updateOrderRequest, updateSettingsRequest, updateStatusRequest, updateTagsRequest,
} from './schema.js';
import { aggregateOrders, searchOrders } from './search.js';
import { cancelOrder, createOrder, getOrder, importOrder, updateOrderStatus } from './service.js';
import { getOrdersSettings, setOrderNumberCounter, updateOrdersSettings } from './settings.js';

const O = '/ecom/v1/orders';
const F = '/ecom/v1/fulfillments';
const tag = 'orders';

/**
 * Orders, fulfillments and orders settings. Reading one order and searching are open to members
 * (their own orders only, by their member id) and owners; everything else is for owners and apps.
 */
export const ordersRoutes: RouteDef[] = [
  publicRoute({
    method: 'GET', path: `${ORDER_DOWNLOADS_PATH}/:siteId/:orderId/:lineItemId`, raw: true, tag,
    summary: 'The file of a paid order\'s digital line, behind its signed link (our extension; 403 once refunded or canceled)',
    request: z.object({ siteId: z.string().max(100), orderId: z.string().max(100), lineItemId: z.string().max(100), expires: z.number().int().nonnegative(), signature: z.string().max(100) }),
    handler: (ctx, input) => serveOrderDownload(ctx, input),
  }),
  route({
    method: 'GET', path: `${O}/:id`, access: 'visitor', tag, summary: 'One order (members: their own only; others 404)',
    request: idRequest, handler: async (ctx, input) => orderAnswer(ctx, await withLiveDownloadLinks(ctx, await getOrder(ctx, input.id))),
  }),
  route({
    method: 'POST', path: `${O}/search`, access: 'visitor', tag, summary: 'Search orders: filter, sort, cursor paging (members: their own)',
    request: searchRequest, handler: async (ctx, input) => searchAnswer(ctx, await searchOrders(ctx, input.search ?? {})),
  }),
  route({
    method: 'POST', path: O, access: 'elevated', tag, idempotent: true, summary: 'Create an order (owner); stock taken or held as for a checkout',
    request: createOrderRequest, handler: async (ctx, input) => orderAnswer(ctx, await createOrder(ctx, input.order)),
  }),
  route({
    method: 'PATCH', path: `${O}/:orderId`, access: 'elevated', tag, summary: 'Update order fields (with an optional field mask)',
    request: updateOrderRequest, handler: async (ctx, input) => orderAnswer(ctx, await updateOrder(ctx, input.orderId, input.order, input.fieldMask)),
  }),
  route({
    method: 'POST', path: '/ecom/v1/bulk/orders/update', access: 'elevated', tag, summary: 'Update many orders, each on its own',
    request: bulkUpdateOrdersRequest,
    handler: async (ctx, input) => bulkAnswer(await bulkUpdateOrders(ctx, input.orders), input.returnEntity ? (o) => ({ item: presentOrder(ctx, o) }) : undefined),
  }),
  route({
    method: 'PATCH', path: `${O}/:id/line-item/:lineItemId`, access: 'elevated', tag, summary: 'Update display details of a line item',
    request: updateLineItemRequest, handler: async (ctx, input) => orderAnswer(ctx, await updateOrderLineItem(ctx, input.id, input.lineItemId, input.lineItem, input.fieldMask)),
  }),
  route({
    method: 'POST', path: `${O}/:id/activities`, access: 'elevated', tag, summary: 'Add a merchant comment or custom activity',
    request: addActivityRequest,
    handler: async (ctx, input) => {
      const r = await addActivities(ctx, input.id, [input.activity], true);
      return { order: presentOrder(ctx, r.order), activityId: r.activityIds[0] };
    },
  }),
  route({
    method: 'POST', path: `${O}/:orderId/activities/add`, access: 'elevated', tag, summary: 'Add several activities',
    request: addActivitiesRequest,
    handler: async (ctx, input) => {
      const r = await addActivities(ctx, input.orderId, input.orderActivities, false);
      return { order: presentOrder(ctx, r.order), activityIds: r.activityIds };
    },
  }),
  route({
    method: 'PATCH', path: `${O}/:id/activities/:activityId`, access: 'elevated', tag, summary: 'Change a merchant comment or custom activity',
    request: updateActivityRequest, handler: async (ctx, input) => orderAnswer(ctx, await updateActivity(ctx, input.id, input.activityId, input.activity)),
  }),
  route({
    method: 'DELETE', path: `${O}/:id/activities/:activityId`, access: 'elevated', tag, summary: 'Delete a merchant comment or custom activity',
    request: activityRequest, handler: async (ctx, input) => orderAnswer(ctx, await deleteActivity(ctx, input.id, input.activityId)),
  }),
  route({
    method: 'POST', path: `${O}/:id/cancel`, access: 'elevated', tag, summary: 'Cancel an order (once); optional e-mail, message and restock',
    request: cancelRequest,
    handler: async (ctx, input) => orderAnswer(ctx, await cancelOrder(ctx, input.id, {
      ...(input.sendOrderCanceledEmail !== undefined ? { sendOrderCanceledEmail: input.sendOrderCanceledEmail } : {}),
      ...(input.customMessage !== undefined ? { customMessage: input.customMessage } : {}),
      ...(input.restockAllItems !== undefined ? { restockAllItems: input.restockAllItems } : {}),
    })),
  }),
  route({
    method: 'POST', path: `${O}/:orderId/update-status`, access: 'elevated', tag, summary: 'Move an order to PENDING, APPROVED or REJECTED',
    request: updateStatusRequest, handler: async (ctx, input) => orderAnswer(ctx, await updateOrderStatus(ctx, input.orderId, input.status)),
  }),
  route({
    method: 'POST', path: `${O}/aggregate`, access: 'elevated', tag, summary: 'Counts and totals of orders grouped by status, day, currency, ...',
    request: aggregateRequest, handler: async (ctx, input) => aggregateAnswer(await aggregateOrders(ctx, input.filter, input.aggregation)),
  }),
  route({
    method: 'POST', path: '/ecom/v1/bulk/orders/update-tags', access: 'elevated', tag, summary: 'Assign and unassign tags of many orders',
    request: updateTagsRequest, handler: async (ctx, input) => bulkAnswer(await bulkUpdateOrderTags(ctx, input.orderIds, input.assignTags, input.unassignTags), undefined),
  }),
  route({
    method: 'POST', path: `${O}/import`, access: 'elevated', tag, idempotent: true, summary: 'Import an order from another platform (no stock change)',
    request: importOrderRequest, handler: async (ctx, input) => orderAnswer(ctx, await importOrder(ctx, input.order)),
  }),
  route({
    method: 'POST', path: `${O}/import/set-order-number-counter`, access: 'elevated', tag, summary: 'Set the number the next order follows',
    request: counterRequest, handler: async (ctx, input) => setOrderNumberCounter(ctx, input.counter, input.allowLowerCounter ?? false),
  }),
  route({
    method: 'POST', path: `${O}/import/bulk-delete-imported-orders`, access: 'elevated', tag, summary: 'Delete imported orders (a background job)',
    request: bulkDeleteImportedRequest, handler: async (ctx, input) => bulkDeleteImportedOrders(ctx, input.orderIds),
  }),
  route({
    method: 'POST', path: `${O}/:id/commit-deltas`, access: 'elevated', tag, summary: 'Apply an order edit (draft changes) once',
    request: commitDeltasRequest, handler: async (ctx, input) => orderAnswer(ctx, await commitDeltas(ctx, input.id, input)),
  }),
  route({
    method: 'POST', path: `${O}/:id/preview-deltas`, access: 'elevated', tag, summary: 'Preview an order edit: the order and totals the changes would give, nothing stored',
    request: previewDeltasRequest, handler: async (ctx, input) => {
      const p = await previewDeltas(ctx, input.id, input.changes);
      return { ...orderAnswer(ctx, p.order), lineItemChanges: p.lineItemChanges };
    },
  }),

  // --- fulfillments
  route({
    method: 'POST', path: `${F}/orders/:orderId/create-fulfillment`, access: 'elevated', tag, summary: 'Fulfill line items (tracking number, carrier)',
    request: createFulfillmentRequest, handler: async (ctx, input) => createFulfillment(ctx, input.orderId, input.fulfillment),
  }),
  route({
    method: 'PATCH', path: `${F}/:fulfillmentId/orders/:orderId`, access: 'elevated', tag, summary: 'Change a fulfillment',
    request: updateFulfillmentRequest,
    handler: async (ctx, input) => ({ orderWithFulfillments: await updateFulfillment(ctx, input.orderId, input.fulfillmentId, input.fulfillment ?? {}) }),
  }),
  route({
    method: 'DELETE', path: `${F}/:fulfillmentId/orders/:orderId`, access: 'elevated', tag, summary: 'Delete a fulfillment',
    request: fulfillmentRequest, handler: async (ctx, input) => ({ orderWithFulfillments: await deleteFulfillment(ctx, input.orderId, input.fulfillmentId) }),
  }),
  route({
    method: 'POST', path: `${F}/orders/bulk/create-fulfillments`, access: 'elevated', tag, summary: 'Create fulfillments of many orders',
    request: bulkCreateFulfillmentsRequest,
    handler: async (ctx, input) => bulkAnswer(await bulkCreateFulfillments(ctx, input.ordersWithFulfillments), (v) => ({ ordersWithFulfillments: v })),
  }),
  route({
    method: 'POST', path: `${F}/list-by-ids`, access: 'elevated', tag, summary: 'Fulfillments of several orders',
    request: listByIdsRequest, handler: async (ctx, input) => ({ ordersWithFulfillments: await listForOrders(ctx, input.orderIds) }),
  }),
  route({
    method: 'GET', path: `${F}/orders/:orderId`, access: 'elevated', tag, summary: 'Fulfillments of one order',
    request: orderIdRequest, handler: async (ctx, input) => ({ orderWithFulfillments: await listForOrder(ctx, input.orderId) }),
  }),

  // --- settings
  route({
    method: 'GET', path: '/ecom/v1/orders-settings', access: 'elevated', tag, summary: 'Orders settings (when stock is taken)',
    request: z.object({}), handler: async (ctx) => ({ ordersSettings: await getOrdersSettings(ctx) }),
  }),
  route({
    method: 'PATCH', path: '/ecom/v1/orders-settings', access: 'elevated', tag, summary: 'Change the orders settings',
    request: updateSettingsRequest, handler: async (ctx, input) => ({ ordersSettings: await updateOrdersSettings(ctx, input.ordersSettings) }),
  }),
];
