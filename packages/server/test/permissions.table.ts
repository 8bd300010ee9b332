import type { Access } from '../src/http/route.js';

/**
 * Who may call each route (SECURITY.md, ASVS 8.2.1): `METHOD path` -> access. The suite fails when a
 * declared route is missing here or declares a different access, so this table stays the reviewed
 * source of truth for function-level authorization. Keep it sorted by path within each domain.
 */
export const ROUTE_ACCESS: Record<string, Access> = {
  // system
  'GET /healthz': 'public',
  'GET /openapi.json': 'public',
  'GET /docs': 'public',

  // identity
  'POST /oauth2/token': 'public',
  'GET /oauth2/jwks': 'public',

  // catalog
  'GET /media/:mediaId/:fileName': 'public',
  'POST /stores/v1/products': 'elevated',
  'GET /stores-reader/v1/products/:id': 'visitor',
  'GET /stores-reader/v1/products/query-platformized': 'visitor',
  'POST /stores-reader/v1/products/query-platformized': 'visitor',

  // events (webhooks and notifications)
  'GET /notifications/v1/mails': 'elevated',
  'GET /webhooks/v1/deliveries/:id': 'elevated',
  'POST /webhooks/v1/deliveries/:id/redeliver': 'elevated',
  'GET /webhooks/v1/subscriptions': 'elevated',
  'POST /webhooks/v1/subscriptions': 'elevated',
  'GET /webhooks/v1/subscriptions/:id': 'elevated',
  'PATCH /webhooks/v1/subscriptions/:id': 'elevated',
  'DELETE /webhooks/v1/subscriptions/:id': 'elevated',
  'GET /webhooks/v1/subscriptions/:id/deliveries': 'elevated',
};
