import { z } from 'zod';
import type {
  FulfillmentInput, OrderActivityInput, OrderAggregation, OrderDraftChanges, OrderInput, OrderLineItemInput, OrderLineItemPatch, OrderPatch,
  OrdersSettingsInput,
} from '@vitrine/types';
import { conforms } from '../../http/conforms.js';
import { currencyCode } from '../../http/iso-codes.js';
import { decimalString, emailAddress, identifier, isoDateTimeText } from '../../http/wire-schemas.js';
import { CURSOR_MAX_LENGTH } from '../../http/cursor.js';
import {
  ACTIVITIES_PER_CALL_MAX, FULFILLMENTS_PER_ORDER_MAX, ID_MAX, JSON_LIST_MAX, LINE_ITEMS_MAX, LONG_TEXT_MAX, ORDER_NUMBER_MAX, ORDERS_BULK_MAX,
  ORDERS_PAGE_MAX, SHORT_TEXT_MAX, SORT_FIELDS_MAX, TAGS_MAX,
} from './limits.js';

/** Wire schemas of the orders, fulfillments and orders-settings calls. */

export const ORDER_STATUSES = ['INITIALIZED', 'APPROVED', 'CANCELED', 'PENDING', 'REJECTED'] as const;
export const PAYMENT_STATUSES = ['UNSPECIFIED', 'NOT_PAID', 'PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED'] as const;
export const FULFILLMENT_STATUSES = ['NOT_FULFILLED', 'FULFILLED', 'PARTIALLY_FULFILLED'] as const;
export const WEIGHT_UNITS = ['UNSPECIFIED_WEIGHT_UNIT', 'KG', 'LB'] as const;
export const INVENTORY_TRIGGERS = ['ON_ORDER_PAID', 'ON_ORDER_PLACED'] as const;

const id = identifier(ID_MAX, 1);
const short = z.string().max(SHORT_TEXT_MAX);
const long = z.string().max(LONG_TEXT_MAX);
const isoText = isoDateTimeText;
const json = z.record(z.string().max(SHORT_TEXT_MAX), z.unknown());
const jsonList = z.array(json).max(JSON_LIST_MAX);
const money = z.object({ amount: decimalString, formattedAmount: short.optional() });
const tagIds = z.array(id).max(TAGS_MAX);
const tags = z.object({ privateTags: z.object({ tagIds }).optional(), tags: z.object({ tagIds }).optional() });
const buyerInfo = z.object({ visitorId: id.optional(), memberId: id.optional(), contactId: id.optional(), email: emailAddress().optional() });
const channelInfo = z.object({ type: identifier(50, 1), externalOrderId: short.nullish(), externalOrderUrl: short.nullish() });
const productName = z.object({ original: short.min(1), translated: short.nullish() });
const physicalProperties = z.object({ weight: z.number().min(0).max(1e9).nullish(), sku: short.nullish(), shippable: z.boolean().optional() });
const priceSummary = z.object({ subtotal: money, shipping: money, tax: money, discount: money, total: money, totalAdditionalFees: money.optional() });

const lineItemInput = conforms<OrderLineItemInput>()(z.object({
  id: id.optional(),
  productName,
  catalogReference: z.object({ catalogItemId: id, appId: id, options: json.nullish() }).optional(),
  quantity: z.number().int().min(1).max(100_000),
  price: money,
  priceBeforeDiscounts: money.optional(),
  totalPriceBeforeTax: money.optional(),
  totalPriceAfterTax: money.optional(),
  totalDiscount: money.optional(),
  taxDetails: json.optional(),
  descriptionLines: jsonList.optional(),
  image: z.string().max(2_000).nullish(),
  physicalProperties: physicalProperties.optional(),
  itemType: z.object({ preset: short.optional(), custom: short.optional() }).optional(),
  paymentOption: short.optional(),
  subscriptionInfo: json.nullish(),
  rootCatalogItemId: id.nullish(),
}));

export const orderInput = conforms<OrderInput>()(z.object({
  lineItems: z.array(lineItemInput).min(1).max(LINE_ITEMS_MAX),
  buyerInfo: buyerInfo.optional(),
  currency: currencyCode.optional(),
  weightUnit: z.enum(WEIGHT_UNITS).optional(),
  taxIncludedInPrices: z.boolean().optional(),
  buyerLanguage: short.nullish(),
  priceSummary: priceSummary.optional(),
  billingInfo: json.optional(),
  shippingInfo: json.optional(),
  recipientInfo: json.optional(),
  buyerNote: long.nullish(),
  taxSummary: json.optional(),
  appliedDiscounts: jsonList.optional(),
  additionalFees: jsonList.optional(),
  customFields: jsonList.optional(),
  channelInfo: channelInfo.optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  paymentStatus: z.enum(PAYMENT_STATUSES).optional(),
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).optional(),
  purchasedDate: isoText.optional(),
  number: z.string().regex(/^\d{1,10}$/, 'must be a positive integer as text').refine((s) => Number(s) >= 1 && Number(s) <= ORDER_NUMBER_MAX, { message: `must be from 1 to ${ORDER_NUMBER_MAX}`, params: { rule: 'MAX' } }).optional(),
  archived: z.boolean().optional(),
  tags: tags.optional(),
  checkoutId: id.nullish(),
}));

