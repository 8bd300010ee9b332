import type { OffsetPagingMetadata } from '@vitrine/types';
import type {
  AbandonedCheckout, QueryAbandonedCheckoutsResponse, RedirectToCheckoutResponse, SearchAbandonedCheckoutsResponse,
} from '@vitrine/types/ecom-aftercare';
import type { TrackedCheckout } from './model.js';

/** Longest checkout page address kept from a report. */
export const CHECKOUT_URL_MAX = 2_000;

/**
 * Where a returning buyer continues: the page address the cart domain reported, else the hosted
 * checkout page of the checkout id (served by the cart domain).
 */
export function checkoutUrlOf(row: TrackedCheckout, origin: string): string {
  const reported = row.details?.checkoutUrl;
  if (reported && reported.length <= CHECKOUT_URL_MAX && /^https?:\/\//.test(reported)) return reported;
  return `${origin}/_hosted/checkout?checkoutId=${encodeURIComponent(row.checkoutId)}`;
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
    checkoutUrl: checkoutUrlOf(row, origin),
    lineItems: d.lineItems ?? [],
  };
}

export function abandonedCheckoutAnswer(row: TrackedCheckout, origin: string): { abandonedCheckout: AbandonedCheckout } {
  return { abandonedCheckout: presentAbandonedCheckout(row, origin) };
}

interface Page { rows: TrackedCheckout[]; metadata: OffsetPagingMetadata }

/** The query answer names the list twice (`abandonedCheckouts` and `results`), as the contract does. */
export function queryAnswer(page: Page, origin: string): QueryAbandonedCheckoutsResponse {
  const list = page.rows.map((r) => presentAbandonedCheckout(r, origin));
  return { abandonedCheckouts: list, results: list, metadata: page.metadata };
}

export function searchAnswer(page: Page, origin: string): SearchAbandonedCheckoutsResponse {
  return { abandonedCheckouts: page.rows.map((r) => presentAbandonedCheckout(r, origin)), pagingMetadata: page.metadata };
}

/**
 * A browser (asking for HTML) is sent on with a 302. An API client (the public client's
 * redirectToCheckout) gets the same redirect as data with a 200, since it treats any other status as
 * an error: status, headers, and the (empty) body in base64.
 */
export function redirectAnswer(url: string, request: Request): Response {
  if ((request.headers.get('accept') ?? '').includes('text/html')) {
    return new Response(null, { status: 302, headers: { location: url, 'cache-control': 'no-store' } });
  }
  const answer: RedirectToCheckoutResponse = { body: '', statusCode: 302, headers: [{ key: 'Location', value: url }] };
  return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
