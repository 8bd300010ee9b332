/**
 * After-checkout care of the ecom module: abandoned checkouts (checkouts left idle, their recovery and
 * analytics) and back-in-stock notification requests. Names carry their module's prefix so they never
 * clash with the cart and checkout shapes of other files.
 */
import type { BulkActionMetadata, BulkItemMetadata, Cursors, IsoDate, OffsetPagingMetadata, SortItem } from './common.js';

/** A money amount as ecom sends it: a decimal string, optionally formatted for display. */
export interface AftercarePrice { amount: string; convertedAmount?: string; formattedAmount?: string; formattedConvertedAmount?: string }

/** Which catalog item a line or request points at (store catalog items use the stores app id). */
export interface AftercareCatalogReference { catalogItemId: string; appId: string; options?: Record<string, unknown> | null }

export interface AftercareImage { id: string; url?: string; height?: number; width?: number; altText?: string | null }

// ---------------------------------------------------------------------------------------------
// Abandoned checkouts
// ---------------------------------------------------------------------------------------------

export type AbandonedCheckoutStatus = 'ABANDONED' | 'RECOVERED';
export type AbandonedCheckoutActivityType = 'SCHEDULED' | 'EMAIL_SENT' | 'EMAIL_NOT_SENT' | 'NOTIFICATION_SENT' | 'TASK_CREATED' | 'AUTOMATION_SKIPPED';
export type AbandonedCheckoutMetric =
  | 'RECOVERABLE_VALUE' | 'RECOVERABLE_CHECKOUT_COUNT' | 'AVERAGE_RECOVERABLE_CHECKOUT_VALUE'
  | 'RECOVERED_VALUE' | 'RECOVERED_CHECKOUT_COUNT' | 'RECOVERY_RATE';

export interface AbandonedCheckoutBuyerInfo { visitorId?: string; memberId?: string; contactId?: string | null; email?: string | null }
export interface AbandonedCheckoutContactDetails { firstName?: string | null; lastName?: string | null; phone?: string | null; company?: string | null }
export interface AbandonedCheckoutActivity { createdDate: IsoDate; type: AbandonedCheckoutActivityType }

export interface AbandonedCheckoutLineItem {
  id?: string | null;
  quantity: number;
  catalogReference?: AftercareCatalogReference;
  productName?: { original: string; translated?: string | null };
  price?: AftercarePrice;
  priceBeforeDiscounts?: AftercarePrice;
  image?: AftercareImage;
}

/** A checkout its buyer left idle past the site's idle time; RECOVERED once it was completed after that. */
export interface AbandonedCheckout {
  id: string;
  /** When the checkout became abandoned. */
  createdDate: IsoDate;
  updatedDate: IsoDate;
  checkoutId: string;
  cartId: string | null;
  status: AbandonedCheckoutStatus;
  buyerLanguage?: string | null;
  buyerInfo: AbandonedCheckoutBuyerInfo;
  contactDetails?: AbandonedCheckoutContactDetails;
  currency: string;
  totalPrice: AftercarePrice;
  subtotalPrice?: AftercarePrice;
  activities: AbandonedCheckoutActivity[];
  checkoutRecoveredDate: IsoDate | null;
  /** Where the buyer continues: the hosted checkout page of the checkout. */
  checkoutUrl: string;
  lineItems: AbandonedCheckoutLineItem[];
}

export interface AbandonedCheckoutIdRequest { abandonedCheckoutId: string }
export interface GetAbandonedCheckoutResponse { abandonedCheckout: AbandonedCheckout }
export interface AddAbandonedCheckoutActivityRequest { abandonedCheckoutId: string; activityType: AbandonedCheckoutActivityType }
export interface AddAbandonedCheckoutActivityResponse { abandonedCheckout: AbandonedCheckout }
export interface BulkDeleteAbandonedCheckoutsRequest { abandonedCheckoutIds: string[] }
export interface BulkDeleteAbandonedCheckoutsResponse { results: { itemMetadata: BulkItemMetadata }[]; bulkActionMetadata: BulkActionMetadata }

export interface AftercarePaging { limit?: number | null; offset?: number | null }
export interface AftercareCursorPaging { limit?: number | null; cursor?: string | null }

