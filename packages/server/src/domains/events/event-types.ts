/**
 * The event types the server records today (entity fqdn + action slug), for owners choosing what a
 * webhook subscribes to. Keep in step with the domains' recordEvent calls: a new event type goes
 * here too (the events-event-types test records the common ones and checks they are listed).
 */
export interface EmittedEventType { entityFqdn: string; slug: string; description: string }

const each = (entityFqdn: string, what: string, slugs: readonly string[]): EmittedEventType[] =>
  slugs.map((slug) => ({ entityFqdn, slug, description: `${what} ${slug.replace(/_/g, ' ')}` }));

export const EMITTED_EVENT_TYPES: readonly EmittedEventType[] = [
  ...each('wix.stores.catalog.v1.product', 'Product (V1)', ['created', 'changed', 'variants_changed', 'deleted']),
  ...each('wix.stores.catalog.v1.collection', 'Collection', ['created', 'changed', 'deleted']),
  ...each('wix.stores.v2.inventory_item', 'Inventory item (V1)', ['updated']),
  ...each('wix.stores.catalog.v3.product', 'Product (V3)', ['created', 'updated', 'deleted']),
  ...each('wix.stores.inventory.v3.inventory_item', 'Inventory item (V3)', ['created', 'updated', 'deleted']),
  ...each('wix.stores.catalog.v3.ribbon', 'Ribbon', ['created', 'updated', 'deleted']),
  ...each('wix.stores.catalog.v3.brand', 'Brand', ['created', 'updated', 'deleted']),
  ...each('wix.stores.catalog.v3.info_section', 'Info section', ['created', 'updated', 'deleted']),
  ...each('wix.members.v1.member', 'Member', ['created', 'updated', 'deleted']),
  ...each('wix.data.v2.data_item', 'Data item', ['created', 'updated', 'deleted']),
  ...each('wix.ecom.v1.cart', 'Cart', ['created', 'updated', 'deleted']),
  ...each('wix.ecom.v1.checkout', 'Checkout', ['created', 'updated', 'completed']),
  ...each('wix.ecom.v1.checkout_settings', 'Checkout settings', ['updated']),
  ...each('wix.ecom.v1.abandoned_checkout', 'Abandoned checkout', ['created', 'updated', 'recovered', 'deleted']),
  ...each('wix.ecom.v1.back_in_stock_notification_request', 'Back-in-stock request', ['created', 'updated', 'deleted']),
  ...each('wix.ecom.discounts.v1.discount_rule', 'Discount rule', ['created', 'updated', 'deleted']),
  ...each('wix.billing.v1.tax_group', 'Tax group', ['created', 'updated', 'deleted']),
  ...each('wix.billing.v1.tax_region', 'Tax region', ['created', 'updated', 'deleted']),
  ...each('wix.ecom.v1.order', 'Order', [
    'created', 'approved', 'updated', 'payment_status_updated', 'fulfilled', 'canceled', 'committed', 'imported', 'imported_order_deleted',
  ]),
  ...each('wix.ecom.v1.fulfillments', 'Order fulfillments', ['updated']),
  ...each('wix.ecom.v1.orders_settings', 'Orders settings', ['updated']),
];