export const createOrderRequest = z.object({
  order: orderInput,
  settings: z.object({
    editableByEveryone: z.boolean().optional(),
    orderApprovalStrategy: z.enum(['DEFAULT', 'PAYMENT_RECEIVED', 'PAYMENT_METHOD_SAVED']).optional(),
    notifications: z.object({ sendNotificationToBuyer: z.boolean().nullish(), sendNotificationsToBusiness: z.boolean().nullish() }).optional(),
  }).optional(),
});
export const importOrderRequest = z.object({ order: orderInput });

export const idRequest = z.object({ id });
export const orderIdRequest = z.object({ orderId: id });

/** A field mask as the wire sends it: comma-separated text or `{paths}`. */
const fieldMask = z.union([z.string().max(2_000), z.object({ paths: z.array(short).max(50) })]).optional()
  .transform((m) => (m === undefined ? undefined : typeof m === 'string' ? m.split(',').map((s) => s.trim()).filter(Boolean) : m.paths));

export const orderPatch = conforms<OrderPatch>()(z.strictObject({
  id,
  buyerInfo: buyerInfo.optional(),
  buyerNote: long.nullish(),
  buyerLanguage: short.nullish(),
  billingInfo: json.optional(),
  shippingInfo: json.optional(),
  recipientInfo: json.optional(),
  customFields: jsonList.optional(),
  archived: z.boolean().optional(),
  seenByAHuman: z.boolean().optional(),
  channelInfo: channelInfo.optional(),
}));
/** Fields updateOrder may change (a mask naming anything else is FIELD_NOT_ALLOWED). */
export const ORDER_PATCH_FIELDS = ['buyerInfo', 'buyerNote', 'buyerLanguage', 'billingInfo', 'shippingInfo', 'recipientInfo', 'customFields', 'archived', 'seenByAHuman', 'channelInfo'] as const;

/** updateOrder: the order (with its id, also in the path) and an optional field mask. */
export const updateOrderRequest = z.object({ orderId: id, order: z.looseObject({ id: id.optional() }), fieldMask });
export const bulkUpdateOrdersRequest = z.object({
  orders: z.array(z.object({ order: z.looseObject({ id }), fieldMask })).min(1).max(ORDERS_BULK_MAX),
  returnEntity: z.boolean().optional(),
});

export const lineItemPatch = conforms<OrderLineItemPatch>()(z.strictObject({
  id,
  productName: productName.optional(),
  descriptionLines: jsonList.optional(),
  image: z.string().max(2_000).nullish(),
  physicalProperties: physicalProperties.optional(),
  fulfillerId: id.nullish(),
}));
export const LINE_ITEM_PATCH_FIELDS = ['productName', 'descriptionLines', 'image', 'physicalProperties', 'fulfillerId'] as const;
export const updateLineItemRequest = z.object({ id, lineItemId: id.optional(), lineItem: z.looseObject({ id: id.optional() }), fieldMask });

export const activityInput = conforms<OrderActivityInput>()(z.object({
  merchantComment: z.object({ message: long.min(1) }).optional(),
  customActivity: z.object({ appId: id, type: identifier(100, 1), additionalData: z.record(z.string().max(100), z.string().max(SHORT_TEXT_MAX)).optional() }).optional(),
  authorEmail: identifier(SHORT_TEXT_MAX).nullish(),
}));
export const addActivityRequest = z.object({ id, activity: activityInput });
export const addActivitiesRequest = z.object({ orderId: id, orderActivities: z.array(activityInput).min(1).max(ACTIVITIES_PER_CALL_MAX) });
export const activityRequest = z.object({ id, activityId: id });
export const updateActivityRequest = z.object({ id, activityId: id, activity: activityInput });

export const cancelRequest = z.object({
  id,
  sendOrderCanceledEmail: z.boolean().optional(),
  customMessage: long.optional(),
  restockAllItems: z.boolean().optional(),
});
export const updateStatusRequest = z.object({ orderId: id, status: z.enum(ORDER_STATUSES) });

