import type { BackInStockRequestStatus } from '@vitrine/types/ecom-aftercare';

/** A stored notification request. */
export interface StockRequest {
  id: string;
  siteId: string;
  appId: string;
  catalogItemId: string;
  /** `catalogReference.options.variantId`; null asks about any variant of the item. */
  variantId: string | null;
  options: Record<string, unknown> | null;
  email: string;
  contactId: string | null;
  status: BackInStockRequestStatus;
  autoNotified: boolean;
  /** What the mail shows: the name and price the requester's page gave, and the item's page. */
  item: { name: string | null; price: string | null; url: string | null };
  /** The server's origin when the request was made: the mail's fallback link. */
  linkOrigin: string;
  mailId: string | null;
  createdDate: string;
  updatedDate: string;
}

/** Entity name of back-in-stock request events. */
export const BACK_IN_STOCK_FQDN = 'wix.ecom.v1.back_in_stock_notification_request';

/** Template name of the notification mail in the outbox. */
export const BACK_IN_STOCK_TEMPLATE = 'back-in-stock';
