import type { AbandonedCheckout } from '@vitrine/types/ecom-aftercare';
import type { TrackedCheckout } from './model.js';

/** The hosted checkout page of a checkout, where a returning buyer continues (served by the cart domain). */
export function hostedCheckoutUrl(origin: string, checkoutId: string): string {
  return `${origin}/_hosted/checkout?checkoutId=${encodeURIComponent(checkoutId)}`;
}

/** An ABANDONED or RECOVERED row as the wire shows it (owners; events carry the same). */
export function presentAbandonedCheckout(row: TrackedCheckout, origin: string): AbandonedCheckout {
  const d = row.details ?? {};
  const buyer = row.buyer;
  return {
    id: row.id,
    createdDate: row.abandonedDate ?? row.createdDate,
    updatedDate: row.updatedDate,
    checkoutId: row.checkoutId,
    cartId: row.cartId,
    status: row.status === 'RECOVERED' ? 'RECOVERED' : 'ABANDONED',
    ...(d.buyerLanguage !== undefined ? { buyerLanguage: d.buyerLanguage } : {}),
    buyerInfo: {
      ...(buyer.memberId ? { memberId: buyer.memberId } : buyer.visitorId ? { visitorId: buyer.visitorId } : {}),
      contactId: buyer.contactId,
      email: buyer.email,
    },
    ...(d.contactDetails ? { contactDetails: d.contactDetails } : {}),
    currency: row.currency,
    totalPrice: { amount: row.totalAmount },
    ...(d.subtotal ? { subtotalPrice: { amount: d.subtotal.amount } } : {}),
    activities: row.activities,
    checkoutRecoveredDate: row.recoveredDate,
    checkoutUrl: hostedCheckoutUrl(origin, row.checkoutId),
    lineItems: d.lineItems ?? [],
  };
}
