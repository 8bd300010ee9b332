import type { BaseContext } from '../../http/context.js';
import { tooManyRequests } from '../../http/errors.js';
import { hashSecret } from './secrets.js';
import { hitRateLimit, purgeExpiredRows } from './store.js';

/**
 * Throttling (ASVS 6.3.1), counted in the database so every server process shares it. A limit holds
 * over any RATE_WINDOW_SECONDS, not per fixed window: the count is this window's hits plus the
 * previous window's weighted by the part of it the last RATE_WINDOW_SECONDS still cover. With fixed
 * windows alone, twice the limit passed across a window's edge (a burst at :14:59 and another at
 * :15:00). A limit is a temporary back-off, never a permanent lockout.
 */
export const RATE_WINDOW_SECONDS = 15 * 60;

export type ThrottledAction = 'login' | 'register' | 'verify' | 'recover' | 'send-email';

/** Attempts per window: per identifier (e-mail or state token) from one IP, and per IP overall. */
export const RATE_LIMITS: Record<ThrottledAction, { perIdentifierIp: number; perIp: number }> = {
  login: { perIdentifierIp: 10, perIp: 100 },
  register: { perIdentifierIp: 5, perIp: 50 },
  verify: { perIdentifierIp: 10, perIp: 100 },
  recover: { perIdentifierIp: 10, perIp: 50 },
  'send-email': { perIdentifierIp: 3, perIp: 20 },
};

/** About one throttled call in this many also deletes expired identity rows (no separate job needed). */
export const PURGE_EVERY_N_CALLS = 500;

/**
 * How long until the sliding count is back within `limit` (0: it is now): `hits` of the current
 * window, which ends in `leftMs`, plus `previousHits` weighted by leftMs / windowMs, the share of the
 * previous window the sliding window still covers (it shrinks as time passes).
 */
export function msUntilUnder(limit: number, hits: number, previousHits: number, leftMs: number, windowMs: number): number {
  if (hits + (previousHits * leftMs) / windowMs <= limit) return 0;
  // Over on this window's hits alone: they become the previous window's at its end, and their weight
  // falls to the limit W x (hits - limit) / hits later. Never more than a window: within any
  // RATE_WINDOW_SECONDS the attempts counted now leave the sliding window.
  if (hits > limit) return Math.min(windowMs, leftMs + (windowMs * (hits - limit)) / hits);
  // Over with the previous window's weighted hits: their weight falls to (limit - hits) / previousHits.
  return leftMs - ((limit - hits) * windowMs) / previousHits;
}

/** Counts one attempt and throws a 429 with Retry-After when either limit is passed. */
export async function throttle(ctx: BaseContext, siteId: string, action: ThrottledAction, identifier: string | undefined): Promise<void> {
  const now = Date.now();
  const windowMs = RATE_WINDOW_SECONDS * 1000;
  const windowStart = now - (now % windowMs);
  const limits = RATE_LIMITS[action];
  const buckets: { key: string; limit: number }[] = [{ key: `${siteId}:${action}:ip:${ctx.ip}`, limit: limits.perIp }];
  if (identifier) {
    // The identifier is hashed so the table holds no e-mail addresses.
    buckets.push({ key: `${siteId}:${action}:id:${hashSecret(identifier.toLowerCase())}:${ctx.ip}`, limit: limits.perIdentifierIp });
  }
  let retryAfter = 0;
  for (const bucket of buckets) {
    const { hits, previousHits, windowStart: start } = await hitRateLimit(ctx.db, bucket.key, windowStart, windowMs);
    const waitMs = msUntilUnder(bucket.limit, hits, previousHits, start + windowMs - now, windowMs);
    if (waitMs > 0) retryAfter = Math.max(retryAfter, Math.ceil(waitMs / 1000));
  }
  if (Math.random() * PURGE_EVERY_N_CALLS < 1) {
    await purgeExpiredRows(ctx.deps.storage.db, new Date(now).toISOString(), windowStart - windowMs).catch((err: unknown) => ctx.log.warn({ err }, 'identity purge failed'));
  }
  if (retryAfter > 0) throw tooManyRequests(Math.max(1, retryAfter));
}