/** A query of the platform's query language: filter tree, sort, offset or cursor paging. */
export interface AftercareQuery {
  filter?: Record<string, unknown> | null;
  sort?: SortItem[];
  paging?: AftercarePaging;
  cursorPaging?: AftercareCursorPaging;
}
export interface QueryAbandonedCheckoutsRequest { query: AftercareQuery }
export interface QueryAbandonedCheckoutsResponse { abandonedCheckouts: AbandonedCheckout[]; results: AbandonedCheckout[]; metadata: OffsetPagingMetadata }

export type AbandonedCheckoutSearchField = 'buyerInfo.email' | 'contactDetails.firstName' | 'contactDetails.lastName';
/** A query plus free-text search over the buyer's e-mail and name. */
export interface AbandonedCheckoutSearch extends AftercareQuery {
  search?: { expression?: string | null; fields?: AbandonedCheckoutSearchField[]; mode?: 'OR' | 'AND'; fuzzy?: boolean };
}
export interface SearchAbandonedCheckoutsRequest { search?: AbandonedCheckoutSearch }
export interface SearchAbandonedCheckoutsResponse {
  abandonedCheckouts: AbandonedCheckout[];
  pagingMetadata: { count: number; offset?: number; total?: number; tooManyToCount?: boolean; cursors?: Cursors };
}

export interface GetAbandonedCheckoutAnalyticsRequest {
  startDate: IsoDate;
  endDate: IsoDate;
  metrics?: AbandonedCheckoutMetric[];
  statuses?: AbandonedCheckoutStatus[];
}
/** Amounts are decimal strings in the site currency; a metric not asked for is left out. */
export interface GetAbandonedCheckoutAnalyticsResponse {
  currency: string;
  recoverableValue?: string;
  recoverableCheckoutCount?: number;
  averageRecoverableCheckoutValue?: string;
  recoveredValue?: string;
  recoveredCheckoutCount?: number;
  /** Recovered / (recoverable + recovered) checkouts of the range, 0..1. */
  recoveryRate?: number;
}

export interface RedirectToCheckoutRequest { abandonedCheckoutId: string; metasiteId: string }
/** The redirect as data, for API clients: the body (base64), the status a browser gets, and its headers. */
export interface RedirectToCheckoutResponse { body: string; statusCode: number; headers: { key: string; value: string }[] }

// ---------------------------------------------------------------------------------------------
// Back-in-stock notification requests
// ---------------------------------------------------------------------------------------------

export type BackInStockRequestStatus = 'RECEIVED' | 'PROCESSING' | 'NOTIFICATION_SENT' | 'FAILED';

/** A visitor's or member's wish to be e-mailed when an out-of-stock variant is back. */
export interface BackInStockNotificationRequest {
  id: string;
  catalogReference: AftercareCatalogReference;
  email: string;
  contactId?: string | null;
  status: BackInStockRequestStatus;
  /** Whether the request is e-mailed automatically when stock returns. */
  autoNotified: boolean;
  createdDate: IsoDate;
  /** Page of the item, linked from the e-mail. */
  itemUrl?: string | null;
}

/** What the e-mail shows about the item. */
export interface BackInStockItemDetails { name?: string; price?: string; image?: AftercareImage }

export interface CreateBackInStockNotificationRequestRequest {
  request: { catalogReference: AftercareCatalogReference; email: string; itemUrl?: string | null };
  itemDetails: BackInStockItemDetails;
}
export interface BackInStockRequestResponse { request: BackInStockNotificationRequest }
export interface BackInStockRequestIdRequest { id: string }
export interface QueryBackInStockNotificationRequestsRequest { query?: AftercareQuery }
export interface QueryBackInStockNotificationRequestsResponse { requests: BackInStockNotificationRequest[]; metadata: OffsetPagingMetadata }
export interface CountBackInStockRequestsByCatalogReferencesRequest { catalogReferences: AftercareCatalogReference[] }
export interface CountBackInStockRequestsByCatalogReferencesResponse {
  countsPerCatalogReference: { catalogReference: AftercareCatalogReference; count: number }[];
}
export interface ReportItemsBackInStockRequest {
  catalogReference?: AftercareCatalogReference;
  requestIds?: string[];
  itemDetails: BackInStockItemDetails;
  extraAutomationTemplateParameters?: Record<string, string>;
}
