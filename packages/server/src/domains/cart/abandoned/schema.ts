import { z } from 'zod';
import type {
  AbandonedCheckoutIdRequest, AddAbandonedCheckoutActivityRequest, BulkDeleteAbandonedCheckoutsRequest, QueryAbandonedCheckoutsRequest,
  RedirectToCheckoutRequest, SearchAbandonedCheckoutsRequest,
} from '@vitrine/types/ecom-aftercare';
import { conforms } from '../../../http/conforms.js';
import { identifier, wireDate } from '../../../http/wire-schemas.js';
import { aftercareQueryInput } from './paging.js';
import { ABANDONED_LIMITS } from './service.js';

const id = identifier(100, 1);

export const ACTIVITY_TYPES = ['SCHEDULED', 'EMAIL_SENT', 'EMAIL_NOT_SENT', 'NOTIFICATION_SENT', 'TASK_CREATED', 'AUTOMATION_SKIPPED'] as const;
export const METRICS = [
  'RECOVERABLE_VALUE', 'RECOVERABLE_CHECKOUT_COUNT', 'AVERAGE_RECOVERABLE_CHECKOUT_VALUE', 'RECOVERED_VALUE', 'RECOVERED_CHECKOUT_COUNT', 'RECOVERY_RATE',
] as const;
const STATUSES = ['ABANDONED', 'RECOVERED'] as const;
const SEARCH_FIELDS = ['buyerInfo.email', 'contactDetails.firstName', 'contactDetails.lastName'] as const;

export const abandonedCheckoutIdRequest = conforms<AbandonedCheckoutIdRequest>()(z.object({ abandonedCheckoutId: id }));

export const addActivityRequest = conforms<AddAbandonedCheckoutActivityRequest>()(z.object({
  abandonedCheckoutId: id,
  activityType: z.enum(ACTIVITY_TYPES),
}));

export const bulkDeleteRequest = conforms<BulkDeleteAbandonedCheckoutsRequest>()(z.object({
  abandonedCheckoutIds: z.array(id).min(1).max(ABANDONED_LIMITS.bulkDeleteMax),
}));

export const queryRequest = conforms<QueryAbandonedCheckoutsRequest>()(z.object({ query: aftercareQueryInput }));

export const searchRequest = conforms<SearchAbandonedCheckoutsRequest>()(z.object({
  search: aftercareQueryInput.extend({
    search: z.object({
      expression: z.string().max(ABANDONED_LIMITS.searchExpressionMax).nullish(),
      fields: z.array(z.enum(SEARCH_FIELDS)).max(SEARCH_FIELDS.length).optional(),
      mode: z.enum(['OR', 'AND']).optional(),
      fuzzy: z.boolean().optional(),
    }).optional(),
  }).optional(),
}));

/** Dates arrive as ISO text; decoded to Dates (not tied to the wire type, which says text). */
export const analyticsRequest = z.object({
  startDate: wireDate,
  endDate: wireDate,
  metrics: z.array(z.enum(METRICS)).max(METRICS.length).optional(),
  statuses: z.array(z.enum(STATUSES)).max(STATUSES.length).optional(),
});

export const redirectRequest = conforms<RedirectToCheckoutRequest>()(z.object({ abandonedCheckoutId: id, metasiteId: id }));
