import type { BackInStockNotificationRequest, BackInStockRequestResponse, QueryBackInStockNotificationRequestsResponse } from '@vitrine/types/ecom-aftercare';
import type { OffsetPagingMetadata } from '@vitrine/types';
import type { StockRequest } from './model.js';

/** A request as the owner (and the requester, for their own new request) sees it; events carry the same. */
export function presentRequest(r: StockRequest): BackInStockNotificationRequest {
  return {
    id: r.id,
    catalogReference: { catalogItemId: r.catalogItemId, appId: r.appId, ...(r.options ? { options: r.options } : {}) },
    email: r.email,
    contactId: r.contactId,
    status: r.status,
    autoNotified: r.autoNotified,
    createdDate: r.createdDate,
    itemUrl: r.item.url,
  };
}

export function requestAnswer(r: StockRequest): BackInStockRequestResponse {
  return { request: presentRequest(r) };
}

export function requestsAnswer(page: { rows: StockRequest[]; metadata: OffsetPagingMetadata }): QueryBackInStockNotificationRequestsResponse {
  return { requests: page.rows.map(presentRequest), metadata: page.metadata };
}
