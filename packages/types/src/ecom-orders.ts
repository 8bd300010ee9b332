/**
 * Wire shapes of ecom orders, order fulfillments and orders settings (REST names, ISO date text,
 * money as decimal strings). Sub-objects the server keeps as given (addresses, tax breakdowns,
 * discounts) are typed as open JSON objects.
 */
import type { BulkActionMetadata, BulkItemMetadata, Cursors, IsoDate, SortItem } from './common.js';

/** An open JSON object the server stores and returns as given. */
export type OrderJson = Record<string, unknown>;

export interface OrderPrice { amount: string; formattedAmount?: string }

export type OrderStatus = 'INITIALIZED' | 'APPROVED' | 'CANCELED' | 'PENDING' | 'REJECTED';
export type OrderPaymentStatus =
  | 'UNSPECIFIED' | 'NOT_PAID' | 'PAID' | 'PARTIALLY_REFUNDED' | 'FULLY_REFUNDED' | 'PENDING' | 'PARTIALLY_PAID'
  | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED';
export type OrderFulfillmentStatus = 'NOT_FULFILLED' | 'FULFILLED' | 'PARTIALLY_FULFILLED';
export type WeightUnit = 'UNSPECIFIED_WEIGHT_UNIT' | 'KG' | 'LB';
export type InventoryUpdateTrigger = 'ON_ORDER_PAID' | 'ON_ORDER_PLACED';

export interface OrderCatalogReference { catalogItemId: string; appId: string; options?: OrderJson | null }

/** A stored line: what a caller may send (OrderLineItemInput) plus what the server keeps per line. */
export interface OrderLineItem extends Omit<OrderLineItemInput, 'id'> {
  id: string;
  /** Units refunded so far. */
  refundQuantity?: number | null;
  /** Units given back to stock so far (cancel or refund with restock). */
  restockQuantity?: number | null;
  fulfillerId?: string | null;
  checkoutId?: string | null;
  /** A digital product's file, for its buyer: set when the order is paid (a download link valid until `expirationDate`). */
  digitalFile?: OrderDigitalFile;
}

export interface OrderDigitalFile { fileId: string; link: string; expirationDate: string }

export interface OrderBuyerInfo { visitorId?: string; memberId?: string; contactId?: string; email?: string }

export interface OrderPriceSummary {
  subtotal: OrderPrice;
  shipping: OrderPrice;
  tax: OrderPrice;
  discount: OrderPrice;
  total: OrderPrice;
  totalAdditionalFees?: OrderPrice;
}

export interface OrderBalanceSummary { balance: OrderPrice; paid: OrderPrice; refunded: OrderPrice }

export type OrderActivityType =
  | 'ORDER_REFUNDED' | 'ORDER_PLACED' | 'ORDER_PAID' | 'ORDER_FULFILLED' | 'ORDER_NOT_FULFILLED' | 'ORDER_CANCELED'
  | 'DOWNLOAD_LINK_SENT' | 'TRACKING_NUMBER_ADDED' | 'TRACKING_NUMBER_EDITED' | 'TRACKING_LINK_ADDED'
  | 'SHIPPING_CONFIRMATION_EMAIL_SENT' | 'INVOICE_ADDED' | 'INVOICE_REMOVED' | 'INVOICE_SENT' | 'FULFILLER_EMAIL_SENT'
  | 'SHIPPING_ADDRESS_EDITED' | 'EMAIL_EDITED' | 'PICKUP_READY_EMAIL_SENT' | 'CUSTOM_ACTIVITY' | 'MERCHANT_COMMENT'
  | 'ORDER_PARTIALLY_PAID' | 'DRAFT_ORDER_CHANGES_APPLIED' | 'SAVED_PAYMENT_METHOD' | 'AUTHORIZED_PAYMENT_CREATED'
  | 'AUTHORIZED_PAYMENT_CAPTURED' | 'AUTHORIZED_PAYMENT_VOIDED' | 'REFUND_INITIATED' | 'PAYMENT_REFUNDED'
  | 'PAYMENT_REFUND_FAILED' | 'PAYMENT_PENDING' | 'PAYMENT_CANCELED' | 'PAYMENT_DECLINED' | 'ORDER_PENDING' | 'ORDER_REJECTED';

