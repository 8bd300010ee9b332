import type { AbandonedCheckoutContactDetails, AbandonedCheckoutLineItem, AbandonedCheckoutActivity } from '@vitrine/types/ecom-aftercare';

/**
 * Where a reported checkout stands. ACTIVE: the buyer is at it. ABANDONED: idle past the site's idle
 * time. RECOVERED: completed after being abandoned. COMPLETED: completed in time (internal; never on the
 * wire). Only ABANDONED and RECOVERED rows are abandoned checkouts for the API.
 */
export type TrackingStatus = 'ACTIVE' | 'ABANDONED' | 'RECOVERED' | 'COMPLETED';

/** Optional details of a checkout the cart domain may add to its report; shown on the abandoned checkout. */
export interface CheckoutDetails {
  subtotal?: { amount: string };
  buyerLanguage?: string | null;
  contactDetails?: AbandonedCheckoutContactDetails;
  lineItems?: AbandonedCheckoutLineItem[];
  /**
   * The checkout's own page address (with whatever access token the cart domain puts in it). The
   * abandoned checkout's `checkoutUrl` and recovery link lead there; without it, to the plain hosted
   * checkout page of the checkout id.
   */
  checkoutUrl?: string;
}

/** What the cart domain reports on every checkout create and update (inside its transaction). */
export interface CheckoutSnapshot {
  checkoutId: string;
  cartId: string | null;
  buyer: { email?: string | null; memberId?: string | null; visitorId?: string | null; contactId?: string | null };
  /** The checkout total, a decimal string, in `currency`. */
  total: { amount: string; currency: string };
  lineItemCount: number;
  details?: CheckoutDetails;
}

export interface TrackedCheckout {
  id: string;
  siteId: string;
  checkoutId: string;
  cartId: string | null;
  status: TrackingStatus;
  buyer: { email: string | null; memberId: string | null; visitorId: string | null; contactId: string | null };
  currency: string;
  totalAmount: string;
  lineItemCount: number;
  details: CheckoutDetails | null;
  activities: AbandonedCheckoutActivity[];
  lastActivityDate: string;
  abandonedDate: string | null;
  recoveredDate: string | null;
  createdDate: string;
  updatedDate: string;
}

/** Entity name of abandoned-checkout events. */
export const ABANDONED_CHECKOUT_FQDN = 'wix.ecom.v1.abandoned_checkout';
