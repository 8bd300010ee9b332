import type { Logger } from 'pino';
import type { AppDeps, Caller } from './context.js';
import type { RouteDef } from './route.js';
import { conflict, databaseUnavailableBody, DATABASE_RETRY_AFTER_SECONDS, forbidden, internalErrorBody, unauthenticated, WireError, type ErrorBody } from './errors.js';
import { assertCleanHeaderIdentifier } from './text-guard.js';
import { IdempotencyConflict } from '../storage/idempotency.js';
import { isDatabaseUnavailable } from '../storage/errors.js';
import { authenticate, type Authenticated } from '../domains/identity/service.js';
import { assertAccountMayCall, authenticateOwnerSession, OWNER_SESSION_PREFIX } from '../domains/owners/index.js';

/**
 * The steps of a route call that do not depend on how the request arrived: both front ends of the
 * HTTP layer (the Hono app, app.ts, and the direct lane for path-only reads, direct-lane.ts) call
 * these, so a caller is resolved, authorized and answered on error the same way on either.
 */

/** The site and caller of a request from its `Authorization` and `wix-site-id` headers. */
export async function resolveCaller(deps: AppDeps, authorizationHeader: string | undefined, siteIdHeader: string | undefined): Promise<Authenticated> {
  if (siteIdHeader !== undefined) assertCleanHeaderIdentifier('wix-site-id', siteIdHeader);
  // A dashboard session token (domains/owners) is an owner caller like an API key; the rest is identity's.
  const authorization = authorizationHeader?.trim();
  return authorization?.startsWith(OWNER_SESSION_PREFIX)
    ? authenticateOwnerSession(deps, authorization, siteIdHeader)
    : authenticate(deps, authorization, siteIdHeader);
}

/** Function-level authorization: throws 401/403 unless `caller` may call `def`. */
export function assertMayCall(def: RouteDef, site: unknown, caller: Caller): void {
  if (def.access === 'public') return;
  if (!site || caller.kind === 'anonymous') throw unauthenticated();
  if (def.access === 'member' && caller.kind !== 'member') throw forbidden('MEMBER_REQUIRED', 'This call needs a logged-in member');
  if (def.access === 'elevated' && caller.kind !== 'owner' && caller.kind !== 'app') {
    throw forbidden('ELEVATED_REQUIRED', 'This call needs an elevated caller (an API key of the site owner)');
  }
  // A staff account may call only the areas it was granted (owners/areas.ts).
  if (def.access === 'elevated' && caller.kind === 'owner' && caller.account) assertAccountMayCall(caller.account, def.path);
}

/** The client's address: the socket's peer, or behind a trusted proxy the first untrusted X-Forwarded-For hop. */
export function clientAddress(remote: string, forwardedFor: string | undefined, trustedProxies: string[]): string {
  if (!trustedProxies.includes(remote)) return remote;
  // Walk X-Forwarded-For from the right, skipping our own proxies; the first untrusted hop is the client.
  const hops = (forwardedFor ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.includes(hops[i]!)) return hops[i]!;
  return remote;
}

export interface ErrorAnswer { status: number; body: ErrorBody; headers?: Record<string, string> | undefined }

/** The wire answer for anything a route call threw; unexpected errors are logged, never sent. */
export function errorAnswer(thrown: unknown, requestId: string, log: Logger): ErrorAnswer {
  const err = thrown instanceof IdempotencyConflict ? conflict(thrown.code, thrown.message) : thrown;
  if (err instanceof WireError) return { status: err.status, body: err.body(), headers: err.headers };
  if (isDatabaseUnavailable(err)) {
    log.warn({ reqId: requestId, err }, 'database unavailable');
    return { status: 503, body: databaseUnavailableBody(requestId), headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } };
  }
  log.error({ reqId: requestId, err }, 'unhandled error');
  return { status: 500, body: internalErrorBody(requestId) };
}
