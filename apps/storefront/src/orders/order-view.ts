/**
 * What a shopper reads about an order or a paid checkout: statuses in words, a line's options, an
 * address on one line, the delivery method. Orders keep addresses and description lines as open
 * JSON (as the checkout gave them), so they are read by narrowing.
 */
import type { checkout as checkoutModule, orders } from '@vitrine/sdk/ecom';
import type { SummaryLine } from '../components/OrderSummary';
import { record, text } from '../json';

type Order = orders.Order;

const PAYMENT: Record<Order['paymentStatus'], string> = {
  UNSPECIFIED: 'Payment not started', NOT_PAID: 'Not paid', PAID: 'Paid', PARTIALLY_REFUNDED: 'Partly refunded',
  FULLY_REFUNDED: 'Refunded', PENDING: 'Payment pending', PARTIALLY_PAID: 'Partly paid', PENDING_MERCHANT: 'Payment awaiting the store',
  CANCELED: 'Payment canceled', DECLINED: 'Payment declined',
};
const FULFILLMENT: Record<Order['fulfillmentStatus'], string> = { NOT_FULFILLED: 'Not sent yet', PARTIALLY_FULFILLED: 'Partly sent', FULFILLED: 'Sent' };

export const paymentLabel = (order: Pick<Order, 'paymentStatus' | 'status'>): string => (order.status === 'CANCELED' ? 'Canceled' : PAYMENT[order.paymentStatus]);
export const fulfillmentLabel = (order: Pick<Order, 'fulfillmentStatus'>): string => FULFILLMENT[order.fulfillmentStatus];

/** `Size: M, Color: Black` from a line's description lines (cart, checkout or order). */
export function optionsText(lines: readonly unknown[] | undefined): string {
  return (lines ?? []).flatMap((line) => {
    const d = record(line);
    const name = text(d.name);
    const value = text(d.plainText) ?? text(d.colorInfo);
    return name && value ? [`${name}: ${value}`] : [];
  }).join(', ');
}

/** `Ada Shopper, 1 Roastery Lane, Lisbon, 1100-001, PT` from an address with contact details. */
export function addressText(withContact: unknown): string | undefined {
  const contact = record(record(withContact).contactDetails);
  const a = record(record(withContact).address);
  const street = record(a.streetAddress);
  const parts = [
    [contact.firstName, contact.lastName].filter((p) => typeof p === 'string' && p).join(' '),
    a.addressLine ?? [street.name, street.number].filter(Boolean).join(' '), a.addressLine2, a.city, a.postalCode, a.country,
  ].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Where the order goes and how: the chosen option's title with its delivery time or pickup address. */
export function delivery(order: Pick<Order, 'shippingInfo'>): { shipTo?: string; method?: string } {
  const info = record(order.shippingInfo);
  const logistics = record(info.logistics);
  const pickup = logistics.pickupDetails === undefined || logistics.pickupDetails === null ? undefined : addressText(logistics.pickupDetails);
  const detail = pickup ? `pick up at ${pickup}` : typeof logistics.deliveryTime === 'string' ? logistics.deliveryTime : undefined;
  const title = typeof info.title === 'string' ? info.title : undefined;
  return {
    shipTo: addressText(logistics.shippingDestination),
    method: title && detail ? `${title} (${detail})` : title,
  };
}

/** An order's lines for `SummaryLines` (unit prices: the subtotal is before discounts, so are they). */
export function orderLines(order: Order): SummaryLine[] {
  return order.lineItems.map((l) => ({ id: l._id, quantity: l.quantity, name: l.productName.original, options: optionsText(l.descriptionLines), price: l.price.formattedAmount }));
}

/** A paid checkout's lines, the same way. */
export function checkoutLines(checkout: checkoutModule.Checkout): SummaryLine[] {
  return checkout.lineItems.map((l) => ({ id: l._id, quantity: l.quantity, name: l.productName.original, options: optionsText(l.descriptionLines), price: l.price.formattedAmount }));
}