export interface OrderActivity {
  id: string;
  createdDate: IsoDate;
  type: OrderActivityType;
  authorEmail?: string | null;
  merchantComment?: { message: string };
  customActivity?: { appId: string; type: string; additionalData?: Record<string, string> };
  orderRefunded?: { manual?: boolean; amount?: OrderPrice; reason?: string };
  draftOrderChangesApplied?: OrderJson;
}

/** An activity as a caller adds it: a merchant comment or a custom activity. */
export interface OrderActivityInput {
  merchantComment?: { message: string };
  customActivity?: { appId: string; type: string; additionalData?: Record<string, string> };
  authorEmail?: string | null;
}

export interface OrderTags { privateTags?: { tagIds: string[] }; tags?: { tagIds: string[] } }

export interface Order {
  id: string;
  number: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  purchasedDate?: IsoDate;
  lineItems: OrderLineItem[];
  buyerInfo: OrderBuyerInfo;
  paymentStatus: OrderPaymentStatus;
  fulfillmentStatus: OrderFulfillmentStatus;
  status: OrderStatus;
  buyerLanguage?: string | null;
  weightUnit: WeightUnit;
  currency: string;
  taxIncludedInPrices: boolean;
  priceSummary: OrderPriceSummary;
  balanceSummary: OrderBalanceSummary;
  billingInfo?: OrderJson;
  shippingInfo?: OrderJson;
  recipientInfo?: OrderJson;
  buyerNote?: string | null;
  archived: boolean;
  taxSummary?: OrderJson;
  appliedDiscounts?: OrderJson[];
  additionalFees?: OrderJson[];
  customFields?: OrderJson[];
  activities: OrderActivity[];
  channelInfo: { type: string; externalOrderId?: string | null; externalOrderUrl?: string | null };
  createdBy?: { userId?: string; memberId?: string; visitorId?: string; appId?: string };
  checkoutId?: string | null;
  seenByAHuman: boolean;
  tags: OrderTags;
  imported: boolean;
}

/** The order an owner creates or imports (prices as given; totals must add up). */
export interface OrderInput {
  lineItems: OrderLineItemInput[];
  buyerInfo?: OrderBuyerInfo;
  currency?: string;
  weightUnit?: WeightUnit;
  taxIncludedInPrices?: boolean;
  buyerLanguage?: string | null;
  priceSummary?: OrderPriceSummary;
  billingInfo?: OrderJson;
  shippingInfo?: OrderJson;
  recipientInfo?: OrderJson;
  buyerNote?: string | null;
  taxSummary?: OrderJson;
  appliedDiscounts?: OrderJson[];
  additionalFees?: OrderJson[];
  customFields?: OrderJson[];
  channelInfo?: { type: string; externalOrderId?: string | null; externalOrderUrl?: string | null };
  status?: OrderStatus;
  paymentStatus?: OrderPaymentStatus;
  fulfillmentStatus?: OrderFulfillmentStatus;
  purchasedDate?: IsoDate;
  number?: string;
  archived?: boolean;
  tags?: OrderTags;
  checkoutId?: string | null;
}

export interface OrderLineItemInput {
  id?: string;
  productName: { original: string; translated?: string | null };
  catalogReference?: OrderCatalogReference;
  quantity: number;
  price: OrderPrice;
  priceBeforeDiscounts?: OrderPrice;
  totalPriceBeforeTax?: OrderPrice;
  totalPriceAfterTax?: OrderPrice;
  totalDiscount?: OrderPrice;
  taxDetails?: OrderJson;
  descriptionLines?: OrderJson[];
  image?: string | null;
  physicalProperties?: { weight?: number | null; sku?: string | null; shippable?: boolean };
  itemType?: { preset?: string; custom?: string };
  paymentOption?: string;
  subscriptionInfo?: OrderJson | null;
  rootCatalogItemId?: string | null;
}