export const searchRequest = z.object({
  search: z.object({
    filter: z.record(z.string(), z.unknown()).nullish(),
    sort: z.array(z.object({ fieldName: short, order: z.enum(['ASC', 'DESC']).optional() })).max(SORT_FIELDS_MAX).optional(),
    cursorPaging: z.object({ limit: z.number().int().min(1).max(ORDERS_PAGE_MAX).nullish(), cursor: z.string().max(CURSOR_MAX_LENGTH).nullish() }).optional(),
  }).optional(),
});

export const aggregation = conforms<OrderAggregation>()(z.object({
  groupBy: z.array(z.enum(['status', 'paymentStatus', 'fulfillmentStatus', 'currency', 'channelType', 'day'])).max(4).optional(),
  sum: z.array(z.enum(['total'])).max(1).optional(),
}));
export const aggregateRequest = z.object({
  filter: z.record(z.string(), z.unknown()).nullish(),
  aggregation,
  hierarchySeparatorOverride: z.string().max(5).nullish(),
});

export const updateTagsRequest = z.object({
  orderIds: z.array(id).min(1).max(ORDERS_BULK_MAX),
  assignTags: tags.optional(),
  unassignTags: tags.optional(),
});

export const counterRequest = z.object({
  counter: z.union([z.string().regex(/^\d{1,10}$/, 'must be an integer as text'), z.number().int()]).transform((v) => Number(v))
    .refine((n) => n >= 0 && n <= ORDER_NUMBER_MAX, { message: `must be from 0 to ${ORDER_NUMBER_MAX}`, params: { rule: 'MAX' } }),
  allowLowerCounter: z.boolean().optional(),
});
export const bulkDeleteImportedRequest = z.object({ orderIds: z.array(id).min(1).max(ORDERS_BULK_MAX) });

const lineDelta = z.object({
  lineItemId: id.optional(),
  lineItemAdded: z.boolean().optional(),
  lineItemRemoved: z.boolean().optional(),
  changedDetails: z.object({ quantity: z.number().int().min(1).max(100_000).optional(), price: money.optional() }).optional(),
  lineItem: lineItemInput.optional(),
});
export const draftChanges = conforms<OrderDraftChanges>()(z.object({
  lineItems: z.array(lineDelta).max(LINE_ITEMS_MAX).optional(),
  changedShippingInfo: json.optional(),
  shippingInfoRemoved: z.boolean().optional(),
  priceSummary: priceSummary.optional(),
  appliedDiscounts: jsonList.optional(),
  additionalFees: jsonList.optional(),
  taxSummary: json.optional(),
}));
export const commitDeltasRequest = z.object({
  id,
  draftOrderId: id,
  changes: draftChanges,
  commitSettings: z.object({
    sendNotificationsToBuyer: z.boolean().nullish(),
    sendNotificationsToBusiness: z.boolean().nullish(),
    addActivitiesToOrder: z.boolean().nullish(),
    sendNotificationsToCustomer: z.boolean().nullish(),
  }).optional(),
  reason: long.nullish(),
});
/** A dry run of commit-deltas: the same changes, nothing stored. */
export const previewDeltasRequest = z.object({ id, changes: draftChanges });

// --- fulfillments

const fulfillmentLines = z.array(z.object({ id, quantity: z.number().int().min(1).max(100_000) })).max(LINE_ITEMS_MAX);
export const fulfillmentInput = conforms<FulfillmentInput>()(z.object({
  lineItems: fulfillmentLines.optional(),
  trackingInfo: z.object({ trackingNumber: short.nullish(), shippingProvider: short.nullish(), trackingLink: z.string().max(2_000).nullish() }).optional(),
  customInfo: z.object({ fieldsData: z.record(z.string().max(100), z.string().max(SHORT_TEXT_MAX)) }).optional(),
  status: short.nullish(),
  completed: z.boolean().nullish(),
}));
export const createFulfillmentRequest = z.object({ orderId: id, fulfillment: fulfillmentInput });
export const updateFulfillmentRequest = z.object({ orderId: id, fulfillmentId: id, fulfillment: fulfillmentInput.extend({ id: id.optional() }).optional() });
export const fulfillmentRequest = z.object({ orderId: id, fulfillmentId: id });
export const bulkCreateFulfillmentsRequest = z.object({
  ordersWithFulfillments: z.array(z.object({ orderId: id, fulfillments: z.array(fulfillmentInput).min(1).max(FULFILLMENTS_PER_ORDER_MAX) })).min(1).max(ORDERS_BULK_MAX),
});
export const listByIdsRequest = z.object({ orderIds: z.array(id).min(1).max(ORDERS_BULK_MAX) });

// --- settings

export const settingsInput = conforms<OrdersSettingsInput>()(z.object({
  inventoryUpdateTrigger: z.enum(INVENTORY_TRIGGERS).optional(),
  createInvoice: z.boolean().nullish(),
}));
export const updateSettingsRequest = z.object({ ordersSettings: settingsInput });
