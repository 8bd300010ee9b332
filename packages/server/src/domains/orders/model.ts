/**
 * The orders domain's types: the wire shapes it serves (from @vitrine/types) and what only the
 * server knows (the checkout's order draft, the payment view, the stored record).
 */
import type {
  Order, OrderActivity, OrderActivityType, OrderJson, OrderLineItem, OrderLineItemInput, OrderPaymentStatus, OrderPrice, OrderPriceSummary, OrderStatus,
} from '@vitrine/types';

export type {
  Fulfillment, FulfillmentInput, FulfillmentLineItem, InventoryUpdateTrigger, Order, OrderActivity, OrderActivityInput, OrderActivityType,
  OrderAggregateGroup, OrderAggregation, OrderBuyerInfo, OrderDraftChanges, OrderFulfillmentStatus, OrderInput, OrderJson, OrderLineItem,
  OrderLineItemDelta, OrderLineItemInput, OrderLineItemPatch, OrderPatch, OrderPaymentStatus, OrderPrice, OrderPriceSummary, OrdersSettings,
  OrdersSettingsInput, OrderStatus, OrderTags, OrderWithFulfillments,
} from '@vitrine/types';

/** The store catalog's app id: line items with it point at products of both catalog versions. */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** The variant of a product without options. */
export const DEFAULT_VARIANT_ID = '00000000-0000-0000-0000-000000000000';

/** Where an order's units stand in inventory. */
export type StockState = 'NONE' | 'RESERVED' | 'COMMITTED';

/** An order as stored: the wire document plus what the server tracks beside it. */
export interface OrderRecord {
  order: Order;
  stockState: StockState;
  revision: number;
}

/** One line of a checkout as it becomes an order line (amounts as decimal strings). */
export interface OrderDraftLineItem extends Omit<OrderLineItemInput, 'id'> {
  id: string;
  fullPrice?: OrderPrice;
  sku?: string | null;
}

/** The checkout as it becomes an order (createOrderFromCheckout). */
export interface OrderDraft {
  checkoutId: string;
  cartId?: string | null;
  currency: string;
  channelType?: string;
  buyerInfo: { visitorId?: string | null; memberId?: string | null; contactId?: string | null; email?: string | null };
  buyerLanguage?: string | null;
  weightUnit?: 'KG' | 'LB' | 'UNSPECIFIED_WEIGHT_UNIT';
  taxIncludedInPrices?: boolean;
  lineItems: OrderDraftLineItem[];
  billingInfo?: OrderJson;
  shippingInfo?: OrderJson;
  priceSummary: OrderPriceSummary & { additionalFees?: OrderPrice };
  appliedDiscounts?: OrderJson[];
  taxSummary?: OrderJson;
  additionalFees?: OrderJson[];
  customFields?: OrderJson[];
  buyerNote?: string | null;
}

/** What payments need of an order. */
export interface OrderPaymentView {
  id: string;
  number: string;
  currency: string;
  total: string;
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  /** The amount the order shows as paid (its balance summary). */
  paid: string;
  /** What the order charged for shipping, and its additional fees by id (a checkout's fees by code). */
  shipping: string;
  additionalFees: { id: string; price: string }[];
  buyer: { memberId: string | null; email: string | null };
  lineItems: { id: string; quantity: number; price: string; refundedQuantity?: number; subscription: boolean }[];
}

/** A payment change payments applies to an order, inside its own transaction. */
export interface OrderPaymentUpdate {
  paymentStatus: OrderPaymentStatus;
  activity?: { type: OrderActivityType | string; amount?: string; reason?: string; manual?: boolean };
  /** The order has just become paid (approve it, commit stock when the trigger is ON_ORDER_PAID). */
  becamePaid?: boolean;
  /** Amount paid so far (balance summary), when payments knows it. */
  paidAmount?: string;
  refund?: { amount: string; restock?: { lineItemId: string; quantity: number }[] };
}

export type { OrderActivity as Activity, OrderLineItem as LineItem };