/** Fields an owner may change with updateOrder (the rest are derived or owned by other calls). */
export interface OrderPatch {
  id: string;
  buyerInfo?: OrderBuyerInfo;
  buyerNote?: string | null;
  buyerLanguage?: string | null;
  billingInfo?: OrderJson;
  shippingInfo?: OrderJson;
  recipientInfo?: OrderJson;
  customFields?: OrderJson[];
  archived?: boolean;
  seenByAHuman?: boolean;
  channelInfo?: { type: string; externalOrderId?: string | null; externalOrderUrl?: string | null };
}

export interface OrderLineItemPatch {
  id: string;
  productName?: { original: string; translated?: string | null };
  descriptionLines?: OrderJson[];
  image?: string | null;
  physicalProperties?: { weight?: number | null; sku?: string | null; shippable?: boolean };
  fulfillerId?: string | null;
}

export interface OrdersSearch { filter?: OrderJson | null; sort?: SortItem[]; cursorPaging?: { limit?: number; cursor?: string | null } }
export interface OrdersSearchResponse { orders: Order[]; metadata: { count: number; cursors: Cursors; hasNext: boolean } }

export interface OrderBulkResult { itemMetadata: BulkItemMetadata; item?: Order }
export interface OrdersBulkResponse { results: OrderBulkResult[]; bulkActionMetadata: BulkActionMetadata }

export type OrderAggregateKey = 'status' | 'paymentStatus' | 'fulfillmentStatus' | 'currency' | 'channelType' | 'day';
export interface OrderAggregation {
  /** Group keys; `day` is the UTC date of createdDate. */
  groupBy?: OrderAggregateKey[];
  /** Amounts to add up per group (in the group's currency; groups by currency when asked). */
  sum?: 'total'[];
}
export interface OrderAggregateGroup { key: Record<string, string>; count: number; sums: Record<string, string> }

/** Line item changes of an order edit (commit-deltas). */
export interface OrderLineItemDelta {
  lineItemId?: string;
  lineItemAdded?: boolean;
  lineItemRemoved?: boolean;
  changedDetails?: { quantity?: number; price?: OrderPrice };
  lineItem?: OrderLineItemInput;
}
export interface OrderDraftChanges {
  lineItems?: OrderLineItemDelta[];
  changedShippingInfo?: OrderJson;
  shippingInfoRemoved?: boolean;
  priceSummary?: OrderPriceSummary;
  appliedDiscounts?: OrderJson[];
  additionalFees?: OrderJson[];
  taxSummary?: OrderJson;
}

export interface FulfillmentLineItem { id: string; quantity: number }
export interface FulfillmentTrackingInfo { trackingNumber?: string | null; shippingProvider?: string | null; trackingLink?: string | null }
export interface Fulfillment {
  id: string;
  createdDate: IsoDate;
  lineItems: FulfillmentLineItem[];
  trackingInfo?: FulfillmentTrackingInfo;
  customInfo?: { fieldsData: Record<string, string> };
  status?: string | null;
  completed?: boolean | null;
}
export interface FulfillmentInput {
  lineItems?: FulfillmentLineItem[];
  trackingInfo?: FulfillmentTrackingInfo;
  customInfo?: { fieldsData: Record<string, string> };
  status?: string | null;
  completed?: boolean | null;
}
export interface OrderWithFulfillments { orderId: string; fulfillments: Fulfillment[] }

export interface OrdersSettings { inventoryUpdateTrigger: InventoryUpdateTrigger; createInvoice: boolean; createdDate?: IsoDate; updatedDate?: IsoDate }
export interface OrdersSettingsInput { inventoryUpdateTrigger?: InventoryUpdateTrigger; createInvoice?: boolean | null }
