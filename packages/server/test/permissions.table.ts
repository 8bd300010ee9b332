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

  // members (domains/members; docs/members.md)
  'GET /members/v1/members': 'visitor',
  'POST /members/v1/members': 'elevated',
  'POST /members/v1/members/bulk/approve-by-filter': 'elevated',
  'POST /members/v1/members/bulk/block-by-filter': 'elevated',
  'POST /members/v1/members/bulk/delete': 'elevated',
  'POST /members/v1/members/bulk/delete-by-filter': 'elevated',
  'GET /members/v1/members/bulk/jobs/:jobId': 'elevated',
  'POST /members/v1/members/join-community': 'member',
  'POST /members/v1/members/leave-community': 'member',
  'GET /members/v1/members/my': 'member',
  'DELETE /members/v1/members/my': 'member',
  'POST /members/v1/members/my/slug': 'member',
  'POST /members/v1/members/query': 'visitor',
  'GET /members/v1/members/:id': 'visitor',
  'PATCH /members/v1/members/:memberId': 'visitor',
  'DELETE /members/v1/members/:id': 'elevated',
  'DELETE /members/v1/members/:id/addresses': 'elevated',
  'POST /members/v1/members/:id/approve': 'elevated',
  'POST /members/v1/members/:id/block': 'elevated',
  'POST /members/v1/members/:id/disconnect': 'elevated',
  'DELETE /members/v1/members/:id/emails': 'elevated',
  'POST /members/v1/members/:id/mute': 'elevated',
  'DELETE /members/v1/members/:id/phones': 'elevated',
  'POST /members/v1/members/:id/slug': 'elevated',
  'POST /members/v1/members/:id/unmute': 'elevated',
  'GET /members/v1/reports': 'elevated',
  'POST /members/v1/reports': 'member',
  'POST /members/v1/reports/:id/resolve': 'elevated',
  'POST /members/v2/abouts': 'visitor',
  'GET /members/v2/abouts/my': 'member',
  'POST /members/v2/abouts/query': 'visitor',
  'GET /members/v2/abouts/:id': 'visitor',
  'PATCH /members/v2/abouts/:memberAboutId': 'visitor',
  'DELETE /members/v2/abouts/:id': 'visitor',
};
